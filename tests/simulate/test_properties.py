"""Property tests of the clock on random small clusters (hypothesis): quota limits hold after
every cycle, every workload with a runtime finishes when every one of them fits its
ClusterQueue and nothing livelocks, the same input gives the same bytes, and with every workload
queued at t0 and none finishing the run admits exactly what ``schedule`` admits."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from quotactl.kueue.scheduler import schedule
from quotactl.report.simulate_json import render
from quotactl.simulate.cadence import Cadence
from quotactl.simulate.clock import US
from quotactl.simulate.run import SimulationOptions, simulate
from tests.kueue.builders import configuration, cq, flavor
from tests.kueue.scheduler.test_properties import check_invariants
from tests.property_budget import examples
from tests.simulate.world import job, model

POLICIES = ("Never", "LowerPriority", "LowerOrNewerEqualPriority")
RECLAIM = ("Never", "LowerPriority", "Any")


@st.composite
def worlds(draw, runtimes=True, arrivals=True):
    """(dicts, fits): a cohort (or none) of 1-4 ClusterQueues and 1-12 workloads; ``fits``: every
    workload's request is within its own ClusterQueue's nominal quota."""
    cohort = draw(st.sampled_from([None, "org"]))
    names, dicts, nominal = [], [flavor("f")], {}
    for i in range(draw(st.integers(1, 4))):
        name = f"cq{i}"
        names.append(name)
        nominal[name] = draw(st.integers(0, 8))
        bl = draw(st.one_of(st.none(), st.integers(0, 6))) if cohort else None
        q = cq(name, [(["cpu"], [("f", {"cpu": (nominal[name], bl)})])], cohort=cohort,
               within=draw(st.sampled_from(POLICIES)), reclaim=draw(st.sampled_from(RECLAIM)))
        if draw(st.booleans()):
            q["spec"]["queueingStrategy"] = "StrictFIFO"
        dicts.append(q)
    fits = True
    for j in range(draw(st.integers(1, 12))):
        target = draw(st.sampled_from(names))
        cpu = draw(st.integers(1, 6))
        fits = fits and cpu <= nominal[target]
        runtime = f"{draw(st.integers(0, 50))}s" if runtimes else None
        created = draw(st.integers(0, 40)) if arrivals else 0
        dicts.append(job(f"w{j}", target, cpu, created, runtime, priority=draw(st.sampled_from([0, 50, 100]))))
    dicts.append(configuration(fair_sharing=draw(st.booleans())))
    return dicts, fits


def _sim(dicts, interval=0, on_cycle=None):
    cluster, options = model(dicts)
    return simulate(cluster, options, SimulationOptions(cadence=Cadence(interval * US), max_cycles_per_instant=400),
                    on_cycle=on_cycle)


@settings(max_examples=examples(120), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(worlds(), st.sampled_from([0, 0, 5]))
def test_quota_limits_hold_and_workloads_that_fit_all_finish(world, interval):
    dicts, fits = world
    result = _sim(dicts, interval, on_cycle=check_invariants)
    assert result.converged == (result.stopped not in ("livelock", "limit"))
    if fits and result.converged:
        unfinished = [w.workload for w in result.workloads if w.finished is None]
        assert unfinished == [], unfinished
    for w in result.workloads:
        assert list(w.admissions) == sorted(w.admissions)
        assert len(w.evictions) in (len(w.admissions), len(w.admissions) - 1)


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(worlds(), st.sampled_from([0, 5]))
def test_same_input_same_bytes(world, interval):
    dicts, _ = world
    assert render(_sim(dicts, interval)) == render(_sim(dicts, interval))


@settings(max_examples=examples(120), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(worlds(runtimes=False, arrivals=False))
def test_no_arrivals_no_completions_admits_what_schedule_admits(world):
    dicts, _ = world
    cluster, options = model(dicts)
    expected = schedule(cluster, options, max_cycles=400)
    result = _sim(dicts)
    assert result.converged == expected.converged
    if expected.converged:
        admitted = sorted((w.workload, len(w.admissions)) for w in result.workloads if w.admissions)
        want: dict = {}
        for a in expected.admitted:
            want[a.workload] = want.get(a.workload, 0) + 1
        assert admitted == sorted(want.items())
        got_evictions = sorted((w.workload, e.by, e.reason) for w in result.workloads for e in w.evictions)
        assert got_evictions == sorted((p.workload, p.by, p.reason) for p in expected.preempted)
        assert json.loads(render(result))["converged"] is True
