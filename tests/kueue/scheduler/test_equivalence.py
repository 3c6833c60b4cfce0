"""SchedulingEquivalenceHashing (KEP-9694) as Kueue's queue manager does it
(``pkg/cache/queue/cluster_queue.go``): a head parked for NoFit records its class in its
ClusterQueue and takes the queued workloads of that class with it; while the record exists, a
workload of that class added to the queue is parked without an evaluation; a requeue of the
ClusterQueue's inadmissible workloads drops the records."""

from __future__ import annotations

from quotactl.kueue.options import engine_options
from quotactl.kueue.scheduler import PENDING, Scheduler
from quotactl.model.kueue import build_cluster
from quotactl.simulate.cadence import Cadence
from quotactl.simulate.run import SimulationOptions, simulate
from tests.kueue.builders import cq, flavor, objects, pending, with_queues
from tests.simulate.world import by_name, job, running, secs

OFF = {"SchedulingEquivalenceHashing": False}


def _scheduler(strategy=None, gates=None):
    """ClusterQueue ``a`` with 4 cpu, all held by ``r``; the queues start empty (as in simulate)."""
    q = cq("a", [(["cpu"], [("f", {"cpu": 4})])])
    if strategy:
        q["spec"]["queueingStrategy"] = strategy
    dicts = [flavor("f"), q, running("r", "a", 4, 0),
             pending("big1", "q-a", {"cpu": 2}, created=10), pending("big2", "q-a", {"cpu": 2}, created=11),
             pending("big3", "q-a", {"cpu": 2}, created=12),
             pending("urgent", "q-a", {"cpu": 2}, created=13, priority=5),
             pending("small", "q-a", {"cpu": 1}, created=14)]
    cluster = build_cluster(objects(with_queues(dicts)))
    return cluster, Scheduler(cluster, engine_options(cluster, feature_gates=gates), queue_pending=False)


def _park_big1(cluster, s):
    """big1 is evaluated and parked NoFit in cycle 2 (cycle 1's start-up requeue brings it back)."""
    s.arrive(cluster.workloads["default/big1"])
    s.run_cycle(1)
    rep = s.run_cycle(2)
    assert [(h.workload, h.outcome) for h in rep.heads] == [("default/big1", PENDING)]


def _active(s):
    return [k[-1] for k in s.queues["a"].active]


def test_arrival_of_a_failed_class_is_parked_without_an_evaluation():
    cluster, s = _scheduler()
    _park_big1(cluster, s)
    for name in ("big2", "urgent", "small"):
        s.arrive(cluster.workloads["default/" + name])
    # big2 shares big1's priority and pod sets; urgent differs in priority, small in requests
    assert _active(s) == ["default/urgent", "default/small"]
    assert set(s.queues["a"].inadmissible) == {"default/big1", "default/big2"}


def test_a_requeue_drops_the_records():
    cluster, s = _scheduler()
    _park_big1(cluster, s)
    s.requeue_tree(s.tree_of("a"))
    assert _active(s) == ["default/big1"]
    s.arrive(cluster.workloads["default/big2"])  # no record any more: queued as usual
    assert _active(s) == ["default/big1", "default/big2"]


def test_bulk_move_parks_the_queued_class_at_once():
    cluster, s = _scheduler()
    for name in ("big1", "big2", "big3", "small"):
        s.arrive(cluster.workloads["default/" + name])
    s.run_cycle(1)  # big1 parked, then the start-up requeue brings it back
    s.run_cycle(2)  # big1 parked again: big2 and big3 go with it
    assert _active(s) == ["default/small"]
    assert set(s.queues["a"].inadmissible) == {"default/big1", "default/big2", "default/big3"}


def test_gate_off_queues_every_arrival():
    cluster, s = _scheduler(gates=OFF)
    _park_big1(cluster, s)
    s.arrive(cluster.workloads["default/big2"])
    assert _active(s) == ["default/big2"]


def test_strict_fifo_records_nothing():
    """StrictFIFO keeps its head in the heap; no class is recorded, so arrivals queue as usual."""
    cluster, s = _scheduler(strategy="StrictFIFO")
    s.arrive(cluster.workloads["default/big1"])
    s.run_cycle(1)
    s.run_cycle(2)
    s.arrive(cluster.workloads["default/big2"])
    assert _active(s) == ["default/big1", "default/big2"]
    assert not s.queues["a"].failed_classes


def _heads_by_time(gates):
    """w1 holds 8 of 10 cpu until 30 s; w2 (5 cpu, 1 s) cannot fit; w3, of w2's shape, arrives at 2 s."""
    q = cq("a", [(["cpu"], [("f", {"cpu": 10})])])
    dicts = [flavor("f"), q, job("w1", "a", 8, 0, "30s"), job("w2", "a", 5, 1, "10s"), job("w3", "a", 5, 2, "10s")]
    cluster = build_cluster(objects(with_queues(dicts)))
    heads = []
    result = simulate(cluster, engine_options(cluster, feature_gates=gates), SimulationOptions(cadence=Cadence(0, 0)),
                      on_cycle=lambda s, rep: heads.extend(h.workload.rpartition("/")[2] for h in rep.heads))
    return heads, by_name(result)


def test_simulate_parks_an_equivalent_arrival_until_the_capacity_event():
    """Kueue: w3 goes to the inadmissible set on arrival (PushOrUpdate) and is first evaluated
    after w1's completion requeues the queue; both are admitted then (5 + 5 cpu)."""
    heads, r = _heads_by_time(None)
    assert heads.count("w3") == 1
    assert secs(r["w2"].admissions) == [30] and secs(r["w3"].admissions) == [30]
    off_heads, off = _heads_by_time(OFF)
    assert off_heads.count("w3") == 2  # without the gate w3 is evaluated on arrival too
    assert secs(off["w3"].admissions) == [30]
