"""One pending ask through YuniKorn's scheduling cycle (yunikorn-core queue.go
``TryAllocate`` / ``getHeadRoom``, application.go ``tryAllocate``, node sorting policies).

``schedule_ask`` follows the path the core takes for the ask: the user quota, the leaf's headroom
(max minus usage up to root, root = cluster size), then the nodes in the partition's node-sorting
order with the shim's predicates; when the ask does not fit the headroom (path A) or any node
(path B), the preemptor.  ``direct=True`` calls the preemptor as-is ("what would it take now?").
"""

from __future__ import annotations

from dataclasses import dataclass

from quotactl.model.yunikorn_resources import (
    Resource,
    add,
    fit_in_max_undef,
    parse_lenient,
    sub_only_existing,
)
from quotactl.yunikorn.cluster import Cluster, Node, Task
from quotactl.yunikorn.predicates import fit_failure, placement_failure
from quotactl.yunikorn.preemptor import (
    NOT_ENOUGH_QUEUE_QUOTA,
    NOT_ENOUGH_USER_QUOTA,
    PreemptionResult,
    effective_max,
    headroom,
    try_preemption,
    try_required_node_preemption,
)


@dataclass(frozen=True)
class QueueLimit:
    """One queue on the ask's path: what it allows and what it holds."""

    path: str
    max: Resource | None  # own max (root: the cluster size)
    effective_max: Resource | None
    guaranteed: Resource | None
    allocated: Resource
    own_headroom: Resource | None  # max - allocated (types of the max)
    fits: bool  # the ask fits this queue's own headroom


@dataclass(frozen=True)
class UserLimit:
    queue: str
    limit: str  # the limit's description
    who: str  # "user alice" / "group dev" / "user * (wildcard)"
    max_resources: Resource | None
    used: Resource
    fits: bool


@dataclass(frozen=True)
class NodeFit:
    node: str
    score: float
    available: Resource
    fits: bool
    reason: str | None


@dataclass(frozen=True)
class SchedulingOutcome:
    ask: Task
    direct: bool
    result: str  # Allocated | Reserved | Pending | Rejected | Unknown
    placed: bool | None
    node: str | None
    path: str | None  # "A" (queue headroom) | "B" (no node) when preemption was tried
    headroom: Resource | None
    headroom_fits: bool
    queue_limits: tuple[QueueLimit, ...]
    user_limits: tuple[UserLimit, ...]
    user_fits: bool
    app_runnable: bool
    node_fits: tuple[NodeFit, ...]
    preemption: PreemptionResult | None
    log: tuple[str, ...]
    refusal: str | None
    notes: tuple[str, ...] = ()

    @property
    def victims(self):
        return self.preemption.victims if self.preemption is not None and self.preemption.success else ()


# ----------------------------------------------------------------------------- pieces -------

def node_score(cluster: Cluster, node: Node) -> float:
    """``absResourceUsage``: the weighted mean used share of the node (fair: lowest first;
    binpacking: 1 - that, lowest first)."""
    total_weight = 0.0
    usage = 0.0
    avail = node.available
    for k, cap in node.capacity.items():
        weight = cluster.resource_weights.get(k)
        if not weight or cap == 0:
            continue
        usage += (1.0 - avail.get(k, 0) / cap) * weight
        total_weight += weight
    share = usage / total_weight if total_weight else 0.0
    return 1.0 - share if cluster.node_sort_policy == "binpacking" else share


def sorted_nodes(cluster: Cluster) -> list[tuple[float, Node]]:
    return sorted(((node_score(cluster, n), n) for n in cluster.nodes), key=lambda sn: (sn[0], sn[1].name))


def queue_limits(cluster: Cluster, ask: Task) -> tuple[QueueLimit, ...]:
    out = []
    for q in cluster.ancestors(ask.queue or ""):
        used = cluster.allocated(q.path)
        own = sub_only_existing(q.max, used) if q.max is not None else None
        out.append(QueueLimit(q.path, q.max, effective_max(cluster, q.path), q.guaranteed, used, own,
                              own is None or fit_in_max_undef(own, ask.resource)))
    return tuple(out)


def user_limits(cluster: Cluster, ask: Task) -> tuple[UserLimit, ...]:
    """User / group ``maxresources`` limits on the ask's path (``ugm`` headroom), simplified: the
    user's named limit, else the wildcard; every group limit naming one of the user's groups."""

    out = []
    for q in reversed(cluster.ancestors(ask.queue or "")):
        named = [lim for lim in q.limits if ask.user in (lim.users or ())]
        wildcard = [lim for lim in q.limits if "*" in (lim.users or ())]
        applicable = [(lim, f"user {ask.user}") for lim in named] or [(lim, "user * (wildcard)") for lim in wildcard]
        for lim in q.limits:
            for g in lim.groups or ():
                if g in ask.groups:
                    applicable.append((lim, f"group {g}"))
        for lim, who in applicable:
            if not lim.maxresources:
                continue
            maxres = parse_lenient(lim.maxresources)[0]
            used: Resource = {}
            for t in cluster.running:
                if t.user == ask.user and cluster.in_subtree(q.path, t.queue):
                    used = add(used, t.resource)
            room = sub_only_existing(maxres, used)
            out.append(UserLimit(q.path, lim.limit, who, maxres, used, fit_in_max_undef(room, ask.resource)))
    return tuple(out)


