"""Property tests of the cycle engine on random clusters (hypothesis): after every cycle no
ClusterQueue exceeds nominal + borrowingLimit, no cohort exceeds its capacity, lending limits
hold (``available`` is never negative anywhere on a ClusterQueue's path), and every run ends, at
a fixpoint or at a detected livelock; runs are deterministic."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from quotactl.kueue.options import engine_options
from quotactl.kueue.quota import available
from quotactl.kueue.scheduler import schedule
from quotactl.model.kueue import build_cluster
from quotactl.report.schedule_json import document
from tests.kueue.builders import cohort, configuration, cq, flavor, objects, pending, with_queues
from tests.property_budget import examples

POLICIES = ("Never", "LowerPriority", "LowerOrNewerEqualPriority")
RECLAIM = ("Never", "LowerPriority", "Any")


@st.composite
def clusters(draw):
    flavors = ["f0", "f1"][: draw(st.integers(1, 2))]
    resources = ["cpu"] if draw(st.booleans()) else ["cpu", "memory"]
    topology = draw(st.sampled_from(["none", "flat", "hier"]))
    n_cq = draw(st.integers(1, 4))
    dicts = [flavor(f) for f in flavors]
    if topology == "hier":
        dicts += [cohort("root"), cohort("left", parent="root"), cohort("right", parent="root",
                                                                       groups=[(resources, [(flavors[0], {
                                                                           r: draw(st.integers(0, 4))
                                                                           for r in resources})])])]
    names = []
    for i in range(n_cq):
        quotas = []
        for f in flavors:
            q = {}
            for r in resources:
                nominal = draw(st.integers(0, 8))
                bl = draw(st.one_of(st.none(), st.integers(0, 6))) if topology != "none" else None
                ll = draw(st.one_of(st.none(), st.integers(0, nominal))) if topology != "none" else None
                q[r] = (nominal, bl, ll)
            quotas.append((f, q))
        co = {"none": None, "flat": "pool", "hier": ("left", "right", "root")[i % 3]}[topology]
        name = f"cq{i}"
        names.append(name)
        dicts.append(cq(name, [(resources, quotas)], cohort=co, within=draw(st.sampled_from(POLICIES)),
                        reclaim=draw(st.sampled_from(RECLAIM)),
                        borrow=draw(st.sampled_from([None, "LowerPriority"]))))
    for j in range(draw(st.integers(1, 10))):
        req = {r: draw(st.integers(1, 6)) for r in resources}
        dicts.append(pending(f"w{j}", "q-" + draw(st.sampled_from(names)), req,
                             priority=draw(st.sampled_from([0, 50, 100])), created=1000 + j * 7,
                             count=draw(st.integers(1, 2))))
    fair = draw(st.booleans())
    dicts.append(configuration(fair_sharing=fair))
    cluster = build_cluster(objects(with_queues(dicts)))
    return cluster, engine_options(cluster)


def check_invariants(sched, report) -> None:
    snap = sched.snapshot
    for cq_ in snap.cluster_queues.values():
        for fr, q in cq_.quotas.items():
            used = cq_.usage.get(fr, 0)
            if cq_.parent is None:
                assert used <= q.nominal, (report.number, cq_.name, fr)
            elif q.borrowing_limit is not None:
                assert used <= q.nominal + q.borrowing_limit, (report.number, cq_.name, fr)
            assert available(cq_, fr) >= 0, (report.number, cq_.name, fr, "available < 0")
    for co in snap.cohorts.values():
        if co.parent is None:
            for fr, v in co.usage.items():
                assert v <= co.subtree_quota.get(fr, 0), (report.number, co.name, fr)


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(clusters())
def test_invariants_hold_after_every_cycle_and_runs_end(world):
    cluster, options = world
    result = schedule(cluster, options, max_cycles=400, on_cycle=check_invariants)
    assert result.stopped in ("fixpoint", "livelock")
    assert result.converged == (result.livelock is None)
    if result.livelock is not None:
        assert result.livelock.workloads and result.livelock.period >= 1


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(clusters())
def test_runs_are_deterministic(world):
    cluster, options = world
    a = document(schedule(cluster, options, max_cycles=400))
    b = document(schedule(cluster, options, max_cycles=400))
    assert a == b


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(clusters(), st.integers(1, 4))
def test_cycles_prefix(world, n):
    """``--cycles N`` is the first N cycles of the full run."""
    cluster, options = world
    full = schedule(cluster, options, max_cycles=400)
    part = schedule(cluster, options, cycles=n)
    assert part.cycles_run == n
    assert [a.workload for a in part.admitted] == [a.workload for a in full.admitted if a.cycle <= n]
    assert [p.workload for p in part.preempted] == [p.workload for p in full.preempted if p.cycle <= n]
