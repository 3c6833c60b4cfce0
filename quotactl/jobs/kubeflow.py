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


class PyTorchJob(ReplicaJob):
    kind = "PyTorchJob"
    specs_field = "pytorchReplicaSpecs"
    replica_order = ("Master", "Worker")


class TFJob(ReplicaJob):
    kind = "TFJob"
    specs_field = "tfReplicaSpecs"
    replica_order = ("Chief", "Master", "PS", "Worker", "Evaluator")


class XGBoostJob(ReplicaJob):
    kind = "XGBoostJob"
    specs_field = "xgbReplicaSpecs"
    replica_order = ("Master", "Worker")


class PaddleJob(ReplicaJob):
    kind = "PaddleJob"
    specs_field = "paddleReplicaSpecs"
    replica_order = ("Master", "Worker")


class JAXJob(ReplicaJob):
    kind = "JAXJob"
    specs_field = "jaxReplicaSpecs"
    replica_order = ("Worker",)


class MPIJob(ReplicaJob):
    kind = "MPIJob"
    versions = ("v2beta1",)
    specs_field = "mpiReplicaSpecs"
    replica_order = ("Launcher", "Worker")
