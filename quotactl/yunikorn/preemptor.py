"""YuniKorn's preemptor, step for step (yunikorn-core ``preemption.go``, ``queue.go``
``findPreemptionFenceRoot`` / ``findEligiblePreemptionVictims``, the "Preemption Hardening" design).

``try_preemption`` runs ``Preemptor.TryPreemption`` for one ask on an immutable ``Cluster`` and
returns a frozen ``PreemptionResult`` that records every decision: the fence, the ask priority at
each queue, the candidate victims (and why others were not), the queue guarantee pre-check, the
victims each node would need, the node chosen through the shim's predicate check, the additional
victims, the final cut and YuniKorn's allocation-log message when it refuses.

Queue arithmetic (preemptable / remaining guaranteed) lives in ``quotactl.yunikorn.snapshot``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from quotactl.model.yunikorn_resources import (
    Resource,
    add,
    component_wise_min_permissive,
    equals,
    equals_or_empty,
    fit_in,
    fit_in_max_undef,
    format_resource,
    has_negative_value,
    match_any,
    strictly_greater_than_only_existing,
    sub_eliminate_negative,
)
from quotactl.yunikorn.cluster import Cluster, Node, Task, clamp_priority
from quotactl.yunikorn.predicates import placement_failure, preemption_predicates
from quotactl.yunikorn.snapshot import (
    QueueSnapshot,
    duplicate_snapshots,
    is_ask_queue_under_guaranteed,
    is_victim_queue_over_guaranteed,
)

# YuniKorn's allocation-log texts (pkg/common/errors.go).
PRECONDITIONS_FAILED = "Preemption preconditions failed"
GUARANTEES_FAILED = "Preemption queue guarantees check failed"
DOES_NOT_HELP = "Preemption does not help"
SHORTFALL = "Preemption helped but short of resources"
NOT_ENOUGH_QUEUE_QUOTA = "Not enough queue quota"
NOT_ENOUGH_USER_QUOTA = "Not enough user quota"
PREEMPTION_DISABLED = "Preemption is disabled for the partition"

PREDICATE_BATCH = 10  # preemptCheckBatchSize
SCORE_FIT_MAX = 1 << 32
SCORE_ORIGINATOR = 1 << 33
SCORE_NO_PREEMPT = 1 << 34
SCORE_UNFIT = (1 << 64) - 1


# --------------------------------------------------------------------------- results ---------

@dataclass(frozen=True)
class Candidate:
    """A potential victim: an allocation in a leaf below the fence that passed every filter."""

    key: str
    queue: str
    node: str | None
    priority: int
    compared_with: int  # the ask priority as seen at this queue
    fenced: bool  # in a priority-fenced subtree: eligible whatever its priority
    allow_preempt_self: bool
    originator: bool
    resource: Resource


@dataclass(frozen=True)
class Excluded:
    """A queue or allocation the candidate walk passed over, and why."""

    what: str  # queue path or ns/pod
    kind: str  # "queue" | "allocation"
    reason: str


@dataclass(frozen=True)
class GuaranteeCheck:
    passed: bool
    remaining: Resource | None  # the ask queue's remaining guarantee before the ask
    remaining_with_ask: Resource | None  # after adding the ask (and removing victims, when needed)
    victims_needed: bool  # the ask did not fit the remaining guarantee as it is
    reason: str


@dataclass(frozen=True)
class NodeCheck:
    """One node of ``tryNodes``: the victims ``calculateVictimsByNode`` ordered for it and the index
    after which the ask fits (-1: it fits as is), and what the shim's predicate check answered."""

    node: str
    start_index: int
    victims: tuple[str, ...]
    predicate_index: int | None = None  # None: not asked (batch stopped earlier)
    success: bool | None = None
    score: int | None = None
    reason: str | None = None


@dataclass(frozen=True)
class DroppedNode:
    node: str
    reason: str


@dataclass(frozen=True)
class Victim:
    key: str
    queue: str
    node: str | None
    priority: int
    resource: Resource
    application: str
    step: str  # "node" (victims on the chosen node) | "additional"