def app_runnable(cluster: Cluster, ask: Task) -> tuple[bool, str | None]:
    """``canRunApp``: a new application needs a free ``maxapplications`` slot on every queue up the path."""
    if any(t.application == ask.application and t.running for t in cluster.tasks):
        return True, None
    for q in cluster.ancestors(ask.queue or ""):
        if not q.max_applications:
            continue
        running = {t.application for t in cluster.running if cluster.in_subtree(q.path, t.queue)}
        if len(running) >= q.max_applications:
            return False, f"queue {q.path} already runs {len(running)} of maxapplications {q.max_applications}"
    return True, None


def node_fits(cluster: Cluster, ask: Task) -> tuple[NodeFit, ...]:
    out = []
    for score, n in sorted_nodes(cluster):
        why = placement_failure(ask, n) or fit_failure(ask, n)
        out.append(NodeFit(n.name, score, n.available, why is None, why))
    return tuple(out)


# ----------------------------------------------------------------------------- the cycle -----

def schedule_ask(cluster: Cluster, ask: Task, *, direct: bool = False) -> SchedulingOutcome:
    """What YuniKorn does with the pending ``ask`` in one scheduling cycle (or, ``direct``, what its
    preemptor would do if called now)."""
    limits = queue_limits(cluster, ask) if ask.queue else ()
    users = user_limits(cluster, ask) if ask.queue else ()
    fits_nodes = node_fits(cluster, ask) if ask.queue else ()
    room = headroom(cluster, ask.queue) if ask.queue else None
    room_fits = room is None or fit_in_max_undef(room, ask.resource)
    user_ok = all(u.fits for u in users)
    runnable, why_not_runnable = app_runnable(cluster, ask) if ask.queue else (True, None)
    base = dict(ask=ask, direct=direct, headroom=room, headroom_fits=room_fits, queue_limits=limits,
                user_limits=users, user_fits=user_ok, app_runnable=runnable, node_fits=fits_nodes)
    notes: list[str] = []
    if ask.queue is None:
        return SchedulingOutcome(result="Rejected", placed=False, node=None, path=None, preemption=None,
                                 log=(), refusal=None, notes=("the application is rejected by placement",), **base)

    if direct:
        pre = try_preemption(cluster, ask, nodes_tried=False, check_preconditions=False)
        return _from_preemption(pre, "A" if not room_fits else "B", base, [], notes)

    if not runnable:
        return SchedulingOutcome(result="Pending", placed=False, node=None, path=None, preemption=None, log=(),
                                 refusal=None, notes=(f"application not runnable: {why_not_runnable}",), **base)
    if not user_ok:
        return SchedulingOutcome(result="Pending", placed=False, node=None, path=None, preemption=None,
                                 log=(NOT_ENOUGH_USER_QUOTA,), refusal=NOT_ENOUGH_USER_QUOTA, **base)

    if ask.required_node:
        return _required_node(cluster, ask, base, room_fits)

    if not room_fits:
        if not cluster.preemption_enabled:
            return SchedulingOutcome(result="Pending", placed=False, node=None, path="A", preemption=None,
                                     log=(NOT_ENOUGH_QUEUE_QUOTA,), refusal=NOT_ENOUGH_QUEUE_QUOTA,
                                     notes=("preemption is disabled for the partition",), **base)
        pre = try_preemption(cluster, ask, nodes_tried=False)
        return _from_preemption(pre, "A", base, [NOT_ENOUGH_QUEUE_QUOTA], notes)

    if not cluster.has_nodes:
        return SchedulingOutcome(result="Unknown", placed=None, node=None, path=None, preemption=None, log=(),
                                 refusal=None, notes=("the ask fits its queue headroom; without Node objects "
                                                      "quotactl cannot tell whether a node has room",), **base)
    for f in fits_nodes:
        if f.fits:
            return SchedulingOutcome(result="Allocated", placed=True, node=f.node, path=None, preemption=None,
                                     log=(), refusal=None, **base)
    if not cluster.preemption_enabled:
        return SchedulingOutcome(result="Pending", placed=False, node=None, path="B", preemption=None, log=(),
                                 refusal=None, notes=("preemption is disabled for the partition",), **base)
    pre = try_preemption(cluster, ask, nodes_tried=True)
    return _from_preemption(pre, "B", base, [], notes)


def _from_preemption(pre: PreemptionResult, path: str, base: dict, tail: list[str],
                     notes: list[str]) -> SchedulingOutcome:
    if pre.success:
        placed = None if pre.queue_level_only else True
        return SchedulingOutcome(result="Reserved" if placed else "Unknown", placed=placed, node=pre.node,
                                 path=path, preemption=pre, log=(), refusal=None, notes=tuple(notes), **base)
    return SchedulingOutcome(result="Pending", placed=False, node=None, path=path, preemption=pre,
                             log=tuple(pre.log) + tuple(tail), refusal=pre.refusal, notes=tuple(notes), **base)


def _required_node(cluster: Cluster, ask: Task, base: dict, room_fits: bool) -> SchedulingOutcome:
    if not room_fits:
        return SchedulingOutcome(result="Pending", placed=False, node=None, path="A", preemption=None,
                                 log=(NOT_ENOUGH_QUEUE_QUOTA,), refusal=NOT_ENOUGH_QUEUE_QUOTA, **base)
    node = cluster.node(ask.required_node or "")
    if node is not None and placement_failure(ask, node) is None and fit_failure(ask, node) is None:
        return SchedulingOutcome(result="Allocated", placed=True, node=node.name, path=None, preemption=None,
                                 log=(), refusal=None, **base)
    pre = try_required_node_preemption(cluster, ask)
    return _from_preemption(pre, "B", base, [], [])
