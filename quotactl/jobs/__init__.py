"""Kueue's job integrations: the Workloads Kueue would create for batch/v1 Jobs, JobSets,
LeaderWorkerSets, Ray, Kubeflow and MPI jobs, TrainJobs, AppWrappers, Pods, Deployments and
StatefulSets — one small module per integration behind ``generic.GenericJob``."""

from quotactl.jobs.derive import SkippedObject, derive_workloads, is_job_object

__all__ = ["SkippedObject", "derive_workloads", "is_job_object"]
