"""Admission fair sharing (kueue/afs.py): Kueue's arithmetic, the settings it checks, the ledger's
transitions, and the queue and preemption-candidate orders that read it."""

from __future__ import annotations

import math
from datetime import datetime, timedelta, timezone
from decimal import Decimal

import pytest

from quotactl.kueue.afs import (
    AfsConfigError,
    AfsLedger,
    AfsSettings,
    afs_settings,
    alpha_rate,
    as_values,
    calculate_usage,
    decayed,
    mul_by_float,
)
from quotactl.kueue.options import engine_options
from quotactl.kueue.preemption.common import by_local_queue_usage
from quotactl.kueue.quota import build_snapshot
from quotactl.kueue.scheduler import schedule
from quotactl.kueue.scheduler.queues import Marks, Queue, UsageOrder
from quotactl.model.features import FeatureGates
from quotactl.model.kueue import build_cluster
from tests.kueue.builders import cq, flavor, lq, objects, pending

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)
CFG = "config.kueue.x-k8s.io/v1beta2"


def config(**afs):
    return {"apiVersion": CFG, "kind": "Configuration", "metadata": {"name": "kueue"}, "admissionFairSharing": afs}


def afs_queue(name="cq", cpu=8):
    q = cq(name, [(["cpu"], [("default", {"cpu": (cpu, None)})])])
    q["spec"]["admissionScope"] = {"admissionMode": "UsageBasedAdmissionFairSharing"}
    return q


def cluster_of(dicts):
    return build_cluster(objects(dicts))


def settings(half_life=60.0, sampling=60.0, weights=()):
    return AfsSettings(half_life, sampling, weights)


# -- Kueue's arithmetic ---------------------------------------------------------------------

def test_alpha_is_zero_for_a_half_life_of_zero_and_half_after_one_half_life():
    assert alpha_rate(5, 0) == 0.0
    assert alpha_rate(60, 60) == 0.5
    assert alpha_rate(0, 60) == 0.0


def test_mul_by_float_rounds_down_to_nine_decimals():
    assert mul_by_float({"cpu": Decimal(1)}, 1 / 3) == {"cpu": Decimal("0.333333333")}
    assert mul_by_float({"cpu": Decimal("0.000000001")}, 0.5) == {"cpu": Decimal("0E-9")}


def test_decay_moves_consumed_toward_the_admitted_usage():
    assert decayed({"cpu": Decimal(8)}, {"cpu": Decimal(0)}, 60, 60) == {"cpu": Decimal(4)}
    assert decayed({}, {"cpu": Decimal(10)}, 60, 60) == {"cpu": Decimal(5)}


def test_usage_weighs_resources_and_divides_by_the_local_queue_weight():
    s = settings(weights=(("memory", 0.0),))
    consumed = {"cpu": Decimal(3), "memory": Decimal(10**9)}
    assert calculate_usage(consumed, {"cpu": Decimal(1)}, 2.0, s) == 2.0
    assert math.isinf(calculate_usage(consumed, {}, 0.0, s))  # weight 0: +Inf, never NaN


def test_amounts_are_flattened_per_resource_in_kubernetes_units():
    assert as_values({("a", "cpu"): 1500, ("b", "cpu"): 500, ("a", "memory"): 1024}) == {
        "cpu": Decimal(2), "memory": Decimal(1024)}


# -- the settings ---------------------------------------------------------------------------

def test_settings_default_the_sampling_interval_and_honour_the_gate():
    c = cluster_of([config(usageHalfLifeTime="1h")])
    s = afs_settings(c.configuration, FeatureGates())
    assert (s.half_life, s.sampling) == (3600.0, 300.0)
    assert afs_settings(c.configuration, FeatureGates({"AdmissionFairSharing": False})) is None
    assert afs_settings(cluster_of([flavor("default")]).configuration, FeatureGates()) is None


