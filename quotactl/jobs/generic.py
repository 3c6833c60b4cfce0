"""The shape every integration fills in, after Kueue's ``jobframework.GenericJob``: pod sets,
queue name, priority class, suspended, managed-by, owner reference, finished."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from functools import cached_property
from typing import ClassVar

from quotactl.jobs.context import JobContext
from quotactl.jobs.fields import Malformed, opt_dict, opt_list, opt_str
from quotactl.jobs.naming import workload_name
from quotactl.load.objects import KubeObject
from quotactl.model.coerce import str_map

QUEUE_LABEL = "kueue.x-k8s.io/queue-name"
MAX_POD_SETS = 18  # Kueue's MaxPodSets: the Workload API's limit


@dataclass
class PodSetSpec:
    name: str
    count: int
    template: dict  # a copy of the job's PodTemplateSpec
    min_count: int | None = None


@dataclass
class WorkloadPlan:
    """One Workload a job leads to (most jobs have one; a LeaderWorkerSet one per group)."""

    name: str
    pod_sets: list[PodSetSpec]
    owner_refs: list[dict]


class GenericJob(ABC):
    kind: ClassVar[str]
    api_group: ClassVar[str]
    versions: ClassVar[tuple[str, ...]]
    # status conditions that mean the job is over (Finished())
    finished_conditions: ClassVar[tuple[str, ...]] = ()

    def __init__(self, obj: KubeObject, ctx: JobContext):
        self.obj = obj
        self.ctx = ctx

    # -- identity -------------------------------------------------------------------
    @property
    def data(self) -> dict:
        return self.obj.data

    @property
    def name(self) -> str:
        return self.obj.name or ""

    @property
    def namespace(self) -> str:
        return self.obj.namespace or "default"

    @property
    def ref(self) -> str:
        """``kind/namespace/name`` with the lower-case kind, as quotactl names jobs."""
        return f"{self.obj.kind.lower()}/{self.namespace}/{self.name}"

    @property
    def labels(self) -> dict[str, str]:
        return str_map(self.obj.metadata.get("labels"))

    @property
    def annotations(self) -> dict[str, str]:
        return str_map(self.obj.metadata.get("annotations"))

    def owner_ref(self) -> dict:
        ref = {"apiVersion": self.obj.api_version, "kind": self.obj.kind, "name": self.name,
               "controller": True, "blockOwnerDeletion": True}
        uid = self.obj.metadata.get("uid")
        if isinstance(uid, str):
            ref["uid"] = uid
        return ref

    # -- GenericJob ---------------------------------------------------------------------
    def queue_name(self) -> str | None:
        return self.labels.get(QUEUE_LABEL) or None

    def is_suspended(self) -> bool:
        return opt_dict(self.data, ("spec",)).get("suspend") is True

    def managed_by(self) -> str | None:
        return opt_str(self.data, ("spec", "managedBy"))

    def finished(self) -> bool:
        return any(isinstance(c, dict) and c.get("type") in self.finished_conditions and c.get("status") == "True"
                   for c in opt_list(self.data, ("status", "conditions")))

    def skip_reason(self) -> str | None:
        """An integration's own reason to create no Workload (None: create one)."""
        return None

    @abstractmethod
    def pod_sets(self) -> list[PodSetSpec]:
        """The pod sets of the Workload, in Kueue's order (each integration's ``PodSets()``)."""

    def pod_class_name(self) -> str | None:
        """The pod PriorityClass name the integration reports: the first pod set template's."""
        for ps in self.derived_pod_sets:
            name = (ps.template.get("spec") or {}).get("priorityClassName")
            if name:
                return name
        return None

    @cached_property
    def derived_pod_sets(self) -> list[PodSetSpec]:
        pod_sets = self.pod_sets()
        if len(pod_sets) > MAX_POD_SETS:
            raise Malformed(("spec",), f"{len(pod_sets)} pod sets; Kueue allows at most {MAX_POD_SETS}")
        return pod_sets

    def plans(self) -> list[WorkloadPlan]:
        name = workload_name(self.name, self.obj.metadata.get("uid"), self.obj.kind, self.api_group)
        return [WorkloadPlan(name, self.derived_pod_sets, [self.owner_ref()])]
