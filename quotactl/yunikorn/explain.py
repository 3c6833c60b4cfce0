"""``quotactl explain`` / ``quotactl preempt`` for YuniKorn: one pod, as the scheduler sees it.

``find_pod`` resolves the name the user typed; ``explain_pod`` returns an ``Explanation``: the pod's
application, queue and placement, the priorities that order it (application, every queue up to
root, the sort order at each level), and for a pending pod the ``SchedulingOutcome`` of
``quotactl.yunikorn.scheduling`` with the reasons it is pending in words.  Pure: no printing.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from quotactl.model.yunikorn_resources import format_resource
from quotactl.yunikorn.cluster import MIN_PRIORITY, Application, Cluster, Task
from quotactl.yunikorn.preemptor import (
    DOES_NOT_HELP,
    GUARANTEES_FAILED,
    NOT_ENOUGH_QUEUE_QUOTA,
    NOT_ENOUGH_USER_QUOTA,
    PRECONDITIONS_FAILED,
    SHORTFALL,
    PreemptionResult,
)
from quotactl.yunikorn.priority import (
    QueuePriority,
    app_priority,
    priority_path,
    queue_priorities,
    sorted_applications,
    sorted_children,
)
from quotactl.yunikorn.scheduling import SchedulingOutcome, schedule_ask

# ------------------------------------------------------------------------------ lookup -------

@dataclass(frozen=True)
class PodLookup:
    task: Task | None
    ambiguous: tuple[str, ...] = ()
    suggestions: tuple[str, ...] = ()
    ignored: str | None = None  # the pod exists but YuniKorn does not schedule it: why


def find_pod(cluster: Cluster, query: str) -> PodLookup:
    """``namespace/name``, or ``name`` when only one namespace has it."""
    by_key = {t.key: t for t in cluster.tasks}
    ignored = dict(cluster.ignored)
    if "/" in query:
        if query in by_key:
            return PodLookup(by_key[query])
        if query in ignored:
            return PodLookup(None, ignored=ignored[query])
    else:
        hits = [t for t in cluster.tasks if t.name == query]
        if len(hits) == 1:
            return PodLookup(hits[0])
        if len(hits) > 1:
            return PodLookup(None, ambiguous=tuple(sorted(t.key for t in hits)))
        others = [k for k in ignored if k.split("/", 1)[1] == query]
        if len(others) == 1:
            return PodLookup(None, ignored=ignored[others[0]])
    keys = sorted(by_key)
    names = sorted({t.name for t in cluster.tasks})
    close = difflib.get_close_matches(query, keys, n=5, cutoff=0.6)
    for n in difflib.get_close_matches(query.split("/")[-1], names, n=5, cutoff=0.6):
        close += [k for k in keys if k.endswith("/" + n)]
    return PodLookup(None, suggestions=tuple(dict.fromkeys(close))[:5])


# ------------------------------------------------------------------------------ explain ------

@dataclass(frozen=True)
class SortLevel:
    """One step of the scheduling walk: the parent's children with something pending, in order."""

    parent: str
    child: str  # the child on the pod's path
    order: tuple[str, ...]
    position: int | None  # 1-based position of ``child``
    by: str  # what orders them


@dataclass(frozen=True)
class Explanation:
    task: Task
    status: str  # Running | Pending | Rejected
    application: Application | None
    app_priority: int | None  # None: nothing pending in the application
    queue_priorities: tuple[QueuePriority, ...]  # leaf -> root
    order: tuple[SortLevel, ...]  # root -> leaf
    app_order: tuple[str, ...]  # applications of the leaf in scheduling order
    outcome: SchedulingOutcome | None
    mode: str  # Fit | Preempt | NoFit | Unknown
    reason: str  # a short code
    messages: tuple[str, ...]  # why, in words
    notes: tuple[str, ...]
    headline: str = ""  # the first line after the pod's name: status, the number and the next step


def representative_mode(outcome: SchedulingOutcome | None, running: bool = False) -> str:
    if running:
        return "Fit"
    if outcome is None or outcome.placed is None:
        return "Unknown"
    if outcome.placed:
        return "Preempt" if outcome.victims else "Fit"
    return "NoFit"


