"""The explanation behind ``quotactl explain``: what Kueue would decide for one workload, and
why, as data (frozen dataclasses; renderers only format them).

For a pending workload it follows Kueue's path: the workload controller's queue checks
(LocalQueue, ClusterQueue, active state), the scheduler's nomination checks (admission checks,
namespace selector), then the flavor assignment with its preemption oracle, the victims the
scheduler would pick, the KEP-10852 reason, who holds the quota, and the smallest change that
would admit it (``counterfactual``).  For an admitted workload: what it holds and whether its
ClusterQueue borrows for it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from quotactl.kueue import headline
from quotactl.kueue.afs import AfsLedger, format_usage, lq_key_of, lq_name
from quotactl.kueue.amounts import format_amount
from quotactl.kueue.assign import (
    TOPOLOGY_PLACEMENT_FAILED,
    Assignment,
    FlavorAssigner,
    InitialAssignment,
    Mode,
    QuotaCheck,
    initial_assignment,
)
from quotactl.kueue.counterfactual import Change, find_changes
from quotactl.kueue.headline import Headline
from quotactl.kueue.lifecycle import waiting_checks
from quotactl.kueue.nomination import Blocker, make_assigner, nomination_check, queue_blocker
from quotactl.kueue.options import EngineOptions
from quotactl.kueue.preemption.policy import NEVER
from quotactl.kueue.preemption.targets import candidate_workloads
from quotactl.kueue.priority import PriorityInfo, workload_priority
from quotactl.kueue.queue_order import QueueIndex, ahead_in_queue
from quotactl.kueue.quota import (
    ClusterQueueNode,
    InactiveReason,
    QuotaView,
    Snapshot,
    borrowing,
    borrowing_with,
    cohort_path,
    cq_available,
    quota_views_to_root,
)
from quotactl.kueue.quota.snapshot import effective_quotas_note
from quotactl.kueue.reasons import (
    MSG_NO_LONGER_FITS,
    WAITING_FOR_PREEMPTED_WORKLOADS,
    WAITING_FOR_QUOTA,
    condition_reason,
    pending_preemption,
)
from quotactl.kueue.tas.domain_view import DomainView, domain_view
from quotactl.kueue.tas.domain_view import Holder as TASHolder
from quotactl.kueue.workload import AdmittedWorkload, pod_set_requests
from quotactl.model.kueue import KueueCluster, Workload
from quotactl.model.kueue_tas import TopologyAssignment

PENDING = "Pending"
ADMITTED = "Admitted"  # holds quota (QuotaReserved=True)
FINISHED = "Finished"
INACTIVE = "Inactive"  # spec.active: false


# --------------------------------------------------------------------------- the model ---

@dataclass(frozen=True)
class PodSetSummary:
    name: str
    count: int
    min_count: int | None
    per_pod: dict[str, int]  # Kueue amounts
    node_selector: dict[str, str]
    tolerations: tuple[str, ...]


@dataclass(frozen=True)
class WorkloadSummary:
    key: str
    namespace: str
    name: str
    uid: str | None
    created: str | None
    queue_name: str | None
    cluster_queue: str | None
    cohort_path: tuple[str, ...]
    priority: PriorityInfo
    pod_sets: tuple[PodSetSummary, ...]
    condition_reason: str | None  # the QuotaReserved condition as found in the input
    condition_message: str | None


@dataclass(frozen=True)
class Holder:
    workload: str
    cluster_queue: str
    priority: int
    amount: int
    cq_borrowing: bool  # its ClusterQueue is above nominal on this fr


@dataclass(frozen=True)
class Holders:
    """Who holds a flavor-resource the workload is short of."""

    flavor: str
    resource: str
    in_cluster_queue: tuple[Holder, ...]
    in_cohort: tuple[Holder, ...]  # other ClusterQueues of the same cohort tree
    cluster_queue_total: int
    cohort_total: int


class VictimSummary(NamedTuple):
    workload: str
    cluster_queue: str
    reason: str  # the Preempted reason Kueue writes
    priority: int


@dataclass(frozen=True)
class PreemptionVerdict:
    needed: bool  # the assignment's mode is Preempt
    possible: bool  # victims exist
    victims: tuple[VictimSummary, ...]
    summary: str
    policies: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Holding:
    """What an admitted workload holds on one flavor-resource."""

    pod_set: str
    resource: str
    flavor: str
    amount: int
    cq_usage: int
    nominal: int
    borrowing: bool  # the ClusterQueue is above its nominal quota on this fr


class TopologyRow(NamedTuple):
    """A pod set on a TAS flavor: where Kueue places it now (or holds it), or why it cannot."""

    pod_set: str
    flavor: str | None
    topology_name: str | None
    mode: str  # Fit | Preempt | NoFit
    assignment: TopologyAssignment | None
    reason: str | None
    domains: DomainView | None = None  # a pod set Kueue's placement fails for: its candidate domains


def topology_rows(a: Assignment) -> tuple[TopologyRow, ...]:
    rows = []
    for ps in a.pod_sets:
        t = a.topology.get(ps.name)
        if t is None:
            continue
        mode = Mode.NoFit if ps.error is not None or not ps.flavors else min(fa.mode for fa in ps.flavors.values())
        rows.append(TopologyRow(ps.name, t.flavor, t.topology_name, mode.name, t.assignment, t.reason))
    return tuple(rows)


def _with_domain_views(assigner: FlavorAssigner, cq: ClusterQueueNode, a: Assignment,
                       rows: tuple[TopologyRow, ...]) -> tuple[TopologyRow, ...]:
    """Each TAS pod set Kueue's placement fails for (its failure text, no placement), with its
    candidate domains and the admitted workloads whose going would let it fit (those this
    workload's preemption policies allow evicting first, in Kueue's candidate order, then the
    others by name). Preempt means it fits with every TAS workload gone; NoFit that it does not."""
    state = assigner.snapshot.tas
    failed = {r.pod_set: r for r in rows if r.reason and r.assignment is None and r.flavor is not None}
    if state is None or not failed:
        return rows
    holders = _tas_holders(assigner, cq, a)
    views: dict[str, DomainView] = {}
    for flavor, requests in assigner.topology_requests(a).items():
        for tr in requests:
            row = failed.get(tr.name)
            if row is not None:
                view = domain_view(state, flavor, tr, holders, fits_when_empty=row.mode == Mode.Preempt.name)
                if view is not None:
                    views[tr.name] = view
    return tuple(r._replace(domains=views[r.pod_set]) if r.pod_set in views else r for r in rows)


def _tas_holders(assigner: FlavorAssigner, cq: ClusterQueueNode, a: Assignment) -> list[TASHolder]:
    snapshot = assigner.snapshot
    usage = {fr: v for fr, v in a.usage.items() if v}
    allowed = candidate_workloads(snapshot, cq, assigner.preemptor, a.frs_need_preemption(), usage) if (
        a.representative_mode == Mode.Preempt) else []
    first = [w for w in allowed if w.tas_usage]
    keys = {w.key for w in first}
    rest = sorted((w for q in snapshot.cluster_queues.values() for w in q.workloads.values()
                   if w.tas_usage and w.key not in keys), key=lambda w: w.key)
    return [TASHolder(w.key, w.tas_usage, True) for w in first] + [TASHolder(w.key, w.tas_usage, False) for w in rest]


def held_topology(snapshot: Snapshot, wl: Workload) -> tuple[TopologyRow, ...]:
    """An admitted workload's pod sets on TAS flavors: the assignments it holds."""
    if wl.admission is None or snapshot.tas is None:
        return ()
    rows = []
    for psa in wl.admission.pod_set_assignments:
        flavor = next((f for f in sorted(set(psa.flavors.values())) if snapshot.tas.is_tas_flavor(f)), None)
        if flavor is None:
            continue
        rf = snapshot.resource_flavors.get(flavor)
        rows.append(TopologyRow(psa.name, flavor, rf.topology_name if rf else None, "Fit", psa.topology_assignment,
                                None))
    return tuple(rows)


