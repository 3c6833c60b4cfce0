"""The scheduler's snapshot (``Cache.Snapshot``) and how it is built from the model: the quota
tree of ClusterQueues under flat and hierarchical cohorts, inactive ClusterQueues, SubtreeQuota
and cohort usage accumulated from the leaves (``accumulateFromChild``).

A ``Snapshot`` is mutable only through ``add_workload``/``remove_workload``/``add_usage``/
``remove_usage``/``lift_usage``/``put_usage`` (the preemption simulations), which always restore
what they change.

Source: ``pkg/cache/scheduler/snapshot.go``, ``pkg/cache/scheduler/resource_node.go``.
"""

from __future__ import annotations

from fractions import Fraction

from quotactl.kueue.afs import AfsLedger, is_admitted, ledger_for
from quotactl.kueue.amounts import saturate, to_amount
from quotactl.kueue.options import EngineOptions
from quotactl.kueue.quota.arithmetic import add_usage, local_quota, remove_usage
from quotactl.kueue.quota.nodes import (
    FR,
    ClusterQueueNode,
    CohortNode,
    InactiveReason,
    QuotaNode,
    ResourceGroupView,
    ResourceQuota,
)
from quotactl.kueue.tas.state import TASState, admitted_usage, build_tas_state, load_admitted
from quotactl.kueue.workload import AdmittedWorkload, counts_against_quota
from quotactl.model.features import FeatureGates, gate_defaults
from quotactl.model.kueue import ClusterQueue, Cohort, KueueCluster, ResourceFlavor, ResourceGroup

# ------------------------------------------------------------------------------- snapshot ---

DQO_GATE = "DynamicQuotaOrchestration"


class Snapshot:
    """Kueue's scheduler snapshot built from a model (``Cache.Snapshot``)."""

    def __init__(self):
        self.cluster_queues: dict[str, ClusterQueueNode] = {}  # every CQ, active or not
        self.cohorts: dict[str, CohortNode] = {}  # every cohort not caught in a cycle
        self.cycle_cohorts: set[str] = set()
        self.resource_flavors: dict[str, ResourceFlavor] = {}
        self.options: EngineOptions = EngineOptions()
        self.cluster: KueueCluster | None = None
        self.tas: TASState | None = None  # topology-aware scheduling: the TAS flavors' nodes and usage
        self.afs: AfsLedger | None = None  # admission fair sharing: the LocalQueues' usage (kueue/afs.py)

    # -- lookups ------------------------------------------------------------------------
    def cluster_queue(self, name: str | None) -> ClusterQueueNode | None:
        """The active ClusterQueue (what the scheduler sees), or None."""
        cq = self.cluster_queues.get(name or "")
        return cq if cq is not None and cq.active else None

    def workload(self, key: str) -> AdmittedWorkload | None:
        for cq in self.cluster_queues.values():
            if key in cq.workloads:
                return cq.workloads[key]
        return None

    # -- simulation (always undone by the caller) ----------------------------------------
    def remove_workload(self, wl: AdmittedWorkload) -> None:
        cq = self.cluster_queues[wl.cluster_queue]
        old = cq.workloads.pop(wl.key)
        if cq._ordered is not None:
            cq._ordered_remove(old)
        for fr, v in wl.usage.items():
            remove_usage(cq, fr, v)
        if wl.tas_usage and self.tas is not None:
            self.tas.apply(wl.tas_usage, -1)

    def add_workload(self, wl: AdmittedWorkload) -> None:
        cq = self.cluster_queues[wl.cluster_queue]
        old = cq.workloads.get(wl.key)
        if cq._ordered is not None:
            cq._ordered_add(wl, old is not None)
        cq.workloads[wl.key] = wl
        for fr, v in wl.usage.items():
            add_usage(cq, fr, v)
        if wl.tas_usage and self.tas is not None:
            self.tas.apply(wl.tas_usage, 1)

    def lift_usage(self, wl: AdmittedWorkload) -> None:
        """``remove_workload``'s effect on usage alone, for a search that reads nothing else once
        its candidates are collected (classical preemption): the workload lists stay as they are."""
        cq = self.cluster_queues[wl.cluster_queue]
        for fr, v in wl.usage.items():
            remove_usage(cq, fr, v)
        if wl.tas_usage and self.tas is not None:
            self.tas.apply(wl.tas_usage, -1)

    def put_usage(self, wl: AdmittedWorkload) -> None:
        """Undo ``lift_usage``."""
        cq = self.cluster_queues[wl.cluster_queue]
        for fr, v in wl.usage.items():
            add_usage(cq, fr, v)
        if wl.tas_usage and self.tas is not None:
            self.tas.apply(wl.tas_usage, 1)

    @staticmethod
    def add_usage(node: QuotaNode, usage: dict[FR, int]) -> None:
        for fr, v in usage.items():
            add_usage(node, fr, v)

    @staticmethod
    def remove_usage(node: QuotaNode, usage: dict[FR, int]) -> None:
        for fr, v in usage.items():
            remove_usage(node, fr, v)


