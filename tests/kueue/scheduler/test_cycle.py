"""Unit tests of the cycle engine: in-cycle interactions (Kueue's ``processEntry``), requeueing
(``requeueAndUpdate``), the fixpoint and the livelock detection."""

from __future__ import annotations

import math

from quotactl.kueue.options import engine_options
from quotactl.kueue.reasons import MSG_NO_LONGER_FITS
from quotactl.kueue.scheduler import ADMITTED, PENDING, SKIPPED, schedule
from quotactl.model.kueue import build_cluster
from quotactl.report import schedule_json, schedule_text
from tests.kueue.builders import admitted, configuration, cq, flavor, lq, objects, pending, with_queues

RES = ["cpu", "memory"]


def _world(dicts, fair=False):
    cluster = build_cluster(objects(with_queues(dicts + [configuration(fair_sharing=fair)])))
    return cluster, engine_options(cluster)


def _q(f0=(0, 0), f1=(0, 0)):
    return [(RES, [("f0", {"cpu": f0[0], "memory": f0[1]}), ("f1", {"cpu": f1[0], "memory": f1[1]})])]


def livelock_world():
    dicts = [flavor("f0"), flavor("f1"),
             cq("cq0", _q(), cohort="pool"),
             cq("cq1", _q(f1=(2, 0)), cohort="pool"),
             cq("cq2", _q(f0=(0, 2)), cohort="pool"),
             cq("cq3", _q(f1=(0, 2)), cohort="pool", reclaim="Any")]
    dicts.append(pending("w0", "q-cq0", {"cpu": 1, "memory": 2}, created=1000))
    for j in range(1, 8):
        dicts.append(pending(f"w{j}", "q-cq0", {"cpu": 1, "memory": 1}, created=1000 + 7 * j))
    dicts.append(pending("w8", "q-cq3", {"cpu": 1, "memory": 1}, created=1056))
    return _world(dicts, fair=True)


def test_livelock_is_detected_and_reported():
    cluster, options = livelock_world()
    r = schedule(cluster, options)
    assert not r.converged and r.stopped == "livelock"
    assert r.livelock is not None
    assert "default/w0" in r.livelock.workloads
    assert r.livelock.period >= 1
    assert any("preempted by default/w8" in w for w in r.livelock.why)


def test_livelock_run_with_cycles_just_runs():
    cluster, options = livelock_world()
    r = schedule(cluster, options, cycles=12)
    assert r.cycles_run == 12 and r.stopped == "cycles"


def test_admissions_consume_shared_quota_in_one_cycle():
    """Two heads of one cohort fit on their own, but the second no longer fits after the first."""
    dicts = [flavor("f0"), flavor("f1"),
             cq("a", _q(f0=(2, 4)), cohort="pool"), cq("b", _q(f0=(2, 4)), cohort="pool")]
    dicts += [pending("x", "q-a", {"cpu": 3, "memory": 1}, created=1000),
              pending("y", "q-b", {"cpu": 3, "memory": 1}, created=1001)]
    cluster, options = _world(dicts)
    r = schedule(cluster, options, cycles=1)
    assert [a.workload for a in r.admitted] == ["default/x"]
    heads = {h.workload: h for h in r.cycles[0].heads}
    assert heads["default/y"].outcome == SKIPPED and heads["default/y"].message == MSG_NO_LONGER_FITS


def test_best_effort_fifo_exposes_next_head_next_cycle():
    """A parked head lets the next workload become the head.  Kueue's start-up requeue (the
    batched request queued when the ClusterQueues were added) fires after cycle 1, so the head
    parked in cycle 1 is tried once more in cycle 2; parked again, it stays parked."""
    dicts = [flavor("f0"), flavor("f1"), cq("a", _q(f0=(2, 4)))]
    dicts += [pending("big", "q-a", {"cpu": 4, "memory": 1}, created=1000),
              pending("small", "q-a", {"cpu": 1, "memory": 1}, created=1001)]
    cluster, options = _world(dicts)
    r = schedule(cluster, options)
    assert r.converged
    assert [(a.workload, a.cycle) for a in r.admitted] == [("default/small", 3)]
    assert [[(h.workload, h.outcome) for h in c.heads] for c in r.cycles] == [
        [("default/big", PENDING)], [("default/big", PENDING)], [("default/small", ADMITTED)]]