@dataclass(frozen=True)
class Explanation:
    workload: WorkloadSummary
    status: str  # Pending | Admitted | Finished | Inactive
    reason: str | None  # KEP-10852 reason (with UnadmittedWorkloadsObservability)
    condition_reason: str | None  # what this Kueue configuration writes (Pending when the gate is off)
    message: str  # Kueue's condition message
    verdict: str  # one line for humans
    blocker: Blocker | None = None
    cluster_queue_inactive: InactiveReason | None = None
    assignment: Assignment | None = None
    initial: InitialAssignment | None = None
    full_assignment: Assignment | None = None
    preemption: PreemptionVerdict | None = None
    holders: tuple[Holders, ...] = ()
    changes: tuple[Change, ...] = ()
    holdings: tuple[Holding, ...] = ()
    quota_tree: tuple[QuotaView, ...] = ()  # the short flavor-resources at the CQ and every ancestor
    ahead: tuple[str, ...] = ()  # pending workloads Kueue orders before this one in its ClusterQueue
    # admission fair sharing: (LocalQueue "ns/name", usage) of its own LocalQueue, then of each
    # LocalQueue with a workload ahead, lowest usage first (inf: weight 0); empty otherwise
    local_queue_usage: tuple[tuple[str, float], ...] = ()
    notes: tuple[str, ...] = ()
    fair_sharing: bool = False
    headline: Headline = Headline(PENDING)  # the first line: the verdict, its number, the next step
    topology: tuple[TopologyRow, ...] = ()  # topology-aware scheduling: one per TAS pod set

    @property
    def representative_mode(self) -> str | None:
        if self.status == ADMITTED:
            return "Fit"
        if self.assignment is None:
            return "NoFit" if self.status == PENDING else None
        return self.assignment.representative_mode.name

    @property
    def borrows(self) -> bool:
        if self.status == ADMITTED:
            return any(h.borrowing for h in self.holdings)
        return bool(self.assignment and self.assignment.borrows())