def _weight(fs) -> float:
    """``parseFairWeight``: the fairSharing weight, 1 when absent."""
    if fs is None or fs.weight is None:
        return 1.0
    return float(Fraction(fs.weight.nanos, 10**9))


def _quotas(groups: tuple[ResourceGroup, ...]) -> dict[FR, ResourceQuota]:
    quotas: dict[FR, ResourceQuota] = {}
    for rg in groups:
        for fq in rg.flavors:
            if not fq.name:
                continue
            for rq in fq.resources:
                if not rq.name:
                    continue
                fr = (fq.name, rq.name)
                if fr in quotas:
                    continue
                quotas[fr] = ResourceQuota(
                    nominal=to_amount(rq.name, rq.nominal) if rq.nominal is not None else 0,
                    borrowing_limit=to_amount(rq.name, rq.borrowing_limit) if rq.borrowing_limit is not None else None,
                    lending_limit=to_amount(rq.name, rq.lending_limit) if rq.lending_limit is not None else None,
                )
    return quotas


def _resource_group_views(groups: tuple[ResourceGroup, ...]) -> tuple[ResourceGroupView, ...]:
    return tuple(
        ResourceGroupView(tuple(rg.covered_resources), tuple(f.name for f in rg.flavors if f.name))
        for rg in groups
    )


def effective_quotas_in_force(gates: FeatureGates) -> bool:
    """Whether a ClusterQueue's or Cohort's ``status.effectiveQuotas`` replaces its
    ``spec.resourceGroups`` (Kueue v0.20 Dynamic Quota Orchestration, KEP-12382: the scheduler's
    cache reads ``status.effectiveQuotas || spec.resourceGroups``, kueue#15040, #15107).  Only
    Kueue's own orchestrator writes the status, with gate DynamicQuotaOrchestration on: an input
    that has it comes from a cluster with the gate on, so it is read unless the gate is set off
    (or the release has no such gate)."""
    if gates.enabled("DynamicQuotaOrchestration"):
        return True
    return DQO_GATE in gate_defaults(gates.release) and not gates.explicitly_set(DQO_GATE)


def groups_in_force(obj: ClusterQueue | Cohort, gates: FeatureGates) -> tuple[ResourceGroup, ...]:
    """The resource groups Kueue schedules with: the effective quotas when in force, else the spec's."""
    if obj.effective_quotas is not None and effective_quotas_in_force(gates):
        return obj.effective_quotas
    return obj.resource_groups


def quotas_from_status(cluster: KueueCluster, options: EngineOptions) -> tuple[str, ...]:
    """The ClusterQueues and Cohorts (``Kind/name``) whose quota in force is their status.effectiveQuotas."""
    if not effective_quotas_in_force(options.gates):
        return ()
    return tuple(o.display for o in (*cluster.cohorts.values(), *cluster.cluster_queues.values())
                 if o.effective_quotas is not None)


def effective_quotas_note(snapshot: Snapshot, cluster_queue: str | None) -> str | None:
    """What explain says when the quota of the ClusterQueue or a cohort above it is its
    status.effectiveQuotas (None when every quota on the path is the spec's)."""
    node = snapshot.cluster_queues.get(cluster_queue or "")
    names = []
    while node is not None:
        spec = node.spec
        if spec is not None and spec.effective_quotas is not None and effective_quotas_in_force(snapshot.options.gates):
            names.append(spec.display)
        node = node.parent
    if not names:
        return None
    return (f"quota in force: status.effectiveQuotas of {', '.join(names)} (Dynamic Quota Orchestration), used by "
            "Kueue instead of spec.resourceGroups")


def _inactive_reason(cq: ClusterQueue, snapshot: Snapshot, options: EngineOptions,
                     in_cycle: bool) -> InactiveReason | None:
    """Why Kueue would mark the ClusterQueue inactive (condition Active=False), if it would."""
    flavors = [f.name for rg in groups_in_force(cq, options.gates) for f in rg.flavors if f.name]
    missing = [f for f in flavors if f not in snapshot.resource_flavors]
    if missing:
        names = ", ".join(sorted(dict.fromkeys(missing)))
        return InactiveReason("FlavorNotFound", f"Can't admit new workloads: references missing ResourceFlavor(s): {names}")
    checks = [c.name for c in cq.admission_checks if c.name]
    if checks and options.admission_checks is not None:
        absent = [c for c in checks if c not in options.admission_checks]
        if absent:
            return InactiveReason("AdmissionCheckNotFound",
                                  f"Can't admit new workloads: references missing AdmissionCheck(s): {', '.join(absent)}")
        inactive = [c for c in checks if not options.admission_checks[c]]
        if inactive:
            return InactiveReason("AdmissionCheckInactive",
                                  f"Can't admit new workloads: references inactive AdmissionCheck(s): {', '.join(inactive)}")
    if cq.stop_policy and cq.stop_policy != "None":
        return InactiveReason("Stopped", f"Can't admit new workloads: stopPolicy is {cq.stop_policy}")
    if in_cycle:
        return InactiveReason("CohortCycleDetected",
                              f"Can't admit new workloads: cohort {cq.cohort} is part of a cycle of parentName references")
    return None


