"""Which integration handles which kind (by API group and kind; the version is checked apart so
an unknown CRD version is reported rather than misread)."""

from __future__ import annotations

from quotactl.jobs.apps import Deployment, LeaderWorkerSet, StatefulSet
from quotactl.jobs.appwrapper import AppWrapper
from quotactl.jobs.batch import BatchJob, JobSet
from quotactl.jobs.generic import GenericJob
from quotactl.jobs.kubeflow import JAXJob, MPIJob, PaddleJob, PyTorchJob, TFJob, XGBoostJob
from quotactl.jobs.pods import Pod
from quotactl.jobs.ray import RayCluster, RayJob
from quotactl.jobs.trainjob import TrainJob

INTEGRATIONS: dict[tuple[str, str], type[GenericJob]] = {
    (cls.api_group, cls.kind): cls
    for cls in (BatchJob, JobSet, LeaderWorkerSet, RayJob, RayCluster, PyTorchJob, TFJob, XGBoostJob, PaddleJob,
                JAXJob, MPIJob, TrainJob, AppWrapper, Pod, Deployment, StatefulSet)
}


def integration_for(group: str, kind: str) -> type[GenericJob] | None:
    return INTEGRATIONS.get((group, kind))
