"""explain's domain view of an unplaced TAS pod set (``kueue/tas/domain_view.py``) on hand-built
topologies: the candidate domains with their counts and exclusions, and the admitted workloads
whose going lets the pod set fit."""

from __future__ import annotations

from quotactl.kueue.tas.domain_view import SHOWN, Holder, domain_view
from quotactl.kueue.tas.snapshot import FlavorTopology, PodSetTASRequest
from quotactl.kueue.tas.state import DomainUsage, TASState
from quotactl.model.features import FeatureGates
from quotactl.model.kueue_tas import Node, TopologyRequest
from quotactl.model.podspec import PodSpecInfo, Taint
from quotactl.model.quantity import Quantity

BLOCK, RACK, HOST = "example.com/block", "example.com/rack", "kubernetes.io/hostname"
GPU = "nvidia.com/gpu"
GATES = FeatureGates({})


def gpu_node(name, block, rack, gpus="8", taints=(), pool="a"):
    alloc = {"cpu": Quantity.parse("64"), "pods": Quantity.parse("110"), GPU: Quantity.parse(gpus)}
    return Node(source=None, name=name, labels={BLOCK: block, RACK: rack, HOST: name, "pool": pool},
                allocatable=alloc, taints=tuple(taints), ready=True)


def racks(per_rack, n_racks, levels=(BLOCK, RACK, HOST), **node_kw):
    """``n_racks`` racks of ``per_rack`` 8-GPU nodes, two racks a block."""
    nodes = [gpu_node(f"r{r}-x{i}", f"b{r // 2}", f"r{r}", **node_kw) for r in range(n_racks) for i in range(per_rack)]
    return TASState({"gpu": FlavorTopology("gpu", "gpu-topology", levels, nodes, (), GATES)}, GATES)


def job(count, gpus=8, request=None, selector=None):
    request = request or TopologyRequest(required=RACK)
    return PodSetTASRequest("main", count, {"cpu": 1000, GPU: gpus}, request,
                            PodSpecInfo(node_selector=selector or {}), False)


def holding(state, key, host, pods=1, gpus=8, preemptable=True) -> Holder:
    """An admitted workload with ``pods`` pods of ``gpus`` GPUs on ``host``, charged to ``state``."""
    usage = (DomainUsage("gpu", host, {"cpu": 1000, GPU: gpus}, pods),)
    state.apply(usage, 1)
    return Holder(key, usage, preemptable)


def test_the_issue_example_every_rack_fits_two_of_four_pods():
    """A 4x8-GPU job with rack required on racks of two 8-GPU nodes: no rack holds it, and no
    workload's going would change that (nothing runs)."""
    view = domain_view(racks(2, 4), "gpu", job(4), [])
    assert view.level == RACK and view.count == 4 and view.omitted == 0
    assert [(r.values, r.nodes, r.pods_fit) for r in view.domains] == [
        (("b0", "r0"), 2, 2), (("b0", "r1"), 2, 2), (("b1", "r2"), 2, 2), (("b1", "r3"), 2, 2)]
    assert view.domains[0].free == {"cpu": 128000, GPU: 16}
    assert all(r.excluded == {} and r.slices_fit is None for r in view.domains)
    assert view.frees_up_when == ()


def test_a_workload_whose_finish_frees_a_rack_is_named():
    """Racks of four nodes, one node of each taken: default/other in r0 (preemptable, tried first)
    and default/small in r1 (it has to finish); either one's going lets the job fit its rack."""
    state = racks(4, 2)
    small = holding(state, "default/small", "r1-x0", preemptable=False)
    other = holding(state, "default/other", "r0-x0")
    view = domain_view(state, "gpu", job(4), [other, small])
    assert [(r.values, r.pods_fit, r.excluded) for r in view.domains] == [
        (("b0", "r0"), 3, {'resource "nvidia.com/gpu"': 1}), (("b0", "r1"), 3, {'resource "nvidia.com/gpu"': 1})]
    assert [([h.key for h in f.workloads], f.values, f.pods_fit_after) for f in view.frees_up_when] == [
        (["default/other"], ("b0", "r0"), 4), (["default/small"], ("b0", "r1"), 4)]
    assert [h.preemptable for f in view.frees_up_when for h in f.workloads] == [True, False]
    # the search leaves the usage as it found it
    assert state.flavors["gpu"].leaves["r1-x0"].tas_usage[GPU] == 8
    # a caller that knows it fits no domain even with every TAS workload gone skips the search
    assert domain_view(state, "gpu", job(4), [other, small], fits_when_empty=False).frees_up_when == ()


def test_two_workloads_must_go_when_one_is_not_enough():
    state = racks(2, 1)
    a = holding(state, "default/a", "r0-x0", gpus=4)
    b = holding(state, "default/b", "r0-x1", gpus=4)
    view = domain_view(state, "gpu", job(2), [a, b])
    assert view.domains[0].pods_fit == 0
    ((freed),) = view.frees_up_when
    assert [h.key for h in freed.workloads] == ["default/a", "default/b"] and freed.pods_fit_after == 2


