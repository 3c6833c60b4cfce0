"""``preempt_decision``: the preempt report model on worked examples (flat and hierarchical
reclaim, own-ClusterQueue preemption while borrowing, KEP-1337, fair-sharing strategies), every rule that can stop
preemption, and the traced search."""

from __future__ import annotations

import pytest

from quotactl.kueue.preempt_decision import decide
from tests.kueue.builders import admitted, cohort, configuration, cq, flavor, pending, snapshot_of
from tests.kueue.test_preemption import example4, example7, example10

CPU = ("default", "cpu")


def decision(objs, key, **kw):
    cluster, snap = snapshot_of(objs, **kw)
    return decide(cluster, snap, cluster.workloads[key])


def steps(d, run=-1):
    return [(s.action, s.workload) for s in d.attempts[run].steps]


def test_example4_flat_reclaim_report():
    d = decision(example4(), "default/a-new")
    assert [(v.workload, v.reason, v.cluster_queue, v.priority) for v in d.victims] == [
        ("default/b2", "InCohortReclamation", "b", 0)]
    v = d.victims[0]
    assert v.path == "/team/b" and v.admitted_since == "2026-01-01T00:00:30Z"
    assert [(f.flavor, f.resource, f.amount) for f in v.freed] == [("default", "cpu", 6000)]
    assert v.message.startswith("Preempted to accommodate a workload (UID: uid-") and \
        v.message.endswith("due to reclamation within the cohort; preemptor path: /team/a; preemptee path: /team/b")
    assert d.message == ("couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor "
                         "default, 1 more needed. Pending the preemption of 1 workload(s)")
    assert d.blocking is None and d.frs_need_preemption == (CPU,)
    # b2 (reserved later) first: it alone makes room; the run that allows borrowing wins
    assert [a.allow_borrowing for a in d.attempts] == [True]
    assert steps(d) == [("removed", "default/b2"), ("kept", "default/b2")]
    assert "hierarchical advantage" in d.attempts[0].steps[0].detail
    rows = {(u.node, u.kind): u for u in d.usage}
    assert rows[("a", "ClusterQueue")].usage_before == 4000 and rows[("a", "ClusterQueue")].usage_after == 9000
    assert rows[("b", "ClusterQueue")].usage_after == 6000
    assert rows[("team", "Cohort")].usage_after == 15000 and not rows[("a", "ClusterQueue")].borrowing_after
    assert rows[("a", "ClusterQueue")].available_after == 10000  # after the eviction, before the admission


def test_example4_lower_priority_is_no_lower_priority():
    d = decision(example4("LowerPriority"), "default/a-new")
    assert not d.victims and d.representative_mode == "Preempt"
    assert d.blocking.rule == "NoLowerPriority"  # withinClusterQueue Never + nothing of lower priority to reclaim
    assert "withinClusterQueue is Never" in d.blocking.message
    excluded = {x.why: x.workloads for x in d.excluded}
    assert excluded["priority 0 is not lower than the preemptor's 0 (reclaimWithinCohort: LowerPriority)"] == (
        "default/b1", "default/b2")
    assert excluded["withinClusterQueue is Never"] == ("default/a1",)


def test_example5_add_back_puts_the_first_victim_back():
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
    d = decision(objs, "default/a1")
    assert [(v.workload, v.reason) for v in d.victims] == [("default/b2", "InCohortReclamation")]
    assert steps(d) == [("removed", "default/x1"), ("removed", "default/b2"), ("kept", "default/b2"),
                        ("put-back", "default/x1")]


def test_example6_own_queue_preemption_keeps_borrowing():
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
    d = decision(objs, "default/in")
    assert [(v.workload, v.reason) for v in d.victims] == [("default/a2", "InClusterQueue")]
    row = next(u for u in d.usage if u.node == "a")
    assert row.usage_after == 8000 and row.borrowing_after
    assert d.explanation.assignment.borrowing == 2