def test_startup_requeue_happens_once():
    """Only the start-up request is replayed: a head parked in cycle 2 is not retried in cycle 3."""
    dicts = [flavor("f0"), flavor("f1"), cq("a", _q(f0=(2, 4)))]
    dicts += [pending("big", "q-a", {"cpu": 4, "memory": 1}, created=1000),
              pending("big2", "q-a", {"cpu": 5, "memory": 1}, created=1001),
              pending("small", "q-a", {"cpu": 1, "memory": 1}, created=1002)]
    cluster, options = _world(dicts)
    r = schedule(cluster, options)
    heads = [[h.workload for h in c.heads] for c in r.cycles]
    assert heads == [["default/big"], ["default/big"], ["default/big2"], ["default/small"]]
    assert [(a.workload, a.cycle) for a in r.admitted] == [("default/small", 4)]


def test_strict_fifo_blocks_the_queue():
    d = cq("a", _q(f0=(2, 4)))
    d["spec"]["queueingStrategy"] = "StrictFIFO"
    dicts = [flavor("f0"), flavor("f1"), d,
             pending("big", "q-a", {"cpu": 4, "memory": 1}, created=1000),
             pending("small", "q-a", {"cpu": 1, "memory": 1}, created=1001)]
    cluster, options = _world(dicts)
    r = schedule(cluster, options)
    assert r.converged and not r.admitted
    assert {p.workload for p in r.pending} == {"default/big", "default/small"}


def test_preemptor_admitted_in_a_later_cycle_and_victim_released():
    dicts = [flavor("f0"), flavor("f1"), cq("a", _q(f0=(2, 4)), within="LowerPriority"),
             admitted("low", "a", {("f0", "cpu"): 2, ("f0", "memory"): 1}, priority=0),
             pending("high", "q-a", {"cpu": 2, "memory": 1}, created=2000, priority=100)]
    cluster, options = _world(dicts)
    r = schedule(cluster, options)
    assert [(p.workload, p.by, p.reason, p.cycle) for p in r.preempted] == [
        ("default/low", "default/high", "InClusterQueue", 1)]
    assert [(a.workload, a.cycle) for a in r.admitted] == [("default/high", 2)]
    assert r.converged
    assert {p.workload for p in r.pending} == {"default/low"}


def test_flavor_scan_progress_retakes_head_with_untried_flavors():
    """Flavor scan progress (``AssignmentClusterQueueState``): a head whose scan stopped before the last flavor (pod set "main" fitted in f0) is
    requeued at once; next cycle its scan resumes at f1, and only then it is parked."""
    dicts = [flavor("f0"), flavor("f1"), cq("a", _q(f0=(2, 4), f1=(2, 4)))]
    dicts += [pending("big", "q-a", created=1000,
                      pod_sets=[("main", 1, {"cpu": 1, "memory": 1}), ("workers", 1, {"cpu": 10})]),
              pending("small", "q-a", {"cpu": 1, "memory": 1}, created=1001)]
    cluster, options = _world(dicts)
    r = schedule(cluster, options)
    assert r.converged
    assert [h.workload for h in r.cycles[0].heads] == ["default/big"]
    assert [h.workload for h in r.cycles[1].heads] == ["default/big"]
    assert [(a.workload, a.cycle) for a in r.admitted] == [("default/small", 3)]


def _reclaim_world(preemptor_priority):
    """cq-b borrows all of cq-a's quota with an old workload; cq-a reclaims it for a younger one."""
    dicts = [flavor("f0"), flavor("f1"),
             cq("a", _q(f0=(4, 8)), cohort="pool", reclaim="Any"),
             cq("b", _q(), cohort="pool"),
             admitted("old", "b", {("f0", "cpu"): 4, ("f0", "memory"): 1}, priority=5, created=100),
             pending("new", "q-a", {"cpu": 2, "memory": 1}, priority=preemptor_priority, created=1000)]
    return _world(dicts)


