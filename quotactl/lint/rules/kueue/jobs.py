"""Job manifests (Job, JobSet, RayJob, PyTorchJob, ...): the checks Kueue makes when a job is
created or turned into a Workload, so a manifest can be checked before it is applied."""

from __future__ import annotations

from quotactl.jobs.batch import MIN_PARALLELISM, BatchJob
from quotactl.jobs.fields import Malformed
from quotactl.jobs.generic import MAX_POD_SETS, QUEUE_LABEL
from quotactl.jobs.priority import PRIORITY_LABEL
from quotactl.lint.rule import Finding, RuleDoc, rule
from quotactl.lint.rules.kueue.crossref_admissibility import uncovered_hint, uncovered_requests
from quotactl.lint.rules.kueue.crossref_helpers import did_you_mean, engine_view, loc
from quotactl.lint.rules.kueue.job_helpers import derived_workloads, generic_jobs, pod_set_count

JOB_BAD = "kind: Job\nmetadata:\n  labels:\n    kueue.x-k8s.io/queue-name: {bad}\n"
JOB_GOOD = "kind: Job\nmetadata:\n  labels:\n    kueue.x-k8s.io/queue-name: {good}\n"


@rule(
    code="KQ601", name="job-queue-not-found", severity="warning", layer="runtime", scope="cluster",
    summary="A job's queue-name label names no LocalQueue in its namespace",
    doc=RuleDoc(
        what="A job object (Job, JobSet, RayJob, PyTorchJob, ...) whose kueue.x-k8s.io/queue-name label names a "
             "LocalQueue that is not in the input in the job's namespace. Checked only when the input holds "
             "LocalQueues.",
        why="Kueue creates the Workload anyway, but it stays pending and inadmissible (\"LocalQueue <name> "
            "doesn't exist\"); the job never starts.",
        fix="Use the name of a LocalQueue of the job's namespace (kubectl get localqueues -n <namespace>), or "
            "create that LocalQueue.",
        bad=JOB_BAD.format(bad="mian"), good=JOB_GOOD.format(good="main"),
        source=("kueue pkg/controller/jobframework/reconciler.go ReconcileGenericJob (the Workload takes the "
                "queue-name label); pkg/cache/queue/manager.go AddOrUpdateWorkload (LocalQueue doesn't exist)"),
    ),
)
def check_job_queue(ctx):
    if not ctx.cluster.has_kind("LocalQueue"):
        return
    for job in generic_jobs(ctx):
        name = job.queue_name()
        if not name or ctx.cluster.local_queues.get((job.namespace, name)) is not None:
            continue
        present = [lq_name for ns, lq_name in ctx.cluster.local_queues if ns == job.namespace]
        yield Finding(
            ("metadata", "labels", QUEUE_LABEL),
            f"{job.ref} asks for LocalQueue {job.namespace}/{name}, which is not in the input; its Workload "
            "would stay pending (LocalQueue doesn't exist)." + did_you_mean(name, present),
            type=None, subject=job.obj,
            hint=f"Use a LocalQueue of namespace {job.namespace}"
                 + (f" ({', '.join(sorted(present))})" if present else "") + ", or create it.",
        )


@rule(
    code="KQ602", name="job-priority-class-not-found", severity="warning", layer="runtime", scope="cluster",
    summary="A job's priority-class label names no WorkloadPriorityClass",
    doc=RuleDoc(
        what="A job object whose kueue.x-k8s.io/priority-class label names a WorkloadPriorityClass that is not in "
             "the input. Checked only when the input holds WorkloadPriorityClasses.",
        why="Kueue resolves the label when it creates the Workload; for a missing class it creates none "
            "(\"WorkloadPriorityClass ... not found\") and the job stays suspended.",
        fix="Name an existing WorkloadPriorityClass (kubectl get workloadpriorityclasses) or create it.",
        bad="metadata:\n  labels:\n    kueue.x-k8s.io/priority-class: hihg\n",
        good="metadata:\n  labels:\n    kueue.x-k8s.io/priority-class: high\n",
        source=("kueue pkg/controller/jobframework/reconciler.go constructWorkload -> ExtractPriority "
                "(pkg/util/priority/priority.go GetPriorityFromWorkloadPriorityClass)"),
    ),
)
def check_job_priority_class(ctx):
    if not ctx.cluster.has_kind("WorkloadPriorityClass"):
        return
    classes = ctx.cluster.workload_priority_classes
    for job in generic_jobs(ctx):
        name = job.labels.get(PRIORITY_LABEL)
        if not name or name in classes:
            continue
        yield Finding(
            ("metadata", "labels", PRIORITY_LABEL),
            f"{job.ref} names WorkloadPriorityClass {name}, which is not in the input; Kueue creates no Workload "
            "for it and the job stays suspended." + did_you_mean(name, classes),
            type=None, subject=job.obj,
            hint="Name an existing WorkloadPriorityClass, or create it.",
        )


