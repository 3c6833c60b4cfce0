"""Property tests of the preemptor on random clusters (laws of YuniKorn's preemptor):

* a victim's priority is at most the ask's priority *as seen at the victim's queue* (offsets
  subtracted on the way down from the fence; any priority inside a priority-fenced subtree whose
  offset the ask reaches; equal priority allowed);
* victims come from below the fence, never from the ask's own leaf, never from a leaf with
  ``preemption.policy: disabled``;
* each victim's queue is above its guarantee (for a type the ask uses) when the victim is taken;
  the check is made before the removal, so the last victim may take the queue below it.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from quotactl.model.yunikorn_resources import add
from quotactl.yunikorn.cluster import clamp_priority
from quotactl.yunikorn.preemptor import try_preemption
from quotactl.yunikorn.scheduling import schedule_ask
from quotactl.yunikorn.snapshot import QueueSnapshot, is_victim_queue_over_guaranteed
from tests.property_budget import examples
from tests.yunikorn.gen import random_cluster

SEEDS = st.integers(min_value=0, max_value=10**9)
SETTINGS = settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def ask_priority_at(cluster, ask, fence: str, leaf: str) -> int | None:
    """The ask priority a victim in ``leaf`` is compared with (None: the subtree is skipped;
    ``float('inf')`` stands for a fenced subtree, where every priority is eligible)."""
    seen = {}
    p = ask.priority
    for q in cluster.ancestors(ask.queue):
        p = q.priority_offset if q.priority_policy == "fence" else clamp_priority(p + q.priority_offset)
        seen[q.path] = p
        if q.path == fence:
            break
    chain = [q.path for q in reversed(cluster.ancestors(leaf))]
    assert fence in chain, f"{leaf} is not below the fence {fence}"
    p = seen[fence]
    fenced = False
    for child in chain[chain.index(fence) + 1:]:
        q = cluster.queues[child]
        if child in seen:
            p = seen[child]
        elif q.priority_policy == "fence":
            if q.priority_offset > p:
                return None
            fenced = True
        else:
            p = p - q.priority_offset
    return float("inf") if fenced else p


def _snapshots(cluster, ask_queue: str) -> dict[str, QueueSnapshot]:
    snaps: dict[str, QueueSnapshot] = {}
    for path in sorted(cluster.queues, key=lambda p: p.count(".")):
        q = cluster.queues[path]
        snaps[path] = QueueSnapshot(path, q.guaranteed, dict(cluster.allocated(path)), {},
                                    snaps.get(q.parent) if q.parent else None, leaf=q.leaf)
    for s in snaps.values():
        if s.parent is not None:
            s.ask_queue = snaps[ask_queue]
    return snaps


@SETTINGS
@given(SEEDS)
def test_victims_obey_priority_fence_and_queue_laws(seed):
    cluster, ask = random_cluster(seed)
    result = try_preemption(cluster, ask, nodes_tried=False, check_preconditions=False)
    if not result.success:
        assert result.victims == ()
        return
    fence = result.fence
    for v in result.victims:
        assert v.queue != ask.queue, "no preemption inside the ask's own leaf"
        assert v.queue == fence or v.queue.startswith(fence + "."), "victims only from below the fence"
        assert cluster.queues[v.queue].preemption_policy != "disabled"
        limit = ask_priority_at(cluster, ask, fence, v.queue)
        assert limit is not None, f"{v.key} comes from a priority-fenced subtree the ask cannot reach"
        assert v.priority <= limit, f"{v.key} priority {v.priority} above the ask's {limit} at {v.queue}"


@SETTINGS
@given(SEEDS)
def test_victims_come_from_queues_above_their_guarantee(seed):
    cluster, ask = random_cluster(seed)
    result = try_preemption(cluster, ask, nodes_tried=False, check_preconditions=False)
    if not result.success:
        return
    snaps = _snapshots(cluster, ask.queue)
    for v in result.victims:  # in the order YuniKorn took them
        snap = snaps[v.queue]
        before = snap.remaining_guaranteed()
        assert before is None or is_victim_queue_over_guaranteed(ask.resource, before), (
            f"{v.key}: {v.queue} was not above its guarantee ({before}) when taken")
        snap.remove_allocation(v.resource)  # may now be below: allowed for the last one


@SETTINGS
@given(SEEDS)
def test_final_cut_and_reservation(seed):
    """The cut keeps victims while the ask is still "strictly greater" than their total, so with
    ``pods: 1`` on every pod YuniKorn never takes more than two; a refusal never lists victims."""
    cluster, ask = random_cluster(seed)
    result = try_preemption(cluster, ask, nodes_tried=False, check_preconditions=False)
    if result.success:
        assert 1 <= len(result.victims) <= 2
        assert result.node is not None and cluster.node(result.node) is not None
        assert {v.key for v in result.victims} <= {c.key for c in result.candidates}
        total: dict = {}
        for v in result.victims:
            total = add(total, v.resource)
        assert total == result.cut_total or set(result.cut) == {v.key for v in result.victims}
    else:
        assert result.node is None and result.refusal is not None


@SETTINGS
@given(SEEDS)
def test_scheduling_path_places_a_fitting_ask_without_victims(seed):
    cluster, ask = random_cluster(seed)
    outcome = schedule_ask(cluster, ask)
    if outcome.headroom_fits and any(f.fits for f in outcome.node_fits):
        assert outcome.result == "Allocated" and outcome.victims == ()
        assert outcome.node == next(f.node for f in outcome.node_fits if f.fits)
    if not ask.allow_preempt_other and outcome.preemption is not None:
        assert outcome.refusal == "Preemption preconditions failed"