def build_snapshot(cluster: KueueCluster, options: EngineOptions | None = None,
                   workload_filter=None) -> Snapshot:
    """The scheduler snapshot for a model: quota tree, usage of every admitted workload.

    ``workload_filter`` (optional ``Workload -> bool``) limits which admitted workloads are
    accounted; callers use it only to skip workloads that cannot influence the answer.
    """
    options = options or EngineOptions()
    snap = Snapshot()
    snap.options = options
    snap.cluster = cluster
    snap.resource_flavors = dict(cluster.resource_flavors)
    snap.tas = build_tas_state(cluster, options.gates) if cluster.nodes else None

    names = cluster.cohort_names()
    snap.cycle_cohorts = set(cluster.cohort_cycles().doomed)
    for name in sorted(names):
        if name in snap.cycle_cohorts:
            continue
        spec = cluster.cohorts.get(name)
        quotas = _quotas(groups_in_force(spec, options.gates)) if spec is not None else {}
        weight = _weight(spec.fair_sharing) if spec is not None else 1.0
        snap.cohorts[name] = CohortNode(name, spec, quotas, weight)
    for node in snap.cohorts.values():
        parent = node.spec.parent if node.spec is not None else None
        if parent and parent in snap.cohorts:
            node.parent = snap.cohorts[parent]
            node.parent.child_cohorts.append(node)

    for name in sorted(cluster.cluster_queues):
        spec = cluster.cluster_queues[name]
        groups = groups_in_force(spec, options.gates)
        cq = ClusterQueueNode(spec, _quotas(groups), _weight(spec.fair_sharing), _resource_group_views(groups))
        in_cycle = bool(spec.cohort) and spec.cohort in snap.cycle_cohorts
        cq.inactive = _inactive_reason(spec, snap, options, in_cycle)
        if spec.cohort and spec.cohort in snap.cohorts:
            parent = snap.cohorts[spec.cohort]
            cq.parent = parent
            parent.all_child_cqs.append(cq)
            if cq.active:
                parent.child_cqs.append(cq)
        snap.cluster_queues[name] = cq

    # Usage of admitted workloads, charged to their ClusterQueue (cohorts are derived below).
    for wl in cluster.workloads.values():
        if wl.admission is None or not counts_against_quota(wl):
            continue
        cq = snap.cluster_queues.get(wl.admission.cluster_queue or "")
        if cq is None:
            continue  # Kueue's cache cannot account it: the ClusterQueue does not exist
        if workload_filter is not None and not workload_filter(wl):
            continue
        info = AdmittedWorkload(wl, cq.name, cluster, options)
        if snap.tas is not None:
            info.tas_usage = admitted_usage(wl, snap.tas)
        cq.workloads[info.key] = info
        usage = cq.usage
        for fr, v in info.usage.items():
            usage[fr] = saturate(usage.get(fr, 0) + v)

    if snap.tas is not None:
        load_admitted(snap.tas, [w.tas_usage for cq in snap.cluster_queues.values() for w in cq.workloads.values()])
    for cq in snap.cluster_queues.values():
        cq.subtree_quota = {fr: q.nominal for fr, q in cq.quotas.items()}
    for cohort in snap.cohorts.values():
        if cohort.parent is None:
            update_cohort(cohort)
    snap.afs = ledger_for(cluster, options.admission_fair_sharing,
                          ((w.workload, w.usage) for cq in snap.cluster_queues.values()
                           for w in cq.workloads.values() if is_admitted(w.workload)))
    return snap


def accumulate(parent: CohortNode, child: QuotaNode) -> None:
    """``accumulateFromChild``: a child lends what it does not keep, and charges its parent only
    the usage beyond its local quota."""
    sq, usage = parent.subtree_quota, parent.usage
    for fr, q in child.subtree_quota.items():
        sq[fr] = sq.get(fr, 0) + q - local_quota(child, fr)
    for fr, u in child.usage.items():
        excess = max(0, u - local_quota(child, fr))
        usage[fr] = usage.get(fr, 0) + excess


def update_cohort(cohort: CohortNode) -> None:
    """``updateCohortResourceNode``: SubtreeQuota and usage, from the leaves up (Kueue recurses;
    here the cohorts are visited children first without recursion)."""
    order = cohort.subtree_cohorts()
    for node in reversed(order):  # every child before its parent
        node.subtree_quota = {fr: q.nominal for fr, q in node.quotas.items()}
        node.usage = {}
    for node in reversed(order):
        for child in node.child_cohorts:
            accumulate(node, child)
        for child in node.all_child_cqs:
            accumulate(node, child)
