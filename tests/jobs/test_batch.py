"""batch/v1 Job and JobSet: counts, partial admission, malformed specs."""

from tests.jobs.requests import pod_sets

JOB = """
apiVersion: batch/v1
kind: Job
metadata:
  name: train
  namespace: ml
  labels: {kueue.x-k8s.io/queue-name: q}
  annotations: ANNOTATIONS
spec:
  parallelism: PARALLELISM
  completions: 3
  template:
    metadata:
      labels: {job-name: train, batch.kubernetes.io/job-name: train, app: x}
    spec:
      containers:
      - name: c
        resources: {requests: {cpu: "1"}}
"""


def job(parallelism="5", annotations="{}"):
    return JOB.replace("PARALLELISM", parallelism).replace("ANNOTATIONS", annotations)


def test_count_is_min_of_parallelism_and_completions(derive):
    workloads, skipped, diags = derive(job())
    assert pod_sets(workloads[0]) == [("main", 3)]
    assert workloads[0]["metadata"]["name"].startswith("job-train-")
    assert workloads[0]["metadata"]["ownerReferences"][0]["kind"] == "Job"
    assert not skipped and not diags


def test_job_controller_labels_dropped_except_job_name(derive):
    workloads, _, _ = derive(job())
    labels = workloads[0]["spec"]["podSets"][0]["template"]["metadata"]["labels"]
    assert labels == {"batch.kubernetes.io/job-name": "train", "app": "x"}


def test_min_parallelism_annotation_gives_min_count(derive):
    workloads, _, _ = derive(job(annotations='{kueue.x-k8s.io/job-min-parallelism: "2"}'))
    assert workloads[0]["spec"]["podSets"][0]["minCount"] == 2


def test_min_parallelism_not_below_parallelism_is_rejected(derive):
    workloads, skipped, diags = derive(job(annotations='{kueue.x-k8s.io/job-min-parallelism: "5"}'))
    assert workloads == []
    assert "lower than the job's parallelism" in skipped["job/ml/train"]
    assert diags[0].code == "JB001" and diags[0].line == 8


def test_negative_parallelism_is_a_diagnostic_at_its_line(derive):
    workloads, skipped, diags = derive(job(parallelism="-1"))
    assert workloads == [] and "job/ml/train" in skipped
    assert (diags[0].line, diags[0].field) == (10, "spec.parallelism")


def test_missing_template_is_a_diagnostic(derive):
    text = """
    apiVersion: batch/v1
    kind: Job
    metadata: {name: j, namespace: ns, labels: {kueue.x-k8s.io/queue-name: q}}
    spec: {parallelism: 1}
    """
    _, skipped, diags = derive(text)
    assert "missing pod template" in skipped["job/ns/j"]
    assert diags[0].field == "spec.template"


def test_jobset_counts_replicas_times_pods(derive):
    text = """
    apiVersion: jobset.x-k8s.io/v1alpha2
    kind: JobSet
    metadata: {name: js, namespace: ns, labels: {kueue.x-k8s.io/queue-name: q}}
    spec:
      replicatedJobs:
      - name: Driver
        template: {spec: {template: {spec: {containers: [{name: c}]}}}}
      - name: workers
        replicas: 4
        template: {spec: {parallelism: 3, template: {spec: {containers: [{name: c}]}}}}
    """
    workloads, _, _ = derive(text)
    assert pod_sets(workloads[0]) == [("driver", 1), ("workers", 12)]


def test_job_owned_by_a_managed_jobset_gets_no_workload(derive):
    text = """
    apiVersion: batch/v1
    kind: Job
    metadata:
      name: js-workers-0
      namespace: ns
      labels: {kueue.x-k8s.io/queue-name: q}
      ownerReferences: [{apiVersion: jobset.x-k8s.io/v1alpha2, kind: JobSet, name: js, controller: true}]
    spec: {template: {spec: {containers: [{name: c}]}}}
    """
    workloads, skipped, _ = derive(text)
    assert workloads == [] and "owned by jobset/ns/js" in skipped["job/ns/js-workers-0"]


def test_finished_job_is_skipped(derive):
    text = job() + "status: {conditions: [{type: Complete, status: 'True'}]}\n"
    workloads, skipped, _ = derive(text)
    assert workloads == [] and skipped["job/ml/train"].startswith("finished")


def test_job_under_an_unmanaged_jobset_is_its_own_top_level_job(derive):
    text = """
    apiVersion: jobset.x-k8s.io/v1alpha2
    kind: JobSet
    metadata: {name: js, namespace: ns}
    spec:
      replicatedJobs: [{name: w, template: {spec: {template: {spec: {containers: [{name: c}]}}}}}]
    ---
    apiVersion: batch/v1
    kind: Job
    metadata:
      name: js-w-0
      namespace: ns
      labels: {kueue.x-k8s.io/queue-name: q}
      ownerReferences: [{apiVersion: jobset.x-k8s.io/v1alpha2, kind: JobSet, name: js, controller: true}]
    spec: {template: {spec: {containers: [{name: c}]}}}
    """
    workloads, skipped, _ = derive(text)
    assert [w["metadata"]["annotations"]["quotactl.io/owner"] for w in workloads] == ["job/ns/js-w-0"]
    assert "no kueue.x-k8s.io/queue-name label" in skipped["jobset/ns/js"]