def reason_code(outcome: SchedulingOutcome) -> str:
    if outcome.result == "Rejected":
        return "ApplicationRejected"
    if not outcome.app_runnable:
        return "ApplicationNotRunnable"
    if outcome.result in ("Allocated", "Reserved"):
        return outcome.result
    if outcome.refusal == NOT_ENOUGH_USER_QUOTA:
        return "NotEnoughUserQuota"
    pre = outcome.preemption
    if pre is not None and pre.success and pre.queue_level_only:
        return "PreemptionPossible"
    codes = {PRECONDITIONS_FAILED: "PreemptionPreconditionsFailed", GUARANTEES_FAILED: "PreemptionGuaranteesFailed",
             SHORTFALL: "PreemptionShortfall", DOES_NOT_HELP: "PreemptionDoesNotHelp"}
    if outcome.path == "A":
        return "NotEnoughQueueQuota"
    if pre is not None and outcome.refusal in codes:
        return codes[outcome.refusal]
    if outcome.result == "Unknown":
        return "NodesUnknown"
    return "NoNodeFits"


def outcome_messages(cluster: Cluster, outcome: SchedulingOutcome) -> list[str]:
    """Why the ask is where it is, in words (most important first)."""
    ask = outcome.ask
    out: list[str] = []
    if outcome.result == "Rejected":
        app = cluster.applications.get(ask.application)
        return [f"YuniKorn rejects application {ask.application}: {app.placement if app else 'no queue'}"]
    for n in outcome.notes:
        out.append(n)
    if not outcome.direct:
        for u in outcome.user_limits:
            if not u.fits:
                out.append(f"{NOT_ENOUGH_USER_QUOTA}: limit {u.limit!r} on {u.queue} for {u.who} allows "
                           f"{format_resource(u.max_resources)}, the user already runs {format_resource(u.used)}")
        if not outcome.headroom_fits:
            lead = NOT_ENOUGH_QUEUE_QUOTA if NOT_ENOUGH_QUEUE_QUOTA in outcome.log else "the ask exceeds its queue headroom"
            for q in outcome.queue_limits:
                if not q.fits:
                    out.append(f"{lead}: {q.path} has max {format_resource(q.max)} and uses "
                               f"{format_resource(q.allocated)}, leaving {format_resource(q.own_headroom)}; "
                               f"the ask needs {format_resource(ask.resource)}")
        elif outcome.node_fits and not any(f.fits for f in outcome.node_fits) and not ask.required_node:
            out.append("no node has room: " + "; ".join(f"{f.node}: {f.reason}" for f in outcome.node_fits))
    if outcome.result == "Allocated":
        out.append(f"fits: YuniKorn allocates it on {outcome.node} (first node in {cluster.node_sort_policy} "
                   "node order that passes the predicates)")
    pre = outcome.preemption
    if pre is not None:
        out.extend(preemption_messages(pre, ask))
    return out


def preemption_messages(pre: PreemptionResult, ask: Task) -> list[str]:
    out: list[str] = []
    if pre.preconditions:
        out.append(f"{PRECONDITIONS_FAILED}: " + "; ".join(pre.preconditions))
        return out
    if pre.fence:
        out.append(f"preemption fence: {pre.fence} ({pre.fence_reason}); victims may only come from below it")
    gc = pre.guarantee_check
    if gc is not None and not gc.passed:
        out.append(f"{GUARANTEES_FAILED}: {gc.reason}")
    if pre.success:
        victims = ", ".join(f"{v.key} on {v.node} ({v.queue}, priority {v.priority})" for v in pre.victims)
        if pre.queue_level_only:
            out.append(f"preemption would take {victims} (queue-level only: no Node objects in the input)")
        else:
            out.append(f"preemption: {victims}; node {pre.node} is reserved for the pod, which is placed "
                       "once the victims are gone")
            if pre.fits_after is False:
                out.append(f"note: even after these victims leave, the pod does not fit {pre.node} "
                           "(YuniKorn's final cut stops early; it reports success anyway)")
        return out
    if pre.refusal == SHORTFALL:
        out.append(f"{SHORTFALL}: the victims YuniKorn could take ({', '.join(pre.cut)}) free "
                   f"{format_resource(pre.cut_total)}, less than the ask {format_resource(ask.resource)} "
                   "(the final cut compares the victims with the ask, not with the node's free space)")
    elif gc is not None and gc.passed:
        if not pre.candidates:
            out.append(f"{DOES_NOT_HELP}: no candidate victims below the fence "
                       "(lower or equal priority, in queues above their guarantee, not the pod's own queue)")
        else:
            out.append(f"{DOES_NOT_HELP}: no node can be freed for the pod within the queue guarantees")
    for n in pre.notes:
        out.append(n)
    return out