@dataclass(frozen=True)
class PreemptionResult:
    success: bool
    node: str | None  # the node reserved for the ask
    victims: tuple[Victim, ...]
    log: tuple[str, ...]  # allocation-log messages, in order
    refusal: str | None  # the most specific message when it fails
    ask_priority: int
    fence: str | None = None
    fence_reason: str | None = None
    priority_by_queue: tuple[tuple[str, int], ...] = ()  # ask priority seen at each queue, leaf -> fence
    candidates: tuple[Candidate, ...] = ()
    excluded: tuple[Excluded, ...] = ()
    guarantee_check: GuaranteeCheck | None = None
    dropped_nodes: tuple[DroppedNode, ...] = ()
    node_checks: tuple[NodeCheck, ...] = ()
    node_victims: tuple[str, ...] = ()
    additional_candidates: tuple[str, ...] = ()
    additional_victims: tuple[str, ...] = ()
    cut: tuple[str, ...] = ()  # the victims the final cut kept, in order
    cut_total: Resource = field(default_factory=dict)
    fits_after: bool | None = None  # the ask fits the reserved node once its victims there are gone
    queue_level_only: bool = False  # no Node objects: victims chosen by the queue rules only
    preconditions: tuple[str, ...] = ()  # why preconditions failed
    notes: tuple[str, ...] = ()


# --------------------------------------------------------------------------- helpers ---------

def effective_max(cluster: Cluster, path: str) -> Resource | None:
    """``GetMaxResource``: the component-wise minimum of the maxes along the path (root = cluster size)."""
    out: Resource | None = None
    for q in reversed(cluster.ancestors(path)):
        if q.max is None:
            continue
        out = component_wise_min_permissive(q.max, out) if out is not None else dict(q.max)
    return out


def headroom(cluster: Cluster, path: str) -> Resource | None:
    """``getHeadRoom``: max minus allocated (types of the max only), min'd up to root; None = unlimited."""
    out: Resource | None = None
    for q in reversed(cluster.ancestors(path)):
        if q.max is None:
            continue
        used = cluster.allocated(q.path)
        own = {k: v - used.get(k, 0) for k, v in q.max.items()}
        out = own if out is None else component_wise_min_permissive(own, out)
    return out


def victim_sort_key(t: Task):
    """``compareAllocationLess``: victims that allow preemption first, then non-originators, then
    the newest first (ties broken by key for a stable answer; YuniKorn's order is random there)."""
    score = (SCORE_NO_PREEMPT if not t.allow_preempt_self else 0) | (SCORE_ORIGINATOR if t.originator else 0)
    return (score, -t.create_time, t.key)


def solution_score(victims: list[Task], index: int) -> int:
    """``getSolutionScore``: index + 1, plus a penalty when a chosen victim is an originator or opted out."""
    if index < 0:
        return 0
    if index >= len(victims):
        return SCORE_UNFIT
    score = 0
    for v in victims[: index + 1]:
        if v.originator:
            score |= SCORE_ORIGINATOR
        if not v.allow_preempt_self:
            score |= SCORE_NO_PREEMPT
    return score + index + 1


# --------------------------------------------------------------------------- the preemptor ---

