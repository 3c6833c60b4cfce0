"""lint, explain and schedule answer the same question the same way: whether Kueue can ever admit
a workload is decided by one engine function each (resource validation, amounts, maximum capacity).

Each case is a disagreement the three commands once had."""

from __future__ import annotations

import json
import textwrap

import pytest

from tests.helpers import run_cli

CLUSTER = """\
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {{name: default}}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {{name: cq}}
spec:
  namespaceSelector: {{}}
  resourceGroups:
  - coveredResources: [cpu]
    flavors:
    - name: default
      resources: [{{name: cpu, nominalQuota: "{quota}"}}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {{name: lq, namespace: default}}
spec: {{clusterQueue: cq}}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {{name: wl, namespace: default}}
spec:
  queueName: lq
  podSets:
  - name: main
    count: 1
    template:
      spec:
{spec}
"""

CONTAINER_OVER_LIMIT = """\
containers:
- name: c
  resources: {requests: {cpu: "2"}, limits: {cpu: "1"}}
"""

POD_LEVEL_OVER_LIMIT = """\
resources: {requests: {cpu: "2"}, limits: {cpu: "1"}}
containers: [{name: c}]
"""

# 2e17 cores and a 1e17-core quota: both are beyond int64 millicores, so Kueue holds both as the
# same saturated amount and the request fits.
OVERFLOWING_REQUEST = """\
containers:
- name: c
  resources: {requests: {cpu: "2e17"}}
"""


def _input(tmp_path, spec: str, quota: str = "4") -> str:
    path = tmp_path / "input.yaml"
    path.write_text(CLUSTER.format(quota=quota, spec=textwrap.indent(spec, " " * 8)))
    return str(path)


def _lint_codes(path: str) -> dict[str, list[dict]]:
    r = run_cli("lint", path, "--output", "json")
    out: dict[str, list[dict]] = {}
    for d in json.loads(r.stdout)["diagnostics"]:
        out.setdefault(d["code"], []).append(d)
    return out


def _explain(path: str) -> dict:
    r = run_cli("explain", "default/wl", "-f", path, "--output", "json")
    assert r.exit_code == 0, r.stdout
    return json.loads(r.stdout)


def _schedule(path: str) -> dict:
    r = run_cli("schedule", "-f", path, "--output", "json")
    assert r.exit_code == 0, r.stdout
    return json.loads(r.stdout)


@pytest.mark.parametrize(("spec", "field", "holder"), [
    (CONTAINER_OVER_LIMIT, "spec.podSets[0].template.spec.containers[0].resources.requests[cpu]",
     "spec.podSets[0].template.spec.containers[0]"),
    (POD_LEVEL_OVER_LIMIT, "spec.podSets[0].template.spec.resources.requests[cpu]",
     "spec.podSets[0].template.spec.resources"),
], ids=["container", "pod-level"])
def test_requests_above_limits_are_misconfigured_everywhere(tmp_path, spec, field, holder):
    # Kueue's ValidateResources checks init containers, containers and pod-level resources.
    path = _input(tmp_path, spec)
    assert [d["field"] for d in _lint_codes(path).get("KQ516", [])] == [field]
    doc = _explain(path)
    assert (doc["status"], doc["reason"]) == ("Pending", "Misconfigured")
    # Kueue's text (ValidateAdmissibility: ErrInvalidWLResources + field.Invalid on the holder).
    assert doc["message"] == (f'resources validation failed: {holder}: Invalid value: []v1.ResourceName{{"cpu"}}: '
                              "requests must not exceed its limits")
    sched = _schedule(path)
    assert sched["admitted"] == []
    assert [(p["workload"], p["reason"], p["inadmissible"]) for p in sched["pending"]] == \
        [("default/wl", "Misconfigured", True)]
    assert sched["pending"][0]["message"] == doc["message"]


def test_request_within_limits_passes_everywhere(tmp_path):
    path = _input(tmp_path, 'containers:\n- name: c\n  resources: {requests: {cpu: "1"}, limits: {cpu: "2"}}\n')
    assert "KQ516" not in _lint_codes(path)
    assert _explain(path)["representativeMode"] == "Fit"
    assert [a["workload"] for a in _schedule(path)["admitted"]] == ["default/wl"]


def test_overflowing_amounts_saturate_the_same_way_everywhere(tmp_path):
    path = _input(tmp_path, OVERFLOWING_REQUEST, quota="1e17")
    assert "KQ512" not in _lint_codes(path)
    doc = _explain(path)
    assert (doc["status"], doc["representativeMode"]) == ("Pending", "Fit")
    assert [a["workload"] for a in _schedule(path)["admitted"]] == ["default/wl"]


def test_a_request_above_the_maximum_capacity_never_fits_anywhere(tmp_path):
    path = _input(tmp_path, 'containers:\n- name: c\n  resources: {requests: {cpu: "5"}}\n')
    assert [d["field"] for d in _lint_codes(path).get("KQ512", [])] == \
        ["spec.podSets[0].template.spec.containers[0].resources.requests[cpu]"]
    doc = _explain(path)
    assert (doc["representativeMode"], doc["reason"]) == ("NoFit", "ExceedsMaxQuota")
    sched = _schedule(path)
    assert sched["admitted"] == [] and sched["pending"][0]["reason"] == "ExceedsMaxQuota"