@rule(
    code="KQ603", name="job-min-parallelism-invalid", severity="error", layer="webhook", scope="cluster",
    summary="kueue.x-k8s.io/job-min-parallelism is not an integer below the Job's parallelism",
    doc=RuleDoc(
        what="A batch/v1 Job whose kueue.x-k8s.io/job-min-parallelism annotation (partial admission) is not a "
             "positive integer lower than spec.parallelism.",
        why="Kueue's Job webhook rejects the Job when it is created; nothing is submitted.",
        fix="Give a whole number from 1 to parallelism - 1, or drop the annotation.",
        bad="metadata:\n  annotations:\n    kueue.x-k8s.io/job-min-parallelism: \"4\"\nspec:\n  parallelism: 4\n",
        good="metadata:\n  annotations:\n    kueue.x-k8s.io/job-min-parallelism: \"2\"\nspec:\n  parallelism: 4\n",
        source="kueue pkg/controller/jobs/job/job_webhook.go validatePartialAdmissionCreate",
    ),
)
def check_min_parallelism(ctx):
    for job in generic_jobs(ctx):
        if not isinstance(job, BatchJob) or MIN_PARALLELISM not in job.annotations:
            continue
        try:
            job.min_count()
        except Malformed as exc:
            yield Finding(exc.path, f"{job.ref}: annotation {MIN_PARALLELISM} {exc.message}; Kueue's webhook "
                          "rejects the Job", type=None, subject=job.obj,
                          hint="Use a whole number from 1 to parallelism - 1.")


@rule(
    code="KQ604", name="job-too-many-pod-sets", severity="error", layer="webhook", scope="cluster",
    summary=f"A job needs more pod sets than a Workload holds ({MAX_POD_SETS})",
    doc=RuleDoc(
        what=f"A job object whose Workload would have more than {MAX_POD_SETS} pod sets (Kueue's MaxPodSets): "
             "replicated jobs of a JobSet, replica types of a Kubeflow job, worker groups of a RayCluster, ...",
        why="Kueue's webhook rejects the job (a Workload cannot hold that many pod sets).",
        fix=f"Merge replicated jobs / worker groups with the same pod template, down to {MAX_POD_SETS} or fewer.",
        bad="kind: JobSet\nspec:\n  replicatedJobs: [19 entries]\n",
        good="kind: JobSet\nspec:\n  replicatedJobs: [18 entries or fewer]\n",
        source=("kueue apis/kueue/v1beta2/workload_types.go MaxPodSets; pkg/controller/jobframework/validation.go "
                "ValidateJobOnCreate"),
    ),
)
def check_pod_set_count(ctx):
    for job in generic_jobs(ctx):
        count = pod_set_count(job)
        if count is not None and count > MAX_POD_SETS:
            yield Finding(("spec",), f"{job.ref} needs {count} pod sets; a Workload holds at most {MAX_POD_SETS}, "
                          "so Kueue rejects the job", type=None, subject=job.obj,
                          hint=f"Merge pod sets with the same template, down to {MAX_POD_SETS}.")


@rule(
    code="KQ605", name="job-resource-not-covered", severity="warning", layer="runtime", scope="cluster",
    summary="A job requests a resource its LocalQueue's ClusterQueue does not cover",
    doc=RuleDoc(
        what="For each job object with no Workload in the input: the Workload Kueue would create for it "
             "(pod sets and requests exactly as Kueue derives them) is checked like KQ511, against the "
             "ClusterQueue of its LocalQueue, when both are in the input.",
        why="Kueue cannot assign a flavor to a resource no resource group of the ClusterQueue covers: the job "
            "stays suspended forever (NoMatchingFlavor).",
        fix="Stop requesting the resource, use a LocalQueue whose ClusterQueue covers it, or cover it there.",
        bad="# ClusterQueue covers [cpu, memory]\nrequests:\n  cpu: \"1\"\n  nvidia.com/gpu: \"1\"\n",
        good="# ClusterQueue covers [cpu, memory, nvidia.com/gpu]\nrequests:\n  cpu: \"1\"\n  nvidia.com/gpu: \"1\"\n",
        source=("kueue pkg/controller/jobframework/reconciler.go ConstructWorkload; pkg/scheduler/flavorassigner/"
                "flavorassigner.go findFlavorForPodSets (resource unavailable in ClusterQueue)"),
    ),
)
def check_job_uncovered(ctx):
    options, _snapshot = engine_view(ctx)
    for derived in derived_workloads(ctx):
        cq = ctx.cluster.cluster_queue_for(derived.workload)
        if cq is None:
            continue
        owner = derived.job
        ref = f"{owner.kind.lower()}/{owner.namespace or 'default'}/{owner.name}"
        for _ps, res, message in uncovered_requests(derived.workload, cq, options):
            yield Finding(("spec",), f"{message}; {ref} would stay suspended (NoMatchingFlavor)",
                          type=None, subject=owner, related=(loc(cq),), hint=uncovered_hint(res, cq))
