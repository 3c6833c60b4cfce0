"""apiVersions against --kueue-version: KQ013 per v1beta1 object once v1beta1 is unserved (v0.20),
KQ012 once per file while it is served but deprecated, KQ010 for v1beta2 before v0.15."""

from quotactl.lint.context import LintOptions
from quotactl.lint.runner import lint_paths

TWO_V1BETA1 = """\
apiVersion: kueue.x-k8s.io/v1beta1
kind: ResourceFlavor
metadata: {name: default}
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata: {name: cq}
spec:
  namespaceSelector: {}
  resourceGroups:
  - coveredResources: [cpu]
    flavors:
    - name: default
      resources: [{name: cpu, nominalQuota: 4}]
"""


def _codes(tmp_path, text, release):
    f = tmp_path / "queues.yaml"
    f.write_text(text)
    report = lint_paths([str(f)], LintOptions(kueue_version=release))
    return [d for d in report.diagnostics if d.code in ("KQ010", "KQ012", "KQ013")], f


def test_unserved_v1beta1_warns_per_object_with_the_convert_hint(tmp_path):
    diags, f = _codes(tmp_path, TWO_V1BETA1, "v0.20")
    assert [(d.code, d.severity.value, d.line) for d in diags] == [("KQ013", "warning", 1), ("KQ013", "warning", 5)]
    assert diags[1].object == "ClusterQueue/cq" and diags[1].field == "apiVersion"
    assert diags[0].hint == f"quotactl convert --to v1beta2 {f}"
    assert "not served by Kueue v0.20" in diags[0].message


def test_deprecated_v1beta1_is_one_info_per_file(tmp_path):
    diags, _ = _codes(tmp_path, TWO_V1BETA1, "v0.19")
    assert [(d.code, d.severity.value) for d in diags] == [("KQ012", "info")]
    assert diags[0].message.startswith("2 objects in this file use the deprecated kueue.x-k8s.io/v1beta1")


def test_v1beta1_before_deprecation_is_silent(tmp_path):
    diags, _ = _codes(tmp_path, TWO_V1BETA1, "v0.15")
    assert diags == []


def test_v1beta2_before_v0_15_is_not_served(tmp_path):
    diags, _ = _codes(tmp_path, TWO_V1BETA1.replace("v1beta1", "v1beta2").replace("cohort", "cohortName"), "v0.14")
    assert [(d.code, d.severity.value) for d in diags] == [("KQ010", "error"), ("KQ010", "error")]
    assert "(served: kueue.x-k8s.io/v1beta1)" in diags[0].message