# ------------------------------------------------------------------------------ building ---

def _summary(cluster: KueueCluster, snapshot: Snapshot, wl: Workload, cq_name: str | None) -> WorkloadSummary:
    options = snapshot.options
    reqs = pod_set_requests(wl, options)
    pod_sets = []
    for ps, req in zip(wl.pod_sets, reqs, strict=False):
        tol = tuple(
            f"{t.key or '*'}{'=' + t.value if t.value else ''}:{t.effect or '*'}" for t in ps.pod.tolerations)
        pod_sets.append(PodSetSummary(ps.name, ps.count, ps.min_count, dict(req.per_pod), dict(ps.pod.node_selector),
                                      tol))
    cq = snapshot.cluster_queues.get(cq_name or "")
    path: tuple[str, ...] = tuple(cohort_path(cq)) if cq is not None else ()
    if cq is not None and not path and cq.spec.cohort:
        path = (cq.spec.cohort,)
    cond = wl.conditions.get("QuotaReserved")
    return WorkloadSummary(
        key=wl.key, namespace=wl.namespace, name=wl.name or "", uid=wl.uid, created=wl.creation_timestamp,
        queue_name=wl.queue_name, cluster_queue=cq_name, cohort_path=path,
        priority=workload_priority(cluster, wl, options.gates), pod_sets=tuple(pod_sets),
        condition_reason=cond.reason if cond is not None and cond.status == "False" else None,
        condition_message=cond.message if cond is not None and cond.status == "False" else None,
    )


def _holders(snapshot: Snapshot, cq: ClusterQueueNode, frs: list[tuple], top: int) -> tuple[Holders, ...]:
    out = []
    tree = [c for c in snapshot.cluster_queues.values()
            if c is not cq and cq.parent is not None and c.parent is not None and c.root() is cq.root()]
    for fr in frs:
        own = sorted((Holder(w.key, cq.name, w.priority, w.usage[fr], borrowing(cq, fr))
                      for w in cq.workloads.values() if w.usage.get(fr, 0) > 0),
                     key=lambda h: (-h.amount, h.workload))
        others = sorted((Holder(w.key, c.name, w.priority, w.usage[fr], c.parent is not None and borrowing(c, fr))
                         for c in tree for w in c.workloads.values() if w.usage.get(fr, 0) > 0),
                        key=lambda h: (-h.amount, h.workload))
        out.append(Holders(fr[0], fr[1], tuple(own[:top]), tuple(others[:top]),
                           sum(h.amount for h in own), sum(h.amount for h in others)))
    return tuple(out)


def _short_frs(assignment: Assignment) -> list[tuple]:
    """Flavor-resources that blocked the workload (in scan order, each once)."""
    seen: dict[tuple, None] = {}
    for ps in assignment.pod_sets:
        if ps.is_fit:
            continue
        for att in ps.attempts:
            for c in att.checks:
                if c.reason is not None:
                    seen.setdefault((c.flavor, c.resource), None)
    return list(seen)


