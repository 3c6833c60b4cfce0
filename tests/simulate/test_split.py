"""``simulate --jobs``: independent cohort trees in worker processes give the one-process result,
byte for byte (quotactl/simulate/split.py), and the split gives up where one process must decide."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from unittest import mock

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from quotactl.report.simulate_json import render
from quotactl.simulate import split
from quotactl.simulate.cadence import Cadence
from quotactl.simulate.clock import US
from quotactl.simulate.run import SimulationOptions, simulate
from tests.kueue.builders import configuration, cq, flavor, pending
from tests.property_budget import examples
from tests.simulate.world import job, model, running

RECLAIM = ("Never", "LowerPriority", "Any")


def _json(dicts, jobs: int, **kw) -> str:
    cluster, options = model(dicts)
    sim = SimulationOptions(cadence=Cadence(0), max_cycles_per_instant=400, jobs=jobs, **kw)
    with mock.patch.object(split, "MIN_WORKLOADS", 0):
        return render(simulate(cluster, options, sim))


class _Spy:
    """Counts the splits that really forked, and how many workers they had."""

    def __init__(self):
        self.workers: list[int] = []
        self._forked = split._forked

    def __call__(self, run, owner, shares, jobs):
        self.workers.append(len(shares))
        return self._forked(run, owner, shares, jobs)


@st.composite
def forests(draw):
    """2-4 cohort trees (a cohort of 1-3 ClusterQueues, or a lone ClusterQueue), pending
    workloads arriving over 40 s with runtimes, some admitted in the input, some with no
    LocalQueue; one workload at t0 so the start-up cycle runs before most arrivals."""
    dicts, names, nominal = [flavor("f")], [], {}
    for t in range(draw(st.integers(2, 4))):
        cohort = draw(st.sampled_from([None, f"org{t}"]))
        for i in range(draw(st.integers(1, 3)) if cohort else 1):
            name = f"t{t}cq{i}"
            names.append(name)
            nominal[name] = draw(st.integers(1, 8))
            bl = draw(st.one_of(st.none(), st.integers(0, 6))) if cohort else None
            dicts.append(cq(name, [(["cpu"], [("f", {"cpu": (nominal[name], bl)})])], cohort=cohort,
                            within=draw(st.sampled_from(("Never", "LowerPriority"))),
                            reclaim=draw(st.sampled_from(RECLAIM))))
    dicts.append(job("first", names[0], 1, 0, "5s"))
    for j in range(draw(st.integers(1, 20))):
        target = draw(st.sampled_from(names))
        dicts.append(job(f"w{j}", target, draw(st.integers(1, 6)), draw(st.integers(1, 40)),
                         f"{draw(st.integers(1, 30))}s", priority=draw(st.sampled_from([0, 50, 100]))))
    for j in range(draw(st.integers(0, 3))):
        target = draw(st.sampled_from(names))
        dicts.append(running(f"r{j}", target, min(nominal[target], draw(st.integers(1, 4))),
                             0, f"{draw(st.integers(1, 30))}s", priority=50))
    if draw(st.booleans()):
        dicts.append(pending("lost", "q-nowhere", {"cpu": 1}, created=3))
    dicts.append(configuration(fair_sharing=draw(st.booleans())))
    return dicts


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(forests(), st.integers(2, 3))
def test_workers_give_the_one_process_bytes(dicts, jobs):
    assert _json(dicts, jobs) == _json(dicts, 1)


@st.composite
def fungible_forests(draw):
    """2-3 cohort trees whose ClusterQueues offer two flavors with every flavorFungibility
    choice: the flavor scan's state carries over cycles, and its staleness reads cycle numbers."""
    dicts, names = [flavor("f"), flavor("g")], []
    for t in range(draw(st.integers(2, 3))):
        cohort = draw(st.sampled_from([None, f"org{t}"]))
        for i in range(draw(st.integers(1, 3)) if cohort else 1):
            names.append(f"t{t}cq{i}")

            def quota(least: int, lends: bool = cohort is not None):
                return {"cpu": (draw(st.integers(least, 6)), draw(st.none() | st.integers(0, 4)) if lends else None)}

            dicts.append(cq(names[-1], [(["cpu"], [("f", quota(1)), ("g", quota(0))])], cohort=cohort,
                            within=draw(st.sampled_from(("Never", "LowerPriority"))),
                            reclaim=draw(st.sampled_from(RECLAIM)),
                            when_can_borrow=draw(st.sampled_from([None, "Borrow", "TryNextFlavor"])),
                            when_can_preempt=draw(st.sampled_from([None, "Preempt", "TryNextFlavor"]))))
    dicts.append(job("first", names[0], 1, 0, "5s"))
    for j in range(draw(st.integers(1, 30))):
        dicts.append(job(f"w{j}", draw(st.sampled_from(names)), draw(st.integers(1, 6)), draw(st.integers(0, 20)),
                         f"{draw(st.integers(1, 15))}s", priority=draw(st.sampled_from([0, 50, 100]))))
    return dicts


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fungible_forests())
def test_workers_give_the_one_process_bytes_with_flavor_scans(dicts):
    assert _json(dicts, 2) == _json(dicts, 1)


