"""Flavor assignment: fungibility, eligibility, reasons and messages (Kueue's own texts), early stop,
partial admission."""

from __future__ import annotations

import pytest

from quotactl.kueue.assign import Mode, PreemptionMode, format_taint, initial_assignment
from quotactl.model.podspec import Taint
from tests.kueue.builders import admitted, assigner_for, cq, flavor, pending

OD, SPOT = ("on-demand", "cpu"), ("spot", "cpu")


def example3(**ff):
    """Fungibility: ml in cohort co with on-demand (10) and spot (0); another CQ lends 20 spot."""
    return [
        flavor("on-demand"), flavor("spot"),
        cq("ml", [(["cpu"], [("on-demand", {"cpu": 10}), ("spot", {"cpu": 0})])], cohort="co",
           within="LowerPriority", **ff),
        cq("lender", [(["cpu"], [("spot", {"cpu": 20})])], cohort="co"),
        admitted("low", "ml", {OD: 8}, priority=0),
        pending("incoming", "q-ml", {"cpu": 4}, priority=100),
    ]


@pytest.mark.parametrize("ff,flavor_name,mode", [
    ({}, "spot", Mode.Fit),
    ({"when_can_borrow": "TryNextFlavor", "when_can_preempt": "TryNextFlavor",
      "preference": "BorrowingOverPreemption"}, "spot", Mode.Fit),
    ({"when_can_borrow": "TryNextFlavor", "when_can_preempt": "TryNextFlavor",
      "preference": "PreemptionOverBorrowing"}, "on-demand", Mode.Preempt),
    ({"when_can_preempt": "MayStopSearch"}, "on-demand", Mode.Preempt),
])
def test_flavor_fungibility_table(ff, flavor_name, mode):
    _, _, assigner = assigner_for(example3(**ff), "default/incoming")
    a = assigner.assign()
    fa = a.pod_sets[0].flavors["cpu"]
    assert (fa.flavor, a.representative_mode) == (flavor_name, mode)


def test_example3_reasons_and_attempts():
    _, _, assigner = assigner_for(example3(), "default/incoming")
    a = assigner.assign()
    ps = a.pod_sets[0]
    assert [(t.flavor, t.preemption_mode) for t in ps.attempts] == [
        ("on-demand", PreemptionMode.PREEMPT), ("spot", PreemptionMode.FIT)]
    assert ps.attempts[0].reasons == ("insufficient unused quota for cpu in flavor on-demand, 2 more needed",)
    assert ps.flavors["cpu"].borrow == 1 and a.borrowing == 1
    assert a.message() == ""  # the chosen flavor fits: no reasons kept


def test_flavor_fungibility_gate_off_takes_first_strictly_better():
    _, _, assigner = assigner_for(example3(), "default/incoming", gates={"FlavorFungibility": False})
    a = assigner.assign()
    assert a.pod_sets[0].flavors["cpu"].flavor == "spot"


def test_exceeds_max_quota_message_and_reason():
    objs = [flavor("default"), cq("solo", [(["cpu"], [("default", {"cpu": 5})])]),
            pending("big", "q-solo", {"cpu": 10})]
    _, _, assigner = assigner_for(objs, "default/big")
    a = assigner.assign()
    assert a.representative_mode == Mode.NoFit
    assert a.no_fit_reason == "ExceedsMaxQuota"
    assert a.message() == ("couldn't assign flavors to pod set main: insufficient quota for cpu in flavor default, "
                           "previously considered podsets requests (0) + current podset request (10) > maximum "
                           "capacity (5)")


def test_uncovered_resource_is_no_matching_flavor():
    objs = [flavor("default"), cq("solo", [(["cpu"], [("default", {"cpu": 5})])]),
            pending("gpu", "q-solo", {"cpu": 1, "example.com/gpu": 1})]
    _, _, assigner = assigner_for(objs, "default/gpu")
    a = assigner.assign()
    assert a.message() == "couldn't assign flavors to pod set main: resource example.com/gpu unavailable in ClusterQueue"
    assert a.no_fit_reason == "NoMatchingFlavor"


def test_zero_request_for_uncovered_resource_is_ignored():
    objs = [flavor("default"), cq("solo", [(["cpu"], [("default", {"cpu": 5})])]),
            pending("z", "q-solo", {"cpu": 1, "example.com/gpu": 0})]
    _, _, assigner = assigner_for(objs, "default/z")
    assert assigner.assign().representative_mode == Mode.Fit


