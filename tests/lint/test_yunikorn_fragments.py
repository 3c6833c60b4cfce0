"""YuniKorn configs written without their envelope: a ConfigMap's data alone, the Helm chart's
yunikornDefaults values, and one part of a partition (linted as such with --no-cross-refs)."""

from __future__ import annotations

from tests.helpers import run_subprocess
from tests.lint.util import by_code, lint_text

DATA_ONLY = """
service.policyGroup: group_b
group_b.yaml: |
  partitions:
    - name: default
      queues:
        - name: root
          submitacl: '*'
          resources:
            max: {vcore: 1}
"""

HELM_VALUES = """
image: {repository: apache/yunikorn}
yunikornDefaults:
  queues.yaml: |
    partitions:
      - name: default
        queues:
          - name: root
            adminacl: "a b c"
"""

PLACEMENT_ONLY = """
placementrules:
  - name: fixed
    value: root.production
"""


def test_configmap_data_alone_is_linted_with_its_policy_group(tmp_path):
    diags = lint_text(tmp_path, DATA_ONLY)
    root_resources = by_code(diags, "YK103")
    assert len(root_resources) == 1 and root_resources[0].line == 9


def test_helm_values_are_the_yunikorn_defaults_data(tmp_path):
    diags = lint_text(tmp_path, HELM_VALUES)
    assert [d.code for d in diags if d.severity == "error"] == ["YK105"]


def test_partition_fragment_is_an_error_as_a_whole_config(tmp_path):
    diags = lint_text(tmp_path, PLACEMENT_ONLY)
    assert {"YK011", "YK102", "YK125"} <= {d.code for d in diags}


def test_partition_fragment_with_no_cross_refs_keeps_only_its_own_problems(tmp_path):
    assert [d.code for d in lint_text(tmp_path, PLACEMENT_ONLY, cross_refs=False) if d.severity == "error"] == []
    broken = PLACEMENT_ONLY + "    create: maybe\n"
    assert "YK003" in {d.code for d in lint_text(tmp_path, broken, cross_refs=False)}


def test_partition_fragment_keeps_its_own_name(tmp_path):
    diags = lint_text(tmp_path, "name: gpu\n" + PLACEMENT_ONLY, cross_refs=False)
    assert [d.code for d in diags if d.severity == "error"] == []


def test_fragment_switch_end_to_end(tmp_path):
    f = tmp_path / "rules.yaml"
    f.write_text(PLACEMENT_ONLY)
    whole = run_subprocess("lint", f)
    assert whole.returncode == 1 and "YK011" in whole.stdout and "--no-cross-refs" in whole.stdout
    part = run_subprocess("lint", "--no-cross-refs", f)
    assert part.returncode == 0, part.stdout