def _part(instant_cycles, gap_reads):
    return split._Part(0, "drained", instant_cycles, [], {}, {}, {}, [], gap_reads)


def test_a_scan_read_whose_adjacency_differs_in_one_process_is_caught():
    # one cycle before the fork; at t=10 worker 0 runs 3 cycles (2, 3, 4), worker 1 one (2); at
    # t=20 both run one: worker 1 numbers it 3, one process 5.
    busy, quiet = [(10, 3), (20, 1)], [(10, 1), (20, 1)]
    busiest = {10: 3, 20: 1}
    adjacent_here_not_there = _part(quiet, [(2, 3)])
    assert not split._numbering_agrees(1, [_part(busy, []), adjacent_here_not_there], busiest)
    # the same read in the busiest worker, or a read within one instant, agrees
    assert split._numbering_agrees(1, [_part(busy, [(4, 5), (2, 4)]), _part(quiet, [(1, 2)])], busiest)


def _two_trees(n: int = 6) -> list:
    dicts = [flavor("f"), cq("a", [(["cpu"], [("f", {"cpu": (4, None)})])]),
             cq("b", [(["cpu"], [("f", {"cpu": (4, None)})])])]
    dicts += [job(f"a{i}", "a", 2, i, "7s") for i in range(n)] + [job(f"b{i}", "b", 3, i, "5s") for i in range(n)]
    return dicts


def test_two_trees_really_run_in_two_workers():
    spy = _Spy()
    with mock.patch.object(split, "_forked", spy):
        out = _json(_two_trees(), 2)
    assert spy.workers == [2]
    assert out == _json(_two_trees(), 1)
    assert '"cycles": ' in out


def test_a_small_run_stays_in_one_process():
    spy = _Spy()
    cluster, options = model(_two_trees())
    with mock.patch.object(split, "_forked", spy):
        simulate(cluster, options, SimulationOptions(jobs=2))  # 12 workloads: under MIN_WORKLOADS
    assert spy.workers == []


def test_one_tree_is_not_split():
    dicts = [flavor("f"), cq("a", [(["cpu"], [("f", {"cpu": (4, None)})])], cohort="org"),
             cq("b", [(["cpu"], [("f", {"cpu": (4, None)})])], cohort="org")]
    dicts += [job(f"w{i}", "ab"[i % 2], 2, i, "3s") for i in range(8)]
    spy = _Spy()
    with mock.patch.object(split, "_forked", spy):
        assert _json(dicts, 2) == _json(dicts, 1)
    assert spy.workers == []


def _flopping_after_t0() -> list:
    """``schedule``'s flopping cohort (tests/kueue/scheduler/test_cycle.py ``livelock_world``), its
    workloads arriving after a lone ClusterQueue's first cycle, so the run forks first."""
    res = ["cpu", "memory"]

    def q(f0=(0, 0), f1=(0, 0)):
        return [(res, [("f0", {"cpu": f0[0], "memory": f0[1]}), ("f1", {"cpu": f1[0], "memory": f1[1]})])]

    dicts = [flavor("f0"), flavor("f1"), cq("cq0", q(), cohort="pool"), cq("cq1", q(f1=(2, 0)), cohort="pool"),
             cq("cq2", q(f0=(0, 2)), cohort="pool"), cq("cq3", q(f1=(0, 2)), cohort="pool", reclaim="Any"),
             cq("solo", q(f0=(4, 4)))]
    dicts.append(pending("w0", "q-cq0", {"cpu": 1, "memory": 2}, created=1000))
    dicts += [pending(f"w{j}", "q-cq0", {"cpu": 1, "memory": 1}, created=1000 + 7 * j) for j in range(1, 8)]
    dicts.append(pending("w8", "q-cq3", {"cpu": 1, "memory": 1}, created=1056))
    dicts.append(pending("s0", "q-solo", {"cpu": 1, "memory": 1}, created=0))
    dicts.append(configuration(fair_sharing=True))
    return dicts


def test_a_livelock_in_a_worker_gives_the_one_process_answer():
    spy = _Spy()
    with mock.patch.object(split, "_forked", spy):
        out = _json(_flopping_after_t0(), 2)
    assert spy.workers == [2]  # it did fork, then gave up
    assert out == _json(_flopping_after_t0(), 1)
    assert '"stopped": "livelock"' in out