def test_victim_orders_as_non_borrowing_and_wins_its_quota_back():
    """Cycle 1: ``new`` reclaims; cycle 2: both are heads, the victim comes back on its old
    flavors, which count as non-borrowing, and is older: it goes first (KEP-1337 flopping)."""
    cluster, options = _reclaim_world(preemptor_priority=5)
    r = schedule(cluster, options, cycles=2)
    assert [(p.workload, p.by, p.cycle) for p in r.preempted] == [("default/old", "default/new", 1)]
    assert [(a.workload, a.cycle) for a in r.admitted] == [("default/old", 2)]
    heads = {h.workload: h for h in r.cycles[1].heads}
    assert heads["default/new"].outcome == SKIPPED


def test_victim_comes_back_on_its_old_flavor_and_is_skipped_there():
    """``old`` (admitted on f1 in the input) is preempted by ``new`` in its own ClusterQueue.  Once
    ``new`` holds f1, a fresh scan would find no room anywhere (Pending, parked); Kueue instead
    keeps the victim's old flavor as Fit, so the in-cycle check skips it, every cycle."""
    dicts = [flavor("f0"), flavor("f1"), cq("b", _q(f0=(4, 8), f1=(4, 8)), within="LowerPriority"),
             admitted("filler", "b", {("f0", "cpu"): 4, ("f0", "memory"): 1}, priority=100),
             admitted("old", "b", {("f1", "cpu"): 4, ("f1", "memory"): 1}, priority=0),
             pending("new", "q-b", {"cpu": 4, "memory": 1}, priority=50, created=2000)]
    cluster, options = _world(dicts)
    r = schedule(cluster, options)
    assert [(p.workload, p.by, p.cycle) for p in r.preempted] == [("default/old", "default/new", 1)]
    assert [(a.workload, a.flavors, a.cycle) for a in r.admitted] == [
        ("default/new", {"main": {"cpu": "f1", "memory": "f1"}}, 2)]
    last = {h.workload: h for h in r.cycles[-1].heads}["default/old"]
    assert (last.outcome, last.message) == (SKIPPED, MSG_NO_LONGER_FITS)
    assert last.kept_flavors == {"main": {"cpu": "f1", "memory": "f1"}}
    assert r.converged
    text = schedule_text.render_plain(r)
    assert "kept its previous flavors, no flavor scan: main: cpu=f1, memory=f1" in text
    heads = schedule_json.document(r)["cycleLog"][-1]["heads"]
    assert heads[0]["keptFlavors"] == {"main": {"cpu": "f1", "memory": "f1"}}


def test_higher_priority_non_borrowing_preemptor_keeps_the_reclaimed_quota():
    cluster, options = _reclaim_world(preemptor_priority=10)
    r = schedule(cluster, options, cycles=2)
    assert [(a.workload, a.cycle) for a in r.admitted] == [("default/new", 2)]
    assert {h.workload: h.outcome for h in r.cycles[1].heads}["default/old"] == SKIPPED


