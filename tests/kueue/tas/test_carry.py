"""Topology assignments in the engines of ``preempt``, ``diff`` and ``simulate`` (issue 27, point 3):
the preemptor placed once its victims are gone, what each side of a diff holds and what changed,
and one entry per admission of a simulated workload. Inputs: fixtures/tas (see their headers)."""

from __future__ import annotations

from quotactl.kueue.diff import diff, final_topologies, topology_change
from quotactl.kueue.explain import explain_workload
from quotactl.kueue.options import engine_options
from quotactl.kueue.preempt_decision import decide
from quotactl.kueue.quota import build_snapshot
from quotactl.kueue.scheduler import schedule
from quotactl.load.objects import load
from quotactl.model.kueue import build_cluster
from quotactl.model.kueue_tas import TopologyAssignment, TopologyDomainAssignment
from quotactl.simulate.run import simulate
from tests.helpers import FIXTURES

TAS = FIXTURES / "tas"
HOST = ("kubernetes.io/hostname",)


def _cluster(name: str):
    cluster = build_cluster(load([str(TAS / name)], fast_json=True).objects)
    return cluster, engine_options(cluster)


def _ta(*domains) -> TopologyAssignment:
    return TopologyAssignment(HOST, tuple(TopologyDomainAssignment((v,), c) for v, c in domains))


def test_the_preemptor_is_placed_on_the_domain_its_victims_free():
    cluster, options = _cluster("preempt.yaml")
    snap = build_snapshot(cluster, options)
    d = decide(cluster, snap, cluster.workloads["default/high"])
    (victim,) = d.victims
    assert victim.workload == "default/low"
    assert [(t.pod_set, t.flavor, t.assignment) for t in victim.topology] == [("one", "tas-default", _ta(("x1", 1)))]
    (row,) = d.topology
    assert (row.pod_set, row.mode, row.assignment, row.reason) == ("one", "Preempt", _ta(("x1", 1)), None)


def test_placing_after_the_evictions_leaves_the_snapshot_as_it_was():
    """The victims' TAS usage is back once the decision is made: explain on the same snapshot
    still finds no host for the preemptor now."""
    cluster, options = _cluster("preempt.yaml")
    snap = build_snapshot(cluster, options)
    wl = cluster.workloads["default/high"]
    before = explain_workload(cluster, snap, wl, counterfactual=False).topology
    decide(cluster, snap, wl)
    after = explain_workload(cluster, snap, wl, counterfactual=False).topology
    assert before == after and after[0].assignment is None and after[0].reason


def test_a_workload_that_fits_keeps_explains_placement():
    cluster, options = _cluster("simulate.yaml")
    snap = build_snapshot(cluster, options)
    wl = cluster.workloads["default/first"]
    d = decide(cluster, snap, wl)
    assert d.victims == () and d.topology == explain_workload(cluster, snap, wl, counterfactual=False).topology
    assert d.topology[0].assignment == _ta(("x1", 1))


def test_a_topology_change_compares_domains_as_a_multiset():
    a = _ta(("x1", 1), ("x2", 2))
    same = TopologyAssignment(HOST, tuple(reversed(a.domains)))
    assert topology_change({"main": a}, {"main": same}) == ""
    assert topology_change({"main": a}, {"main": _ta(("x1", 3))}) == "topology main: x1 ×1, x2 ×2 -> x1 ×3"
    assert topology_change({"main": a, "aux": None}, {"main": a, "aux": _ta(("x3", 1))}) == \
        "topology aux: - -> x3 ×1"
    assert topology_change(None, {"main": a}) == ""


def test_final_topologies_take_the_input_admission_unless_the_run_readmits():
    cluster, options = _cluster("preempt.yaml")
    r = schedule(cluster, options)
    held = final_topologies(r, cluster)
    # high preempts low and lands on x1; mid keeps the host its input admission holds
    assert held["default/high"] == {"one": _ta(("x1", 1))}
    assert held["default/mid"] == {"one": _ta(("x2", 1))}
    assert "default/low" not in held


def test_diff_without_tas_carries_no_topology():
    cluster, options = _cluster("simulate.yaml")
    d = diff(cluster, options, cluster, options)
    assert d.workloads == ()
    assert "default/plain" not in d.topology_base and d.topology_base["default/first"] == {"main": _ta(("x1", 1))}


def test_simulate_keeps_one_topology_entry_per_admission():
    cluster, options = _cluster("simulate.yaml")
    runs = {w.workload: w for w in simulate(cluster, options).workloads}
    assert runs["default/first"].topology == ({"main": _ta(("x1", 1))},)
    assert runs["default/second"].admissions and runs["default/second"].topology == ({"main": _ta(("x1", 1))},)
    assert runs["default/plain"].topology == ()
