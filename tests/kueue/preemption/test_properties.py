"""Property tests of the preemption engine over random clusters (tests/kueue/preemption/generator.py).

For every pending workload whose assignment needs preemption and gets victims:

* after removing the victims the workload fits (in the run's borrowing mode);
* the victim set is minimal: putting any one victim back makes it not fit;
* no victim violates its policy: withinClusterQueue / reclaimWithinCohort priority rules, the
  borrowWithinCohort threshold, reclaim only from ClusterQueues that borrow a flavor-resource
  needing preemption, only workloads using such a flavor-resource, reasons that match the mode;
* the answer does not depend on the order of the objects in the input, and the snapshot is
  left exactly as it was found.
"""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from quotactl.kueue.nomination import make_assigner
from quotactl.kueue.options import engine_options
from quotactl.kueue.preempt_decision import decide
from quotactl.kueue.preemption.common import PreemptionCtx, workload_fits
from quotactl.kueue.preemption.policy import satisfies_preemption_policy
from quotactl.kueue.quota import build_snapshot, cq_available, is_within_nominal_in_resources
from quotactl.model.kueue import build_cluster
from quotactl.report import preempt_json
from tests.kueue.builders import objects, with_queues
from tests.kueue.preemption.generator import random_cluster
from tests.property_budget import examples

SETTINGS = settings(max_examples=examples(500), deadline=None, suppress_health_check=[HealthCheck.too_slow])
SEEDS = st.integers(min_value=0, max_value=2**31)


def _world(objs):
    cluster = build_cluster(objects(with_queues(objs)))
    snap = build_snapshot(cluster, engine_options(cluster))
    wl = cluster.workloads["default/incoming"]
    cq = snap.cluster_queues[cluster.local_queues[("default", wl.queue_name)].cluster_queue]
    return cluster, snap, wl, cq


def _state(snap):
    return {n.name + "/" + type(n).__name__: {fr: v for fr, v in n.usage.items() if v}
            for n in [*snap.cluster_queues.values(), *snap.cohorts.values()]}, \
        {k: sorted(c.workloads) for k, c in snap.cluster_queues.items()}


def _decision(seed):
    objs = random_cluster(seed)
    cluster, snap, wl, cq = _world(objs)
    if not cq.active:
        return None
    before = _state(snap)
    d = decide(cluster, snap, wl)
    assert _state(snap) == before, "the decision must leave the snapshot as it found it"
    return objs, cluster, snap, wl, cq, d


@SETTINGS
@given(SEEDS)
def test_victims_make_room_minimally_and_respect_the_policies(seed):
    got = _decision(seed)
    if got is None:
        return
    _objs, cluster, snap, wl, cq, d = got
    if not d.victims:
        assert d.blocking is not None
        return
    a = d.explanation.assignment
    usage = {fr: v for fr, v in a.usage.items() if v}
    frs = set(d.frs_need_preemption)
    assert frs, "victims only for an assignment that needs preemption"
    winning = [at for at in d.attempts if at.fits]
    assert len(winning) == 1
    allow_borrowing = winning[0].allow_borrowing
    preemptor = make_assigner(cluster, snap, wl, cq).preemptor
    ctx = PreemptionCtx(preemptor, cq, snap, frozenset(frs), usage)
    fair = snap.options.fair_sharing
    victims = [snap.workload(v.workload) for v in d.victims]

    # policies, judged on the state before any eviction
    p = cq.preemption
    for v, wl_v in zip(d.victims, victims, strict=True):
        assert wl_v is not None and wl_v.uses_resources(frs), v
        if v.cluster_queue == cq.name:
            assert v.reason == "InClusterQueue"
            assert p.within_cluster_queue != "Never"
            assert satisfies_preemption_policy(preemptor, wl_v, p.within_cluster_queue), v
            continue
        vcq = snap.cluster_queues[v.cluster_queue]
        assert cq.parent is not None and vcq.root() is cq.root(), "reclaim only inside the cohort tree"
        assert p.reclaim_within_cohort != "Never"
        assert satisfies_preemption_policy(preemptor, wl_v, p.reclaim_within_cohort), v
        assert not is_within_nominal_in_resources(vcq, frs), "non-borrowing ClusterQueues are never reclaimed from"
        if fair:
            assert v.reason in ("InCohortFairSharing", "InCohortReclamation")
        else:
            assert v.reason in ("InCohortReclamation", "InCohortReclaimWhileBorrowing")
        if v.reason == "InCohortReclaimWhileBorrowing":
            assert p.borrow_within_cohort_policy == "LowerPriority"
            assert v.priority < preemptor.priority
            if p.max_priority_threshold is not None:
                assert v.priority <= p.max_priority_threshold

    # fits once they are gone, and every single one is needed
    for w in victims:
        snap.remove_workload(w)
    try:
        assert workload_fits(ctx, allow_borrowing)
        assert all(v <= cq_available(cq, fr) for fr, v in usage.items())
        for w in victims:
            snap.add_workload(w)
            try:
                assert not workload_fits(ctx, allow_borrowing), f"{w.key} is not needed"
            finally:
                snap.remove_workload(w)
    finally:
        for w in victims:
            snap.add_workload(w)


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SEEDS, st.randoms(use_true_random=False))
def test_results_do_not_depend_on_object_order(seed, rnd: random.Random):
    objs = random_cluster(seed)

    def answer(order):
        cluster, snap, wl, cq = _world(order)
        if not cq.active:
            return None
        return json.dumps(preempt_json.decision_dict(decide(cluster, snap, wl)), sort_keys=True)

    shuffled = list(objs)
    rnd.shuffle(shuffled)
    assert answer(objs) == answer(shuffled)


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SEEDS)
def test_the_traced_search_is_the_schedulers_search(seed):
    got = _decision(seed)
    if got is None:
        return
    d = got[-1]
    init = d.explanation.initial
    targets = {t.key: t.reason for t in init.targets} if init else {}
    assert {v.workload: v.reason for v in d.victims} == targets
    if d.victims:
        kept = {s.workload for at in d.attempts if at.fits for s in at.steps if s.action == "kept"}
        assert kept == set(targets)
        removed = [s.workload for at in d.attempts if at.fits for s in at.steps if s.action == "removed"]
        put_back = {s.workload for at in d.attempts if at.fits for s in at.steps if s.action == "put-back"}
        assert set(removed) == kept | put_back and not kept & put_back
        assert removed[-1] in kept, "the last one removed is never put back"