def test_taints_tolerations_and_node_affinity():
    taint = {"key": "instance", "value": "spot", "effect": "NoSchedule"}
    objs = [flavor("spot", labels={"pool": "spot"}, taints=[taint]), flavor("od", labels={"pool": "od"}),
            cq("c", [(["cpu"], [("spot", {"cpu": 5}), ("od", {"cpu": 5})])]),
            pending("sel", "q-c", {"cpu": 1}, node_selector={"pool": "spot", "zone": "a"}),
            pending("tol", "q-c", {"cpu": 1}, node_selector={"pool": "spot"},
                    tolerations=[{"key": "instance", "operator": "Equal", "value": "spot", "effect": "NoSchedule"}])]
    _, _, assigner = assigner_for(objs, "default/sel")
    a = assigner.assign()
    assert a.representative_mode == Mode.NoFit and a.no_fit_reason == "NoMatchingFlavor"
    assert a.message() == ("couldn't assign flavors to pod set main: flavor od doesn't match node affinity, "
                           "untolerated taint {instance spot NoSchedule <nil>} in flavor spot")
    _, _, assigner = assigner_for(objs, "default/tol")
    assert assigner.assign().pod_sets[0].flavors["cpu"].flavor == "spot"


def test_taint_print_matches_go():
    assert format_taint(Taint("nvidia.com/gpu", None, "NoSchedule")) == "{nvidia.com/gpu  NoSchedule <nil>}"


def test_pods_resource_is_counted_and_pod_sets_stop_at_the_first_failure():
    objs = [flavor("default"),
            cq("c", [(["cpu", "pods"], [("default", {"cpu": 10, "pods": 2})])]),
            pending("multi", "q-c", pod_sets=[("a", 1, {"cpu": 1}), ("b", 3, {"cpu": 1}), ("c", 1, {"cpu": 1})])]
    _, _, assigner = assigner_for(objs, "default/multi")
    a = assigner.assign()
    assert [ps.name for ps in a.pod_sets] == ["a", "b"]
    assert a.not_evaluated == ("c",)
    assert a.pod_sets[0].representative_mode == Mode.Fit  # the earlier pod set keeps its flavor
    assert "insufficient quota for pods in flavor default, previously considered podsets requests (1) + current " \
           "podset request (3) > maximum capacity (2)" in a.message()


def test_previously_considered_pod_sets_count():
    objs = [flavor("default"), cq("c", [(["cpu"], [("default", {"cpu": 4})])]),
            pending("two", "q-c", pod_sets=[("driver", 1, {"cpu": "1500m"}), ("workers", 2, {"cpu": 2})])]
    _, _, assigner = assigner_for(objs, "default/two")
    a = assigner.assign()
    assert a.message() == ("couldn't assign flavors to pod set workers: insufficient quota for cpu in flavor default, "
                           "previously considered podsets requests (1500m) + current podset request (4) > maximum "
                           "capacity (4)")


def test_partial_admission_reduces_counts():
    objs = [flavor("default"), cq("c", [(["cpu"], [("default", {"cpu": 4})])]), pending("p", "q-c", {"cpu": 1}, count=6)]
    objs[-1]["spec"]["podSets"][0]["minCount"] = 2
    _, _, assigner = assigner_for(objs, "default/p")
    init = initial_assignment(assigner)
    assert init.partial and init.assignment.representative_mode == Mode.Fit
    assert init.assignment.pod_sets[0].count == 4
    assert init.full.representative_mode == Mode.NoFit


def test_no_candidates_is_still_preempt_mode():
    """The request could fit after preemption in principle, but nothing can be preempted."""
    objs = [flavor("default"), cq("c", [(["cpu"], [("default", {"cpu": 4})])], within="LowerPriority"),
            admitted("same", "c", {("default", "cpu"): 4}, priority=5), pending("p", "q-c", {"cpu": 2}, priority=5)]
    _, _, assigner = assigner_for(objs, "default/p")
    a = assigner.assign()
    assert a.representative_mode == Mode.Preempt
    assert a.pod_sets[0].flavors["cpu"].preemption_mode == PreemptionMode.NO_CANDIDATES
    assert initial_assignment(assigner).targets == ()


