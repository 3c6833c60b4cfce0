"""LeaderWorkerSet, Deployment and StatefulSet."""

from tests.jobs.requests import pod_sets


def test_lws_one_workload_per_group_without_leader_template(derive):
    text = """
    apiVersion: leaderworkerset.x-k8s.io/v1
    kind: LeaderWorkerSet
    metadata: {name: lws, namespace: ns, labels: {kueue.x-k8s.io/queue-name: q}}
    spec:
      replicas: 3
      leaderWorkerTemplate:
        size: 4
        workerTemplate:
          metadata: {labels: {leaderworkerset.sigs.k8s.io/name: lws, leaderworkerset.sigs.k8s.io/group-index: "0"}}
          spec: {containers: [{name: c}]}
    """
    workloads, _, _ = derive(text)
    assert [pod_sets(w) for w in workloads] == [[("main", 4)]] * 3
    assert len({w["metadata"]["name"] for w in workloads}) == 3
    ref = workloads[0]["metadata"]["ownerReferences"][0]
    assert ref["kind"] == "LeaderWorkerSet" and "controller" not in ref
    labels = workloads[0]["spec"]["podSets"][0]["template"]["metadata"]["labels"]
    assert labels == {"leaderworkerset.sigs.k8s.io/name": "lws"}


def test_deployment_pods_get_the_queue_and_priority_labels(derive):
    text = """
    apiVersion: kueue.x-k8s.io/v1beta2
    kind: WorkloadPriorityClass
    metadata: {name: prod}
    value: 500
    ---
    apiVersion: apps/v1
    kind: Deployment
    metadata: {name: web, namespace: ns, labels: {kueue.x-k8s.io/queue-name: q, kueue.x-k8s.io/priority-class: prod}}
    spec:
      template: {spec: {containers: [{name: c}]}}
    """
    workloads, _, _ = derive(text)
    assert len(workloads) == 1
    labels = workloads[0]["spec"]["podSets"][0]["template"]["metadata"]["labels"]
    assert labels == {"kueue.x-k8s.io/queue-name": "q", "kueue.x-k8s.io/priority-class": "prod"}
    assert workloads[0]["spec"]["priority"] == 500
    assert "ownerReferences" not in workloads[0]["metadata"]


def test_statefulset_with_no_replicas_is_skipped(derive):
    text = """
    apiVersion: apps/v1
    kind: StatefulSet
    metadata: {name: sts, namespace: ns, labels: {kueue.x-k8s.io/queue-name: q}}
    spec: {replicas: 0, template: {spec: {containers: [{name: c}]}}}
    """
    workloads, skipped, _ = derive(text)
    assert workloads == [] and "replicas is 0" in skipped["statefulset/ns/sts"]
