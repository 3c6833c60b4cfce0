"""TrainJob (``trainjob/trainjob_controller.go``): the pod sets of the JobSet the trainer would
build from the referenced ClusterTrainingRuntime / TrainingRuntime."""

from __future__ import annotations

import copy

from quotactl.jobs.batch import jobset_pod_sets
from quotactl.jobs.fields import Malformed, opt_dict, opt_int, opt_list, opt_str, req_dict
from quotactl.jobs.generic import GenericJob, PodSetSpec

ANCESTOR_LABEL = "trainer.kubeflow.org/trainjob-ancestor-step"


class RuntimeMissing(Exception):
    """The referenced training runtime is not in the input: Kueue cannot build the pod sets."""


class TrainJob(GenericJob):
    kind = "TrainJob"
    api_group = "trainer.kubeflow.org"
    versions = ("v1alpha1",)
    finished_conditions = ("Complete", "Failed")

    def pod_sets(self) -> list[PodSetSpec]:
        runtime = self._runtime()
        jobset_spec = copy.deepcopy(opt_dict(runtime.data, ("spec", "template", "spec")))
        num_nodes = opt_int(self.data, ("spec", "trainer", "numNodes"), None, minimum=1)
        if num_nodes is not None:
            _set_trainer_nodes(jobset_spec, num_nodes)
        try:
            return jobset_pod_sets({"spec": jobset_spec}, ("spec", "replicatedJobs"))
        except Malformed as exc:
            raise Malformed(("spec", "runtimeRef"), f"{runtime.kind} {runtime.name}: {exc.message}") from None

    def _runtime(self):
        req_dict(self.data, ("spec", "runtimeRef"), "runtimeRef")
        kind = opt_str(self.data, ("spec", "runtimeRef", "kind")) or "ClusterTrainingRuntime"
        name = opt_str(self.data, ("spec", "runtimeRef", "name"))
        if not name:
            raise Malformed(("spec", "runtimeRef", "name"), "runtimeRef has no name")
        ns = self.namespace if kind == "TrainingRuntime" else None
        runtime = self.ctx.runtimes.get((kind, ns, name))
        if runtime is None:
            raise RuntimeMissing(f"{kind} {name!r} is not in the input")
        return runtime


def _set_trainer_nodes(jobset_spec: dict, num_nodes: int) -> None:
    """trainer.numNodes becomes parallelism = completions of the replicated job of the trainer step."""
    for rj in opt_list(jobset_spec, ("replicatedJobs",)):
        labels = opt_dict(rj, ("template", "metadata", "labels")) if isinstance(rj, dict) else {}
        if labels.get(ANCESTOR_LABEL) == "trainer":
            job_spec = rj.setdefault("template", {}).setdefault("spec", {})
            job_spec["parallelism"] = job_spec["completions"] = num_nodes