def test_livelocks_are_detected_per_cohort_tree():
    """Two independent flopping cohorts: each is settled at its own first repetition and reported
    on its own; the whole cluster repeats with the least common multiple of the periods."""
    cluster, _ = livelock_world()
    base = [flavor("f0"), flavor("f1")]
    dicts = list(base)
    for suffix in ("", "-b"):
        pool = "pool" + suffix
        dicts += [cq("cq0" + suffix, _q(), cohort=pool),
                  cq("cq1" + suffix, _q(f1=(2, 0)), cohort=pool),
                  cq("cq2" + suffix, _q(f0=(0, 2)), cohort=pool),
                  cq("cq3" + suffix, _q(f1=(0, 2)), cohort=pool, reclaim="Any")]
        dicts.append(pending("w0" + suffix, "q-cq0" + suffix, {"cpu": 1, "memory": 2}, created=1000))
        for j in range(1, 8):
            dicts.append(pending(f"w{j}{suffix}", "q-cq0" + suffix, {"cpu": 1, "memory": 1}, created=1000 + 7 * j))
        dicts.append(pending("w8" + suffix, "q-cq3" + suffix, {"cpu": 1, "memory": 1}, created=1056))
    cluster, options = _world(dicts, fair=True)
    r = schedule(cluster, options)
    assert r.stopped == "livelock" and not r.converged
    trees = {t.tree: t for t in r.livelock.trees}
    assert set(trees) == {"pool", "pool-b"}
    assert "default/w0" in trees["pool"].workloads and "default/w0-b" in trees["pool-b"].workloads
    assert not any(w.endswith("-b") for w in trees["pool"].workloads)
    assert r.livelock.period == math.lcm(trees["pool"].period, trees["pool-b"].period)
    assert set(r.livelock.workloads) == set(trees["pool"].workloads) | set(trees["pool-b"].workloads)


def test_settled_tree_is_no_longer_simulated():
    """A cohort at its fixpoint stops being cycled while another one still makes progress."""
    dicts = [flavor("f0"), flavor("f1"),
             cq("strict", _q(f0=(2, 4)), cohort="blocked"), cq("busy", _q(f0=(2, 4)), cohort="moving")]
    dicts[2]["spec"]["queueingStrategy"] = "StrictFIFO"
    dicts += [pending("too-big", "q-strict", {"cpu": 4, "memory": 1}, created=1000)]
    dicts += [pending(f"big{j}", "q-busy", {"cpu": 3 + j, "memory": 1}, created=1000 + j) for j in range(4)]
    dicts += [pending("fits", "q-busy", {"cpu": 1, "memory": 1}, created=2000)]
    cluster, options = _world(dicts)
    r = schedule(cluster, options)
    assert r.converged and [(a.workload, a.cycle) for a in r.admitted] == [("default/fits", 6)]
    strict_heads = [c.number for c in r.cycles for h in c.heads if h.workload == "default/too-big"]
    assert r.cycles_run == 6 and strict_heads == [1, 2]  # unchanged after cycle 2: settled


def test_the_namespace_check_is_per_namespace_and_the_limits_check_per_pod_sets():
    """The cycle keeps the namespace selector's answer per (ClusterQueue, namespace) and the
    limits check's per pod-set objects (scheduler.nominator.Nominator's pre-check memos): neither may leak to a
    workload of another namespace or other pod sets."""
    ns = [{"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": n, "labels": {"team": t}}}
          for n, t in (("a", "ml"), ("b", "web"))]
    queue = cq("c", [(RES, [("f0", {"cpu": 10, "memory": 10})])], selector={"matchLabels": {"team": "ml"}})
    over = pending("over", "q-c", {"cpu": 1, "memory": 1}, ns="a", created=1003)
    over["spec"]["podSets"][0]["template"]["spec"]["containers"][0]["resources"]["limits"] = {"cpu": "500m"}
    dicts = ns + [flavor("f0"), queue, lq("q-c", "c", ns="a"), lq("q-c", "c", ns="b"),
                  pending("in-a", "q-c", {"cpu": 1, "memory": 1}, ns="a", created=1000),
                  pending("in-b", "q-c", {"cpu": 1, "memory": 1}, ns="b", created=1001),
                  pending("in-a2", "q-c", {"cpu": 1, "memory": 1}, ns="a", created=1002), over]
    cluster, options = _world(dicts)
    result = schedule(cluster, options)
    assert {a.workload for a in result.admitted} == {"a/in-a", "a/in-a2"}
    reasons = {p.workload: p.message for p in result.pending}
    assert "namespace" in reasons["b/in-b"].lower()
    assert "requests must not exceed its limits" in reasons["a/over"]