def test_excluded_nodes_by_cause_per_domain():
    """Rack r0: a tainted node; rack r1: a node outside the pod set's nodeSelector."""
    broken = (Taint(key="gpu", value="broken", effect="NoSchedule"),)
    nodes = [gpu_node("x1", "b0", "r0"), gpu_node("x2", "b0", "r0"), gpu_node("x3", "b0", "r0", taints=broken),
             gpu_node("x4", "b0", "r1"), gpu_node("x5", "b0", "r1"), gpu_node("x6", "b0", "r1", pool="b")]
    state = TASState({"gpu": FlavorTopology("gpu", "t", (BLOCK, RACK, HOST), nodes, (), GATES)}, GATES)
    view = domain_view(state, "gpu", job(4, selector={"pool": "a"}), [])
    by_rack = {r.values[1]: r for r in view.domains}
    assert (by_rack["r0"].nodes, by_rack["r0"].pods_fit) == (3, 2)
    assert by_rack["r0"].excluded == {'taint "gpu=broken:NoSchedule"': 1}
    assert by_rack["r1"].excluded == {"nodeSelector": 1} and by_rack["r1"].pods_fit == 2


def test_many_domains_are_bounded_best_first():
    state = racks(2, SHOWN + 3)
    holding(state, "default/x", "r5-x0")
    view = domain_view(state, "gpu", job(4), [])
    assert len(view.domains) == SHOWN and view.omitted == 3
    # BestFit order: the most pods first, so the half-taken rack r5 is among the omitted
    assert all(r.pods_fit == 2 for r in view.domains) and ("b2", "r5") not in [r.values for r in view.domains]


def test_slices_are_counted_at_the_level_that_decides():
    request = TopologyRequest(required=BLOCK, slice_required_topology=RACK, slice_size=2)
    view = domain_view(racks(2, 4), "gpu", job(4, request=request), [])
    assert view.level == BLOCK and view.slices == 2
    assert [(r.values, r.pods_fit, r.slices_fit) for r in view.domains] == [(("b0",), 4, 2), (("b1",), 4, 2)]


def test_a_lowest_level_above_the_nodes_counts_each_racks_nodes():
    view = domain_view(racks(3, 2, levels=(BLOCK, RACK)), "gpu", job(8), [])
    assert [(r.values, r.nodes, r.pods_fit) for r in view.domains] == [(("b0", "r0"), 3, 3), (("b0", "r1"), 3, 3)]


def test_a_request_kueue_refuses_before_counting_has_no_view():
    assert domain_view(racks(2, 1), "gpu", job(2, request=TopologyRequest(required="zone")), []) is None
    assert domain_view(racks(2, 1), "other", job(2), []) is None


def test_a_preferred_request_may_spread_so_any_freed_node_helps():
    """Preferred rack: the pods may spread over racks, so the search looks at the whole flavor."""
    state = racks(4, 2)
    a = holding(state, "default/a", "r0-x0")
    b = holding(state, "default/b", "r1-x0")
    view = domain_view(state, "gpu", job(7, request=TopologyRequest(preferred=RACK)), [a, b])
    assert view.level == RACK and [r.pods_fit for r in view.domains] == [3, 3]
    assert [[h.key for h in f.workloads] for f in view.frees_up_when] == [["default/a"], ["default/b"]]


def _two_full_racks():
    """Rack r0's nodes are outside the pod set's nodeSelector, rack r1's are not; every node is
    taken by a workload of its own (r0's listed first)."""
    nodes = [gpu_node(f"x{i}", "b0", "r0", pool="b") for i in range(4)] + [
        gpu_node(f"x{i}", "b0", "r1") for i in range(4, 8)]
    state = TASState({"gpu": FlavorTopology("gpu", "t", (BLOCK, RACK, HOST), nodes, (), GATES)}, GATES)
    return state, [holding(state, f"default/w{i}", f"x{i}") for i in range(8)]


def test_a_set_freeing_nodes_the_pod_set_cannot_use_fails_the_check():
    state, holders = _two_full_racks()
    view = domain_view(state, "gpu", job(4, selector={"pool": "a"}), holders)
    ((freed),) = view.frees_up_when
    assert [h.key for h in freed.workloads] == ["default/w4", "default/w5", "default/w6", "default/w7"]
    assert (freed.values, freed.pods_fit_after) == (("b0", "r1"), 4)


def test_the_search_is_bounded(monkeypatch):
    """With one placement run allowed, only rack r0's set (which fails the check) is tried."""
    from quotactl.kueue.tas import domain_view as module

    state, holders = _two_full_racks()
    runs = []
    real = module._Search.landing

    def counted(self, gone):
        runs.append([h.key for h in gone])
        return real(self, gone)

    monkeypatch.setattr(module._Search, "landing", counted)
    monkeypatch.setattr(module, "FIT_RUNS", 1)
    view = domain_view(state, "gpu", job(4, selector={"pool": "a"}), holders)
    assert runs == [["default/w0", "default/w1", "default/w2", "default/w3"]] and view.frees_up_when == ()
