"""The non-TAS usage of running Pods (``kueue/tas/state.py``, Kueue's ``tas_non_tas_pod_cache.go``):
which Pods count (``build_pod``'s ``node_in_use``) and their requests summed per node."""

from __future__ import annotations

from quotactl.kueue.tas.state import non_tas_usage_by_node
from quotactl.load.document import Document, ObjectRef
from quotactl.load.objects import Dialect, KubeObject
from quotactl.model.kueue_tas import REQUIRED_ANNOTATION, build_pod


def _pod(name: str, node=None, phase="Running", requests=None, annotations=None, **spec_extra):
    spec = {"containers": [{"name": "c", "resources": {"requests": requests or {"cpu": "1"}}}], **spec_extra}
    if node is not None:
        spec["nodeName"] = node
    metadata = {"name": name, "namespace": "ns"}
    if annotations is not None:
        metadata["annotations"] = annotations
    data = {"apiVersion": "v1", "kind": "Pod", "metadata": metadata, "spec": spec, "status": {"phase": phase}}
    return build_pod(KubeObject("v1", "Pod", data, ObjectRef(Document("pods.yaml", 0, data)), Dialect.NEUTRAL))


def test_only_running_non_tas_pods_on_a_node_count():
    pods = [_pod("a", "n1"), _pod("done", "n1", phase="Succeeded"), _pod("failed", "n1", phase="Failed"),
            _pod("pending"), _pod("empty-node", ""), _pod("tas", "n1", annotations={REQUIRED_ANNOTATION: "rack"}),
            _pod("odd-phase", "n2", phase=["Running"]), _pod("odd-node", {"name": "n3"})]
    assert [p.name for p in pods if p.uses_node] == ["a", "odd-phase"]
    assert pods[5].is_tas and not pods[0].is_tas
    assert non_tas_usage_by_node(pods) == {"n1": {"cpu": 1000, "pods": 1}, "n2": {"cpu": 1000, "pods": 1}}


def test_pods_of_one_shape_and_of_their_own_are_summed_per_node():
    pods = [_pod("a", "n1", requests={"cpu": "2", "memory": "1Gi"}),
            _pod("b", "n1", requests={"memory": "1Gi", "cpu": "2"}),  # the same request written in another order
            _pod("c", "n2", requests={"cpu": "500m"}),
            # an init container larger than the containers: the effective request is the init container's
            _pod("d", "n1", requests={"cpu": "1"}, initContainers=[{"name": "i", "resources": {"requests": {"cpu": "3"}}}]),
            _pod("e", "n1", requests={"cpu": 2})]  # not a string: read as a quantity all the same
    assert non_tas_usage_by_node(pods) == {"n1": {"cpu": 9000, "memory": 2 * 2**30, "pods": 4},
                                           "n2": {"cpu": 500, "pods": 1}}


def test_a_pod_reads_its_fields_from_the_object():
    pod = _pod("a", "n1", annotations={"x": "y"})
    assert (pod.name, pod.namespace, pod.node_name, pod.phase, pod.annotations) == ("a", "ns", "n1", "Running", {"x": "y"})
