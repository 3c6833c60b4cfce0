"""The clock's rules, one by one: event order at an instant, requeue on completion, preemption
and re-run, overdue and never-finishing workloads, --until, ticks of --cycle-interval and the
admission cost."""

from __future__ import annotations

import pytest

from quotactl.simulate.clock import US
from quotactl.simulate.errors import SimulationInputError
from tests.kueue.builders import cq, flavor
from tests.simulate.world import by_name, job, run, running, secs


def one_cq(nominal=10, strategy=None, **kw):
    q = cq("a", [(["cpu"], [("f", {"cpu": nominal})])], **kw)
    if strategy:
        q["spec"]["queueingStrategy"] = strategy
    return [flavor("f"), q]


def test_finish_then_arrive_then_cycles_at_one_instant():
    """w2 arrives at the very instant w1 finishes: the completion is applied first, so w2 fits
    at once (with arrival before completion it would wait)."""
    r = by_name(run(one_cq(6) + [job("w1", "a", 6, 0, "10s"), job("w2", "a", 6, 10, "5s")]))
    assert secs(r["w1"].admissions) == [0] and r["w1"].finished == 10 * US
    assert secs(r["w2"].admissions) == [10] and r["w2"].wait == 0


def test_completion_requeues_parked_workloads():
    r = by_name(run(one_cq(10) + [job("w1", "a", 8, 0, "30s"), job("w2", "a", 5, 1, "10s"),
                                   job("w3", "a", 2, 2, "10s")]))
    assert secs(r["w3"].admissions) == [2]  # BestEffortFIFO: the small one overtakes the parked one
    assert secs(r["w2"].admissions) == [30]  # parked until w1's completion requeued it
    assert r["w2"].finished == 40 * US


def test_completion_requeues_the_whole_cohort_tree():
    """A completion in ClusterQueue b brings back the parked workload of ClusterQueue a (same cohort)."""
    dicts = [flavor("f"), cq("a", [(["cpu"], [("f", {"cpu": (0, 10)})])], cohort="org"),
             cq("b", [(["cpu"], [("f", {"cpu": 10})])], cohort="org"),
             job("b1", "b", 8, 0, "20s"), job("a1", "a", 5, 1, "10s")]
    r = by_name(run(dicts))
    assert secs(r["a1"].admissions) == [20] and r["a1"].finished == 30 * US


def test_preempted_workload_reruns_in_full_and_reports_lost_work():
    dicts = one_cq(10, within="LowerPriority") + [job("low", "a", 10, 0, "100s", priority=0),
                                                   job("high", "a", 10, 30, "50s", priority=100)]
    result = run(dicts)
    r = by_name(result)
    assert [(e.at, e.reason, e.by) for e in r["low"].evictions] == [(30 * US, "InClusterQueue", "default/high")]
    assert secs(r["high"].admissions) == [30] and r["high"].finished == 80 * US
    assert secs(r["low"].admissions) == [0, 80] and r["low"].finished == 180 * US  # the full 100 s again
    assert r["low"].lost_work == 30 * US and r["low"].wait == 0
    q = result.cluster_queues[0]
    assert q.preemptions == 1 and q.preemptions_by_reason == {"InClusterQueue": 1} and q.lost_work == 30 * US


def test_overdue_input_workload_finishes_at_t0_and_the_rest_at_start_plus_runtime():
    dicts = one_cq(10) + [running("old", "a", 4, reserved=0, runtime="10s"),
                          running("mid", "a", 4, reserved=50, runtime="100s"),
                          job("p", "a", 6, 60, "5s")]
    result = run(dicts)  # t0: the newest time of the snapshot (p's creation, 60 s)
    r = by_name(result)
    assert r["old"].overdue and r["old"].finished == 0 and r["old"].admissions == ()
    assert not r["mid"].overdue and r["mid"].finished == 90 * US
    assert secs(r["p"].admissions) == [0]
    assert result.overdue == 1


def test_workload_without_runtime_never_finishes_and_is_counted():
    result = run(one_cq(10) + [job("forever", "a", 10, 0), job("next", "a", 1, 1, "1s")])
    r = by_name(result)
    assert r["forever"].finished is None and r["forever"].runtime is None
    assert r["next"].admissions == () and r["next"].wait is None
    assert result.no_runtime == 1 and result.stopped == "drained"


def test_runtime_order_annotation_then_max_execution_then_default():
    dicts = one_cq(10) + [job("ann", "a", 1, 0, "1m", max_exec=999), job("mx", "a", 1, 0, max_exec=7),
                          job("dflt", "a", 1, 0)]
    r = by_name(run(dicts, default_runtime=3 * US))
    assert (r["ann"].runtime, r["ann"].runtime_source) == (60 * US, "annotation")
    assert (r["mx"].runtime, r["mx"].runtime_source) == (7 * US, "maximumExecutionTimeSeconds")
    assert (r["dflt"].runtime, r["dflt"].runtime_source) == (3 * US, "default")


