"""Typed Pods / Nodes / PriorityClasses for the YuniKorn engine: built once, malformed ones left out."""

from __future__ import annotations

import pytest

from quotactl.load.objects import load
from quotactl.model.yunikorn_cluster import build_objects
from quotactl.model.yunikorn_shape import node_problem, pod_problem


def _objects(tmp_path, text: str):
    path = tmp_path / "state.yaml"
    path.write_text(text)
    return build_objects(load([str(path)]).objects)


@pytest.mark.parametrize("data, field, problem", [
    ({"metadata": "x"}, ("metadata",), "is a string, not a map"),
    ({"spec": {"containers": {"name": "c"}}}, ("spec", "containers"), "is a map, not a list"),
    ({"spec": {"containers": [None]}}, ("spec", "containers", 0), "is null, not a map"),
    ({"spec": {"initContainers": [{"resources": {"limits": {"cpu": True}}}]}},
     ("spec", "initContainers", 0, "resources", "limits", "cpu"), "is not a quantity"),
    ({"spec": {"overhead": {"memory": "100000000Ei"}}}, ("spec", "overhead", "memory"), "is too large"),
    ({"status": {"containerStatuses": [{"allocatedResources": []}]}},
     ("status", "containerStatuses", 0, "allocatedResources"), "is a list, not a map"),
])
def test_pod_shape_problems(data, field, problem):
    found = pod_problem(data)
    assert found is not None and found[0] == field and found[1].startswith(problem)


@pytest.mark.parametrize("data", [
    {},
    {"metadata": None, "spec": None, "status": None},
    {"spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": 0.5, "memory": None}}}]}},
    {"spec": {"containers": [{"resources": {"requests": {"cpu": "250m", "memory": 1024}}}]}},
])
def test_well_formed_pods_have_no_problem(data):
    assert pod_problem(data) is None


def test_node_shape_problems():
    assert node_problem({"status": {"capacity": {"pods": "many"}}})[0] == ("status", "capacity", "pods")
    assert node_problem({"status": {"allocatable": {"cpu": "4"}, "conditions": [{"type": "Ready"}]}}) is None


def test_records_carry_what_the_shim_reads(tmp_path):
    objects = _objects(tmp_path, """\
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high, annotations: {yunikorn.apache.org/allow-preemption: 'false'}}
value: 100
globalDefault: true
---
apiVersion: v1
kind: Node
metadata: {name: n1, labels: {zone: a}}
spec: {unschedulable: true}
status:
  capacity: {cpu: '8'}
  conditions: [{type: Ready, status: 'False'}]
---
apiVersion: v1
kind: Pod
metadata:
  name: web
  uid: u1
  creationTimestamp: '1970-01-01T00:01:00Z'
  ownerReferences: [{kind: DaemonSet, uid: ds1}]
spec:
  nodeName: n1
  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms: [{matchFields: [{key: metadata.name, operator: In, values: [n1]}]}]
  containers: [{name: c, resources: {requests: {cpu: 500m}}}]
status:
  containerStatuses: [{name: c, allocatedResources: {cpu: '1'}}]
""")
    (pod,), (node,) = objects.pods, objects.nodes
    assert (pod.key, pod.phase, pod.scheduler_name, pod.created) == ("default/web", "Pending", "default-scheduler", 60)
    assert pod.required_node == "n1"
    assert str(pod.spec.requests["cpu"]) == "500m" and pod.requests["cpu"].milli_value() == 1000  # resized
    assert (node.allocatable["cpu"].value(), node.ready, node.schedulable) == (8, False, False)
    assert objects.default_priority_class.allow_preemption is False
    assert objects.malformed == ()


def test_malformed_objects_are_left_out_with_their_position(tmp_path):
    objects = _objects(tmp_path, """\
apiVersion: v1
kind: Pod
metadata: {name: ok}
---
apiVersion: v1
kind: Pod
metadata: {name: bad}
spec:
  containers:
  - 7
""")
    assert [p.name for p in objects.pods] == ["ok"]
    (bad,) = objects.malformed
    assert (bad.display, bad.field, bad.pos.line) == ("Pod/default/bad", "spec.containers[0]", 10)
