"""Property of ``explain --eta`` on random small clusters (hypothesis): stopping the clock at the
awaited admissions changes nothing before them, so every ETA is the workload's first admission in
the full simulation, and what it names happened in that simulation."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from quotactl.simulate.cadence import Cadence
from quotactl.simulate.clock import US
from quotactl.simulate.eta import ADMITTED, NEVER, UNKNOWN, estimate
from quotactl.simulate.run import SimulationOptions, simulate
from tests.property_budget import examples
from tests.simulate.test_properties import worlds
from tests.simulate.world import model


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(worlds(), st.sampled_from([0, 7]), st.data())
def test_eta_is_the_first_admission_of_the_full_run(world, interval, data):
    dicts, _fits = world
    cluster, options = model(dicts)
    sim = SimulationOptions(cadence=Cadence(interval * US), max_cycles_per_instant=400)
    full = simulate(cluster, options, sim)
    runs = {r.workload: r for r in full.workloads}
    keys = sorted(runs)
    asked = data.draw(st.lists(st.sampled_from(keys), min_size=1, max_size=len(keys), unique=True))
    etas = estimate(cluster, options, sim, [cluster.workloads[k] for k in asked])
    for key in asked:
        eta, run = etas[key], runs[key]
        if eta.status == ADMITTED:
            assert eta.start == run.admissions[0]
            assert all(f.at <= eta.start for f in eta.finishes_first)
            assert {(v.workload, v.at) for v in eta.preempts} <= {
                (r.workload, e.at) for r in full.workloads for e in r.evictions if e.by == key}
        elif eta.status == NEVER:
            assert not run.admissions and full.converged
        else:
            assert eta.status == UNKNOWN and not full.converged