def test_queue_order_puts_higher_priority_then_older_first():
    from quotactl.kueue.options import engine_options
    from quotactl.kueue.queue_order import ahead_in_queue
    from quotactl.model.kueue import build_cluster
    from tests.kueue.builders import objects, with_queues

    objs = [flavor("default"), cq("c", [(["cpu"], [("default", {"cpu": 4})])]),
            pending("old-low", "q-c", {"cpu": 1}, priority=0, created=10),
            pending("new-high", "q-c", {"cpu": 1}, priority=5, created=30),
            pending("me", "q-c", {"cpu": 1}, priority=0, created=20)]
    cluster = build_cluster(objects(with_queues(objs)))
    ahead = ahead_in_queue(cluster, cluster.workloads["default/me"], engine_options(cluster))
    assert [w.key for w in ahead] == ["default/new-high", "default/old-low"]


def test_queue_index_agrees_with_the_single_lookup():
    from quotactl.kueue.options import engine_options
    from quotactl.kueue.queue_order import QueueIndex, ahead_in_queue
    from quotactl.model.kueue import build_cluster
    from tests.kueue.builders import objects, with_queues

    objs = [flavor("default"), cq("c", [(["cpu"], [("default", {"cpu": 4})])])] + [
        pending(f"p{i}", "q-c", {"cpu": 1}, priority=i % 3, created=100 - i) for i in range(8)]
    cluster = build_cluster(objects(with_queues(objs)))
    options = engine_options(cluster)
    index = QueueIndex(cluster, options)
    for wl in cluster.workloads.values():
        assert [w.key for w in index.ahead(wl)] == [w.key for w in ahead_in_queue(cluster, wl, options)]


def _evicted_with_admission(name, cluster_queue, usage, count=1):
    """A workload evicted without its status.admission being cleared (QuotaReserved=False)."""
    wl = admitted(name, cluster_queue, usage, count=count)
    wl["status"]["conditions"] = [{"type": "QuotaReserved", "status": "False", "reason": "Preempted",
                                   "message": "", "lastTransitionTime": "2026-01-01T00:10:00Z"}]
    return wl


def test_workload_still_carrying_an_admission_keeps_its_flavors_without_a_quota_check():
    """workload.NewInfo reads requests and flavors from status.admission while it is set; the
    flavor assigner keeps those flavors (mode Fit, borrowing level 0) even where a scan would
    pick another flavor or find no room."""
    dicts = example3()[:-1] + [admitted("hog", "lender", {SPOT: 20}),
                               _evicted_with_admission("back", "ml", {SPOT: 6})]
    _, _, assigner = assigner_for(dicts, "default/back")
    a = assigner.assign()
    fa = a.pod_sets[0].flavors["cpu"]
    assert (fa.flavor, fa.mode, fa.borrow, a.borrowing) == ("spot", Mode.Fit, 0, 0)
    assert a.usage == {SPOT: 6000} and not a.pod_sets[0].attempts


def test_admission_requests_follow_the_admission_counts():
    from quotactl.kueue.options import engine_options
    from quotactl.kueue.workload import nomination_requests
    from quotactl.model.kueue import build_cluster
    from tests.kueue.builders import objects, with_queues

    dicts = example3()[:-1] + [_evicted_with_admission("back", "ml", {SPOT: 6}, count=3)]
    cluster = build_cluster(objects(with_queues(dicts)))
    requests, preset = nomination_requests(cluster.workloads["default/back"], engine_options(cluster))
    assert preset == {"main": {"cpu": "spot"}}
    assert [(r.name, r.count, r.per_pod, r.total) for r in requests] == [("main", 3, {"cpu": 2000}, {"cpu": 6000})]
    off = engine_options(cluster, feature_gates={"TopologyAwareScheduling": False})
    assert nomination_requests(cluster.workloads["default/back"], off)[1] == {}


@pytest.mark.parametrize("hog,reason,verdict", [
    (20, "WaitingForQuota", "waiting for quota: the flavors of its earlier admission have no room"),
    (10, None, "fits now"),
])
def test_explain_says_whether_kept_flavors_have_room(hog, reason, verdict):
    """explain follows Kueue: kept flavors are Fit at nomination, the admission check decides."""
    from quotactl.kueue.explain import explain_workload
    from quotactl.kueue.reasons import MSG_NO_LONGER_FITS
    from tests.kueue.builders import snapshot_of

    dicts = example3()[:-1] + [admitted("hog", "lender", {SPOT: hog}),
                               _evicted_with_admission("back", "ml", {SPOT: 6})]
    cluster, snap = snapshot_of(dicts)
    e = explain_workload(cluster, snap, cluster.workloads["default/back"])
    assert (e.status, e.reason) == ("Pending", reason)
    assert e.verdict.startswith(verdict)
    assert (e.message == MSG_NO_LONGER_FITS) == (reason is not None)
    assert any("still carries status.admission" in n for n in e.notes)