@pytest.mark.parametrize("afs, said", [
    ({"usageHalfLifeTime": "-1h"}, "usageHalfLifeTime must be >= 0"),
    ({"usageSamplingInterval": "0s"}, "usageSamplingInterval must be greater than 0"),
    ({"usageHalfLifeTime": "soon"}, "time: invalid duration"),
    ({"usageHalfLifeTime": "9999999999999999999h"}, "time: invalid duration"),
    ({"resourceWeights": {"cpu": -1}}, "resourceWeights[cpu]"),
])
def test_settings_kueue_refuses_are_an_error(afs, said):
    c = cluster_of([config(**afs)])
    with pytest.raises(AfsConfigError, match=said.replace("[", r"\[").replace("]", r"\]")):
        afs_settings(c.configuration, FeatureGates())


# -- the ledger -----------------------------------------------------------------------------

def ledger(dicts, s=None) -> AfsLedger:
    c = cluster_of(dicts)
    led = AfsLedger(c, s or settings())
    led.start_clock(T0, ticks=True)
    return led


def two_queues():
    return [flavor("default"), afs_queue(), lq("a", "cq"), lq("b", "cq"),
            pending("wa", "a", {"cpu": 4}), pending("wb", "b", {"cpu": 2})]


def test_a_reservation_adds_its_penalty_and_admission_folds_it():
    led = ledger(two_queues())
    wa = led.cluster.workloads["default/wa"]
    usage = {("default", "cpu"): 4000}
    led.quota_reserved(wa, "cq", usage)
    assert led.usage(("default", "a")) == 2.0  # 4 cpu x alpha(60s / 60s) = 2
    led.quota_reserved(wa, "cq", usage)  # a second reservation replaces the record
    assert led.usage(("default", "a")) == 2.0
    led.settle_entry_penalty(wa, "cq", usage, T0)
    assert led.entries[("default", "a")].pending == {}
    assert led.usage(("default", "a")) == 2.0  # no time elapsed: consumed is the folded penalty


def test_ticks_decay_toward_the_admitted_usage_and_finishing_drops_it():
    led = ledger(two_queues())
    wa = led.cluster.workloads["default/wa"]
    usage = {("default", "cpu"): 4000}
    led.quota_reserved(wa, "cq", usage)
    led.settle_entry_penalty(wa, "cq", usage, T0)
    led.advance(T0 + timedelta(seconds=60))  # consumed 2 -> 2*0.5 + 4*0.5
    assert led.usage(("default", "a")) == 3.0
    led.released("default/wa")
    led.advance(T0 + timedelta(seconds=120))
    assert led.usage(("default", "a")) == 1.5
    led.advance(T0 + timedelta(days=30))  # thousands of ticks at once: decayed to (almost) nothing
    assert led.usage(("default", "a")) < 1e-6


def test_a_penalty_that_never_settles_is_dropped():
    led = ledger(two_queues())
    wb = led.cluster.workloads["default/wb"]
    led.quota_reserved(wb, "cq", {("default", "cpu"): 2000})
    assert led.usage(("default", "b")) == 1.0
    led.drop_entry_penalty("default/wb")
    assert led.usage(("default", "b")) == 0.0


def test_a_half_life_of_zero_keeps_consumed_at_zero():
    objs = two_queues()
    objs[2]["status"] = {"fairSharing": {"weightedShare": 0, "admissionFairSharingStatus": {
        "consumedResources": {"cpu": "7"}, "lastUpdate": "2026-03-02T08:00:00Z"}}}
    led = ledger(objs, settings(half_life=0.0))
    wa = led.cluster.workloads["default/wa"]
    assert led.usage(("default", "a")) == 0.0  # the seed does not survive Kueue's first reconcile
    led.quota_reserved(wa, "cq", {("default", "cpu"): 4000})
    led.settle_entry_penalty(wa, "cq", {("default", "cpu"): 4000}, T0)
    led.advance(T0 + timedelta(minutes=5))
    assert led.usage(("default", "a")) == 0.0


def test_the_status_seeds_consumed_and_its_last_update_anchors_the_decay():
    objs = two_queues()
    objs[2]["status"] = {"fairSharing": {"weightedShare": 0, "admissionFairSharingStatus": {
        "consumedResources": {"cpu": "8"}, "lastUpdate": "2026-03-02T08:59:00Z"}}}
    led = ledger(objs)
    assert led.usage(("default", "a")) == 8.0
    led.advance(T0 + timedelta(seconds=60))  # 120 s since the last update, nothing admitted
    assert led.usage(("default", "a")) == 2.0


