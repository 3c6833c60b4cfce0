"""Kubeflow training jobs and MPIJob: replica order, counts, priority from runPolicy."""

from tests.jobs.requests import pod_sets

CONTEXT = """
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 1000
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: low}
value: 10
---
"""


def test_tfjob_pod_sets_follow_the_framework_order(derive):
    text = """
    apiVersion: kubeflow.org/v1
    kind: TFJob
    metadata: {name: tf, namespace: ns, labels: {kueue.x-k8s.io/queue-name: q}}
    spec:
      tfReplicaSpecs:
        Worker: {replicas: 4, template: {spec: {containers: [{name: c}]}}}
        Evaluator: {template: {spec: {containers: [{name: c}]}}}
        PS: {replicas: 2, template: {spec: {containers: [{name: c}]}}}
        Chief: {replicas: 1, template: {spec: {containers: [{name: c}]}}}
    """
    workloads, _, _ = derive(text)
    assert pod_sets(workloads[0]) == [("chief", 1), ("ps", 2), ("worker", 4), ("evaluator", 1)]


def test_run_policy_priority_class_comes_before_the_templates(derive):
    text = CONTEXT + """
    apiVersion: kubeflow.org/v1
    kind: PyTorchJob
    metadata: {name: pt, namespace: ns, labels: {kueue.x-k8s.io/queue-name: q}}
    spec:
      runPolicy: {schedulingPolicy: {priorityClass: low}}
      pytorchReplicaSpecs:
        Master: {template: {spec: {priorityClassName: high, containers: [{name: c}]}}}
    """
    workloads, _, _ = derive(text.replace("\n    ", "\n"))
    spec = workloads[0]["spec"]
    assert spec["priorityClassRef"] == {"group": "scheduling.k8s.io", "kind": "PriorityClass", "name": "low"}
    assert spec["priority"] == 10


def test_template_priority_class_in_replica_order(derive):
    text = CONTEXT + """
    apiVersion: kubeflow.org/v2beta1
    kind: MPIJob
    metadata: {name: mpi, namespace: ns, labels: {kueue.x-k8s.io/queue-name: q}}
    spec:
      mpiReplicaSpecs:
        Worker: {replicas: 2, template: {spec: {priorityClassName: low, containers: [{name: c}]}}}
        Launcher: {template: {spec: {priorityClassName: high, containers: [{name: c}]}}}
    """
    workloads, _, _ = derive(text.replace("\n    ", "\n"))
    assert pod_sets(workloads[0]) == [("launcher", 1), ("worker", 2)]
    assert workloads[0]["spec"]["priority"] == 1000


def test_unknown_replica_type_is_malformed(derive):
    text = """
    apiVersion: kubeflow.org/v1
    kind: XGBoostJob
    metadata: {name: x, namespace: ns, labels: {kueue.x-k8s.io/queue-name: q}}
    spec:
      xgbReplicaSpecs:
        Chief: {template: {spec: {containers: [{name: c}]}}}
    """
    workloads, skipped, diags = derive(text)
    assert workloads == [] and "unknown replica type 'Chief'" in skipped["xgboostjob/ns/x"]
    assert diags[0].field == "spec.xgbReplicaSpecs.Chief"


def test_unknown_crd_version_is_skipped_with_a_warning(derive):
    text = """
    apiVersion: kubeflow.org/v2
    kind: PaddleJob
    metadata: {name: p, namespace: ns, labels: {kueue.x-k8s.io/queue-name: q}}
    spec: {}
    """
    workloads, skipped, diags = derive(text)
    assert workloads == [] and "not a PaddleJob version quotactl knows (v1)" in skipped["paddlejob/ns/p"]
    assert (diags[0].code, diags[0].severity.value, diags[0].field) == ("JB002", "warning", "apiVersion")
