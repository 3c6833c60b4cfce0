"""Rules every integration shares: queue defaulting, namespaces, priority, requests, naming."""

from quotactl.jobs.naming import workload_name
from tests.jobs.requests import per_pod, quantities

JOB = """
apiVersion: batch/v1
kind: Job
metadata:
  name: j
  namespace: ns
  uid: 0c7f3b6e-1111-4e6e-9c84-000000000001
  labels: LABELS
spec:
  template:
    spec:
      PRIORITY
      containers:
      - name: c
        resources: RESOURCES
---
"""


def job(labels="{kueue.x-k8s.io/queue-name: q}", resources="{requests: {cpu: '1'}}", priority=""):
    return JOB.replace("LABELS", labels).replace("RESOURCES", resources).replace("PRIORITY", priority)


def test_default_local_queue_gives_the_queue(derive):
    lq = "apiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata: {name: default, namespace: ns}\n"
    workloads, _, _ = derive(job(labels="{}") + lq)
    assert workloads[0]["spec"]["queueName"] == "default"


def test_manage_without_queue_name_leaves_the_queue_empty(derive):
    config = "apiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\nmanageJobsWithoutQueueName: true\n"
    workloads, _, _ = derive(job(labels="{}") + config)
    assert "queueName" not in workloads[0]["spec"]


def test_namespace_selector_uses_namespace_labels(derive):
    config = """apiVersion: config.kueue.x-k8s.io/v1beta2
kind: Configuration
managedJobsNamespaceSelector: {matchLabels: {team: ml}}
---
apiVersion: v1
kind: Namespace
metadata: {name: ns, labels: {team: web}}
"""
    workloads, skipped, _ = derive(job() + config)
    assert workloads == [] and "managedJobsNamespaceSelector" in skipped["job/ns/j"]


def test_workload_priority_class_label_wins_and_default_is_applied(derive):
    classes = """apiVersion: kueue.x-k8s.io/v1beta2
kind: WorkloadPriorityClass
metadata: {name: default}
value: 7
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: pod-high}
value: 900
"""
    workloads, _, _ = derive(job(priority="priorityClassName: pod-high") + classes)
    spec = workloads[0]["spec"]
    assert spec["priorityClassRef"] == {"group": "kueue.x-k8s.io", "kind": "WorkloadPriorityClass", "name": "default"}
    assert spec["priority"] == 7


def test_global_default_priority_class(derive):
    classes = """apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: normal}
value: 100
globalDefault: true
"""
    workloads, _, _ = derive(job() + classes)
    assert workloads[0]["spec"]["priorityClassRef"]["name"] == "normal"
    assert workloads[0]["spec"]["priority"] == 100


def test_missing_priority_class_creates_no_workload(derive):
    workloads, skipped, _ = derive(job(labels="{kueue.x-k8s.io/queue-name: q, kueue.x-k8s.io/priority-class: gold}"))
    assert workloads == [] and skipped["job/ns/j"] == 'WorkloadPriorityClass "gold" not found'


def test_limit_range_default_request_wins_over_the_container_limit(derive):
    limit_range = """apiVersion: v1
kind: LimitRange
metadata: {name: defaults, namespace: ns}
spec:
  limits:
  - type: Container
    defaultRequest: {cpu: "3", memory: 1Gi}
    default: {memory: 2Gi}
"""
    workloads, _, _ = derive(job(resources="{limits: {cpu: '6'}}") + limit_range)
    assert per_pod(workloads[0]["spec"]["podSets"][0]) == quantities({"cpu": "3", "memory": "1Gi"})


def test_max_execution_time_label(derive):
    workloads, _, _ = derive(job(labels="{kueue.x-k8s.io/queue-name: q, kueue.x-k8s.io/max-exec-time-seconds: '600'}"))
    assert workloads[0]["spec"]["maximumExecutionTimeSeconds"] == 600


def test_workload_name_follows_kueue():
    name = workload_name("j", "0c7f3b6e-1111-4e6e-9c84-000000000001", "Job", "batch")
    assert name.startswith("job-j-") and len(name) == len("job-j-") + 5
    assert name != workload_name("j", "other-uid", "Job", "batch")
    assert len(workload_name("x" * 300, "", "Job", "batch")) == 253


def test_existing_workload_owned_by_the_job_is_used_as_is(derive):
    existing = """apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata:
  name: job-j-abcde
  namespace: ns
  ownerReferences: [{apiVersion: batch/v1, kind: Job, name: j, controller: true}]
spec: {queueName: q, podSets: [{name: main, count: 1, template: {spec: {containers: [{name: c}]}}}]}
status: {conditions: [{type: QuotaReserved, status: "True"}]}
"""
    workloads, skipped, _ = derive(job() + existing)
    assert [w["metadata"]["name"] for w in workloads] == ["job-j-abcde"]
    assert workloads[0]["status"]["conditions"][0]["type"] == "QuotaReserved"


def test_unknown_kind_with_a_queue_label_is_listed(derive):
    text = """apiVersion: example.com/v1
kind: Simulation
metadata: {name: s, namespace: ns, labels: {kueue.x-k8s.io/queue-name: q}}
"""
    workloads, skipped, _ = derive(text)
    assert workloads == [] and "not a kind Kueue integrates" in skipped["simulation/ns/s"]


def test_runtime_class_overhead_is_put_in_the_template(derive):
    runtime = """apiVersion: node.k8s.io/v1
kind: RuntimeClass
metadata: {name: kata}
handler: kata
overhead: {podFixed: {cpu: 250m}}
"""
    workloads, _, _ = derive(job(priority="runtimeClassName: kata") + runtime)
    assert workloads[0]["spec"]["podSets"][0]["template"]["spec"]["overhead"] == {"cpu": "250m"}
    assert per_pod(workloads[0]["spec"]["podSets"][0]) == quantities({"cpu": "1250m"})


def test_prebuilt_workload_is_used_when_in_the_input_and_skipped_otherwise(derive):
    labels = "{kueue.x-k8s.io/queue-name: q, kueue.x-k8s.io/prebuilt-workload-name: pre}"
    prebuilt = """apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: pre, namespace: ns}
spec: {queueName: q, podSets: [{name: main, count: 3, template: {spec: {containers: [{name: c}]}}}]}
"""
    workloads, _, _ = derive(job(labels=labels) + prebuilt)
    assert [w["metadata"]["name"] for w in workloads] == ["pre"]
    workloads, skipped, _ = derive(job(labels=labels))
    assert workloads == [] and "prebuilt Workload ns/pre" in skipped["job/ns/j"]


def test_namespace_without_object_is_assumed_to_match_and_said_so(derive):
    config = """apiVersion: config.kueue.x-k8s.io/v1beta2
kind: Configuration
managedJobsNamespaceSelector: {matchLabels: {team: ml}}
"""
    workloads, _, diags = derive(job() + job().replace("name: j\n", "name: k\n") + config)
    assert len(workloads) == 2
    assert [(d.code, d.severity.value) for d in diags] == [("JB003", "info")]
    assert "no Namespace ns in the input" in diags[0].message