class _Preemptor:
    def __init__(self, cluster: Cluster, ask: Task, nodes_tried: bool):
        self.cluster = cluster
        self.ask = ask
        self.res = ask.resource
        self.queue_path = ask.queue or ""
        self.nodes_tried = nodes_tried
        self.snapshots: dict[str, QueueSnapshot] = {}
        self.priority_map: dict[str, int] = {}
        self.fence: str | None = None
        self.fence_reason: str | None = None
        self.candidates: list[Candidate] = []
        self.excluded: list[Excluded] = []
        self.queue_by_alloc: dict[str, str] = {}
        self.by_node: dict[str | None, list[Task]] = {}
        self.available: dict[str, Resource] = {}
        self.dropped: list[DroppedNode] = []
        self.tasks = {t.key: t for t in cluster.tasks}

    # ---------------------------------------------------------------- snapshots --------------
    def _snapshot(self, path: str) -> QueueSnapshot:
        """``createPreemptionSnapshot``: the queue and (first) its ancestors."""
        snap = self.snapshots.get(path)
        if snap is not None:
            return snap
        q = self.cluster.queues[path]
        parent = self._snapshot(q.parent) if q.parent else None
        snap = QueueSnapshot(path, q.guaranteed, dict(self.cluster.allocated(path)), {}, parent, leaf=q.leaf,
                             max=q.max)
        if parent is not None:
            parent.leaf = False
            snap.ask_queue = self.snapshots.get(self.queue_path)  # linked as it is created, once it exists
        self.snapshots[path] = snap
        return snap

    def _link_ask_queue(self) -> None:
        """Every snapshot but root's references the ask queue's (those created before it too)."""
        ask_snap = self.snapshots[self.queue_path]
        for snap in self.snapshots.values():
            if snap.parent is not None:  # root's snapshot is created before the ask queue's
                snap.ask_queue = ask_snap

    # ---------------------------------------------------------------- fence -------------------
    def find_fence(self) -> str:
        """``findPreemptionFenceRoot``: walk up from the ask's leaf, recording the ask priority as
        seen at each queue; stop at root, at ``preemption.policy: fence``, or at the first queue
        whose usage plus the ask would exceed its (effective) max."""
        p = self.ask.priority
        for q in self.cluster.ancestors(self.queue_path):
            p = q.priority_offset if q.priority_policy == "fence" else clamp_priority(p + q.priority_offset)
            self.priority_map[q.path] = p
            if q.is_root:
                self.fence_reason = "root"
                return q.path
            if q.preemption_policy == "fence":
                self.fence_reason = "preemption.policy: fence"
                return q.path
            emax = effective_max(self.cluster, q.path)
            used = add(self.cluster.allocated(q.path), self.res)
            if emax is not None and not fit_in_max_undef(emax, used):
                over = sorted(k for k in used if k in emax and used[k] > max(0, emax[k]))
                self.fence_reason = f"usage plus the ask exceeds its max ({', '.join(over)})"
                return q.path
        self.fence_reason = "root"
        return "root"

    # ---------------------------------------------------------------- candidates --------------
    def find_victims(self) -> None:
        """``FindEligiblePreemptionVictims``."""
        self.fence = self.find_fence()
        self._snapshot(self.queue_path)
        self._link_ask_queue()
        self._walk(self.fence, self.priority_map[self.fence], False)
        self._link_ask_queue()

    def _walk(self, path: str, ask_priority: int, fenced: bool) -> None:
        q = self.cluster.queues[path]
        if path == self.queue_path:
            return  # no preemption inside the ask's own leaf
        if q.leaf:
            self._leaf(path, ask_priority, fenced)
            return
        for child in q.children:
            c = self.cluster.queues[child]
            if child in self.priority_map:
                self._walk(child, self.priority_map[child], fenced)
            elif c.priority_policy == "fence":
                if c.priority_offset > ask_priority:
                    self.excluded.append(Excluded(child, "queue", f"priority fence with offset {c.priority_offset} "
                                                                   f"above the ask's priority {ask_priority} here"))
                    continue
                self._walk(child, ask_priority, True)
            else:
                self._walk(child, ask_priority - c.priority_offset, fenced)

    def _leaf(self, path: str, ask_priority: int, fenced: bool) -> None:
        q = self.cluster.queues[path]
        if q.preemption_policy == "disabled":
            self.excluded.append(Excluded(path, "queue", "preemption.policy: disabled"))
            return
        snap = self._snapshot(path)  # linked to the ask queue's snapshot as it is created
        remaining = snap.remaining_guaranteed()
        if remaining is not None and not has_negative_value(remaining):
            self.excluded.append(Excluded(path, "queue", "not above its guaranteed resources"))
            return
        victims: list[Task] = []
        for t in sorted(self.cluster.tasks_in(path), key=lambda t: (t.create_time, t.key)):
            if not t.running:
                continue
            why = None
            if not match_any(self.res, t.resource):
                why = "shares no resource type with the ask"
            elif t.required_node:
                why = "a DaemonSet pod pinned to its node"
            elif not (fenced or t.priority <= ask_priority):
                why = f"priority {t.priority} is above the ask's {ask_priority} as seen from this queue"
            if why:
                self.excluded.append(Excluded(t.key, "allocation", why))
                continue
            victims.append(t)
            self.candidates.append(Candidate(t.key, path, t.node, t.priority, ask_priority, fenced,
                                             t.allow_preempt_self, t.originator, t.resource))
        snap.potential_victims = victims

    # ---------------------------------------------------------------- guarantees --------------
    def check_guarantees(self) -> GuaranteeCheck:
        """``checkPreemptionQueueGuarantees``: can the ask queue stay within its guarantee?"""
        queues = duplicate_snapshots(self.snapshots)
        current = queues[self.queue_path]
        before = current.remaining_guaranteed()
        if before is not None and all(v <= before[k] for k, v in self.res.items() if k in before):
            return GuaranteeCheck(True, before, None, False,
                                  f"the ask fits the queue's remaining guarantee ({format_resource(before)})")
        current.add_allocation(self.res)
        after = current.remaining_guaranteed()
        for snap in queues.values():
            for v in snap.potential_victims:
                snap.remove_allocation(v.resource)
                after = current.remaining_guaranteed()
                if after is not None and is_ask_queue_under_guaranteed(self.res, after):
                    return GuaranteeCheck(True, before, after, True,
                                          "preempting candidates brings the queue back within its guarantee")
        if before is None and after is None:
            why = "neither the ask's queue nor any ancestor has a guarantee"
        elif not any(snap.potential_victims for snap in queues.values()):
            why = (f"with the ask, the queue's remaining guarantee would be {format_resource(after)}, "
                   "and there is no candidate victim below the fence to free any of it")
        else:
            why = (f"with the ask, the queue's remaining guarantee would be {format_resource(after)} "
                   "even after every candidate is preempted")
        return GuaranteeCheck(False, before, after, True, why)

    # ---------------------------------------------------------------- nodes -------------------
    def init_working_state(self) -> None:
        """``initWorkingState``: candidates per node, and every usable node's available resource."""
        for snap in self.snapshots.values():
            for v in snap.potential_victims:
                self.by_node.setdefault(v.node, []).append(v)
                self.queue_by_alloc[v.key] = snap.path
        for node in self.cluster.nodes:
            why = None
            if not node.schedulable:
                why = "unschedulable (cordoned)"
            elif not fit_in(node.capacity, self.res):
                why = "its total capacity cannot hold the ask"
            if why:
                self.by_node.pop(node.name, None)
                self.dropped.append(DroppedNode(node.name, why))
            else:
                self.available[node.name] = node.available
        for victims in self.by_node.values():
            victims.sort(key=victim_sort_key)

    def _queue_rule(self, snaps: dict[str, QueueSnapshot], victim: Task) -> tuple[bool, QueueSnapshot | None]:
        """Remove the victim from its queue; acceptable when the queue was above its guarantee
        (checked *before* the removal) — the caller puts it back when not."""
        path = self.queue_by_alloc.get(victim.key)
        snap = snaps.get(path) if path else None
        if snap is None:
            return False, None
        old = snap.remaining_guaranteed()
        snap.remove_allocation(victim.resource)
        # YuniKorn also requires the queue's preemptable resource to be >= 0 afterwards; it never is
        # negative (GetPreemptableResource keeps only positive values), so that check is left out
        return (old is None or is_victim_queue_over_guaranteed(self.res, old)), snap

    def calculate_victims_by_node(self, available: Resource, victims: list[Task]) -> tuple[int, list[Task] | None]:
        """``calculateVictimsByNode``: order the node's candidates and find the index after which
        the ask fits; (-1, []) when it fits already, (-1, None) when the node cannot help."""
        if fit_in(available, self.res):
            return -1, []
        snaps = duplicate_snapshots(self.snapshots)
        ask_queue = snaps[self.queue_path]
        current = dict(available)
        head: list[Task] = []
        tail: list[Task] = []
        for v in victims:
            ok, snap = self._queue_rule(snaps, v)
            if snap is None:
                continue
            if not ok:
                snap.add_allocation(v.resource)
                continue
            remaining = ask_queue.remaining_guaranteed()
            if remaining is None or not fit_in_max_undef(remaining, v.resource):
                snap.add_allocation(v.resource)
                break
            ask_queue.add_allocation(v.resource)
            short = sub_eliminate_negative(self.res, current)
            new_short = sub_eliminate_negative(self.res, add(current, v.resource))
            if equals_or_empty(short, new_short):
                ask_queue.remove_allocation(v.resource)
                snap.add_allocation(v.resource)
                tail.append(v)
            else:
                current = add(current, v.resource)
                head.append(v)
        ordered = head + tail
        if not ordered:
            return -1, None
        snaps = duplicate_snapshots(self.snapshots)
        current = dict(available)
        index = -1
        for i, v in enumerate(ordered):
            ok, snap = self._queue_rule(snaps, v)
            if snap is None:
                continue
            if not ok:
                snap.add_allocation(v.resource)
                continue
            current = add(current, v.resource)
            if index < 0 and fit_in(current, self.res):
                index = i
        if index < 0:
            return -1, None
        return index, ordered

    def try_nodes(self) -> tuple[str | None, list[Task], list[NodeCheck]]:
        """``tryNodes`` + ``checkPreemptionPredicates``: per node victims, then the shim's answer."""
        checks: list[tuple[int, str, list[Task]]] = []
        for node in self.cluster.nodes:
            if node.name not in self.available:
                continue
            idx, victims = self.calculate_victims_by_node(self.available[node.name], self.by_node.get(node.name, []))
            if victims is None:
                continue
            if victims or not self.nodes_tried:
                checks.append((idx, node.name, victims))
        checks.sort(key=lambda c: (c[0], c[1]))
        results: dict[str, NodeCheck] = {}
        best: tuple[int, str, list[Task], int] | None = None
        for start in range(0, len(checks), PREDICATE_BATCH):
            batch = checks[start:start + PREDICATE_BATCH]
            for idx, name, victims in batch:
                node = self.cluster.node(name)
                pidx, why = self._predicate(node, victims, idx)
                ok = pidx is not None
                score = solution_score(victims, pidx) if ok else SCORE_UNFIT
                results[name] = NodeCheck(name, idx, tuple(v.key for v in victims), pidx, ok,
                                          score if ok else None, why)
                if ok and (best is None or score < best[3]):
                    best = (pidx, name, victims, score)
            if best is not None and best[3] < SCORE_FIT_MAX:
                break
        node_checks = [results.get(n) or NodeCheck(n, i, tuple(v.key for v in vs)) for i, n, vs in checks]
        if best is None:
            return None, [], node_checks
        pidx, name, victims, _ = best
        return name, victims[: pidx + 1] if pidx >= 0 else [], node_checks

    def _predicate(self, node: Node, victims: list[Task], start: int) -> tuple[int | None, str | None]:
        """The shim's ``Predicates`` (no victims) or ``PreemptionPredicates`` answer."""
        why = placement_failure(self.ask, node)
        if why is not None:
            return None, why
        if not victims:
            if fit_in(self.available[node.name], self.res):
                return -1, None
            return None, "the ask does not fit"
        idx = preemption_predicates(self.ask, node, victims, start)
        if idx < 0:
            return None, "the ask does not fit even without every victim"
        return idx, None

    # ---------------------------------------------------------------- additional victims ------
    def calculate_additional_victims(self, node_victims: list[Task]) -> tuple[list[Task], list[Task], bool]:
        """``calculateAdditionalVictims``: more victims anywhere below the fence while the ask
        queue has guaranteed room for them.  Returns (considered, victims, ok)."""
        snaps = duplicate_snapshots(self.snapshots)
        ask_queue = snaps[self.queue_path]
        seen = set()
        for v in node_victims:
            path = self.queue_by_alloc.get(v.key)
            if path in snaps:
                snaps[path].remove_allocation(v.resource)
                seen.add(v.key)
        potential = [v for vs in self.by_node.values() for v in vs if v.key not in seen]
        potential.sort(key=victim_sort_key)
        victims: list[Task] = []
        for v in potential:
            ok, snap = self._queue_rule(snaps, v)
            if snap is None:
                continue
            if not ok:
                snap.add_allocation(v.resource)
                continue
            remaining = ask_queue.remaining_guaranteed()
            if remaining is not None and fit_in_max_undef(remaining, v.resource):
                ask_queue.add_allocation(v.resource)
                if not equals(remaining, ask_queue.remaining_guaranteed()):
                    victims.append(v)
            else:
                snap.add_allocation(v.resource)
                break
        if victims:
            final = ask_queue.remaining_guaranteed()
            if final is None or not is_ask_queue_under_guaranteed(self.res, final):
                return potential, victims, False
        return potential, victims, True

    # ---------------------------------------------------------------- TryPreemption -----------
    def run(self) -> PreemptionResult:
        self.find_victims()
        base = dict(ask_priority=self.ask.priority, fence=self.fence, fence_reason=self.fence_reason,
                    priority_by_queue=tuple(self.priority_map.items()))
        gc = self.check_guarantees()
        if not gc.passed:
            return self._result(False, [GUARANTEES_FAILED, DOES_NOT_HELP], guarantee_check=gc, **base)
        if not self.cluster.has_nodes:
            return self._queue_level(gc, base)
        self.init_working_state()
        node, node_victims, checks = self.try_nodes()
        extra = dict(guarantee_check=gc, node_checks=tuple(checks), dropped_nodes=tuple(self.dropped))
        if node is None:
            return self._result(False, [DOES_NOT_HELP], **extra, **base)
        considered, extra_victims, ok = self.calculate_additional_victims(node_victims)
        extra.update(node=node, node_victims=tuple(v.key for v in node_victims),
                     additional_candidates=tuple(v.key for v in considered),
                     additional_victims=tuple(v.key for v in extra_victims))
        if not ok:
            return self._result(False, [DOES_NOT_HELP], **extra, **base,
                                notes=("the additional victims would leave the ask's queue above its guarantee",))
        return self._final_cut(node, node_victims, extra_victims, extra, base)

    def _final_cut(self, node: str | None, node_victims: list[Task], extra_victims: list[Task], extra: dict,
                   base: dict, fit_anywhere: bool = False) -> PreemptionResult:
        victims = node_victims + extra_victims
        if not victims:
            return self._result(False, [DOES_NOT_HELP], **extra, **base,
                                notes=("no victims: preemption has nothing to free",))
        fits = fit_anywhere or (node is not None and fit_in(self.available.get(node, {}), self.res))
        total: Resource = {}
        final: list[Task] = []
        for v in victims:
            if not fits and v.node != node:
                continue
            if strictly_greater_than_only_existing(self.res, total):
                final.append(v)
            total = add(total, v.resource)
        extra = dict(extra, cut=tuple(v.key for v in final), cut_total=total)
        if strictly_greater_than_only_existing(self.res, total):
            return self._result(False, [SHORTFALL, DOES_NOT_HELP], **extra, **base)
        fits_after = None
        if node is not None:
            freed = {}
            for v in final:
                if v.node == node:
                    freed = add(freed, v.resource)
            fits_after = fit_in(add(self.available.get(node, {}), freed), self.res)
        node_set = {v.key for v in node_victims}
        out = tuple(Victim(v.key, self.tasks[v.key].queue or "", v.node, v.priority, v.resource, v.application,
                           "node" if v.key in node_set else "additional") for v in final)
        return self._result(True, [], victims=out, fits_after=fits_after, **extra, **base)

    def _queue_level(self, gc: GuaranteeCheck, base: dict) -> PreemptionResult:
        """No nodes in the input: only the queue rules can be applied.  The candidates are taken in
        YuniKorn's victim order while their queues are above their guarantee and the ask's queue
        has guaranteed room for them (``calculateAdditionalVictims`` from an empty start); node fit and the final cut, which
        depend on the nodes, are not evaluated."""
        for snap in self.snapshots.values():
            for v in snap.potential_victims:
                self.by_node.setdefault(v.node, []).append(v)
                self.queue_by_alloc[v.key] = snap.path
        considered, victims, ok = self.calculate_additional_victims([])
        extra = dict(guarantee_check=gc, additional_candidates=tuple(v.key for v in considered),
                     additional_victims=tuple(v.key for v in victims), queue_level_only=True,
                     cut=tuple(v.key for v in victims))
        if not ok or not victims:
            return self._result(False, [DOES_NOT_HELP], **extra, **base)
        total: Resource = {}
        for v in victims:
            total = add(total, v.resource)
        out = tuple(Victim(v.key, self.tasks[v.key].queue or "", v.node, v.priority, v.resource, v.application,
                           "additional") for v in victims)
        return self._result(True, [], victims=out, cut_total=total, **extra, **base,
                            notes=("no Node objects: victims chosen by the queue rules only; which node they "
                                   "free, and whether that is enough, depends on the nodes",))

    def _result(self, success: bool, log: list[str], **kw) -> PreemptionResult:
        kw.setdefault("victims", ())
        node = kw.pop("node", None)
        notes = tuple(kw.pop("notes", ()))
        return PreemptionResult(
            success=success, node=node if success else None, log=tuple(log),
            refusal=None if success else (log[0] if log else DOES_NOT_HELP),
            candidates=tuple(self.candidates), excluded=tuple(self.excluded), notes=notes, **kw,
        )