def test_example7_kep1337_reclaim_while_borrowing():
    d = decision(example7(), "default/s1")
    assert [(v.workload, v.reason) for v in d.victims] == [("default/be1", "InCohortReclaimWhileBorrowing")]
    assert steps(d) == [("removed", "default/be2"), ("removed", "default/be1"), ("kept", "default/be1"),
                        ("put-back", "default/be2")]
    assert d.policies == {"withinClusterQueue": "Never", "reclaimWithinCohort": "LowerPriority",
                          "borrowWithinCohort": "LowerPriority", "maxPriorityThreshold": 100}


def test_example7_threshold_blocks_and_says_so():
    d = decision(example7(threshold=40), "default/s1")
    assert not d.victims
    assert d.blocking.rule == "BorrowWithinCohort"
    assert "above maxPriorityThreshold 40" in d.blocking.message
    assert "50 example.com/gpu in flavor gpu-flavor needed, 0 available" in d.blocking.message
    assert [a.allow_borrowing for a in d.attempts] == [True, False]
    assert {s.action for s in d.attempts[0].steps} == {"skipped"}
    assert d.summary == ("no preemption possible: it would borrow, and borrowWithinCohort does not allow these "
                         "victims then (BorrowWithinCohort)")


def test_example10_fair_sharing_s2a_report():
    bs = [admitted(f"b{i}", "b", {CPU: 4}, reserved=10 * i) for i in (1, 2, 3)]
    d = decision(example10(bs), "default/a1")
    assert [(v.workload, v.reason) for v in d.victims] == [("default/b3", "InCohortFairSharing")]
    first = d.attempts[0].steps[0]
    assert first.action == "removed" and first.strategy == "LessThanOrEqualToFinalShare"
    assert first.preemptor_share == pytest.approx(333.333) and first.target_share == pytest.approx(1000)
    assert first.target_share_after == pytest.approx(666.667)
    shares = {s.node: (s.before, s.after) for s in d.shares}
    assert shares["a"] == (0, pytest.approx(333.333)) and shares["b"] == (pytest.approx(1000), pytest.approx(666.667))


def test_example10_no_flip_flop_is_a_fair_sharing_block():
    objs = example10([admitted("a0", "a", {CPU: 4}, reserved=5)]
                     + [admitted(f"b{i}", "b", {CPU: 4}, reserved=10 * i) for i in (1, 2)])
    d = decision(objs, "default/a1")
    assert not d.victims and d.blocking.rule == "FairSharingStrategy"
    actions = [(s.action, s.strategy) for s in d.attempts[0].steps]
    assert actions == [("deferred", "LessThanOrEqualToFinalShare"), ("deferred", "LessThanOrEqualToFinalShare"),
                       ("rejected", "LessThanInitialShare")]


def test_example10_greedy_needs_the_second_strategy():
    d = decision(example10([admitted("b-big", "b", {CPU: 12})]), "default/a1")
    assert [(s.action, s.strategy) for s in d.attempts[0].steps] == [
        ("deferred", "LessThanOrEqualToFinalShare"), ("removed", "LessThanInitialShare"), ("kept", None)]


def test_within_nominal_shortcut_under_fair_sharing_reclaims():
    objs = [flavor("default"), configuration(True),
            cq("a", [(["cpu"], [("default", {"cpu": 6})])], cohort="co", reclaim="Any"),
            cq("b", [(["cpu"], [("default", {"cpu": 2})])], cohort="co"),
            admitted("b1", "b", {CPU: 4}, reserved=10), admitted("b2", "b", {CPU: 4}, reserved=20),
            pending("in", "q-a", {"cpu": 4})]
    d = decision(objs, "default/in")
    assert [(v.workload, v.reason) for v in d.victims] == [("default/b2", "InCohortReclamation")]
    assert "FairSharingPreemptWithinNominal" in d.attempts[0].steps[0].detail


def test_policy_never_everywhere():
    objs = [flavor("default"), cq("a", [(["cpu"], [("default", {"cpu": 4})])]),
            admitted("a1", "a", {CPU: 4}), pending("in", "q-a", {"cpu": 2}, priority=5)]
    d = decision(objs, "default/in")
    assert d.blocking.rule == "PolicyNever"
    assert d.blocking.message == ("no workload may be preempted: withinClusterQueue is Never; the ClusterQueue has "
                                  "no cohort to reclaim from")