def test_bad_runtime_annotation_is_an_input_error_at_its_line():
    with pytest.raises(SimulationInputError) as exc:
        run(one_cq(10) + [job("bad", "a", 1, 0, "ten minutes")])
    assert "quotactl.io/runtime" in str(exc.value) and "not a duration" in str(exc.value)


def test_until_stops_the_clock():
    result = run(one_cq(10) + [job("w1", "a", 10, 0, "100s"), job("w2", "a", 10, 1, "100s")], until=50 * US)
    r = by_name(result)
    assert result.stopped == "until" and result.end == 50 * US
    assert r["w1"].finished is None and r["w2"].admissions == () and r["w2"].wait is None


def test_cycle_interval_one_head_per_tick_on_the_t0_grid():
    dicts = one_cq(10) + [job(n, "a", 1, 0, "100s") for n in ("a1", "a2", "a3")] + [job("late", "a", 1, 13, "1s")]
    r = by_name(run(dicts, interval=10))
    assert [secs(r[n].admissions) for n in ("a1", "a2", "a3")] == [[0], [10], [20]]
    assert secs(r["late"].admissions) == [30]  # arrived at 13; the queue ahead of it first


def test_tick_preemptor_admitted_at_the_tick_after_the_eviction():
    dicts = one_cq(10, within="LowerPriority") + [job("low", "a", 10, 0, "100s"),
                                                   job("high", "a", 10, 5, "10s", priority=9)]
    r = by_name(run(dicts, interval=10))
    assert [e.at for e in r["low"].evictions] == [10 * US]
    assert secs(r["high"].admissions) == [20]


def test_admission_cost_spaces_admissions_and_delays_the_next_tick():
    dicts = one_cq(10) + [job(f"w{i}", "a", 1, 0, "1000s") for i in range(3)]
    dicts.insert(1, cq("b", [(["cpu"], [("f", {"cpu": 10})])]))
    dicts += [job(f"v{i}", "b", 1, 0, "1000s") for i in range(3)]
    r = by_name(run(dicts, interval=1, cost=2))
    # one head per ClusterQueue per cycle: two admissions per cycle, 2 s each; next tick at the end
    assert sorted(secs(r["w0"].admissions + r["v0"].admissions)) == [2, 4]
    assert sorted(secs(r["w1"].admissions + r["v1"].admissions)) == [6, 8]


def _flopping_world():
    from tests.kueue.scheduler.test_cycle import livelock_world

    return livelock_world()


@pytest.mark.parametrize("interval", [0, 1])
def test_livelock_stops_the_clock_with_the_schedule_report(interval):
    """The flopping cluster of ``schedule``'s tests, every workload queued at t0 and none finishing:
    the same workloads are preempted and re-admitted forever (in fixpoint mode at t0, with
    --cycle-interval from tick to tick)."""
    from datetime import datetime, timezone

    from quotactl.simulate.cadence import Cadence
    from quotactl.simulate.run import SimulationOptions, simulate

    cluster, options = _flopping_world()
    sim = SimulationOptions(start=datetime(2026, 1, 1, 1, tzinfo=timezone.utc), cadence=Cadence(interval * US))
    result = simulate(cluster, options, sim)
    assert not result.converged and result.stopped == "livelock"
    assert "default/w0" in result.livelock.workloads and result.livelock.period >= 1
    assert result.livelock_at == result.end
    assert any(w.evictions for w in result.workloads)


@pytest.mark.parametrize("interval", [0, 10])
def test_cycle_limit_stops_the_run_unconverged(interval):
    """The safety net: more cycles than allowed in one instant (or, with ticks, since the last event)."""
    dicts = one_cq(10) + [job(f"w{i}", "a", 1, 0, "1000s") for i in range(5)]
    result = run(dicts, interval=interval, max_cycles_per_instant=2)
    assert result.stopped == "limit" and not result.converged and result.livelock is None
    assert sum(len(w.admissions) for w in result.workloads) == 2


def test_progress_is_reported_after_every_instant():
    from quotactl.simulate.cadence import Cadence
    from quotactl.simulate.run import SimulationOptions, simulate
    from tests.simulate.world import model

    cluster, options = model(one_cq(10) + [job("w1", "a", 4, 0, "10s"), job("w2", "a", 4, 5, "10s")])
    seen = []
    simulate(cluster, options, SimulationOptions(cadence=Cadence(0)), progress=lambda now, left, horizon: seen.append((now, left, horizon)))
    # (now, events still queued, the latest event time queued so far)
    assert seen == [(0, 2, 10 * US), (5 * US, 2, 15 * US), (10 * US, 1, 15 * US), (15 * US, 0, 15 * US)]
