"""Property tests over random quota trees (hypothesis).

States are generated the way Kueue could have reached them: admitted workloads are added one
by one only while they fit the quota tree.  Then, for a random pending workload:

* a Fit assignment never takes any node of the tree below zero available quota;
* borrowing is reported iff the ClusterQueue's usage would exceed its nominal quota;
* the answer does not depend on the order of the objects in the input;
* the tree's bookkeeping matches Kueue's formulas, and simulations leave it unchanged.
"""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from quotactl.kueue.assign import Mode, initial_assignment
from quotactl.kueue.explain import explain_workload
from quotactl.kueue.nomination import make_assigner
from quotactl.kueue.options import engine_options
from quotactl.kueue.quota import (
    ClusterQueueNode,
    available,
    build_snapshot,
    cq_available,
    local_quota,
    potential_available,
)
from quotactl.model.kueue import build_cluster
from quotactl.report import explain_json
from tests.kueue.builders import (
    admit_greedily,
    admitted,
    cohort,
    configuration,
    cq,
    flavor,
    objects,
    pending,
    with_queues,
)
from tests.property_budget import examples

FLAVORS = ("f0", "f1")
RES = ("cpu", "memory")
POLICIES = ("Never", "LowerPriority", "Any")
WITHIN = ("Never", "LowerPriority", "LowerOrNewerEqualPriority")


def _quota(draw, with_limits: bool):
    nominal = draw(st.integers(0, 8))
    bl = draw(st.one_of(st.none(), st.integers(0, 6))) if with_limits else None
    ll = draw(st.one_of(st.none(), st.integers(0, nominal))) if with_limits else None
    return (nominal, bl, ll)


@st.composite
def clusters(draw):
    n_flavors = draw(st.integers(1, 2))
    flavors = FLAVORS[:n_flavors]
    n_cohorts = draw(st.sampled_from([0, 1, 1, 2, 3]))
    objs: list[dict] = [flavor(f) for f in flavors]
    if draw(st.booleans()):
        objs.append(configuration(True))
    cohort_names = [f"co{i}" for i in range(n_cohorts)]
    for i, name in enumerate(cohort_names):
        parent = draw(st.one_of(st.none(), st.sampled_from(cohort_names[:i]))) if i else None
        groups = None
        if draw(st.booleans()):
            groups = [(list(RES), [(f, {r: _quota(draw, parent is not None) for r in RES}) for f in flavors])]
        objs.append(cohort(name, parent=parent, groups=groups, weight=draw(st.sampled_from([None, 1, 2, "500m"]))))
    n_cqs = draw(st.integers(1, 4))
    cq_names = [f"cq{i}" for i in range(n_cqs)]
    for name in cq_names:
        co = draw(st.sampled_from(cohort_names + [None])) if cohort_names else None
        order = draw(st.permutations(flavors))
        groups = [(list(RES), [(f, {r: _quota(draw, co is not None) for r in RES}) for f in order])]
        reclaim = draw(st.sampled_from(POLICIES)) if co else "Never"
        borrow = draw(st.sampled_from([None, "LowerPriority"])) if reclaim != "Never" else None
        objs.append(cq(name, groups, cohort=co, within=draw(st.sampled_from(WITHIN)), reclaim=reclaim, borrow=borrow,
                       when_can_borrow=draw(st.sampled_from(["MayStopSearch", "TryNextFlavor"])),
                       when_can_preempt=draw(st.sampled_from(["MayStopSearch", "TryNextFlavor"]))))
    # admitted workloads, kept only while they fit (a state Kueue could have reached)
    candidates = []
    for i in range(draw(st.integers(0, 10))):
        name = draw(st.sampled_from(cq_names))
        f = draw(st.sampled_from(flavors))
        usage = {(f, r): draw(st.integers(0, 5)) for r in RES}
        candidates.append(admitted(f"w{i}", name, usage, priority=draw(st.sampled_from([0, 5, 10])),
                                   reserved=10 + i))
    objs = admit_greedily(objs, candidates)
    target = draw(st.sampled_from(cq_names))
    count = draw(st.integers(1, 3))
    objs.append(pending("incoming", f"q-{target}", {r: draw(st.integers(0, 4)) for r in RES}, count=count,
                        priority=draw(st.sampled_from([0, 5, 10])), created=5000))
    return objs


def _build(objs):
    cluster = build_cluster(objects(with_queues(objs)))
    snap = build_snapshot(cluster, engine_options(cluster))
    wl = cluster.workloads["default/incoming"]
    cqn = snap.cluster_queues[cluster.local_queues[("default", wl.queue_name)].cluster_queue]
    return cluster, snap, wl, cqn


