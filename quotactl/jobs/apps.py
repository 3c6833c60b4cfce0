"""LeaderWorkerSet, Deployment and StatefulSet: serving objects whose pods Kueue admits
(``leaderworkerset/``, ``deployment/``, ``statefulset/``)."""

from __future__ import annotations

from quotactl.jobs.fields import Malformed, opt_dict, opt_int
from quotactl.jobs.generic import QUEUE_LABEL, GenericJob, PodSetSpec, WorkloadPlan
from quotactl.jobs.naming import workload_name
from quotactl.jobs.podtemplate import pod_template
from quotactl.jobs.priority import PRIORITY_LABEL

# Kueue makes one Workload per LeaderWorkerSet group and per Deployment pod; quotactl derives at most
# this many from one object (each is a model object every engine reads: a typo'd replicas of
# millions would otherwise stall every command)
MAX_WORKLOADS_PER_OBJECT = 10_000

LWS_LABEL_PREFIX = "leaderworkerset.sigs.k8s.io/"
LWS_NAME_LABEL = LWS_LABEL_PREFIX + "name"


class LeaderWorkerSet(GenericJob):
    kind = "LeaderWorkerSet"
    api_group = "leaderworkerset.x-k8s.io"
    versions = ("v1",)

    def pod_sets(self) -> list[PodSetSpec]:
        lwt = ("spec", "leaderWorkerTemplate")
        opt_dict(self.data, lwt)
        size = opt_int(self.data, lwt + ("size",), 1, minimum=1)
        worker = _without_lws_metadata(pod_template(self.data, lwt + ("workerTemplate",)))
        if opt_dict(self.data, lwt + ("leaderTemplate",)):
            leader = _without_lws_metadata(pod_template(self.data, lwt + ("leaderTemplate",)))
            return [PodSetSpec("leader", 1, leader), PodSetSpec("worker", size - 1, worker)]
        return [PodSetSpec("main", size, worker)]

    def plans(self) -> list[WorkloadPlan]:
        """One Workload per group, each with a plain (non-controller) reference to the LWS."""
        replicas = _derivable(opt_int(self.data, ("spec", "replicas"), 1), "group")
        ref = {k: v for k, v in self.owner_ref().items() if k not in ("controller", "blockOwnerDeletion")}
        uid = self.obj.metadata.get("uid")
        return [WorkloadPlan(workload_name(f"{self.name}-{i}", uid, self.kind, self.api_group),
                             self.derived_pod_sets, [ref]) for i in range(replicas)]


def _derivable(replicas: int, per: str) -> int:
    if replicas > MAX_WORKLOADS_PER_OBJECT:
        raise Malformed(("spec", "replicas"), f"is {replicas}: Kueue makes one Workload per {per}, and quotactl "
                                              f"derives at most {MAX_WORKLOADS_PER_OBJECT:,} from one object")
    return replicas


def _without_lws_metadata(template: dict) -> dict:
    md = template.get("metadata")
    for key in ("labels", "annotations"):
        values = md.get(key) if isinstance(md, dict) else None
        if isinstance(values, dict):
            for name in [n for n in values if str(n).startswith(LWS_LABEL_PREFIX) and n != LWS_NAME_LABEL]:
                del values[name]
    return template


class ReplicatedApp(GenericJob):
    """An apps/v1 object whose ``replicas`` (default 1) pods Kueue admits; none without pods."""

    api_group = "apps"
    versions = ("v1",)

    @property
    def replicas(self) -> int:
        return opt_int(self.data, ("spec", "replicas"), 1)

    def skip_reason(self) -> str | None:
        if self.replicas == 0:
            return f"spec.replicas is 0: Kueue creates no Workload for a {self.kind} without pods"
        return None


class Deployment(ReplicatedApp):
    """No Workload of its own: each of its pods is a plain Pod with its queue and priority labels."""

    kind = "Deployment"

    def pod_sets(self) -> list[PodSetSpec]:
        template = pod_template(self.data, ("spec", "template"))
        labels = template.setdefault("metadata", {}).setdefault("labels", {})
        for key in (QUEUE_LABEL, PRIORITY_LABEL):
            if key in self.labels:
                labels[key] = self.labels[key]
        return [PodSetSpec("main", 1, template)]

    def plans(self) -> list[WorkloadPlan]:
        # The pods do not exist yet: the Workloads name the Deployment by annotation only.
        return [WorkloadPlan(workload_name(f"{self.name}-{i}", None, "Pod", ""), self.derived_pod_sets, [])
                for i in range(_derivable(self.replicas, "pod"))]


class StatefulSet(ReplicatedApp):
    kind = "StatefulSet"

    def pod_sets(self) -> list[PodSetSpec]:
        return [PodSetSpec("main", self.replicas, pod_template(self.data, ("spec", "template")))]