# --------------------------------------------------------------------------- entry points ----

def preconditions(ask: Task, cluster: Cluster) -> list[str]:
    """``CheckPreconditions`` (the delay and the 15 s re-check are taken as elapsed)."""
    out = []
    if not ask.allow_preempt_other:
        out.append("the pod may not preempt others (preemptionPolicy: Never)")
    if ask.required_node:
        out.append(f"the pod requires node {ask.required_node} (DaemonSet preemption applies instead)")
    return out


def try_preemption(cluster: Cluster, ask: Task, *, nodes_tried: bool = False,
                   check_preconditions: bool = True) -> PreemptionResult:
    """``Application.tryPreemption`` / ``Preemptor.TryPreemption`` for a pending ask.

    ``nodes_tried``: the normal allocation already tried every node (path B), so nodes without
    victims are not checked again.  ``check_preconditions`` false = a direct preemptor call.
    """
    if ask.queue is None or ask.queue not in cluster.queues:
        return PreemptionResult(False, None, (), (DOES_NOT_HELP,), DOES_NOT_HELP, ask.priority,
                                notes=("the pod has no queue",))
    if check_preconditions:
        failed = preconditions(ask, cluster)
        if failed:
            return PreemptionResult(False, None, (), (PRECONDITIONS_FAILED, DOES_NOT_HELP), PRECONDITIONS_FAILED,
                                    ask.priority,
                                    preconditions=tuple(failed))
    return _Preemptor(cluster, ask, nodes_tried).run()


