"""Engine commands warn (stderr, file:line) about configuration objects the API server would reject,
and still answer: other objects are unaffected and stdout stays machine-readable."""

from __future__ import annotations

import json

import pytest

from tests.helpers import ROOT, run_cli, run_subprocess

BAD_CQ = """\
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: bad}
spec:
  namespaceSelector: {}
  resourceGroups:
  - coveredResources: [cpu]
    flavors:
    - name: default
      resources:
      - name: cpu
        nominalQuota: lots
"""
FLAVOR = "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata: {name: default}\n"


@pytest.fixture()
def snapshot_with_bad_cq(tmp_path):
    (tmp_path / "bad.yaml").write_text(BAD_CQ)
    return tmp_path


@pytest.mark.parametrize("command", [["schedule"], ["shares"], ["explain", "--all"]])
def test_invalid_config_is_a_warning_with_its_position(snapshot_with_bad_cq, command):
    bad = snapshot_with_bad_cq / "bad.yaml"
    r = run_cli(*command, "-f", ROOT / "fixtures" / "cluster", "-f", bad, "--output", "json")
    assert r.exit_code == 0
    json.loads(r.stdout)  # stdout is still one JSON document
    lines = [ln for ln in r.stderr.splitlines() if ln]
    assert lines == [f"{bad}:12:23: warning KQ008 invalid quantity: 'lots' is not a quantity (expected a number "
                     "with an optional suffix, e.g. 500m, 2Gi, 1e3) (the API server rejects ClusterQueue/bad; "
                     "simulated as far as it can be read)"]


def test_clean_snapshot_has_no_warnings():
    r = run_cli("schedule", "-f", ROOT / "fixtures" / "cluster", "--output", "json")
    assert r.exit_code == 0 and r.stderr == ""


def test_many_problems_are_capped_with_a_count(tmp_path):
    docs = "\n---\n".join([FLAVOR] + [BAD_CQ.replace("name: bad", f"name: bad-{i}") for i in range(12)])
    (tmp_path / "many.yaml").write_text(docs)
    r = run_subprocess("schedule", "-f", tmp_path / "many.yaml")
    assert r.returncode == 0, r.stderr
    lines = r.stderr.splitlines()
    assert len(lines) == 11
    assert lines[-1] == "quotactl: warning: 2 more invalid field(s); run 'quotactl lint' on the input for all of them"
    assert "Traceback" not in r.stderr
