"""The quota tree (Kueue's resource_node.go) against worked examples, flat and hierarchical."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quotactl.kueue.amounts import format_amount, to_amount
from quotactl.kueue.quota import (
    ResourceQuota,
    UsageOverlay,
    compare_drs,
    cq_available,
    cq_path,
    dominant_resource_share,
    find_height_of_lowest_subtree_that_fits,
    local_available,
    local_quota,
    potential_available,
    quota_view,
    with_quotas,
)
from quotactl.model.quantity import Quantity
from tests.kueue.builders import admitted, cohort, cq, flavor, snapshot_of

CPU = ("default", "cpu")


def example1():
    """Flat cohort research with limits."""
    return [
        flavor("default"),
        cq("a", [(["cpu"], [("default", {"cpu": (10, 5, None)})])], cohort="research"),
        cq("b", [(["cpu"], [("default", {"cpu": (10, None, 4)})])], cohort="research"),
        cq("c", [(["cpu"], [("default", {"cpu": 0})])], cohort="research"),
        admitted("a1", "a", {CPU: 4}),
        admitted("b1", "b", {CPU: 8}),
        admitted("c1", "c", {CPU: 6}),
    ]


def example2():
    """Hierarchical: R (no quota) -> C1 (borrowingLimit 4) -> A, B (lendingLimit 1); R -> C2 -> D."""
    return [
        flavor("default"),
        cohort("r"),
        cohort("c1", parent="r", groups=[(["cpu"], [("default", {"cpu": (0, 4, None)})])]),
        cohort("c2", parent="r"),
        cq("a", [(["cpu"], [("default", {"cpu": 6})])], cohort="c1"),
        cq("b", [(["cpu"], [("default", {"cpu": (4, None, 1)})])], cohort="c1"),
        cq("d", [(["cpu"], [("default", {"cpu": 10})])], cohort="c2"),
        admitted("a1", "a", {CPU: 4}), admitted("a2", "a", {CPU: 4}),
        admitted("b1", "b", {CPU: 2}),
        admitted("d1", "d", {CPU: 3}),
    ]


def m(n: int) -> int:
    return n * 1000  # cpu amounts are millicores


def test_example1_flat_cohort_with_limits():
    _, snap = snapshot_of(example1())
    research = snap.cohorts["research"]
    assert research.subtree_quota[CPU] == m(14)
    assert research.usage[CPU] == m(12)
    a, b, c = (snap.cluster_queues[n] for n in "abc")
    assert [cq_available(x, CPU) for x in (a, b, c)] == [m(2)] * 3
    assert [potential_available(x, CPU) for x in (a, b, c)] == [m(14), m(20), m(14)]
    # A would not borrow with 5 more: level 0, and the subtree is not the whole tree? (flat: parent is root)
    assert find_height_of_lowest_subtree_that_fits(a, CPU, m(5)) == (0, True)


def test_example2_hierarchical_cohorts():
    _, snap = snapshot_of(example2())
    sq = {n: snap.cluster_queues[n].subtree_quota[CPU] for n in "abd"}
    assert sq == {"a": m(6), "b": m(4), "d": m(10)}
    assert snap.cohorts["c1"].subtree_quota[CPU] == m(7)
    assert snap.cohorts["c2"].subtree_quota[CPU] == m(10)
    assert snap.cohorts["r"].subtree_quota[CPU] == m(17)
    assert snap.cohorts["c1"].usage[CPU] == m(8)
    assert snap.cohorts["c2"].usage[CPU] == m(3)
    assert snap.cohorts["r"].usage[CPU] == m(11)
    a, b, d = (snap.cluster_queues[n] for n in "abd")
    assert (cq_available(a, CPU), cq_available(b, CPU), cq_available(d, CPU)) == (m(3), m(4), m(6))
    assert potential_available(snap.cohorts["c1"], CPU) == m(11)
    assert (potential_available(a, CPU), potential_available(b, CPU), potential_available(d, CPU)) == (
        m(11), m(14), m(17))
    assert find_height_of_lowest_subtree_that_fits(a, CPU, m(4)) == (2, False)
    assert cq_path(a) == "/r/c1/a"


def test_add_then_remove_usage_restores_the_tree():
    _, snap = snapshot_of(example2())
    nodes = list(snap.cluster_queues.values()) + list(snap.cohorts.values())
    before = {n.name: dict(n.usage) for n in nodes}
    wl = snap.cluster_queues["a"].workloads["default/a2"]
    snap.remove_workload(wl)
    assert snap.cohorts["r"].usage[CPU] == m(7)
    snap.add_workload(wl)
    assert {n.name: dict(n.usage) for n in nodes} == before


def test_a_what_if_view_changes_quota_without_touching_the_snapshot():
    _, snap = snapshot_of(example2())
    c1 = snap.cohorts["c1"]
    before = {n.name: (dict(n.quotas), dict(n.subtree_quota), dict(n.usage))
              for n in list(snap.cluster_queues.values()) + list(snap.cohorts.values())}
    view = with_quotas(snap, {(c1, CPU): ResourceQuota(m(3), m(4))})
    assert view.cohorts["c1"].quotas[CPU] == ResourceQuota(m(3), m(4))
    assert view.cohorts["c1"].subtree_quota[CPU] == m(10)
    assert view.cohorts["r"].subtree_quota[CPU] == m(20)
    a = view.cluster_queues["a"]
    assert a.parent is view.cohorts["c1"] and a.root() is view.cohorts["r"]
    assert cq_available(a, CPU) > cq_available(snap.cluster_queues["a"], CPU)
    view.remove_workload(a.workloads["default/a2"])  # a preemption simulation on the view
    assert view.cohorts["r"].usage[CPU] == m(7)
    after = {n.name: (dict(n.quotas), dict(n.subtree_quota), dict(n.usage))
             for n in list(snap.cluster_queues.values()) + list(snap.cohorts.values())}
    assert after == before
    assert "default/a2" in snap.cluster_queues["a"].workloads


def test_quota_view_reports_the_numbers_of_one_node():
    _, snap = snapshot_of(example1())
    v = quota_view(snap.cluster_queues["b"], CPU)
    assert (v.nominal, v.lending_limit, v.local_quota, v.usage, v.available, v.borrowing) == (
        m(10), m(4), m(6), m(8), m(2), False)


def test_drs_example_8_5a():
    """C borrows 6 cpu; lendable = potentialAvailable(cohort) = 14 -> 428.57, status 429."""
    _, snap = snapshot_of(example1())
    drs = dominant_resource_share(snap.cluster_queues["c"])
    assert drs.dominant_resource == "cpu"
    assert drs.precise_weighted_share() == pytest.approx(6000 / 14)
    assert drs.weighted_share() == 429
    assert dominant_resource_share(snap.cluster_queues["a"]).is_zero()


def test_drs_example_8_5c_borrowing_limit_shrinks_the_denominator():
    objs = [
        flavor("default"),
        cohort("root", groups=[(["nvidia.com/gpu"], [("default", {"nvidia.com/gpu": 50})])]),
        cohort("child", parent="root", groups=[(["nvidia.com/gpu"], [("default", {"nvidia.com/gpu": (0, 10, None)})])]),
        cq("q", [(["nvidia.com/gpu"], [("default", {"nvidia.com/gpu": 0})])], cohort="child"),
        admitted("w", "q", {("default", "nvidia.com/gpu"): 10}),
    ]
    _, snap = snapshot_of(objs)
    assert dominant_resource_share(snap.cluster_queues["q"]).precise_weighted_share() == pytest.approx(1000)
    assert dominant_resource_share(snap.cohorts["child"]).precise_weighted_share() == pytest.approx(200)


def test_zero_weight_borrowing_sorts_after_everyone():
    objs = [
        flavor("default"),
        cq("z", [(["cpu"], [("default", {"cpu": 0})])], cohort="co", weight=0),
        cq("w", [(["cpu"], [("default", {"cpu": 0})])], cohort="co", weight=1),
        cq("s", [(["cpu"], [("default", {"cpu": 10})])], cohort="co"),
        admitted("z1", "z", {CPU: 1}), admitted("w1", "w", {CPU: 5}),
    ]
    _, snap = snapshot_of(objs)
    z = dominant_resource_share(snap.cluster_queues["z"])
    w = dominant_resource_share(snap.cluster_queues["w"])
    assert z.zero_weight_borrows() and z.weighted_share() == 2**63 - 1
    assert compare_drs(z, w) == 1 and compare_drs(w, z) == -1


@pytest.mark.parametrize("resource,text,amount,printed", [
    ("cpu", "1500m", 1500, "1500m"), ("cpu", "2", 2000, "2"), ("cpu", "1000", 1_000_000, "1k"),
    ("cpu", "3.75", 3750, "3750m"), ("memory", "10Mi", 10 * 2**20, "10Mi"), ("memory", "1.5Ki", 1536, "1536"),
    ("memory", "1000", 1000, "1k"), ("nvidia.com/gpu", "8", 8, "8"), ("pods", "1500", 1500, "1500"),
    ("memory", "100m", 1, "1"),
])
def test_amounts_are_kueues(resource, text, amount, printed):
    assert to_amount(resource, Quantity.parse(text)) == amount
    assert format_amount(resource, amount) == printed


def test_inactive_cluster_queues_still_count_in_their_cohort():
    objs = example1()
    objs[1]["spec"]["stopPolicy"] = "Hold"
    _, snap = snapshot_of(objs)
    a = snap.cluster_queues["a"]
    assert a.inactive is not None and a.inactive.reason == "Stopped"
    assert snap.cluster_queue("a") is None
    assert snap.cohorts["research"].subtree_quota[CPU] == m(14)
    assert a not in snap.cohorts["research"].child_cqs


def test_missing_flavor_and_cohort_cycle_make_a_queue_inactive():
    objs = [
        flavor("default"),
        cq("lost", [(["cpu"], [("nope", {"cpu": 1})])]),
        cohort("x", parent="y"), cohort("y", parent="x"),
        cq("looped", [(["cpu"], [("default", {"cpu": 1})])], cohort="x"),
    ]
    _, snap = snapshot_of(objs)
    assert snap.cluster_queues["lost"].inactive.reason == "FlavorNotFound"
    assert snap.cluster_queues["looped"].inactive.reason == "CohortCycleDetected"
    assert "x" not in snap.cohorts


@pytest.mark.parametrize(("example", "node", "local", "local_free"), [
    # localQuota = max(0, SubtreeQuota - lendingLimit), 0 without a lendingLimit;
    # LocalAvailable = max(0, localQuota - usage) (resource_node.go)
    (example1, "b", m(6), 0),  # nominal 10, lendingLimit 4: keeps 6 and uses 8
    (example1, "a", 0, 0),  # no lendingLimit: lends everything, keeps nothing
    (example2, "b", m(3), m(1)),  # nominal 4, lendingLimit 1: keeps 3, uses 2
    (example2, "c1", 0, 0),  # a cohort with a borrowingLimit only
])
def test_local_quota_is_the_part_a_node_does_not_lend(example, node, local, local_free):
    _, snap = snapshot_of(example())
    n = snap.cluster_queues.get(node) or snap.cohorts[node]
    assert (local_quota(n, CPU), local_available(n, CPU)) == (local, local_free)


def test_local_quota_never_goes_below_zero():
    _, snap = snapshot_of([flavor("default"), cq("x", [(["cpu"], [("default", {"cpu": (2, None, 5)})])], cohort="co")])
    assert local_quota(snap.cluster_queues["x"], CPU) == 0  # lendingLimit above nominal keeps nothing


_LIMIT = st.one_of(st.none(), st.integers(0, 8))


def _random_tree(data):
    """R -> C1 -> A, B; R -> D, every node with random quota and limits, random admitted workloads."""
    def quota():
        return (data.draw(st.integers(0, 8)), data.draw(_LIMIT), data.draw(_LIMIT))

    objs = [flavor("default"), cohort("r", groups=[(["cpu"], [("default", {"cpu": quota()[0]})])]),
            cohort("c1", parent="r", groups=[(["cpu"], [("default", {"cpu": quota()})])])]
    for name, parent in (("a", "c1"), ("b", "c1"), ("d", "r")):
        objs.append(cq(name, [(["cpu"], [("default", {"cpu": quota()})])], cohort=parent))
        for i in range(data.draw(st.integers(0, 3))):
            objs.append(admitted(f"{name}{i}", name, {CPU: data.draw(st.integers(1, 6))}))
    return snapshot_of(objs)[1]


def _cohort_usage_is_what_children_store_in_it(snap):
    """``accumulateFromChild``: a cohort's usage is its children's usage beyond their local quota."""
    for c in snap.cohorts.values():
        children = (*c.child_cohorts, *c.all_child_cqs)
        assert c.usage.get(CPU, 0) == sum(max(0, ch.usage.get(CPU, 0) - local_quota(ch, CPU)) for ch in children)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_adding_and_removing_usage_keeps_every_cohort_at_what_its_children_store(data):
    snap = _random_tree(data)
    _cohort_usage_is_what_children_store_in_it(snap)
    before = {n.name: dict(n.usage) for n in (*snap.cluster_queues.values(), *snap.cohorts.values())}
    workloads = [w for q in snap.cluster_queues.values() for w in q.workloads.values()]
    gone = data.draw(st.lists(st.sampled_from(workloads), unique_by=lambda w: w.key)) if workloads else []
    for w in gone:
        snap.remove_workload(w)
        _cohort_usage_is_what_children_store_in_it(snap)
    for w in reversed(gone):
        snap.add_workload(w)
        _cohort_usage_is_what_children_store_in_it(snap)
    assert {n.name: dict(n.usage) for n in (*snap.cluster_queues.values(), *snap.cohorts.values())} == before


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_a_usage_overlay_answers_what_removing_the_usage_from_the_tree_would(data):
    snap = _random_tree(data)
    workloads = [w for q in snap.cluster_queues.values() for w in q.workloads.values()]
    if not workloads:
        return
    w = data.draw(st.sampled_from(workloads))
    overlay = UsageOverlay({CPU})
    overlay.remove(snap.cluster_queues[w.cluster_queue], w.usage)
    seen = {name: overlay.cq_available(q, CPU) for name, q in snap.cluster_queues.items()}
    snap.remove_workload(w)
    assert seen == {name: cq_available(q, CPU) for name, q in snap.cluster_queues.items()}
