"""The quota tree's nodes: a ClusterQueue or a Cohort (Kueue's ``resourceNode``), with its
ResourceQuotas, SubtreeQuota and usage.  Amounts are ints (see ``amounts``); a flavor-resource
``fr`` is a ``(flavor, resource)`` tuple."""

from __future__ import annotations

import bisect
from dataclasses import dataclass

from quotactl.kueue.workload import AdmittedWorkload
from quotactl.model.kueue import ClusterQueue, Cohort, FlavorFungibility, Preemption

FR = tuple  # (flavor, resource)


# ------------------------------------------------------------------------------ the nodes ---

@dataclass(frozen=True)
class ResourceQuota:
    """Kueue's ``ResourceQuota`` for one fr of one node, in amounts."""

    nominal: int
    borrowing_limit: int | None = None
    lending_limit: int | None = None


@dataclass(frozen=True)
class ResourceGroupView:
    covered_resources: tuple[str, ...]
    flavors: tuple[str, ...]


@dataclass(frozen=True)
class InactiveReason:
    """Why a ClusterQueue is not Active, as Kueue would say it (condition Active=False)."""

    reason: str  # Stopped | FlavorNotFound | AdmissionCheckNotFound | AdmissionCheckInactive | CohortCycleDetected
    message: str


class QuotaNode:
    """Shared representation of a ClusterQueue or a Cohort (Kueue's ``resourceNode``)."""

    __slots__ = ("name", "parent", "quotas", "subtree_quota", "usage", "fair_weight",
                 "child_cqs", "child_cohorts")
    is_cohort = False

    def __init__(self, name: str, quotas: dict[FR, ResourceQuota], fair_weight: float):
        self.name = name
        self.parent: CohortNode | None = None
        self.quotas = quotas
        self.subtree_quota: dict[FR, int] = {}
        self.usage: dict[FR, int] = {}
        self.fair_weight = fair_weight
        self.child_cqs: list[ClusterQueueNode] = []
        self.child_cohorts: list[CohortNode] = []

    @property
    def has_parent(self) -> bool:
        return self.parent is not None

    def path_parent_to_root(self):
        node = self.parent
        while node is not None:
            yield node
            node = node.parent

    def root(self) -> QuotaNode:
        node = self
        while node.parent is not None:
            node = node.parent
        return node

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name})"


class CohortNode(QuotaNode):
    __slots__ = ("spec", "all_child_cqs", "implicit")
    is_cohort = True

    def __init__(self, name: str, spec: Cohort | None, quotas: dict[FR, ResourceQuota], fair_weight: float):
        super().__init__(name, quotas, fair_weight)
        self.spec = spec
        self.implicit = spec is None
        self.all_child_cqs: list[ClusterQueueNode] = []  # inactive ones too (they still count)

    def subtree_cohorts(self) -> list[CohortNode]:
        """This cohort and every cohort below it, parents first (pre-order, children in order).
        Kueue's tree walks recurse (Go's stacks grow); a chain of cohorts may be deeper than
        Python's stack, so walks go down this list instead (found by the fuzzer)."""
        out, stack = [], [self]
        while stack:
            cohort = stack.pop()
            out.append(cohort)
            stack.extend(reversed(cohort.child_cohorts))
        return out


class ClusterQueueNode(QuotaNode):
    __slots__ = ("spec", "resource_groups", "workloads", "inactive", "flavor_fungibility", "preemption",
                 "_rg_by_resource", "_ordered")

    def __init__(self, spec: ClusterQueue, quotas: dict[FR, ResourceQuota], fair_weight: float,
                 resource_groups: tuple[ResourceGroupView, ...]):
        super().__init__(spec.name or "", quotas, fair_weight)
        self.spec = spec
        self.resource_groups = resource_groups
        self.workloads: dict[str, AdmittedWorkload] = {}
        self.inactive: InactiveReason | None = None
        self.flavor_fungibility: FlavorFungibility = spec.flavor_fungibility
        self.preemption: Preemption = spec.preemption
        self._rg_by_resource = {}
        for rg in resource_groups:
            for r in rg.covered_resources:
                self._rg_by_resource.setdefault(r, rg)
        self._ordered: list | None = None  # see ordered_workloads

    def ordered_workloads(self) -> list:
        """``(ordering_fields, workload)`` of every workload, sorted: the preemption candidate
        order (``CandidatesOrdering`` without its preemptor-dependent field).  Built on first
        use, then kept up to date by ``Snapshot.add_workload``/``remove_workload`` (the only
        writers of ``workloads`` after the snapshot is built).  Callers must not mutate it, nor
        hold on to it across a change of ``workloads``."""
        rows = self._ordered
        if rows is None:
            rows = self._ordered = sorted((w.ordering_fields, w) for w in self.workloads.values())
        return rows

    def _ordered_add(self, wl: AdmittedWorkload, replaced: bool) -> None:
        rows = self._ordered
        if rows is None:
            return
        if replaced:
            self._ordered = None
            return
        of = wl.ordering_fields
        rows.insert(bisect.bisect_left(rows, (of,)), (of, wl))

    def _ordered_remove(self, wl: AdmittedWorkload) -> None:
        rows = self._ordered
        if rows is None:
            return
        of = wl.ordering_fields
        i = bisect.bisect_left(rows, (of,))
        if i < len(rows) and rows[i][1] is wl:
            del rows[i]
        else:  # not the object we indexed (same key, another object): rebuild on next use
            self._ordered = None

    @property
    def active(self) -> bool:
        return self.inactive is None

    def rg_by_resource(self, resource: str) -> ResourceGroupView | None:
        return self._rg_by_resource.get(resource)

    def quota_for(self, fr: FR) -> ResourceQuota:
        return self.quotas.get(fr) or ZERO_QUOTA

    def nominal(self, fr: FR) -> int:
        q = self.quotas.get(fr)
        return q.nominal if q else 0


ZERO_QUOTA = ResourceQuota(0)
