"""Kueue's job integrations: the Workloads Kueue would create for batch/v1 Jobs, JobSets,
LeaderWorkerSets, Ray, Kubeflow and MPI jobs, TrainJobs, AppWrappers, Pods, Deployments and
StatefulSets — one small module per integration behind ``generic.GenericJob``."""

__all__ = ["SkippedObject", "derive_workloads", "is_job_object"]


def __getattr__(name: str):
    # Resolved on first use: importing a helper module of this package (``jobs.workload``, which
    # the model and lint rules read) must not import every integration and the job context.
    if name in __all__:
        from quotactl.jobs import derive

        return getattr(derive, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