def _preemption_verdict(cq: ClusterQueueNode, init: InitialAssignment, options: EngineOptions,
                        assigner: FlavorAssigner, kept_room: bool | None = None) -> PreemptionVerdict:
    p = cq.preemption
    policies = {"withinClusterQueue": p.within_cluster_queue, "reclaimWithinCohort": p.reclaim_within_cohort,
                "borrowWithinCohort": p.borrow_within_cohort_policy}
    if p.max_priority_threshold is not None:
        policies["maxPriorityThreshold"] = str(p.max_priority_threshold)
    a = init.assignment
    mode = a.representative_mode
    victims = tuple(VictimSummary(t.key, t.cluster_queue, t.reason, t.workload.priority) for t in init.targets)
    if mode == Mode.Fit and kept_room is False:
        return PreemptionVerdict(False, False, (), "not attempted: Kueue takes the kept flavors as fitting, so it "
                                 "never searches for victims", policies)
    if mode == Mode.Fit:
        return PreemptionVerdict(False, False, (), "not needed: the workload fits in the available quota", policies)
    if mode == Mode.Preempt and victims:
        n = len(victims)
        return PreemptionVerdict(True, True, victims,
                                 f"yes: Kueue would preempt {n} workload(s) and admit this one once they are gone",
                                 policies)
    if mode == Mode.Preempt:
        usage = {fr: v for fr, v in a.usage.items() if v}
        candidates = candidate_workloads(assigner.snapshot, cq, assigner.preemptor, a.frs_need_preemption(), usage)
        if candidates:
            names = ", ".join(w.key for w in candidates[:5]) + (", ..." if len(candidates) > 5 else "")
            summary = (f"could help in principle, but no set of victims makes it fit: the policies allow "
                       f"{len(candidates)} candidate(s) ({names}), yet evicting them does not free enough quota "
                       "within the ClusterQueue's limits")
        else:
            summary = "could help in principle, but Kueue finds no workload it may preempt" + _no_candidates_why(cq, options)
        return PreemptionVerdict(True, False, (), summary, policies)
    return PreemptionVerdict(False, False, (), "cannot help: " + _nofit_why(a), policies)


def _no_candidates_why(cq: ClusterQueueNode, options: EngineOptions) -> str:
    p = cq.preemption
    parts = []
    if p.within_cluster_queue == NEVER:
        parts.append("withinClusterQueue is Never")
    else:
        parts.append(f"no lower-priority workload in ClusterQueue {cq.name} qualifies ({p.within_cluster_queue})")
    if cq.parent is None:
        parts.append("the ClusterQueue has no cohort")
    elif p.reclaim_within_cohort == NEVER:
        parts.append("reclaimWithinCohort is Never")
    else:
        parts.append("no other ClusterQueue of the cohort is borrowing on these resources with eligible workloads")
    return " (" + "; ".join(parts) + ")"


def _nofit_why(a: Assignment) -> str:
    reason = a.no_fit_reason
    if reason == "ExceedsMaxQuota":
        return "the request is larger than anything the ClusterQueue could ever get (ExceedsMaxQuota)"
    if reason == "NoMatchingFlavor":
        return "no flavor matches the workload (NoMatchingFlavor)"
    if reason == TOPOLOGY_PLACEMENT_FAILED:
        return ("its pods fit no topology domain even with every workload placed by topology gone "
                "(TopologyPlacementFailed)")
    return ("the request is above the ClusterQueue's nominal quota and its preemption policies do not allow "
            "preempting while borrowing (WaitingForQuota)")


def _holdings(snapshot: Snapshot, cq: ClusterQueueNode | None, wl: Workload) -> tuple[Holding, ...]:
    out = []
    if wl.admission is None:
        return ()
    info = AdmittedWorkload(wl, cq.name if cq else (wl.admission.cluster_queue or ""), snapshot.cluster, snapshot.options)
    for name, _count, usage in info.pod_sets:
        for (flavor, res), amount in sorted(usage.items(), key=lambda kv: (kv[0][1], kv[0][0])):
            nominal = cq.nominal((flavor, res)) if cq else 0
            used = cq.usage.get((flavor, res), 0) if cq else 0
            out.append(Holding(name, res, flavor, amount, used, nominal,
                               bool(cq and cq.parent is not None and used > nominal)))
    return tuple(out)