def test_a_failing_worker_gives_the_one_process_answer():
    work = split._work

    def failing(run, owner, i, keys, board, events):
        if i != 0:
            raise RuntimeError("worker lost")
        return work(run, owner, i, keys, board, events)

    with mock.patch.object(split, "_work", failing):
        out = _json(_two_trees(), 2)
    assert out == _json(_two_trees(), 1)


def test_a_worker_killed_by_a_signal_gives_the_one_process_answer():
    """A process that dies without saying it is through (the OOM killer, say) is seen by its
    exit status; the parent neither hangs nor merges a missing part."""
    work = split._work

    def killed(run, owner, i, keys, board, events):
        if i != 0:
            os.kill(os.getpid(), signal.SIGKILL)
        return work(run, owner, i, keys, board, events)

    with mock.patch.object(split, "_work", killed):
        out = _json(_two_trees(), 2)
    assert out == _json(_two_trees(), 1)


def test_no_process_to_fork_gives_the_one_process_answer():
    def no_fork():
        raise OSError(11, "Resource temporarily unavailable")

    with mock.patch.object(split.os, "fork", no_fork):
        out = _json(_two_trees(), 2)
    assert out == _json(_two_trees(), 1)


def test_no_temporary_file_gives_the_one_process_answer():
    made = []
    real = split.tempfile.TemporaryFile

    def second_fails():
        if made:
            raise OSError(24, "Too many open files")
        made.append(real())
        return made[-1]

    with mock.patch.object(split.tempfile, "TemporaryFile", second_fails):
        out = _json(_two_trees(), 2)
    assert out == _json(_two_trees(), 1)
    assert made and made[0].closed  # what the split took, it gave back


def test_a_part_that_does_not_read_back_gives_the_one_process_answer():
    with mock.patch.object(split.pickle, "load", mock.Mock(side_effect=EOFError)):
        out = _json(_two_trees(), 2)
    assert out == _json(_two_trees(), 1)


def test_progress_covers_every_worker():
    seen = []
    cluster, options = model(_two_trees())
    with mock.patch.object(split, "MIN_WORKLOADS", 0):
        simulate(cluster, options, SimulationOptions(jobs=2), progress=lambda now, left, horizon: seen.append((now, left, horizon)))
    assert seen and seen[-1][1] >= 0
    assert max(horizon for _, _, horizon in seen) >= max(now for now, _, _ in seen)
    assert max(now for now, _, _ in seen) > 0


def test_the_progress_clock_is_the_earliest_running_chunks():
    board = split._Board(3, 4, 6)
    board.put(0, -1, 7)  # not started: its events are still ahead
    board.put(1, 5, 2, 20)
    board.put(2, 9, -1, 12)  # done
    assert board.merged() == (5, 9, 20)  # the horizon: the latest event any chunk queued
    board.put(1, 8, -1, 20)
    assert board.merged() == (9, 7, 20)  # nothing running: the furthest any chunk reached
    assert split._Board(2, 4, 6).merged() == (4, 0, 6)


def test_until_in_one_worker_stops_the_merged_run_at_until():
    out = _json(_two_trees(), 2, until=9 * US)
    assert out == _json(_two_trees(), 1, until=9 * US)
    assert '"stopped": "until"' in out


GENERATOR = """\
cohorts:
  - className: cohort
    count: 3
    queuesSets:
    - className: cq
      count: 3
      nominalQuota: 20
      borrowingLimit: 100
      reclaimWithinCohort: Any
      withinClusterQueue: LowerPriority
      workloadsSets:
      - count: 230
        creationIntervalMs: 60
        workloads:
        - className: small
          runtimeMs: 150
          priority: 50
          request: 1
      - count: 20
        creationIntervalMs: 300
        workloads:
        - className: large
          runtimeMs: 700
          priority: 200
          request: 20
"""


def test_cli_jobs_give_the_same_bytes(tmp_path):
    """Through the real CLI: 2,250 generated workloads in 3 cohorts, over MIN_WORKLOADS."""
    gen = tmp_path / "generator.yaml"
    gen.write_text(GENERATOR)
    outs = []
    for jobs in ("1", "2"):
        proc = subprocess.run([sys.executable, "-m", "quotactl", "simulate", "--generator", str(gen), "-o", "json",
                               "--jobs", jobs], capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stderr
        outs.append(proc.stdout)
    assert outs[0] == outs[1]
    assert '"workloads": [' in outs[0]


def test_cli_jobs_out_of_range_is_a_usage_error(tmp_path):
    gen = tmp_path / "generator.yaml"
    gen.write_text(GENERATOR)
    for jobs in ("-1", "257"):
        proc = subprocess.run([sys.executable, "-m", "quotactl", "simulate", "--generator", str(gen), "-o", "json",
                               "--jobs", jobs], capture_output=True, text=True, timeout=120)
        assert proc.returncode == 2 and "--jobs" in proc.stderr and "Traceback" not in proc.stderr
