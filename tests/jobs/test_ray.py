"""RayJob and RayCluster: head, worker groups, submitter, autoscaler and fault tolerance."""

from tests.jobs.requests import per_pod, pod_sets, quantities

RAYJOB = """
apiVersion: ray.io/v1
kind: RayJob
metadata: {name: rj, namespace: ns, labels: {kueue.x-k8s.io/queue-name: q}ANNOTATIONS}
spec:
  EXTRA
  rayClusterSpec:
    CLUSTER
    headGroupSpec:
      template: {spec: {containers: [{name: head, resources: {requests: {cpu: "1", memory: 100Mi}}}]}}
    workerGroupSpecs:
    - {groupName: Small, template: {spec: {containers: [{name: w}]}}}
    - {groupName: tpu, replicas: 2, numOfHosts: 4, template: {spec: {containers: [{name: w}]}}}
"""


def rayjob(extra="", cluster="", annotations=""):
    return RAYJOB.replace("EXTRA", extra).replace("CLUSTER", cluster).replace("ANNOTATIONS", annotations)


def test_defaults_worker_replicas_zero_hosts_multiply_and_submitter_last(derive):
    workloads, _, _ = derive(rayjob())
    assert pod_sets(workloads[0]) == [("head", 1), ("small", 0), ("tpu", 8), ("submitter", 1)]
    assert per_pod(workloads[0]["spec"]["podSets"][3]) == quantities({"cpu": "500m", "memory": "200Mi"})


def test_sidecar_mode_adds_the_submitter_to_the_head(derive):
    workloads, _, _ = derive(rayjob(extra="submissionMode: SidecarMode"))
    assert pod_sets(workloads[0]) == [("head", 1), ("small", 0), ("tpu", 8)]
    assert per_pod(workloads[0]["spec"]["podSets"][0]) == quantities({"cpu": "1500m", "memory": "300Mi"})


def test_http_mode_has_no_submitter(derive):
    workloads, _, _ = derive(rayjob(extra="submissionMode: HTTPMode"))
    assert [n for n, _ in pod_sets(workloads[0])] == ["head", "small", "tpu"]


def test_in_tree_autoscaler_joins_the_head(derive):
    workloads, _, _ = derive(rayjob(extra="submissionMode: HTTPMode", cluster="enableInTreeAutoscaling: true"))
    assert per_pod(workloads[0]["spec"]["podSets"][0]) == quantities({"cpu": "1500m", "memory": "612Mi"})


def test_gcs_fault_tolerance_raises_the_head_to_the_cleanup_job_minimum(derive):
    text = rayjob(extra="submissionMode: HTTPMode", annotations=", annotations: {ray.io/ft-enabled: 'true'}")
    workloads, _, _ = derive(text)
    assert per_pod(workloads[0]["spec"]["podSets"][0]) == quantities({"cpu": "1", "memory": "256Mi"})


def test_cluster_selector_is_skipped(derive):
    workloads, skipped, _ = derive(rayjob(extra="clusterSelector: {ray.io/cluster: shared}"))
    assert workloads == [] and "clusterSelector" in skipped["rayjob/ns/rj"]


def test_raycluster_owned_by_a_rayjob_gets_no_workload(derive):
    text = """
    apiVersion: ray.io/v1
    kind: RayCluster
    metadata:
      name: rc
      namespace: ns
      labels: {kueue.x-k8s.io/queue-name: q}
      ownerReferences: [{apiVersion: ray.io/v1, kind: RayJob, name: rj, controller: true}]
    spec:
      headGroupSpec: {template: {spec: {containers: [{name: head}]}}}
    """
    workloads, skipped, _ = derive(text)
    assert workloads == [] and "owned by rayjob/ns/rj" in skipped["raycluster/ns/rc"]


def test_worker_group_without_name_is_malformed(derive):
    text = rayjob().replace("groupName: Small, ", "")
    _, skipped, diags = derive(text)
    assert "groupName" in skipped["rayjob/ns/rj"] and diags[0].field == "spec.rayClusterSpec.workerGroupSpecs[0].groupName"
