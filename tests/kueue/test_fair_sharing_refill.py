"""FairSharingRefill (Kueue v0.20, alpha): after a fresh admission in the fair-sharing tournament,
its ClusterQueue's next workload joins the running cycle.  The cases are Kueue's own
(pkg/scheduler/scheduler_refill_test.go TestScheduleForFairSharingRefill, the issue #9345 shape):
refill-poor (nominal 8, no borrowing) and refill-rich (nominal 2, borrowing 8) share cohort refill,
and refill-rich already borrows."""

from __future__ import annotations

from quotactl.kueue.options import engine_options
from quotactl.kueue.scheduler.loop import schedule
from quotactl.kueue.scheduler.results import ADMITTED, PENDING, SKIPPED
from quotactl.model.kueue import build_cluster
from tests.kueue.builders import admitted, cq, flavor, objects, pending, with_queues

ON = {"FairSharingRefill": True}


def poor_and_rich(rich_active=8):
    return [flavor("default"),
            cq("refill-poor", [(["cpu"], [("default", {"cpu": (8, 0)})])], cohort="refill"),
            cq("refill-rich", [(["cpu"], [("default", {"cpu": (2, 8)})])], cohort="refill"),
            admitted("rich-active", "refill-rich", {("default", "cpu"): rich_active}, count=1)]


def first_cycle(dicts, gates=None, extra=()):
    cluster = build_cluster(objects(with_queues(dicts) + list(extra)))
    options = engine_options(cluster, fair_sharing=True, feature_gates=gates)
    result = schedule(cluster, options, cycles=1)
    return {h.workload: h.outcome for h in result.cycles[0].heads}


def backlog(*names_and_queues):
    return [pending(n, q, {"cpu": 1}, created=t) for n, q, t in names_and_queues]


ISSUE_9345 = (("poor-a", "q-refill-poor", 100), ("poor-b", "q-refill-poor", 200), ("rich-pending", "q-refill-rich", 50))


def test_refill_admits_the_poor_queues_backlog_within_one_cycle():
    got = first_cycle(poor_and_rich() + backlog(*ISSUE_9345), ON)
    assert got == {"default/poor-a": ADMITTED, "default/poor-b": ADMITTED, "default/rich-pending": SKIPPED}


def test_without_refill_the_over_share_queue_takes_the_freed_capacity():
    got = first_cycle(poor_and_rich() + backlog(*ISSUE_9345))
    assert got == {"default/poor-a": ADMITTED, "default/rich-pending": ADMITTED}


def test_a_refilled_workload_that_never_fits_parks_and_the_cycle_goes_on():
    big = pending("poor-big", "q-refill-poor", {"cpu": 10}, created=200)
    got = first_cycle(poor_and_rich() + backlog(ISSUE_9345[0], ISSUE_9345[2]) + [big], ON)
    assert got["default/poor-a"] == ADMITTED and got["default/rich-pending"] == ADMITTED
    assert got["default/poor-big"] == PENDING


def test_no_refill_under_wait_for_pods_ready_block_admission():
    config = {"apiVersion": "config.kueue.x-k8s.io/v1beta2", "kind": "Configuration", "metadata": {"name": "k"},
              "fairSharing": {"preemptionStrategies": ["LessThanOrEqualToFinalShare"]},
              "waitForPodsReady": {"blockAdmission": True}}
    got = first_cycle(poor_and_rich() + backlog(*ISSUE_9345), ON, extra=[config])
    assert "default/poor-b" not in got


def test_consecutive_refills_rerank_against_fresh_usage_on_every_pop():
    dicts = [flavor("default"),
             cq("refill-a", [(["cpu"], [("default", {"cpu": (1, 8)})])], cohort="refill-chain"),
             cq("refill-b", [(["cpu"], [("default", {"cpu": (2, 0)})])], cohort="refill-chain")]
    dicts += backlog(("chain-a1", "q-refill-a", 100), ("chain-a2", "q-refill-a", 200), ("chain-a3", "q-refill-a", 300),
                     ("chain-b1", "q-refill-b", 400))
    got = first_cycle(dicts, ON)
    assert got == {"default/chain-a1": ADMITTED, "default/chain-b1": ADMITTED, "default/chain-a2": ADMITTED,
                   "default/chain-a3": PENDING}
    assert list(got)[:3] == ["default/chain-a1", "default/chain-b1", "default/chain-a2"]  # b1 wins the second pop