# --------------------------------------------------------------------------- required node ---

REQUIRED_NODE_NO_FIT = "No fit on required node, preemption does not help"


def try_required_node_preemption(cluster: Cluster, ask: Task) -> PreemptionResult:
    """``required_node_preemptor.go``: a DaemonSet pod takes victims only from its node,
    ignoring queue guarantees, fences and the preemption delay; opted-out pods may be victims."""
    node = cluster.node(ask.required_node or "")
    if node is None:
        return PreemptionResult(False, None, (), (REQUIRED_NODE_NO_FIT,), REQUIRED_NODE_NO_FIT, ask.priority,
                                notes=(f"required node {ask.required_node} is not in the input",))
    pool = []
    excluded = []
    for t in cluster.running:
        if t.node != node.name:
            continue
        why = None
        if t.required_node:
            why = "a DaemonSet pod pinned to the node"
        elif t.priority > ask.priority:
            why = f"priority {t.priority} above the ask's {ask.priority}"
        elif not match_any(ask.resource, t.resource):
            why = "shares no resource type with the ask"
        if why:
            excluded.append(Excluded(t.key, "allocation", why))
        else:
            pool.append(t)

    def key(t: Task):
        group = 2 if t.originator else (1 if not t.allow_preempt_self else 0)
        return (group, t.priority, -t.create_time, sum(t.resource.values()), t.key)

    pool.sort(key=key)
    total: Resource = {}
    chosen: list[Task] = []
    for t in pool:
        if fit_in(total, ask.resource):
            break
        chosen.append(t)
        total = add(total, t.resource)
    if not chosen or not fit_in(add(total, node.available), ask.resource):
        return PreemptionResult(False, None, (), (REQUIRED_NODE_NO_FIT,), REQUIRED_NODE_NO_FIT, ask.priority,
                                excluded=tuple(excluded))
    victims = tuple(Victim(t.key, t.queue or "", t.node, t.priority, t.resource, t.application, "node")
                    for t in chosen)
    return PreemptionResult(True, node.name, victims, (), None, ask.priority, excluded=tuple(excluded),
                            node_victims=tuple(v.key for v in victims), cut=tuple(v.key for v in victims),
                            cut_total=total, fits_after=True,
                            notes=("required-node (DaemonSet) preemption: queue guarantees, fences and the "
                                   "preemption delay do not apply",))
