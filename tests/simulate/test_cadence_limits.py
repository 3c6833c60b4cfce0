"""The harness limits of a cadence: the write token bucket, the batched requeue, and what they do
to a run (runtimes start when the admission's write goes through, the writes Kueue waits for end
the cycle, parked workloads come back one batch period after a completion)."""

from __future__ import annotations

import pytest

from quotactl.simulate.cadence import Cadence
from quotactl.simulate.clock import US
from quotactl.simulate.limits import BatchedRequeue, WriteBucket
from quotactl.simulate.run import SimulationOptions, simulate
from tests.kueue.builders import cq, flavor
from tests.simulate.world import by_name, job, model, secs

MS = 1_000


def test_write_bucket_spends_its_burst_then_one_token_per_period():
    b = WriteBucket(50, 3)
    assert [b.take(0) for _ in range(5)] == [0, 0, 0, 20 * MS, 40 * MS]
    assert b.take(10 * MS) == 60 * MS  # first come, first served: behind the earlier writes
    assert b.writes == 6


def test_write_bucket_refills_while_idle_up_to_its_burst():
    b = WriteBucket(10, 2)
    assert [b.take(0), b.take(0), b.take(0)] == [0, 0, 100 * MS]
    # idle for 10 s: two tokens (the burst), not a hundred
    assert [b.take(10 * US), b.take(10 * US), b.take(10 * US)] == [10 * US, 10 * US, 10 * US + 100 * MS]
    assert b.take(20 * US + 50 * MS) == 20 * US + 50 * MS


def test_write_bucket_refuses_a_zero_rate_or_burst():
    with pytest.raises(ValueError):
        WriteBucket(0, 10)
    with pytest.raises(ValueError):
        WriteBucket(50, 0)


def test_batched_requeue_joins_notifications_until_its_period_ends():
    q = BatchedRequeue(US)
    q.notify("b", 0)
    q.notify("a", 300 * MS)
    q.notify("b", 900 * MS)  # joins the pending one: still due at 1 s
    assert len(q) == 2 and q.next_time() == US
    assert q.pop_due(US - 1) == []
    assert q.pop_due(US) == ["b"]
    q.notify("b", US + 100 * MS)  # a new batch after the last one ran
    assert q.pop_due(3 * US) == ["a", "b"] and q.next_time() is None and len(q) == 0


def test_cadence_limits_need_a_cycle_interval_and_go_together():
    with pytest.raises(ValueError, match="cycle interval"):
        Cadence(0, write_rate=50, write_burst=100)
    with pytest.raises(ValueError, match="cycle interval"):
        Cadence(0, requeue_batch=US)
    with pytest.raises(ValueError, match="go together"):
        Cadence(US, write_rate=50)
    with pytest.raises(ValueError, match="never negative"):
        Cadence(US, requeue_batch=-1)


def _run(dicts, cadence: Cadence):
    cluster, options = model([flavor("f"), cq("a", [(["cpu"], [("f", {"cpu": dicts[0]})])])] + dicts[1:])
    return by_name(simulate(cluster, options, SimulationOptions(cadence=cadence)))


def _finished(r, names) -> list:
    return [r[n].finished / US for n in names]


def test_runtime_starts_when_the_admission_write_goes_through():
    """One head per tick (1 s): five decisions at 0 .. 4 s, their writes one per 2 s."""
    names = [f"j{i}" for i in range(5)]
    dicts = [10] + [job(n, "a", 1, 0, runtime="10s") for n in names]
    r = _run(dicts, Cadence(US, write_rate=0.5, write_burst=1))
    assert [secs(r[n].admissions) for n in names] == [[0], [1], [2], [3], [4]]
    assert _finished(r, names) == [10, 12, 14, 16, 18]
    assert _finished(_run(dicts, Cadence(US)), names) == [10, 11, 12, 13, 14]


def test_a_pending_status_write_ends_the_cycle_when_it_goes_through():
    """Quota 2, one write per 10 s: a and b are admitted at ticks 0 and 1 (b's write through at
    10); c does not fit at tick 2 and its Pending status is written inside the cycle, behind b's
    write: no cycle until 20, when c fits (a done at 10, b at 20), its write through at 30."""
    dicts = [2] + [job(n, "a", 1, 0, runtime="10s") for n in "abc"]
    r = _run(dicts, Cadence(US, write_rate=0.1, write_burst=1))
    assert [secs(r[n].admissions) for n in "abc"] == [[0], [1], [20]]
    assert _finished(r, "abc") == [10, 20, 40]


def test_completion_requeues_parked_workloads_one_batch_later():
    dicts = [1, job("a", "a", 1, 0, runtime="10s"), job("b", "a", 1, 1, runtime="10s")]
    batched = _run(dicts, Cadence(US, requeue_batch=5 * US))
    assert secs(batched["b"].admissions) == [15]  # parked at 1, a done at 10, requeued at 15
    assert secs(_run(dicts, Cadence(US))["b"].admissions) == [10]


def test_arrivals_go_through_the_creating_client_in_order():
    """Three creates asked for at 0 and one at 1, one create per 2 s after a burst of 1: created
    (and queued, and their waits counted) at 0, 2, 4 and 6."""
    names = ["c0", "c1", "c2", "late"]
    dicts = [10] + [job(n, "a", 1, 0, runtime="1s") for n in names[:3]] + [job("late", "a", 1, 1, runtime="1s")]
    r = _run(dicts, Cadence(US, create_rate=0.5, create_burst=1))
    assert [r[n].arrival / US for n in names] == [0, 2, 4, 6]
    assert [secs(r[n].admissions) for n in names] == [[0], [2], [4], [6]]
    assert [r[n].wait for n in names] == [0, 0, 0, 0]


def test_each_creator_asks_again_its_gap_after_its_last_create():
    """Two series (classes) over the limit (one create per 2 s): s0..s3 scheduled at 0, 1, 2, 3
    and l0, l1 at 0, 4 (t0 = the first creation).  Each creator asks for its next create its gap
    after its last one went through, so l1 (asked at 0 + 4) goes before s2 (asked at 4 + 1),
    not last as it would in the order of the schedule."""
    dicts = [10] + [job(f"s{i}", "a", 1, 1 + i, runtime="1s", klass="small") for i in range(4)] \
        + [job("l0", "a", 1, 1, runtime="1s", klass="large"), job("l1", "a", 1, 5, runtime="1s", klass="large")]
    r = _run(dicts, Cadence(US, create_rate=0.5, create_burst=1))
    assert {n: r[n].arrival / US for n in r} == {"l0": 0, "s0": 2, "s1": 4, "l1": 6, "s2": 8, "s3": 10}