def explain_workload(cluster: KueueCluster, snapshot: Snapshot, wl: Workload, *, top: int = 5,
                     counterfactual: bool = True, queues: QueueIndex | None = None,
                     domains: bool = True) -> Explanation:
    """The full explanation of one workload (``queues``: a prebuilt index when explaining many;
    ``domains``: the candidate topology domains of a TAS pod set placed nowhere, off for tables)."""
    if wl.is_finished:
        return _explain_finished(cluster, snapshot, wl)
    if wl.has_quota_reservation:
        return _explain_admitted(cluster, snapshot, wl)
    if not wl.active:
        return Explanation(_summary(cluster, snapshot, wl, None), INACTIVE, None, None, "",
                           "deactivated (spec.active: false): Kueue does not queue it until it is reactivated",
                           fair_sharing=snapshot.options.fair_sharing,
                           headline=Headline(INACTIVE, "deactivated (spec.active: false): set spec.active to true "
                                                       "to queue it again"))
    checked = queue_blocker(cluster, snapshot, wl)
    summary = _summary(cluster, snapshot, wl, checked.cluster_queue)
    blocker, notes = checked.blocker, []
    quota_note = effective_quotas_note(snapshot, checked.cluster_queue)
    if quota_note is not None:
        notes.append(quota_note)
    if blocker is None:  # queued: the scheduler's own checks when the workload is its queue's head
        nominated = nomination_check(cluster, snapshot.cluster_queues[checked.cluster_queue], wl)
        blocker = nominated.blocker
        if nominated.note:
            notes.append(nominated.note)
    if blocker is not None:
        return _explain_blocked(summary, blocker, checked.inactive, notes, snapshot.options)
    cq = snapshot.cluster_queues[checked.cluster_queue]
    notes += _pods_ready_wait(cluster, snapshot)
    return _explain_nominated(cluster, snapshot, wl, cq, summary, notes, top=top, counterfactual=counterfactual,
                              queues=queues, domains=domains)


def _pods_ready_wait(cluster: KueueCluster, snapshot: Snapshot) -> list[str]:
    """waitForPodsReady.blockAdmission (``scheduler.go waitForPodsReadyIfNeeded``): the scheduler
    reserves no quota while a quota holder lacks PodsReady=True."""
    if not snapshot.options.block_admission:
        return []
    waiting = sorted(key for cq in snapshot.cluster_queues.values() for key in cq.workloads
                     if key in cluster.workloads and not cluster.workloads[key].condition_true("PodsReady"))
    if not waiting:
        return []
    shown = ", ".join(waiting[:5]) + (f" and {len(waiting) - 5} more" if len(waiting) > 5 else "")
    return [f"waitForPodsReady.blockAdmission: Kueue reserves no quota for any workload until the pods of {shown} "
            "are ready (PodsReady=True) or they release their quota"]


def _explain_finished(cluster: KueueCluster, snapshot: Snapshot, wl: Workload) -> Explanation:
    summary = _summary(cluster, snapshot, wl, wl.admission.cluster_queue if wl.admission else None)
    return Explanation(summary, FINISHED, None, None, "", "finished: it holds no quota",
                       fair_sharing=snapshot.options.fair_sharing, headline=Headline(FINISHED, "it holds no quota"))


def _explain_admitted(cluster: KueueCluster, snapshot: Snapshot, wl: Workload) -> Explanation:
    """What an admitted workload holds, and whether its ClusterQueue borrows for it."""
    notes: list[str] = []
    cq_name = wl.admission.cluster_queue if wl.admission else None
    cq = snapshot.cluster_queues.get(cq_name or "")
    summary = _summary(cluster, snapshot, wl, cq_name)
    holdings = _holdings(snapshot, cq, wl)
    if cq is None:
        notes.append(f"ClusterQueue {cq_name} is not in the input: Kueue's cache cannot account this workload")
    borrowed = sorted({f"{h.resource} ({h.flavor})" for h in holdings if h.borrowing})
    admitted = wl.condition_true("Admitted")
    verdict = (f"{'admitted' if admitted else 'holds a quota reservation'} in ClusterQueue {cq_name}"
               + ("; its ClusterQueue is borrowing from the cohort on " + ", ".join(borrowed)
                  if borrowed else "; within its ClusterQueue's nominal quota"))
    waits = _waits_for_checks(cq, wl, holdings) if not admitted and cq is not None else ""
    if waits:
        verdict += f"; {waits}"
        notes.append(f"two-phase admission: it holds its quota reservation and {waits}")
    if wl.condition_true("Evicted"):
        notes.append("an eviction is in progress (Evicted=True); the quota is released when its pods stop")
    flavors = sorted({h.flavor for h in holdings})
    line = Headline(headline.admitted(cq_name, flavors, reserved_only=not admitted),
                    f"its ClusterQueue borrows from the cohort on {', '.join(borrowed)}" if borrowed else waits)
    return Explanation(summary, ADMITTED, None, None, "", verdict, holdings=holdings, notes=tuple(notes),
                       fair_sharing=snapshot.options.fair_sharing, headline=line,
                       topology=held_topology(snapshot, wl))