def test_nothing_to_reclaim_when_no_other_queue_borrows():
    objs = [flavor("default"),
            cq("a", [(["cpu"], [("default", {"cpu": 4})])], cohort="co", reclaim="Any", within="LowerPriority"),
            cq("b", [(["cpu"], [("default", {"cpu": 4})])], cohort="co"),
            admitted("a1", "a", {CPU: 2}, priority=9), admitted("b1", "b", {CPU: 4}),
            pending("in", "q-a", {"cpu": 3}, priority=5)]
    d = decision(objs, "default/in")
    assert d.blocking.rule == "NoLowerPriority"
    assert "nothing to reclaim: no other ClusterQueue is borrowing cpu in flavor default" in d.blocking.message
    whys = {x.why for x in d.excluded}
    assert "ClusterQueue b is not borrowing cpu in default (usage within nominal): nothing to reclaim" in whys


def test_not_enough_candidates_reports_the_shortfall():
    objs = [flavor("default"),
            cq("a", [(["cpu"], [("default", {"cpu": 4})])], within="LowerPriority"),
            admitted("a1", "a", {CPU: 1}, priority=0), admitted("a2", "a", {CPU: 3}, priority=9),
            pending("in", "q-a", {"cpu": 3}, priority=5)]
    d = decision(objs, "default/in")
    assert d.blocking.rule == "NotEnoughCandidates"
    assert d.blocking.message.endswith("3 cpu in flavor default needed, 1 available")
    assert steps(d) == [("removed", "default/a1")]


@pytest.mark.parametrize("request_, rule", [(9, "ExceedsMaxQuota"), (6, "NoPreemptionWhileBorrowing")])
def test_no_fit_rules(request_, rule):
    objs = [flavor("default"),
            cq("a", [(["cpu"], [("default", {"cpu": 4})])], cohort="co", within="LowerPriority", reclaim="Any"),
            cq("b", [(["cpu"], [("default", {"cpu": 4})])], cohort="co"),
            admitted("a1", "a", {CPU: 4}), pending("in", "q-a", {"cpu": request_}, priority=5)]
    d = decision(objs, "default/in")
    assert d.representative_mode == "NoFit" and not d.victims and d.blocking.rule == rule
    if rule == "NoPreemptionWhileBorrowing":
        assert "cpu in flavor default: request 6 > nominal 4" in d.blocking.message


def test_fits_and_not_pending():
    objs = [flavor("default"), cq("a", [(["cpu"], [("default", {"cpu": 4})])]),
            admitted("a1", "a", {CPU: 1}), pending("in", "q-a", {"cpu": 2})]
    d = decision(objs, "default/in")
    assert d.blocking.rule == "Fits" and d.representative_mode == "Fit"
    assert [(u.node, u.usage_before, u.usage_after) for u in d.usage] == [("a", 1000, 3000)]
    d = decision(objs, "default/a1")
    assert d.blocking.rule == "NotPending" and d.explanation.status == "Admitted"


def test_blocked_before_flavor_assignment():
    objs = [flavor("default"), cq("a", [(["cpu"], [("default", {"cpu": 4})])], stop="Hold"),
            pending("in", "q-a", {"cpu": 2})]
    d = decision(objs, "default/in")
    assert d.blocking.rule == "Blocked" and "inactive" in d.blocking.message


def test_flavor_pins_are_a_what_if():
    objs = [flavor("alpha"), flavor("beta"),
            cq("a", [(["memory"], [("alpha", {"memory": "3Gi"}), ("beta", {"memory": "3Gi"})])],
               within="LowerPriority"),
            admitted("low", "a", {("alpha", "memory"): "2Gi"}, priority=-1),
            admitted("mid", "a", {("beta", "memory"): "1Gi"}, priority=0),
            admitted("high", "a", {("beta", "memory"): "1Gi"}, priority=1),
            pending("in", "q-a", {"memory": "2Gi"}, priority=1)]
    assert [v.workload for v in decision(objs, "default/in").victims] == ["default/low"]
    cluster, snap = snapshot_of(objs)
    d = decide(cluster, snap, cluster.workloads["default/in"], {(None, "memory"): "beta"})
    assert [v.workload for v in d.victims] == ["default/mid"] and d.pinned == ((None, "memory", "beta"),)
