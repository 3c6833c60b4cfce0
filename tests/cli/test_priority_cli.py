"""One priority through the real CLI: lint's KQ420, explain and preempt name the priority Kueue
schedules a Workload with when spec.priority and its priority class disagree."""

from __future__ import annotations

import json

import pytest

from tests.helpers import run_subprocess

CLUSTER = """\
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: default}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: cq}
spec:
  namespaceSelector: {}
  resourceGroups:
  - coveredResources: [cpu]
    flavors:
    - name: default
      resources: [{name: cpu, nominalQuota: "4"}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: q, namespace: default}
spec: {clusterQueue: cq}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: WorkloadPriorityClass
metadata: {name: high}
value: 1000
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: w, namespace: default}
spec:
  queueName: q
  priorityClassRef: {group: kueue.x-k8s.io, kind: WorkloadPriorityClass, name: high}
  priority: 100
  podSets:
  - name: main
    count: 1
    template:
      spec:
        containers:
        - name: c
          resources: {requests: {cpu: "1"}}
"""


@pytest.mark.parametrize(("release", "used"), [("v0.20", 1000), ("v0.19", 1000), ("v0.14", 100)])
def test_lint_explain_and_preempt_name_one_priority(tmp_path, release, used):
    path = tmp_path / "cluster.yaml"
    path.write_text(CLUSTER if release != "v0.14" else CLUSTER.replace("v1beta2", "v1beta1")
                    .replace("priorityClassRef: {group: kueue.x-k8s.io, kind: WorkloadPriorityClass, name: high}",
                             "priorityClassName: high\n  priorityClassSource: kueue.x-k8s.io/workloadpriorityclass"))
    lint = run_subprocess("lint", path, "--kueue-version", release, "-o", "json")
    kq420 = [d for d in json.loads(lint.stdout)["diagnostics"] if d["code"] == "KQ420"]
    assert len(kq420) == 1, lint.stdout
    assert kq420[0]["message"].endswith(f"so it schedules and preempts this Workload with priority {used}")

    explain = run_subprocess("explain", "default/w", "-f", path, "--kueue-version", release, "-o", "json")
    assert explain.returncode == 0, explain.stderr
    priority = json.loads(explain.stdout)["priority"]
    assert priority["value"] == used and priority["note"] == kq420[0]["message"]

    preempt = run_subprocess("preempt", "default/w", "-f", path, "--kueue-version", release, "-o", "json")
    assert preempt.returncode == 0, preempt.stderr
    assert json.loads(preempt.stdout)["priority"] == used

    text = run_subprocess("explain", "default/w", "-f", path, "--kueue-version", release)
    assert f"priority: {used} (from WorkloadPriorityClass high)" in " ".join(text.stdout.split())
