"""The preemption oracle and target search against the worked examples of
flat and hierarchical reclaim, KEP-1337 and the fair-sharing strategies."""

from __future__ import annotations

from quotactl.kueue.assign import Mode, PreemptionMode, initial_assignment
from quotactl.kueue.preemption.common import PreemptionPossibility
from quotactl.kueue.preemption.oracle import simulate_preemption
from tests.kueue.builders import admitted, assigner_for, cohort, configuration, cq, flavor, pending

CPU = ("default", "cpu")
GPU = ("gpu-flavor", "example.com/gpu")


def targets(objs, key, **kw):
    _, _, assigner = assigner_for(objs, key, **kw)
    init = initial_assignment(assigner)
    return init, {t.key: t.reason for t in init.targets}


def example4(reclaim="Any"):
    return [
        flavor("default"),
        cq("a", [(["cpu"], [("default", {"cpu": 10})])], cohort="team", reclaim=reclaim),
        cq("b", [(["cpu"], [("default", {"cpu": 10})])], cohort="team"),
        admitted("a1", "a", {CPU: 4}, reserved=10),
        admitted("b1", "b", {CPU: 6}, reserved=20),
        admitted("b2", "b", {CPU: 6}, reserved=30),
        pending("a-new", "q-a", {"cpu": 5}),
    ]


def test_example4_flat_reclaim():
    init, t = targets(example4(), "default/a-new")
    assert t == {"default/b2": "InCohortReclamation"}
    assert init.assignment.message() == ("couldn't assign flavors to pod set main: insufficient unused quota for cpu "
                                         "in flavor default, 1 more needed")
    assert init.assignment.pod_sets[0].flavors["cpu"].preemption_mode == PreemptionMode.RECLAIM


def test_example4_lower_priority_finds_no_candidates():
    init, t = targets(example4("LowerPriority"), "default/a-new")
    assert t == {}
    assert init.assignment.representative_mode == Mode.Preempt


def test_example5_hierarchical_reclaim_and_add_back():
    objs = [
        flavor("default"), cohort("r"), cohort("c1", parent="r"), cohort("c2", parent="r"),
        cq("a", [(["cpu"], [("default", {"cpu": 6})])], cohort="c1", reclaim="Any"),
        cq("x", [(["cpu"], [("default", {"cpu": 0})])], cohort="c1"),
        cq("b", [(["cpu"], [("default", {"cpu": 6})])], cohort="c2"),
        admitted("x1", "x", {CPU: 2}, reserved=50),
        admitted("b1", "b", {CPU: 5}, reserved=10),
        admitted("b2", "b", {CPU: 5}, reserved=30),
        pending("a1", "q-a", {"cpu": 5}),
    ]
    _, t = targets(objs, "default/a1")
    assert t == {"default/b2": "InCohortReclamation"}


def test_example6_own_queue_preemption_while_borrowing():
    objs = [
        flavor("default"), cohort("r"),
        cohort("c1", parent="r", groups=[(["cpu"], [("default", {"cpu": (0, 4, None)})])]),
        cohort("c2", parent="r"),
        cq("a", [(["cpu"], [("default", {"cpu": 6})])], cohort="c1", within="LowerPriority"),
        cq("b", [(["cpu"], [("default", {"cpu": (4, None, 1)})])], cohort="c1"),
        cq("d", [(["cpu"], [("default", {"cpu": 10})])], cohort="c2"),
        admitted("a1", "a", {CPU: 4}, reserved=10), admitted("a2", "a", {CPU: 4}, reserved=20),
        admitted("b1", "b", {CPU: 2}), admitted("d1", "d", {CPU: 3}),
        pending("in", "q-a", {"cpu": 4}, priority=10),
    ]
    init, t = targets(objs, "default/in")
    assert t == {"default/a2": "InClusterQueue"}
    assert init.assignment.borrowing == 2


def example7(threshold=100):
    def q(name):
        quota = {"example.com/gpu": (100, 0, None)} if name == "shared" else {"example.com/gpu": (0, 100, None)}
        return cq(name, [(["example.com/gpu"], [("gpu-flavor", quota)])], cohort="kep",
                  reclaim="LowerPriority", borrow="LowerPriority", threshold=threshold)
    return [
        flavor("gpu-flavor"),
        *(q(n) for n in ("a-standard", "a-best-effort", "b-standard", "b-best-effort", "shared")),
        admitted("be1", "a-best-effort", {GPU: 60}, priority=50, reserved=10),
        admitted("be2", "b-best-effort", {GPU: 40}, priority=50, reserved=20),
        pending("s1", "q-a-standard", {"example.com/gpu": 50}, priority=300),
    ]


def test_example7_reclaim_while_borrowing():
    _, t = targets(example7(), "default/s1")
    assert t == {"default/be1": "InCohortReclaimWhileBorrowing"}


def test_example7_threshold_below_candidates():
    init, t = targets(example7(threshold=40), "default/s1")
    assert t == {}
    assert init.assignment.message() == ("couldn't assign flavors to pod set main: insufficient unused quota for "
                                         "example.com/gpu in flavor gpu-flavor, 50 more needed")


def example10(b_workloads, strategies=None):
    return [
        flavor("default"), configuration(True, strategies),
        cq("s", [(["cpu"], [("default", {"cpu": 12})])], cohort="flat", reclaim="Any"),
        cq("a", [(["cpu"], [("default", {"cpu": 0})])], cohort="flat", reclaim="Any"),
        cq("b", [(["cpu"], [("default", {"cpu": 0})])], cohort="flat", reclaim="Any"),
        *b_workloads,
        pending("a1", "q-a", {"cpu": 4}),
    ]


def test_example10_fair_sharing_s2a():
    bs = [admitted(f"b{i}", "b", {CPU: 4}, reserved=10 * i) for i in (1, 2, 3)]
    _, t = targets(example10(bs), "default/a1")
    assert t == {"default/b3": "InCohortFairSharing"}


def test_example10_fair_sharing_no_flip_flop():
    objs = example10([admitted("a0", "a", {CPU: 4}, reserved=5)]
                     + [admitted(f"b{i}", "b", {CPU: 4}, reserved=10 * i) for i in (1, 2)])
    _, t = targets(objs, "default/a1")
    assert t == {}


def test_example10_greedy_needs_s2b():
    big = [admitted("b-big", "b", {CPU: 12})]
    _, t = targets(example10(big), "default/a1")
    assert t == {"default/b-big": "InCohortFairSharing"}
    _, t = targets(example10(big, ["LessThanOrEqualToFinalShare"]), "default/a1")
    assert t == {}


def test_oracle_reports_reclaim_versus_preempt():
    cluster, snap, assigner = assigner_for(example4(), "default/a-new")
    cqa = snap.cluster_queues["a"]
    r = simulate_preemption(snap, cqa, assigner.preemptor, CPU, 5000)
    assert r.possibility == PreemptionPossibility.RECLAIM and r.borrow == 0
    assert [t.key for t in r.targets] == ["default/b2"]
    # the snapshot is left as it was
    assert snap.cohorts["team"].usage[CPU] == 16000


def test_evicted_candidates_come_first():
    objs = example4()
    objs[4] = admitted("b1", "b", {CPU: 6}, reserved=20, evicted=True)
    _, t = targets(objs, "default/a-new")
    assert t == {"default/b1": "InCohortReclamation"}