def _path(cqn: ClusterQueueNode):
    return [cqn, *cqn.path_parent_to_root()]


SETTINGS = settings(max_examples=examples(120), deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(clusters())
def test_fit_never_exceeds_any_nodes_available_quota(objs):
    cluster, snap, wl, cqn = _build(objs)
    if not cqn.active:
        return
    a = initial_assignment(make_assigner(cluster, snap, wl, cqn)).assignment
    if a.representative_mode != Mode.Fit:
        return
    frs = set(a.usage)
    assert all(available(n, fr) >= 0 for n in _path(cqn) for fr in frs)  # a state Kueue can reach
    for fr, v in a.usage.items():
        assert v <= cq_available(cqn, fr)
    snap.add_usage(cqn, a.usage)
    for n in _path(cqn):
        for fr in frs:
            assert available(n, fr) >= 0, (n.name, fr)
        q = n.quotas.get(next(iter(frs))) if frs else None
        if q is not None and q.borrowing_limit is not None and n.parent is not None:
            fr = next(iter(frs))
            assert n.usage.get(fr, 0) <= n.subtree_quota.get(fr, 0) + q.borrowing_limit


@SETTINGS
@given(clusters())
def test_borrowing_is_reported_iff_usage_would_exceed_nominal(objs):
    cluster, snap, wl, cqn = _build(objs)
    if not cqn.active:
        return
    a = initial_assignment(make_assigner(cluster, snap, wl, cqn)).assignment
    if a.representative_mode != Mode.Fit:
        return
    ps = a.pod_sets[0]  # one pod set: its value is the whole request
    for res, fa in ps.flavors.items():
        fr = (fa.flavor, res)
        exceeds = cqn.usage.get(fr, 0) + ps.requests[res] > cqn.nominal(fr)
        assert (fa.borrow > 0) == (exceeds and cqn.parent is not None), (fr, fa)
    e = explain_workload(cluster, snap, wl, counterfactual=False)
    assert e.borrows == any(fa.borrow > 0 for fa in ps.flavors.values())


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(clusters(), st.randoms(use_true_random=False))
def test_results_do_not_depend_on_object_order(objs, rnd: random.Random):
    def answer(order):
        cluster, snap, wl, _ = _build(order)
        doc = explain_json.explanation_dict(explain_workload(cluster, snap, wl))
        return json.dumps(doc, sort_keys=True)

    shuffled = list(objs)
    rnd.shuffle(shuffled)
    assert answer(objs) == answer(shuffled)


@SETTINGS
@given(clusters())
def test_tree_bookkeeping_matches_kueues_formulas(objs):
    cluster, snap, wl, cqn = _build(objs)
    for co in snap.cohorts.values():
        children = list(co.child_cohorts) + list(co.all_child_cqs)
        frs = set(co.subtree_quota) | {fr for c in children for fr in c.subtree_quota}
        for fr in frs:
            own = co.quotas[fr].nominal if fr in co.quotas else 0
            assert co.subtree_quota.get(fr, 0) == own + sum(
                c.subtree_quota.get(fr, 0) - local_quota(c, fr) for c in children)
            assert co.usage.get(fr, 0) == sum(max(0, c.usage.get(fr, 0) - local_quota(c, fr)) for c in children)
    for node in snap.cluster_queues.values():
        for fr in node.quotas:
            assert potential_available(node, fr) >= cq_available(node, fr)
    before = {n.name: dict(n.usage) for n in [*snap.cluster_queues.values(), *snap.cohorts.values()]}
    if cqn.active:
        initial_assignment(make_assigner(cluster, snap, wl, cqn))  # runs the oracle and the target search
    after = {n.name: {k: v for k, v in n.usage.items()} for n in [*snap.cluster_queues.values(), *snap.cohorts.values()]}
    assert {k: {f: v for f, v in d.items() if v} for k, d in after.items()} == \
        {k: {f: v for f, v in d.items() if v} for k, d in before.items()}


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(clusters())
def test_the_scoped_model_gives_the_full_models_answer(objs):
    from quotactl.kueue.scope import scoped_cluster
    from quotactl.model.kueue_input import KueueInput

    objs_k = objects(with_queues(objs))

    def answer(cluster):
        snap = build_snapshot(cluster, engine_options(cluster))
        e = explain_workload(cluster, snap, cluster.workloads["default/incoming"])
        return json.dumps(explain_json.explanation_dict(e), sort_keys=True)

    assert answer(scoped_cluster(KueueInput(objs_k), "default/incoming")) == answer(build_cluster(objs_k))