def _order(cluster: Cluster, task: Task, prios: dict[str, QueuePriority]) -> tuple[SortLevel, ...]:
    levels = []
    path = [q.path for q in reversed(cluster.ancestors(task.queue or ""))]
    for parent, child in zip(path[:-1], path[1:], strict=True):
        pq = cluster.queues[parent]
        order = tuple(sorted_children(cluster, pq, prios))
        pos = order.index(child) + 1 if child in order else None
        by = ("priority, then usage against guaranteed (fair)" if pq.sort_priority
              else "usage against guaranteed (fair), priority breaks ties (application.sort.priority disabled)")
        levels.append(SortLevel(parent, child, order, pos, by))
    return tuple(levels)


def explain_pod(cluster: Cluster, task: Task, *, direct: bool = False) -> Explanation:
    app = cluster.applications.get(task.application)
    notes = list(cluster.notes) + list(task.sources)
    if task.queue is None:
        outcome = schedule_ask(cluster, task, direct=direct)
        messages = tuple(outcome_messages(cluster, outcome))
        return Explanation(task, "Rejected", app, None, (), (), (), outcome, "NoFit", "ApplicationRejected",
                           messages, tuple(notes), "Rejected — " + messages[0])
    prios = queue_priorities(cluster)
    qprios = tuple(priority_path(cluster, task.queue, prios))
    ap = app_priority(cluster, task.application)
    order = _order(cluster, task, prios)
    app_order = tuple(sorted_applications(cluster, cluster.queues[task.queue]))
    if task.running:
        msg = f"running on {task.node}; it holds {format_resource(task.resource)} in {task.queue}"
        return Explanation(task, "Running", app, ap if ap != MIN_PRIORITY else None, qprios, order, app_order,
                           None, "Fit", "Running", (msg,), tuple(notes), f"Running on {task.node}")
    outcome = schedule_ask(cluster, task, direct=direct)
    messages = tuple(outcome_messages(cluster, outcome))
    return Explanation(task, "Pending", app, ap if ap != MIN_PRIORITY else None, qprios, order, app_order, outcome,
                       representative_mode(outcome), reason_code(outcome), messages, tuple(notes),
                       "Pending — " + pending_headline(outcome, messages))


def pending_headline(outcome: SchedulingOutcome, messages: tuple[str, ...]) -> str:
    """The verdict of a pending ask: where it goes, whom preempting admits it, or the limit that
    stops it with its numbers (the first reason of ``outcome_messages``) and what preemption says."""
    ask = outcome.ask
    if outcome.result == "Allocated":
        return f"fits node {outcome.node} now: YuniKorn allocates it in the next scheduling cycle"
    named = [f"{v.key} ({v.queue})" for v in outcome.victims]
    victims = ", ".join(named[:-1]) + " and " + named[-1] if len(named) > 1 else "".join(named)
    if victims and outcome.preemption is not None and outcome.preemption.queue_level_only:
        return f"preempting {victims} makes room (no Node objects in the input to pick its node)"
    if victims:
        return f"preempting {victims} on node {outcome.node or outcome.preemption.node} admits it"
    if outcome.result == "Unknown":
        return (f"its queues have room for {format_resource(ask.resource)}, but the input has no Node objects to "
                "place it: add them (kubectl get nodes -o yaml)")
    why = [m for m in messages if m not in outcome.notes]
    pre = outcome.preemption
    tail = ""
    if pre is not None and outcome.refusal:
        tail = f"; preemption cannot help ({outcome.refusal})"
    return (why[0] if why else "waiting") + tail
