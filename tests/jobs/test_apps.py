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


def _deployment(replicas) -> str:
    return f"""
    apiVersion: apps/v1
    kind: Deployment
    metadata: {{name: web, namespace: ns, labels: {{kueue.x-k8s.io/queue-name: q}}}}
    spec:
      replicas: {replicas}
      template: {{spec: {{containers: [{{name: c}}]}}}}
    """


def test_replicas_over_int32_are_refused_as_the_api_server_does(derive):
    """Found by the fuzzer (seed 1622): a Deployment with 2**63 replicas made one Workload per pod
    until every command ran out of time; the API server refuses any count over 2**31-1."""
    workloads, skipped, diagnostics = derive(_deployment(2**63))
    assert workloads == []
    assert [(d.code, d.field, d.line) for d in diagnostics] == [("JB001", "spec.replicas", 6)]
    assert "must be at most 2147483647 (a 32-bit integer)" in diagnostics[0].message
    assert "invalid spec.replicas" in skipped["deployment/ns/web"]


def test_more_per_pod_workloads_than_quotactl_derives_are_refused(derive):
    workloads, _, diagnostics = derive(_deployment(10_001))
    assert workloads == []
    assert [d.message for d in diagnostics] == [
        "is 10001: Kueue makes one Workload per pod, and quotactl derives at most 10,000 from one object"]
    workloads, _, _ = derive(_deployment(3))
    assert len(workloads) == 3


def test_lws_groups_over_the_limit_are_refused(derive):
    text = """
    apiVersion: leaderworkerset.x-k8s.io/v1
    kind: LeaderWorkerSet
    metadata: {name: lws, namespace: ns, labels: {kueue.x-k8s.io/queue-name: q}}
    spec:
      replicas: 20000
      leaderWorkerTemplate:
        size: 2
        workerTemplate: {spec: {containers: [{name: c}]}}
    """
    workloads, _, diagnostics = derive(text)
    assert workloads == []
    assert any("Kueue makes one Workload per group" in d.message for d in diagnostics)
