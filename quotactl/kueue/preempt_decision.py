"""The model behind ``quotactl preempt``: which workloads Kueue would evict for a pending one,
and why, as data (frozen dataclasses; renderers only format them).

It follows the scheduler's own path for the named workload: the queue and nomination checks and
the flavor assignment of ``explain`` (with its preemption oracle), then ``GetTargets`` on that
very assignment, run a second time with tracing on so that every candidate Kueue looked at,
skipped, removed or put back is reported with the rule that decided it.  Nothing here re-implements a Kueue rule: the victims are exactly what
``targets.get_targets`` returns, and the explanations come from the same functions.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace

from quotactl.kueue.amounts import format_amount
from quotactl.kueue.assign import (
    EXCEEDS_MAX_QUOTA,
    NO_MATCHING_FLAVOR,
    Assignment,
    FlavorAssigner,
    Mode,
    initial_assignment,
)
from quotactl.kueue.explain import (
    ADMITTED,
    PENDING,
    Explanation,
    TopologyRow,
    explain_workload,
    held_topology,
    topology_rows,
)
from quotactl.kueue.nomination import make_assigner
from quotactl.kueue.preemption.common import (
    HUMAN_READABLE_REASONS,
    Shortfall,
    Target,
    TraceEvent,
)
from quotactl.kueue.preemption.fairsharing import share_value
from quotactl.kueue.preemption.policy import NEVER
from quotactl.kueue.preemption.targets import get_targets
from quotactl.kueue.quota import (
    ClusterQueueNode,
    QuotaNode,
    Snapshot,
    available,
    borrowing,
    cq_available,
    cq_path,
    dominant_resource_share,
)
from quotactl.kueue.reasons import WAITING_FOR_PREEMPTED_WORKLOADS, WAITING_FOR_QUOTA, pending_preemption
from quotactl.model.kueue import KueueCluster, Workload

JOB_UID_LABEL = "kueue.x-k8s.io/job-uid"

# Why nothing is preempted (``Blocking.rule``); documented in docs/preempt.md.
RULE_NOT_PENDING = "NotPending"  # admitted, finished or deactivated
RULE_BLOCKED = "Blocked"  # never reaches flavor assignment (queue / nomination checks)
RULE_FITS = "Fits"  # no preemption needed
RULE_EXCEEDS_MAX_QUOTA = "ExceedsMaxQuota"
RULE_NO_MATCHING_FLAVOR = "NoMatchingFlavor"
RULE_NO_PREEMPTION_WHILE_BORROWING = "NoPreemptionWhileBorrowing"  # request > nominal: the borrowing gate of flavor assignment
RULE_POLICY_NEVER = "PolicyNever"
RULE_NO_LOWER_PRIORITY = "NoLowerPriority"
RULE_NOTHING_TO_RECLAIM = "NothingToReclaim"
RULE_BORROW_WITHIN_COHORT = "BorrowWithinCohort"  # off, or threshold / priority: no victims while borrowing
RULE_FAIR_SHARING = "FairSharingStrategy"
RULE_NOT_ENOUGH = "NotEnoughCandidates"

_RULE_SUMMARY = {
    RULE_EXCEEDS_MAX_QUOTA: "the request exceeds what the ClusterQueue could ever get",
    RULE_NO_MATCHING_FLAVOR: "no flavor matches the workload",
    RULE_NO_PREEMPTION_WHILE_BORROWING: "the request is above nominal quota and preemption while borrowing is off",
    RULE_POLICY_NEVER: "the preemption policies are Never",
    RULE_NO_LOWER_PRIORITY: "no workload has a lower priority",
    RULE_NOTHING_TO_RECLAIM: "nothing to reclaim",
    RULE_BORROW_WITHIN_COHORT: "it would borrow, and borrowWithinCohort does not allow these victims then",
    RULE_FAIR_SHARING: "the fair-sharing strategies protect every candidate",
    RULE_NOT_ENOUGH: "evicting every candidate would still not make room",
}


@dataclass(frozen=True)
class Freed:
    flavor: str
    resource: str
    amount: int


@dataclass(frozen=True)
class Victim:
    workload: str
    cluster_queue: str
    path: str  # Kueue's preemptee path: /cohorts.../cq
    priority: int
    admitted_since: str | None  # QuotaReserved=True lastTransitionTime
    evicted: bool  # already Evicted=True (Kueue counts it without a second update)
    freed: tuple[Freed, ...]
    reason: str
    message: str  # the Preempted condition message Kueue writes
    topology: tuple[TopologyRow, ...] = ()  # the topology assignments it holds: the domains it frees


@dataclass(frozen=True)
class Step:
    """One step of the victim search (a ``TraceEvent`` with the workload's facts)."""

    action: str  # removed | skipped | deferred | rejected | put-back | kept
    workload: str
    cluster_queue: str
    priority: int
    admitted_since: str | None
    detail: str
    reason: str | None = None  # the Preempted reason it would get (removed / kept)
    preemptor_share: float | None = None
    target_share: float | None = None
    target_share_after: float | None = None
    strategy: str | None = None


@dataclass(frozen=True)
class Attempt:
    """One run of the search: classical runs with or without borrowing; fair sharing has one."""

    allow_borrowing: bool
    fits: bool
    steps: tuple[Step, ...]
    shortfall: tuple[Shortfall, ...] = ()


@dataclass(frozen=True)
class Exclusion:
    """Workloads that were never candidates, grouped by the rule that excludes them."""

    why: str
    workloads: tuple[str, ...]


@dataclass(frozen=True)
class UsageRow:
    """Quota of one node on one flavor-resource now and once the victims are gone and the
    workload is admitted."""

    node: str
    kind: str  # ClusterQueue | Cohort
    flavor: str
    resource: str
    quota: int  # SubtreeQuota (a ClusterQueue's nominal)
    usage_before: int
    usage_after: int
    available_before: int
    available_after: int  # after the evictions, before the workload is added
    borrowing_after: bool


@dataclass(frozen=True)
class ShareRow:
    node: str
    kind: str
    before: float | None  # weighted share now (None = +Inf)
    after: float | None  # after the evictions and the admission


@dataclass(frozen=True)
class Blocking:
    rule: str
    message: str


@dataclass(frozen=True)
class PreemptDecision:
    explanation: Explanation  # the workload, its assignment and Kueue's message (from explain)
    victims: tuple[Victim, ...]
    attempts: tuple[Attempt, ...]
    excluded: tuple[Exclusion, ...]
    usage: tuple[UsageRow, ...]
    shares: tuple[ShareRow, ...]
    blocking: Blocking | None
    policies: dict
    frs_need_preemption: tuple[tuple[str, str], ...]
    fair_sharing: bool
    strategies: tuple[str, ...]
    message: str  # Kueue's QuotaReserved message for the preemptor
    summary: str  # one line for humans
    pinned: tuple[tuple[str | None, str, str], ...] = ()  # what-if flavors (pod set, resource, flavor)
    # the workload's TAS pod sets as explain shows them; with victims, placed once they are gone
    topology: tuple[TopologyRow, ...] = ()

    @property
    def workload(self) -> str:
        return self.explanation.workload.key

    @property
    def cluster_queue(self) -> str | None:
        return self.explanation.workload.cluster_queue

    @property
    def representative_mode(self) -> str | None:
        return self.explanation.representative_mode


# ------------------------------------------------------------------------------ building ---

def _iso(wl) -> str | None:
    c = wl.workload.conditions.get("QuotaReserved")
    return c.last_transition_time if c is not None and c.status == "True" else None


def victim_message(preemptor: Workload, target: Target, snapshot: Snapshot, cq: ClusterQueueNode) -> str:
    """The Preempted condition message."""
    uid = preemptor.uid or "UNKNOWN"
    job = preemptor.labels.get(JOB_UID_LABEL) or "UNKNOWN"
    why = HUMAN_READABLE_REASONS.get(target.reason, target.reason)
    victim_cq = snapshot.cluster_queues.get(target.cluster_queue)
    victim_path = cq_path(victim_cq) if victim_cq is not None else "/" + target.cluster_queue
    return (f"Preempted to accommodate a workload (UID: {uid}, JobUID: {job}) due to {why}; "
            f"preemptor path: {cq_path(cq)}; preemptee path: {victim_path}")


def _victims(wl: Workload, targets, snapshot: Snapshot, cq: ClusterQueueNode) -> tuple[Victim, ...]:
    out = []
    for t in sorted(targets, key=lambda t: t.key):
        w = t.workload
        freed = tuple(Freed(f, r, v) for (f, r), v in sorted(w.usage.items(), key=lambda kv: (kv[0][1], kv[0][0]))
                      if v)
        victim_cq = snapshot.cluster_queues.get(t.cluster_queue)
        out.append(Victim(t.key, t.cluster_queue, cq_path(victim_cq) if victim_cq else "/" + t.cluster_queue,
                          w.priority, _iso(w), w.evicted, freed, t.reason,
                          victim_message(wl, t, snapshot, cq), held_topology(snapshot, w.workload)))
    return tuple(out)


def _steps_and_attempts(trace: list[TraceEvent], snapshot: Snapshot, fair: bool
                        ) -> tuple[tuple[Attempt, ...], tuple[Exclusion, ...]]:
    excluded: dict[str, list[str]] = {}
    attempts: list[Attempt] = []
    steps: list[Step] = []
    allow: bool | None = True if fair else None
    started = fair

    def close(fits: bool, short=()) -> None:
        nonlocal steps
        attempts.append(Attempt(bool(allow), fits, tuple(steps), tuple(short)))
        steps = []

    for ev in trace:
        if ev.kind == "excluded":
            excluded.setdefault(ev.detail, []).append(ev.workload)
            continue
        if ev.kind == "attempt":
            allow = ev.allow_borrowing
            started = True
            continue
        if ev.kind == "fits":
            continue  # the add-back steps follow; the attempt closes at the end
        if ev.kind == "exhausted":
            close(False, ev.shortfall)
            continue
        if not started:
            continue
        wl = snapshot.workload(ev.workload) if ev.workload else None
        # A ShareCheck's fields are the Step's share fields, by name.
        shares = asdict(ev.shares) if ev.shares is not None else {}
        steps.append(Step(ev.kind, ev.workload or "", ev.cluster_queue or "", wl.priority if wl else 0,
                          _iso(wl) if wl else None, ev.detail, ev.reason, **shares))
    if steps or (started and not attempts and any(e.kind == "fits" for e in trace)):
        close(True)
    exclusions = tuple(Exclusion(why, tuple(sorted(set(wls)))) for why, wls in
                       sorted(excluded.items(), key=lambda kv: (-len(kv[1]), kv[0])))
    return tuple(attempts), exclusions


def _nodes_on_paths(snapshot: Snapshot, cqs: list[ClusterQueueNode]) -> list[QuotaNode]:
    out: list[QuotaNode] = []
    seen: set[int] = set()
    for cq in cqs:
        for node in [cq, *cq.path_parent_to_root()]:
            if id(node) not in seen:
                seen.add(id(node))
                out.append(node)
    return out


def _usage_and_shares(snapshot: Snapshot, cq: ClusterQueueNode, assignment: Assignment, targets,
                      fair: bool) -> tuple[tuple[UsageRow, ...], tuple[ShareRow, ...]]:
    usage = {fr: v for fr, v in assignment.usage.items() if v}
    victim_cqs = [snapshot.cluster_queues[t.cluster_queue] for t in targets]
    nodes = _nodes_on_paths(snapshot, [cq, *victim_cqs])
    frs = list(dict.fromkeys([*usage, *(fr for t in targets for fr, v in t.workload.usage.items() if v)]))
    frs.sort(key=lambda fr: (fr[1], fr[0]))

    def avail(node: QuotaNode, fr) -> int:
        return cq_available(node, fr) if isinstance(node, ClusterQueueNode) else available(node, fr)

    before = {(id(n), fr): (n.usage.get(fr, 0), avail(n, fr)) for n in nodes for fr in frs}
    share_before = {id(n): dominant_resource_share(n) for n in nodes} if fair else {}
    for t in targets:
        snapshot.remove_workload(t.workload)
    try:
        freed_avail = {(id(n), fr): avail(n, fr) for n in nodes for fr in frs}
        snapshot.add_usage(cq, usage)
        try:
            rows = []
            for n in nodes:
                for fr in frs:
                    if n.subtree_quota.get(fr) is None and not n.usage.get(fr) and not before[(id(n), fr)][0]:
                        continue  # the node has nothing to do with this flavor-resource
                    ub, ab = before[(id(n), fr)]
                    rows.append(UsageRow(n.name, "Cohort" if n.is_cohort else "ClusterQueue", fr[0], fr[1],
                                         n.subtree_quota.get(fr, 0), ub, n.usage.get(fr, 0), ab,
                                         freed_avail[(id(n), fr)], n.parent is not None and borrowing(n, fr)))
            shares = tuple(ShareRow(n.name, "Cohort" if n.is_cohort else "ClusterQueue",
                                    share_value(share_before[id(n)]), share_value(dominant_resource_share(n)))
                           for n in nodes if n.parent is not None) if fair else ()
        finally:
            snapshot.remove_usage(cq, usage)
    finally:
        for t in targets:
            snapshot.add_workload(t.workload)
    return tuple(rows), shares


def _policies(cq: ClusterQueueNode) -> dict:
    p = cq.preemption
    out = {"withinClusterQueue": p.within_cluster_queue, "reclaimWithinCohort": p.reclaim_within_cohort,
           "borrowWithinCohort": p.borrow_within_cohort_policy or NEVER}
    if p.max_priority_threshold is not None:
        out["maxPriorityThreshold"] = p.max_priority_threshold
    return out


def _frs(frs) -> str:
    return ", ".join(f"{r} in flavor {f}" for f, r in sorted(frs, key=lambda fr: (fr[1], fr[0])))


def _no_fit_blocking(a: Assignment, cq: ClusterQueueNode, fair: bool) -> Blocking:
    reason = a.no_fit_reason
    if reason == EXCEEDS_MAX_QUOTA:
        return Blocking(RULE_EXCEEDS_MAX_QUOTA, "the request is larger than anything the ClusterQueue could ever get "
                        "(ExceedsMaxQuota): no preemption can make room")
    if reason == NO_MATCHING_FLAVOR:
        return Blocking(RULE_NO_MATCHING_FLAVOR, "no flavor of the ClusterQueue matches the workload "
                        "(NoMatchingFlavor): preemption cannot help")
    over = []
    for ps in a.pod_sets:
        for att in ps.attempts:
            for c in att.checks:
                if c.no_fit_reason == "WaitingForQuota":
                    over.append(f"{c.resource} in flavor {c.flavor}: request {format_amount(c.resource, c.value)} > "
                                f"nominal {format_amount(c.resource, c.nominal)}")
    p = cq.preemption
    how = ("set preemption.borrowWithinCohort.policy: LowerPriority" if not fair
           else "set preemption.reclaimWithinCohort (fair sharing then preempts while borrowing)")
    if p.reclaim_within_cohort == NEVER and not fair:
        how = "set reclaimWithinCohort and borrowWithinCohort"
    return Blocking(RULE_NO_PREEMPTION_WHILE_BORROWING,
                    "the request is above the ClusterQueue's nominal quota ("
                    + ("; ".join(dict.fromkeys(over)) or "every flavor")
                    + ") and Kueue only preempts for such a request when it may preempt while borrowing "
                    f"(Kueue's flavor assigner, fitsResourceQuota): {how}")


def _shortfall_text(a: Attempt) -> str:
    parts = []
    for s in a.shortfall:
        r = s.resource
        if not a.allow_borrowing and s.request > s.nominal_headroom:
            left = format_amount(r, max(0, s.nominal_headroom))
            parts.append(f"{format_amount(r, s.request)} {r} in flavor {s.flavor} needed within the nominal quota, "
                         f"{left} of it left")
        else:
            parts.append(f"{format_amount(r, s.request)} {r} in flavor {s.flavor} needed, "
                         f"{format_amount(r, s.available)} available")
    return "; ".join(parts)


def _no_victims_blocking(cq: ClusterQueueNode, attempts: tuple[Attempt, ...], excluded: tuple[Exclusion, ...],
                         fair: bool, frs) -> Blocking:
    considered = [s for a in attempts for s in a.steps]
    p = cq.preemption
    if not considered:
        parts, rules = [], []
        whys = [e.why for e in excluded]
        own = p.within_cluster_queue
        if own == NEVER:
            parts.append("withinClusterQueue is Never")
            rules.append(RULE_POLICY_NEVER)
        elif any("withinClusterQueue" in w and "priority" in w for w in whys):
            parts.append(f"no workload of ClusterQueue {cq.name} using {_frs(frs)} qualifies under "
                         f"withinClusterQueue {own} (none has lower priority)")
            rules.append(RULE_NO_LOWER_PRIORITY)
        else:
            parts.append(f"no workload of ClusterQueue {cq.name} uses {_frs(frs)}")
            rules.append(RULE_NOTHING_TO_RECLAIM)
        if cq.parent is None:
            parts.append("the ClusterQueue has no cohort to reclaim from")
        elif p.reclaim_within_cohort == NEVER:
            parts.append("reclaimWithinCohort is Never")
            rules.append(RULE_POLICY_NEVER)
        elif any("reclaimWithinCohort" in w and "priority" in w for w in whys):
            parts.append(f"the ClusterQueues that borrow {_frs(frs)} run nothing with lower priority "
                         f"(reclaimWithinCohort {p.reclaim_within_cohort})")
            rules.append(RULE_NO_LOWER_PRIORITY)
        else:
            parts.append(f"nothing to reclaim: no other ClusterQueue is borrowing {_frs(frs)}")
            rules.append(RULE_NOTHING_TO_RECLAIM)
        rule = next((r for r in (RULE_NO_LOWER_PRIORITY, RULE_NOTHING_TO_RECLAIM) if r in rules), RULE_POLICY_NEVER)
        if all(r == RULE_POLICY_NEVER for r in rules) or (own == NEVER and cq.parent is None):
            rule = RULE_POLICY_NEVER
        return Blocking(rule, "no workload may be preempted: " + "; ".join(parts))
    last = next((a for a in reversed(attempts) if a.shortfall), None)
    short_text = _shortfall_text(last) if last else ""
    if fair:
        held = [s for s in considered if s.action in ("deferred", "rejected")]
        if held:
            return Blocking(RULE_FAIR_SHARING,
                            f"the fair-sharing strategies reject {len({s.workload for s in held})} candidate(s) in "
                            "other ClusterQueues: with this workload admitted, the preemptor's side would not have a "
                            "lower share than theirs (last check: " + held[-1].detail + ")"
                            + (f"; still short: {short_text}" if short_text else ""))
        return Blocking(RULE_NOT_ENOUGH, "evicting every candidate would still not make room"
                        + (f": {short_text}" if short_text else ""))
    skipped_borrow = [s for a in attempts if a.allow_borrowing for s in a.steps
                      if s.action == "skipped" and s.detail.startswith("this run lets the preemptor borrow")]
    no_borrow = [a for a in attempts if not a.allow_borrowing]
    if skipped_borrow and (not no_borrow or any(s.request > s.nominal_headroom for a in no_borrow
                                                 for s in a.shortfall)):
        borrowing_run = next(a for a in attempts if a.allow_borrowing)
        short_text = _shortfall_text(borrowing_run) or short_text
        first = skipped_borrow[0]
        why = first.detail.split("borrowing (", 1)[-1].rstrip(")")
        return Blocking(RULE_BORROW_WITHIN_COHORT,
                        f"{len({s.workload for s in skipped_borrow})} candidate(s) in other ClusterQueues may only be "
                        "preempted if the workload then fits within its ClusterQueue's nominal quota, but it would "
                        "still have to borrow" + (f" ({short_text})" if short_text else "")
                        + f"; e.g. {first.workload}: {why}")
    return Blocking(RULE_NOT_ENOUGH, "evicting every candidate Kueue may take would still not make room"
                    + (f": {short_text}" if short_text else ""))


def _with_pinned_flavors(cluster: KueueCluster, snapshot: Snapshot, wl: Workload, e: Explanation,
                         cq: ClusterQueueNode, pinned: dict) -> Explanation:
    """What-if: the assignment when the flavor scan may only use the pinned flavors (the
    rest of Kueue's path unchanged), as the explanation of that assignment."""
    assigner = make_assigner(cluster, snapshot, wl, cq)
    assigner.pinned = dict(pinned)
    init = initial_assignment(assigner)
    a = init.assignment
    mode = a.representative_mode
    message = a.message()
    if mode == Mode.Fit:
        reason = None
    elif mode == Mode.Preempt and init.targets:
        reason = WAITING_FOR_PREEMPTED_WORKLOADS
        message = pending_preemption(message, len(init.targets))
    elif mode == Mode.Preempt:
        reason = WAITING_FOR_QUOTA
    else:
        reason = a.no_fit_reason or WAITING_FOR_QUOTA
    return replace(e, assignment=a, initial=init, message=message, reason=reason, topology=topology_rows(a))


def _topology_after_evictions(snapshot: Snapshot, assigner: FlavorAssigner, a: Assignment,
                              targets) -> tuple[TopologyRow, ...]:
    """The TAS placement of ``a`` once the victims are gone: Kueue's TAS-aware victim search
    (``workloadFits`` with the TAS check) picked them so that this placement exists."""
    if not a.topology:
        return ()
    for t in targets:
        snapshot.remove_workload(t.workload)
    try:
        placed = assigner.topology_now(a)
    finally:
        for t in targets:
            snapshot.add_workload(t.workload)
    return topology_rows(replace(a, topology=placed))


def check_pins(snapshot: Snapshot, cq_name: str | None, pinned: dict) -> str | None:
    """Why a ``--flavor`` pin cannot apply to the workload's ClusterQueue (None: it can)."""
    cq = snapshot.cluster_queues.get(cq_name or "")
    if cq is None:
        return None  # the report says why the workload never gets a flavor assignment
    for (_ps, res), flavor in pinned.items():
        rg = cq.rg_by_resource(res)
        if rg is None:
            return f"ClusterQueue {cq.name} does not cover resource {res}"
        if flavor not in rg.flavors:
            return (f"flavor {flavor} is not in ClusterQueue {cq.name}'s resource group for {res} "
                    f"(flavors: {', '.join(rg.flavors)})")
    return None


def decide(cluster: KueueCluster, snapshot: Snapshot, wl: Workload,
           pinned: dict[tuple[str | None, str], str] | None = None) -> PreemptDecision:
    """What Kueue would preempt for ``wl`` now, with the whole search explained.

    ``pinned`` ((pod set or None, resource) -> flavor) is a what-if: the flavor assigner only
    considers that flavor for the resource group covering the resource, e.g. to reproduce a
    Kueue unit test that hands ``GetTargets`` a pre-computed assignment."""
    options = snapshot.options
    e = explain_workload(cluster, snapshot, wl, counterfactual=False, domains=False)
    fair = options.fair_sharing
    strategies = tuple(options.preemption_strategies) if fair else ()
    cq = snapshot.cluster_queues.get(e.workload.cluster_queue or "")
    policies = _policies(cq) if cq is not None else {}

    pins = tuple(sorted(((ps, r, f) for (ps, r), f in (pinned or {}).items()), key=lambda t: (t[0] or "", t[1])))

    def result(victims=(), attempts=(), excluded=(), usage=(), shares=(), blocking=None, frs=(), summary="",
               topology=None):
        return PreemptDecision(e, victims, attempts, excluded, usage, shares, blocking, policies, tuple(frs), fair,
                               strategies, e.message, summary, pins, e.topology if topology is None else topology)

    if e.status != PENDING:
        what = {ADMITTED: "it already holds quota"}.get(e.status, e.verdict)
        return result(blocking=Blocking(RULE_NOT_PENDING, f"not pending: {what}; nothing to preempt"),
                      summary=f"nothing to preempt: the workload is {e.status.lower()}")
    if e.blocker is not None or e.assignment is None or cq is None:
        msg = e.blocker.detail if e.blocker is not None else e.verdict
        return result(blocking=Blocking(RULE_BLOCKED, f"Kueue never gets to flavor assignment: {msg}"),
                      summary="nothing to preempt: " + (e.blocker.message if e.blocker else e.verdict))
    if pinned:
        e = _with_pinned_flavors(cluster, snapshot, wl, e, cq, pinned)
    init = e.initial
    a = init.assignment
    mode = a.representative_mode
    if mode == Mode.Fit:
        rows, shares = _usage_and_shares(snapshot, cq, a, (), fair)
        return result(usage=rows, shares=shares,
                      blocking=Blocking(RULE_FITS, "no preemption needed: the workload fits in the available quota"),
                      summary="no preemption needed: it fits now" + (" (borrowing)" if a.borrows() else ""))
    if mode == Mode.NoFit:
        b = _no_fit_blocking(a, cq, fair)
        return result(blocking=b, summary=f"no preemption possible: {_RULE_SUMMARY[b.rule]} ({b.rule})")

    frs = sorted(a.frs_need_preemption(), key=lambda fr: (fr[1], fr[0]))
    usage = {fr: v for fr, v in a.usage.items() if v != 0}  # zero requests are irrelevant (#8079)
    assigner = make_assigner(cluster, snapshot, wl, cq)
    trace: list[TraceEvent] = []
    traced = get_targets(snapshot, cq, assigner.preemptor, set(frs), usage, trace, tas_fits=assigner.topology_fits(a))
    targets = list(init.targets)
    if sorted(t.key for t in traced) != sorted(t.key for t in targets):  # pragma: no cover - determinism guard
        raise RuntimeError("the traced victim search disagrees with the scheduler path")
    attempts, excluded = _steps_and_attempts(trace, snapshot, fair)
    victims = _victims(wl, targets, snapshot, cq)
    if victims:
        rows, shares = _usage_and_shares(snapshot, cq, a, targets, fair)
        n = len(victims)
        return result(victims, attempts, excluded, rows, shares, None, frs,
                      f"Kueue would preempt {n} workload(s) and admit this one once they are gone",
                      _topology_after_evictions(snapshot, assigner, a, targets))
    b = _no_victims_blocking(cq, attempts, excluded, fair, frs)
    return result((), attempts, excluded, (), (), b, frs,
                  f"no preemption possible: {_RULE_SUMMARY[b.rule]} ({b.rule})")
