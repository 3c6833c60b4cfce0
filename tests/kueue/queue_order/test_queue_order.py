"""Unit tests of ``kueue.queue_order``: queue-order timestamps as a run's conditions change them
(``Ordering.GetQueueOrderTimestamp``, ``SetQuotaReservation``), the preemptor-first ordering of
``PrioritizePreemptorWorkloads`` (ports of Kueue's ``TestEntryOrdering`` and
``TestFairSharingEntryComparer`` cases, pkg/scheduler/scheduler_test.go @ff69552) and its capacity
reservation (``reserveCapacityForUnreclaimablePreempt``)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from types import SimpleNamespace

import pytest

from quotactl.kueue.fairshare import FairSharingIterator, Head
from quotactl.kueue.options import engine_options
from quotactl.kueue.queue_order import RunTimestamps, classical_order_key, reserves_capacity
from quotactl.kueue.quota.drs import DRS
from quotactl.kueue.scheduler import ADMITTED, PENDING, SKIPPED, Scheduler
from quotactl.model.features import FeatureGates
from quotactl.model.kueue import build_cluster
from tests.kueue.builders import admitted, cq, flavor, objects, pending, snapshot_of, with_queues

T0 = datetime(2026, 1, 1, tzinfo=timezone.utc)
RECLAIM = "InCohortReclaimWhileBorrowing"


def _workload(conditions=()):
    """A pending workload created at T0 with ``conditions``: (type, reason, seconds after T0)."""
    w = pending("w", "q-cq", {"cpu": 1}, created=0)
    w["status"] = {"conditions": [{"type": t, "status": "True", "reason": r, "message": "",
                                   "lastTransitionTime": (T0 + timedelta(seconds=s)).strftime("%Y-%m-%dT%H:%M:%SZ")}
                                  for t, r, s in conditions]}
    cluster = build_cluster(objects(with_queues([flavor("f"), cq("cq", [(["cpu"], [("f", {"cpu": 1})])]), w])))
    return cluster, cluster.workloads["default/w"]


def _timestamps(cluster, gates=None, requeuing=None):
    options = engine_options(cluster, feature_gates=gates)
    if requeuing is not None:
        options = options.__class__(**{**options.__dict__, "requeuing_timestamp": requeuing})
    return RunTimestamps(options, cluster.workloads.values())


# --- timestamps -------------------------------------------------------------------------------

def test_a_reclaim_while_borrowing_victim_is_ordered_a_millisecond_after_its_preemption():
    cluster, wl = _workload()
    ts = _timestamps(cluster, {"PrioritySortingWithinCohort": False})
    at = T0 + timedelta(seconds=30, microseconds=400_000)
    assert ts.preempted(wl, RECLAIM, at, "tree")
    assert ts.timestamp(wl) == at + timedelta(milliseconds=1)


@pytest.mark.parametrize("gates, reason", [({"PrioritySortingWithinCohort": True}, RECLAIM),
                                           ({"PrioritySortingWithinCohort": False}, "InClusterQueue"),
                                           ({"PrioritySortingWithinCohort": False}, "InCohortReclamation")])
def test_every_other_victim_keeps_its_creation_time(gates, reason):
    cluster, wl = _workload()
    ts = _timestamps(cluster, gates)
    assert not ts.preempted(wl, reason, T0 + timedelta(seconds=30), "tree")
    assert ts.timestamp(wl) == T0 and not ts


@pytest.mark.parametrize("condition, requeuing, input_ms", [(("Evicted", "PodsReadyTimeout", 20), "Eviction", 0),
                                                            (("Evicted", "AdmissionCheck", 20), "Creation", 0),
                                                            (("Preempted", RECLAIM, 20), "Eviction", 1)])
def test_an_admission_resets_the_input_eviction_and_preemption_times(condition, requeuing, input_ms):
    """SetQuotaReservation turns Evicted and Preempted False: the input's eviction time (PodsReady
    timeout with requeuingStrategy Eviction, admission check) or preemption time no longer orders it."""
    cluster, wl = _workload([condition])
    ts = _timestamps(cluster, {"PrioritySortingWithinCohort": False}, requeuing)
    assert ts.timestamp(wl) == T0 + timedelta(seconds=20, milliseconds=input_ms)
    assert ts.quota_reserved(wl, "tree")
    assert ts.timestamp(wl) == T0
    assert not ts.preempted(wl, "InClusterQueue", T0 + timedelta(seconds=40), "tree")  # still the creation time
    assert ts.timestamp(wl) == T0


@pytest.mark.parametrize("reason, requeuing, ordered_at", [("PodsReadyTimeout", "Eviction", 50),
                                                            ("PodsReadyTimeout", "Creation", 0),
                                                            ("AdmissionCheck", "Creation", 50),
                                                            ("Deactivated", "Eviction", 0)])
def test_an_eviction_in_the_run_orders_by_its_time_where_kueue_reads_it(reason, requeuing, ordered_at):
    """requeuingStrategy.timestamp Eviction: a PodsReady timeout orders by the eviction; Creation:
    by the creation time; an admission-check eviction always by the eviction."""
    cluster, wl = _workload()
    ts = _timestamps(cluster, requeuing=requeuing)
    assert ts.evicted(wl, reason, T0 + timedelta(seconds=50), "tree") is (ordered_at != 0)
    assert ts.timestamp(wl) == T0 + timedelta(seconds=ordered_at)


def test_the_creation_requeuing_strategy_ignores_pods_ready_timeouts():
    cluster, wl = _workload([("Evicted", "PodsReadyTimeout", 20)])
    ts = _timestamps(cluster, requeuing="Creation")
    assert ts.timestamp(wl) == T0
    assert not ts.quota_reserved(wl, "tree") and not ts


def test_the_state_reads_the_order_not_the_times():
    """A victim preempted again a period later gets a later time, but the same place: the
    end-of-cycle state must repeat (schedule's clock moves one second per cycle)."""
    cluster, wl = _workload()
    ts = _timestamps(cluster, {"PrioritySortingWithinCohort": False})
    marks = {}

    def mark(item):
        return marks.setdefault(item, len(marks) + 1)

    ts.preempted(wl, RECLAIM, T0 + timedelta(seconds=100), "tree")
    first = ts.state("tree", T0 + timedelta(seconds=101), mark)
    ts.quota_reserved(wl, "tree")
    readmitted = ts.state("tree", T0 + timedelta(seconds=102), mark)
    ts.preempted(wl, RECLAIM, T0 + timedelta(seconds=102), "tree")
    again = ts.state("tree", T0 + timedelta(seconds=103), mark)
    assert first == again != readmitted
    assert ts.state("other tree", T0, mark) == 0
    # the same instant (simulate): a later preemption in it would tie with this one
    assert ts.state("tree", T0 + timedelta(seconds=102), mark) != again


# --- PrioritizePreemptorWorkloads: the classical order ------------------------------------------

def _entry(name, created, priority, borrowing=0, is_preemptor=False):
    return SimpleNamespace(wl=SimpleNamespace(key=name), ts=T0 + timedelta(seconds=created), priority=priority,
                           assignment=SimpleNamespace(borrowing=borrowing), is_preemptor=is_preemptor)


@pytest.mark.parametrize("enabled, want", [
    (False, ["not-preemptor-not-borrowing", "preemptor-not-borrowing", "preemptor-borrowing"]),
    (True, ["preemptor-not-borrowing", "preemptor-borrowing", "not-preemptor-not-borrowing"]),
])
def test_classical_order_puts_preemptors_first_with_the_gate(enabled, want):
    """TestEntryOrdering, "Some workloads are preemptors; PrioritizePreemptorWorkloads is ..."."""
    entries = [_entry("preemptor-borrowing", 1, 1, borrowing=1, is_preemptor=True),
               _entry("preemptor-not-borrowing", 2, 1, is_preemptor=True),
               _entry("not-preemptor-not-borrowing", 0, 2)]
    gates = FeatureGates({"PrioritySortingWithinCohort": True, "PrioritizePreemptorWorkloads": enabled})
    assert [e.wl.key for e in sorted(entries, key=classical_order_key(gates))] == want


# --- PrioritizePreemptorWorkloads: the fair-sharing tournament ----------------------------------

@pytest.mark.parametrize("enabled, b_is_preemptor, want", [(True, False, True), (False, False, False),
                                                           (True, True, False)])
def test_tournament_compares_preemptors_first_with_the_gate(enabled, b_is_preemptor, want):
    """TestFairSharingEntryComparer: "a is preemptor, b not, feature enabled/disabled", "both are
    preemptors, feature enabled" (a borrows, b runs within its nominal quota)."""
    _cluster, snap = snapshot_of([flavor("f"), cq("cq", [(["cpu"], [("f", {"cpu": 1})])])],
                                 gates={"PrioritizePreemptorWorkloads": enabled})
    a = Head("default/preemptor-borrowing", "cq-a", {}, 0, T0, is_preemptor=True)
    b = Head("default/b-nominal", "cq-b", {}, 0, T0, is_preemptor=b_is_preemptor)
    values = {("root", a.key): (DRS(unweighted_ratio=0.5, borrowing=True), True), ("root", b.key): (DRS(), False)}
    assert FairSharingIterator(snap, []).less(a, b, "root", values) is want


# --- PrioritizePreemptorWorkloads: the reservation ----------------------------------------------

def test_reservation_rule():
    on, off = FeatureGates({"PrioritizePreemptorWorkloads": True}), FeatureGates()
    assert reserves_capacity("Never", False, off) and reserves_capacity("LowerPriority", False, on)
    assert not reserves_capacity("Any", True, off) and not reserves_capacity("Any", False, on)
    assert reserves_capacity("Any", True, on)


def _reservation_world(enabled):
    """cq a (reclaimWithinCohort Any) holds a1, of a higher priority than its head p: p needs
    preemption and finds no candidate.  c borrows the cohort's last cpu for l."""
    dicts = [flavor("f"),
             cq("a", [(["cpu"], [("f", {"cpu": 2})])], cohort="pool", reclaim="Any", within="LowerPriority"),
             cq("b", [(["cpu"], [("f", {"cpu": 2})])], cohort="pool"),
             cq("c", [(["cpu"], [("f", {"cpu": 0})])], cohort="pool"),
             admitted("b1", "b", {("f", "cpu"): 2}),
             admitted("a1", "a", {("f", "cpu"): 1}, priority=10),
             pending("p", "q-a", {"cpu": 2}, priority=5, created=1000),
             pending("l", "q-c", {"cpu": 1}, created=2000)]
    cluster = build_cluster(objects(with_queues(dicts)))
    return Scheduler(cluster, engine_options(cluster, feature_gates={"PrioritizePreemptorWorkloads": enabled}))


@pytest.mark.parametrize("enabled, l_outcome", [(True, SKIPPED), (False, ADMITTED)])
def test_a_preemptor_without_candidates_keeps_its_capacity(enabled, l_outcome):
    """p issued preemptions earlier (its ClusterQueue's preemptor); now it needs preemption again
    and finds no candidate: with the gate its capacity stays reserved and l cannot take it."""
    s = _reservation_world(enabled)
    s.preemptors.set("a", "default/p")
    outcomes = {h.workload: h.outcome for h in s.run_cycle(1).heads}
    assert outcomes == {"default/p": PENDING, "default/l": l_outcome}


def test_a_head_that_never_preempted_reserves_nothing_in_a_reclaim_any_queue():
    s = _reservation_world(True)
    outcomes = {h.workload: h.outcome for h in s.run_cycle(1).heads}
    assert outcomes == {"default/p": PENDING, "default/l": ADMITTED}


def test_an_admitted_preemptor_is_no_longer_one():
    s = _reservation_world(True)
    s.preemptors.set("c", "default/l")
    s.run_cycle(1)
    assert not s.preemptors.is_preemptor("c", "default/l")