def test_weight_zero_orders_last():
    objs = two_queues()
    objs[2]["spec"]["fairSharing"] = {"weight": "0"}
    assert math.isinf(ledger(objs).usage(("default", "a")))


# -- the orders that read it -----------------------------------------------------------------

def test_the_queue_takes_the_local_queue_with_the_lowest_usage_first():
    objs = [flavor("default"), afs_queue(cpu=4), lq("a", "cq"), lq("b", "cq"), config(usageHalfLifeTime="1h"),
            pending("a-old", "a", {"cpu": 4}, created=1000),
            pending("b-new", "b", {"cpu": 4}, created=2000)]
    objs[2]["status"] = {"fairSharing": {"weightedShare": 0, "admissionFairSharingStatus": {
        "consumedResources": {"cpu": "3"}, "lastUpdate": "2026-03-02T08:59:00Z"}}}
    c = cluster_of(objs)
    admitted = [a.workload for a in schedule(c, engine_options(c)).admitted]
    assert admitted == ["default/b-new"]
    off = engine_options(c, feature_gates={"AdmissionFairSharing": False})
    assert [a.workload for a in schedule(c, off).admitted] == ["default/a-old"]


def test_preemption_candidates_of_one_queue_go_by_local_queue_usage_before_priority():
    objs = [flavor("default"), afs_queue(), lq("a", "cq"), lq("b", "cq"), config(usageHalfLifeTime="1h")]
    objs[2]["status"] = {"fairSharing": {"weightedShare": 0, "admissionFairSharingStatus": {
        "consumedResources": {"cpu": "9"}, "lastUpdate": "2026-03-02T08:59:00Z"}}}
    c = cluster_of(objs + [admitted_dict("high-a", "a", 4, 10), admitted_dict("low-b", "b", 4, 1)])
    snap = build_snapshot(c, engine_options(c))
    cands = sorted(snap.cluster_queues["cq"].workloads.values(), key=lambda w: w.ordering_fields)
    assert [w.key for w in cands] == ["default/low-b", "default/high-a"]  # by priority
    assert [w.key for w in by_local_queue_usage(cands, snap.afs)] == ["default/high-a", "default/low-b"]
    assert by_local_queue_usage(cands, None) == cands


def admitted_dict(name, queue, cpu, priority):
    wl = pending(name, queue, {"cpu": cpu})
    wl["spec"]["priority"] = priority
    wl["status"] = {
        "admission": {"clusterQueue": "cq", "podSetAssignments": [
            {"name": "main", "count": 1, "flavors": {"cpu": "default"}, "resourceUsage": {"cpu": str(cpu)}}]},
        "conditions": [{"type": "QuotaReserved", "status": "True", "lastTransitionTime": "2026-03-02T08:00:00Z"},
                       {"type": "Admitted", "status": "True", "lastTransitionTime": "2026-03-02T08:00:00Z"}]}
    return wl


def test_the_pop_takes_the_lowest_usage_first_then_the_sticky_head():
    """``queueOrderingFunc``: LocalQueue usage before the sticky head, which wins only within
    its LocalQueue's usage."""
    q = Queue("cq", False, Marks())
    usage = {"a": 1.0, "b": 0.0}
    q.afs_usage = UsageOrder(lambda key: key.split("-")[0], usage.__getitem__, 2)
    for okey in [(0, "a-1"), (1, "a-2"), (2, "b-1"), (3, "b-2")]:
        q.push(okey)
    q.sticky = "b-2"
    assert q.pop()[-1] == "b-2"
    q.sticky = "a-2"
    assert q.pop()[-1] == "b-1"  # the sticky head's LocalQueue has more usage
    usage["b"] = 5.0
    assert q.pop()[-1] == "a-2" and q.pop()[-1] == "a-1" and q.pop() is None
