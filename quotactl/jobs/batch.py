"""batch/v1 Job and JobSet (``job/job_controller.go``, ``jobset/jobset_controller.go``)."""

from __future__ import annotations

from quotactl.jobs.fields import Malformed, Path, int_text, opt_int, opt_list, opt_str, req_dict
from quotactl.jobs.generic import GenericJob, PodSetSpec
from quotactl.jobs.podtemplate import pod_template

MIN_PARALLELISM = "kueue.x-k8s.io/job-min-parallelism"
# Labels the Job controller puts on its pods; Kueue keeps only batch.kubernetes.io/job-name.
JOB_CONTROLLER_LABELS = ("controller-uid", "batch.kubernetes.io/controller-uid", "job-name")


def pods_count(data: dict, spec_path: Path) -> int:
    """A Job's pods at once: min(parallelism (default 1), completions when set)."""
    parallelism = opt_int(data, spec_path + ("parallelism",), 1)
    completions = opt_int(data, spec_path + ("completions",), None)
    return completions if completions is not None and completions < parallelism else parallelism


class BatchJob(GenericJob):
    kind = "Job"
    api_group = "batch"
    versions = ("v1",)
    finished_conditions = ("Complete", "Failed")

    def pod_sets(self) -> list[PodSetSpec]:
        template = pod_template(self.data, ("spec", "template"))
        labels = (template.get("metadata") or {}).get("labels")
        if isinstance(labels, dict):
            for key in JOB_CONTROLLER_LABELS:
                labels.pop(key, None)
        return [PodSetSpec("main", pods_count(self.data, ("spec",)), template, self.min_count())]

    def min_count(self) -> int | None:
        """Partial admission: the annotation Kueue's webhook requires to be in [1, parallelism)."""
        raw = self.annotations.get(MIN_PARALLELISM)
        if raw is None:
            return None
        path = ("metadata", "annotations", MIN_PARALLELISM)
        value = int_text(raw, path, 1)
        parallelism = opt_int(self.data, ("spec", "parallelism"), 1)
        if value >= parallelism:
            raise Malformed(path, f"must be lower than the job's parallelism ({parallelism}), not {value}")
        return value


class JobSet(GenericJob):
    kind = "JobSet"
    api_group = "jobset.x-k8s.io"
    versions = ("v1alpha2",)
    finished_conditions = ("Completed", "Failed")

    def pod_sets(self) -> list[PodSetSpec]:
        return jobset_pod_sets(self.data, ("spec", "replicatedJobs"))


def jobset_pod_sets(data: dict, path: Path) -> list[PodSetSpec]:
    """One pod set per replicatedJob: replicas (default 1) x the Job's pods at once."""
    out = []
    for i, _ in enumerate(opt_list(data, path)):
        rj = path + (i,)
        req_dict(data, rj, "replicated job")
        name = opt_str(data, rj + ("name",))
        if not name:
            raise Malformed(rj + ("name",), "replicated job has no name")
        replicas = opt_int(data, rj + ("replicas",), 1)
        job_spec = rj + ("template", "spec")
        req_dict(data, job_spec, "job template spec")
        template = pod_template(data, job_spec + ("template",))
        out.append(PodSetSpec(name.lower(), replicas * pods_count(data, job_spec), template))
    if not out:
        raise Malformed(path, "no replicated jobs")
    return out