def _waits_for_checks(cq: ClusterQueueNode, wl: Workload, holdings: tuple[Holding, ...]) -> str:
    """Two-phase admission: the checks a reserved workload waits on before it is Admitted
    (``AdmissionChecksForWorkload``, ``SyncAdmittedCondition``), while it holds its quota."""
    waits = waiting_checks(cq.spec.admission_checks, {h.flavor for h in holdings}, wl.admission_checks)
    if not waits:
        return ""
    said = "; ".join(f"{c.name} ({c.state}{': ' + c.message if c.message else ''})" for c in waits)
    return f"waits on admission check {said} before it is Admitted"


def _explain_blocked(summary: WorkloadSummary, blocker: Blocker, inactive: InactiveReason | None, notes: list[str],
                     options: EngineOptions) -> Explanation:
    """A workload stopped by the queue or nomination checks, before any flavor assignment."""
    changes = (Change("config", blocker.fix, verified=False),) if blocker.fix else ()
    return Explanation(summary, PENDING, blocker.reason, condition_reason(blocker.reason, options),
                       blocker.message, blocker.detail, blocker=blocker, cluster_queue_inactive=inactive,
                       changes=changes, notes=tuple(notes), fair_sharing=options.fair_sharing,
                       headline=Headline(PENDING, headline.blocked(blocker.detail, blocker.fix)))


class _PendingVerdict(NamedTuple):
    reason: str | None  # KEP-10852 reason (None: it fits)
    message: str  # Kueue's condition message
    verdict: str  # one line for humans


def _explain_nominated(cluster: KueueCluster, snapshot: Snapshot, wl: Workload, cq: ClusterQueueNode,
                       summary: WorkloadSummary, notes: list[str], *, top: int, counterfactual: bool, domains: bool,
                       queues: QueueIndex | None) -> Explanation:
    """A workload that gets to the flavor assignment: its assignment, victims, holders, changes."""
    options = snapshot.options
    assigner = make_assigner(cluster, snapshot, wl, cq)
    init = initial_assignment(assigner)
    a = init.assignment
    kept_room = None
    if assigner.preset:
        kept_room = all(v <= cq_available(cq, fr) for fr, v in a.usage.items() if v)
        notes.append("it still carries status.admission, so Kueue takes that admission's flavors again without a "
                     "flavor scan or a preemption search; only the check at admission tells whether they have room")
    reason, message, verdict = _pending_verdict(cq, init, kept_room)
    if init.partial:
        counts = ", ".join(f"{ps.name}={ps.count}" for ps in a.pod_sets)
        verdict = f"partial admission: the full size does not fit, so Kueue reduces the pod counts ({counts}); " + verdict
        notes.append(f"partial admission: the full size does not fit; Kueue reduces the pod counts to {counts}")
    short = _short_frs(init.full if init.partial else a)
    holders = _holders(snapshot, cq, short, top) if short else ()
    ahead_of = queues.ahead(wl) if queues is not None else ahead_in_queue(cluster, wl, options, snapshot.afs)
    ahead = tuple(w.key for w in ahead_of)
    lq_usage = _local_queue_usage(snapshot.afs, wl, ahead_of)
    if ahead:
        notes.append(_ahead_note(cq, len(ahead), bool(lq_usage)))
    if lq_usage:
        notes.append(_usage_note(cq, lq_usage))
    changes: tuple[Change, ...] = ()
    if counterfactual and init.full.representative_mode != Mode.Fit:
        changes = tuple(find_changes(assigner, init))
    return Explanation(
        summary, PENDING, reason, condition_reason(reason, options), message, verdict,
        assignment=a, initial=init, full_assignment=init.full if init.partial else None,
        preemption=_preemption_verdict(cq, init, options, assigner, kept_room), holders=holders, changes=changes,
        quota_tree=tuple(cq_quota_views(cq, short)), ahead=ahead, local_queue_usage=lq_usage, notes=tuple(notes),
        fair_sharing=options.fair_sharing,
        headline=Headline(PENDING, _pending_headline(cq, init, reason, kept_room, holders, changes, len(ahead))),
        topology=_with_domain_views(assigner, cq, a, topology_rows(a)) if domains else topology_rows(a),
    )


