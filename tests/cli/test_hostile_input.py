"""Hostile input never produces a traceback: a one-line diagnostic, exit 2, and other files still checked."""

import json

import pytest

from tests.helpers import FIXTURES, run_subprocess


def _lint(*paths, env=None):
    proc = run_subprocess("lint", *paths, "--output", "json", timeout=60, env=env)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc.returncode, json.loads(proc.stdout)


def _codes(doc):
    return {d["code"] for d in doc["diagnostics"]}


def test_alias_bomb(tmp_path):
    lines = ["a: &a [lol,lol,lol,lol,lol,lol,lol,lol,lol,lol]"]
    for i in range(1, 12):
        prev, cur = chr(ord("a") + i - 1), chr(ord("a") + i)
        lines.append(f"{cur}: &{cur} [" + ",".join([f"*{prev}"] * 10) + "]")
    (tmp_path / "bomb.yaml").write_text("\n".join(lines) + "\n")
    rc, doc = _lint(tmp_path / "bomb.yaml", FIXTURES / "cluster" / "flavors.yaml")
    assert rc == 2 and "IN007" in _codes(doc)
    assert doc["summary"]["objects"] == 3  # the other file was still loaded


def test_file_size_cap_only_when_given(tmp_path):
    big = tmp_path / "big.yaml"
    big.write_text("apiVersion: v1\nkind: Namespace\nmetadata: {name: big}\n" + "# padding\n" * 300)
    rc, doc = _lint(big, "--max-file-size", "1KiB")
    assert rc == 2 and _codes(doc) == {"IN004"}
    assert "--max-file-size" in doc["diagnostics"][0]["message"]
    rc, doc = _lint(big)  # no cap by default
    assert rc == 0 and doc["summary"]["objects"] == 1


def test_thirty_thousand_open_brackets_do_not_crash(tmp_path):
    """libyaml's composer recurses per level: the depth is bounded before it runs."""
    (tmp_path / "deep.yaml").write_text("a: " + "[" * 30000 + "]" * 30000 + "\n")
    rc, doc = _lint(tmp_path / "deep.yaml")
    assert rc == 2 and _codes(doc) == {"IN006"}


def test_binary_file(tmp_path):
    (tmp_path / "blob.yaml").write_bytes(bytes(range(256)) * 64)
    rc, doc = _lint(tmp_path / "blob.yaml")
    assert rc == 2 and _codes(doc) == {"IN005"}


def test_not_utf8(tmp_path):
    (tmp_path / "latin1.yaml").write_bytes("metadata: {name: caf\xe9}\n".encode("latin-1"))
    rc, doc = _lint(tmp_path / "latin1.yaml")
    assert rc == 2 and _codes(doc) == {"IN005"}


@pytest.mark.parametrize("shape", ["list", "map"])
def test_ten_thousand_deep_nesting(tmp_path, shape):
    if shape == "list":
        text = "a: " + "[" * 10000 + "]" * 10000 + "\n"
    else:
        text = "a: " + "{b: " * 10000 + "1" + "}" * 10000 + "\n"
    (tmp_path / "deep.yaml").write_text(text)
    rc, doc = _lint(tmp_path / "deep.yaml")
    assert rc == 2 and _codes(doc) & {"IN006", "IN001"}


def test_recursive_alias(tmp_path):
    (tmp_path / "rec.yaml").write_text("a: &a [*a]\n")
    rc, doc = _lint(tmp_path / "rec.yaml")
    assert rc == 2


WRONG_TYPES = """\
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata:
  name: [not, a, string]
  labels: 7
spec:
  cohortName: {a: b}
  namespaceSelector: "all"
  queueingStrategy: 3
  preemption: [Never]
  flavorFungibility: yes
  fairSharing: {weight: [1]}
  resourceGroups:
  - coveredResources: cpu
    flavors: {name: x}
  - "group"
  - coveredResources: [1, {x: y}, null]
    flavors:
    - name: 5
      resources: [{name: [cpu], nominalQuota: {}, borrowingLimit: true, lendingLimit: 1.5}, 3, null]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: w, namespace: [x]}
spec:
  podSets: {main: 1}
  priority: "high"
  priorityClassRef: "batch"
  queueName: 12
status:
  admission: [1]
  conditions: {QuotaReserved: "True"}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: "lq"
spec: [clusterQueue]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: rf}
spec:
  nodeLabels: [a, b]
  nodeTaints: {key: x}
  tolerations: "all"
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Cohort
metadata: {name: c}
spec: {parentName: 1, resourceGroups: {}}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: WorkloadPriorityClass
metadata: {name: p}
value: "high"
---
apiVersion: config.kueue.x-k8s.io/v1beta2
kind: Configuration
fairSharing: true
featureGates: [a]
---
42
---
- a
- list
"""


def test_wrong_types_everywhere(tmp_path):
    (tmp_path / "wrong.yaml").write_text(WRONG_TYPES)
    rc, doc = _lint(tmp_path / "wrong.yaml", env={"QUOTACTL_RAISE_RULE_ERRORS": "1"})
    assert rc == 1
    assert "QL999" not in _codes(doc)
    assert doc["summary"]["errors"] >= 15
