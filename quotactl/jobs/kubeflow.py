"""Kubeflow training jobs and MPIJob (``kubeflow/kubeflowjob``, ``mpijob/mpijob_controller.go``):
one pod set per replica type present, in the framework's fixed order."""

from __future__ import annotations

from typing import ClassVar

from quotactl.jobs.fields import Malformed, opt_dict, opt_int, opt_str
from quotactl.jobs.generic import GenericJob, PodSetSpec
from quotactl.jobs.podtemplate import pod_template


class ReplicaJob(GenericJob):
    api_group = "kubeflow.org"
    versions = ("v1",)
    finished_conditions = ("Succeeded", "Failed")
    specs_field: ClassVar[str]
    replica_order: ClassVar[tuple[str, ...]]

    def is_suspended(self) -> bool:
        return opt_dict(self.data, ("spec", "runPolicy")).get("suspend") is True

    def pod_sets(self) -> list[PodSetSpec]:
        specs_path = ("spec", self.specs_field)
        specs = opt_dict(self.data, specs_path)
        unknown = sorted(set(specs) - set(self.replica_order))
        if unknown:
            raise Malformed(specs_path + (unknown[0],), f"unknown replica type {unknown[0]!r} for {self.kind} "
                            f"(one of {', '.join(self.replica_order)})")
        out = []
        for rtype in self.replica_order:
            if rtype not in specs:
                continue
            path = specs_path + (rtype,)
            opt_dict(self.data, path)
            replicas = opt_int(self.data, path + ("replicas",), 1)
            out.append(PodSetSpec(rtype.lower(), replicas, pod_template(self.data, path + ("template",))))
        if not out:
            raise Malformed(specs_path, f"no replica specs in {self.specs_field}")
        return out

    def pod_class_name(self) -> str | None:
        """runPolicy.schedulingPolicy.priorityClass first, then each replica's template in order."""
        name = opt_str(self.data, ("spec", "runPolicy", "schedulingPolicy", "priorityClass"))
        return name or super().pod_class_name()


def _replica_job(kind: str, specs_field: str, replica_order: tuple[str, ...],
                 versions: tuple[str, ...] = ("v1",)) -> type[ReplicaJob]:
    attrs = {"kind": kind, "specs_field": specs_field, "replica_order": replica_order, "versions": versions,
             "__doc__": f"{kind}: pod sets {', '.join(r.lower() for r in replica_order)} (those present)."}
    return type(kind, (ReplicaJob,), attrs)


PyTorchJob = _replica_job("PyTorchJob", "pytorchReplicaSpecs", ("Master", "Worker"))
TFJob = _replica_job("TFJob", "tfReplicaSpecs", ("Chief", "Master", "PS", "Worker", "Evaluator"))
XGBoostJob = _replica_job("XGBoostJob", "xgbReplicaSpecs", ("Master", "Worker"))
PaddleJob = _replica_job("PaddleJob", "paddleReplicaSpecs", ("Master", "Worker"))
JAXJob = _replica_job("JAXJob", "jaxReplicaSpecs", ("Worker",))
MPIJob = _replica_job("MPIJob", "mpiReplicaSpecs", ("Launcher", "Worker"), versions=("v2beta1",))