def _pending_headline(cq: ClusterQueueNode, init: InitialAssignment, reason: str | None, kept_room: bool | None,
                      holders: tuple[Holders, ...], changes: tuple[Change, ...], ahead: int) -> str:
    """What the verdict line says after "Pending —": the number that decides and the next step."""
    a = init.assignment
    mode = a.representative_mode
    if mode == Mode.Fit and kept_room is not False:
        lender = cq.parent.name if cq.parent is not None and (
            a.borrows() or (kept_room and any(borrowing_with(cq, fr, v) for fr, v in a.usage.items() if v))) else None
        reduced = ", ".join(f"{ps.name} {ps.count} pods" for ps in a.pod_sets) if init.partial else None
        return headline.fits(ahead, lender, reduced)
    if mode == Mode.Preempt and init.targets:
        return headline.preempting([(t.key, t.reason) for t in init.targets])
    if reason == "ExceedsMaxQuota":
        return headline.exceeds_max_quota(init.full if init.partial else a, cq.name)
    if reason == "NoMatchingFlavor":
        eligibility = [att.eligibility for ps in a.pod_sets for att in ps.attempts if att.eligibility]
        return headline.no_matching_flavor(cq.name, eligibility, next((c.description for c in changes), None))
    if reason == TOPOLOGY_PLACEMENT_FAILED:
        why = next((t.reason for t in a.topology.values() if t.reason), "")
        return "its pods fit no topology domain, even with every workload placed by topology gone: " + why
    if mode == Mode.Fit:  # kept flavors without room: skipped at admission each cycle
        return ("waiting for room in the flavors of its earlier admission: Kueue neither tries other flavors nor "
                "preempts for it")
    held = {(h.flavor, h.resource): [f"{x.workload} ({format_amount(h.resource, x.amount)} {h.resource})"
                                     for x in (*h.in_cluster_queue, *h.in_cohort)] for h in holders}
    text = headline.waiting_for(headline.short_of(init.full if init.partial else a), held)
    if mode == Mode.Preempt:
        return text + "; no workload it may preempt would free it"
    return text + "; preemption cannot free it"


def _pending_verdict(cq: ClusterQueueNode, init: InitialAssignment, kept_room: bool | None) -> _PendingVerdict:
    """Kueue's reason and message for the assignment's mode, and our one-line verdict."""
    a = init.assignment
    mode = a.representative_mode
    message = a.message()
    if mode == Mode.Fit and kept_room is False:
        return _PendingVerdict(WAITING_FOR_QUOTA, MSG_NO_LONGER_FITS,
                               "waiting for quota: the flavors of its earlier admission have no room now, and Kueue "
                               "neither tries other flavors nor preempts for it: each cycle it is skipped at admission")
    if mode == Mode.Fit:
        verdict = f"fits now: Kueue admits it to ClusterQueue {cq.name} when it reaches the head of its queue"
        if a.borrows() or (kept_room and any(borrowing_with(cq, fr, v) for fr, v in a.usage.items() if v)):
            verdict += f" (borrowing from cohort {cq.parent.name})" if cq.parent else ""
        return _PendingVerdict(None, message, verdict)
    if mode == Mode.Preempt and init.targets:
        n = len(init.targets)
        return _PendingVerdict(WAITING_FOR_PREEMPTED_WORKLOADS, pending_preemption(message, n),
                               f"needs preemption: Kueue would evict {n} workload(s) to make room")
    if mode == Mode.Preempt:
        return _PendingVerdict(WAITING_FOR_QUOTA, message,
                               "waiting for quota: it would fit after preemption, but nothing can be preempted")
    reason = a.no_fit_reason or WAITING_FOR_QUOTA
    verdict = {"ExceedsMaxQuota": "can never fit as configured: the request exceeds the maximum capacity",
               "NoMatchingFlavor": "no flavor of the ClusterQueue matches the workload",
               TOPOLOGY_PLACEMENT_FAILED: "quota fits, topology does not: its pods fit no topology domain, even "
                                          "with every workload placed by topology gone",
               }.get(reason, "waiting for quota: not enough unused quota, and preemption cannot help")
    return _PendingVerdict(reason, message, verdict)


