"""Plain Pods and pod groups: role hashes, incomplete groups, fast admission."""

from quotactl.jobs.pods import role_hash
from quotactl.load.document import Document, ObjectRef
from quotactl.load.objects import Dialect, KubeObject
from tests.jobs.requests import pod_sets


def pod_object(spec: dict, annotations: dict | None = None) -> KubeObject:
    data = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "annotations": annotations or {}},
            "spec": spec}
    return KubeObject("v1", "Pod", data, ObjectRef(Document("x.yaml", 0, data)), Dialect.YUNIKORN)


def test_role_hash_matches_kueue():
    one = {"containers": [{"name": "c", "resources": {"requests": {"cpu": "1"}}}]}
    two = {"containers": [{"name": "c", "image": "x", "resources": {"requests": {"cpu": "1000m", "memory": "1Gi"}}}]}
    assert role_hash(pod_object(one)) == "dc85db45"
    assert role_hash(pod_object(two)) == "4ebdd4a6"


def test_role_hash_annotation_wins():
    assert role_hash(pod_object({"containers": []}, {"kueue.x-k8s.io/role-hash": "abc"})) == "abc"


def group_pod(name: str, cpu: str, total: int = 3, extra: str = "") -> str:
    return f"""
apiVersion: v1
kind: Pod
metadata:
  name: {name}
  namespace: ns
  labels: {{kueue.x-k8s.io/queue-name: q, kueue.x-k8s.io/pod-group-name: g}}
  annotations: {{kueue.x-k8s.io/pod-group-total-count: "{total}"{extra}}}
spec:
  containers: [{{name: c, resources: {{requests: {{cpu: "{cpu}"}}}}}}]
---"""


def test_group_has_one_pod_set_per_role_sorted_and_every_member_as_owner(derive):
    workloads, skipped, _ = derive(group_pod("a", "2") + group_pod("b", "1") + group_pod("c", "1"))
    assert pod_sets(workloads[0]) == [("dc85db45", 2), (role_hash_of_cpu("2"), 1)] or \
        pod_sets(workloads[0]) == sorted([("dc85db45", 2), (role_hash_of_cpu("2"), 1)])
    assert workloads[0]["metadata"]["name"] == "g"
    assert [r["name"] for r in workloads[0]["metadata"]["ownerReferences"]] == ["a", "b", "c"]
    assert not skipped


def role_hash_of_cpu(cpu: str) -> str:
    return role_hash(pod_object({"containers": [{"name": "c", "resources": {"requests": {"cpu": cpu}}}]}))


def test_incomplete_group_waits(derive):
    workloads, skipped, _ = derive(group_pod("a", "1") + group_pod("b", "1"))
    assert workloads == []
    assert set(skipped) == {"pod/ns/a", "pod/ns/b"} and "2 of 3 pods" in skipped["pod/ns/a"]


def test_fast_admission_builds_the_whole_group_from_the_first_pod(derive):
    fast = ', kueue.x-k8s.io/pod-group-fast-admission: "true"'
    workloads, _, _ = derive(group_pod("a", "1", extra=fast) + group_pod("b", "1", extra=fast))
    assert pod_sets(workloads[0]) == [("dc85db45", 3)]


def test_failed_members_do_not_count(derive):
    failed = group_pod("c", "1").replace("---", "status: {phase: Failed}\n---")
    _, skipped, _ = derive(group_pod("a", "1") + group_pod("b", "1") + failed)
    assert "2 of 3 pods" in skipped["pod/ns/a"]


def test_single_pod_without_queue_is_skipped_and_kube_system_is_never_managed(derive):
    text = """
    apiVersion: v1
    kind: Pod
    metadata: {name: plain, namespace: ns}
    spec: {containers: [{name: c}]}
    ---
    apiVersion: v1
    kind: Pod
    metadata: {name: sys, namespace: kube-system, labels: {kueue.x-k8s.io/queue-name: q}}
    spec: {containers: [{name: c}]}
    """
    workloads, skipped, _ = derive(text)
    assert workloads == []
    assert "no kueue.x-k8s.io/queue-name label" in skipped["pod/ns/plain"]
    assert "managedJobsNamespaceSelector" in skipped["pod/kube-system/sys"]