def _local_queue_usage(afs: AfsLedger | None, wl: Workload, ahead: list[Workload]) -> tuple[tuple[str, float], ...]:
    """Admission fair sharing: the usage of ``wl``'s LocalQueue, then of the LocalQueues of the
    workloads ahead of it (lowest first: the order Kueue takes them in); () when its ClusterQueue
    does not use it."""
    own = afs.workload_usage(wl) if afs is not None else None
    if afs is None or own is None:
        return ()
    mine = lq_name(lq_key_of(wl))
    others = {lq_name(lq_key_of(w)): afs.usage(lq_key_of(w)) for w in ahead}
    others.pop(mine, None)
    return ((mine, own),) + tuple(sorted(others.items(), key=lambda kv: (kv[1], kv[0])))


def _usage_note(cq: ClusterQueueNode, usage: tuple[tuple[str, float], ...]) -> str:
    (mine, own), others = usage[0], usage[1:]
    text = (f"admission fair sharing: ClusterQueue {cq.name} takes the workloads of the LocalQueue with the lowest "
            f"usage first; its LocalQueue {mine} has usage {format_usage(own)}")
    lower = [f"{name} {format_usage(u)}" for name, u in others if u < own]
    if lower:
        text += "; workloads ahead come from LocalQueues with lower usage: " + ", ".join(lower)
    return text


def _ahead_note(cq: ClusterQueueNode, ahead: int, by_usage: bool = False) -> str:
    strategy = cq.spec.queueing_strategy
    why = "lower LocalQueue usage, higher priority or queued earlier" if by_usage else "higher priority or queued earlier"
    return (f"{ahead} pending workload(s) of ClusterQueue {cq.name} come before it in the queue "
            f"({why}; {strategy}): Kueue looks at one head per ClusterQueue per "
            "scheduling cycle" + (", and a StrictFIFO head that does not fit blocks the ones behind it"
                                  if strategy == "StrictFIFO" else ""))


@dataclass(frozen=True)
class QuotaRow:
    """One row of the quota table for a tried flavor-resource (request vs quota, verdict)."""

    pod_set: str
    resource: str
    flavor: str
    request: int
    previous: int
    nominal: int
    borrowing_limit: int | None
    used: int
    borrowable: int  # what the cohort could still lend (available - free nominal)
    available: int
    potential_available: int
    verdict: str  # Fit / Preempt / Reclaim / NoCandidates / NoFit / the eligibility text
    borrow: int
    reason: str | None
    chosen: bool
    borrows_from: str | None = None  # the cohort at the borrowing level (None: no borrowing)


def quota_rows(e: Explanation) -> list[QuotaRow]:
    """The per-pod-set table: every flavor tried for every requested resource."""
    rows: list[QuotaRow] = []
    if e.assignment is None:
        return rows
    for ps in e.assignment.pod_sets:
        for att in ps.attempts:
            chosen_flavors = {fa.flavor for fa in ps.flavors.values()}
            if att.eligibility is not None:
                rows.append(QuotaRow(ps.name, "*", att.flavor, 0, 0, 0, None, 0, 0, 0, 0, "NoFit", 0,
                                     att.eligibility, False))
                continue
            for c in att.checks:
                rows.append(_row(ps.name, c, att.flavor in chosen_flavors, e.workload.cohort_path))
        for res in ps.uncovered:
            rows.append(QuotaRow(ps.name, res, "-", ps.requests.get(res, 0), 0, 0, None, 0, 0, 0, 0, "NoFit", 0,
                                 f"resource {res} unavailable in ClusterQueue", False))
    return rows


def _row(ps_name: str, c: QuotaCheck, chosen: bool, cohorts: tuple[str, ...]) -> QuotaRow:
    """``cohorts``: the ClusterQueue's cohort path, root first (borrowing level n is n up from it)."""
    free_nominal = max(0, c.nominal - c.usage)
    lender = cohorts[-c.borrow] if 0 < c.borrow <= len(cohorts) else None
    return QuotaRow(ps_name, c.resource, c.flavor, c.request, c.previous, c.nominal, c.borrowing_limit, c.usage,
                    max(0, c.available - free_nominal), c.available, c.potential_available, c.mode.label, c.borrow,
                    c.reason, chosen, lender)


def cq_quota_views(cq: ClusterQueueNode, frs) -> list[QuotaView]:
    """Quota views of the ClusterQueue and each ancestor cohort for the given frs."""
    out = []
    for fr in frs:
        out.extend(quota_views_to_root(cq, fr))
    return out
