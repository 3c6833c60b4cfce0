"""``TASNodeFeasibilityForAllLevels`` (Kueue v0.20, #14191) on a block/rack topology without the
hostname level: Kueue appends a virtual hostname level (``newTopologyTree``), so pods are fitted per
node (capacity, taints, selectors), assignments are published at the declared levels, and admitted
workloads' usage bounds its rack, charged to no node.  Each case also runs with the gate off, where
the rack's nodes pool their capacity (quotactl's and Kueue's behaviour before the gate)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from quotactl.kueue.tas.snapshot import FlavorTopology, PodSetTASRequest, usage_per_domain
from quotactl.model.features import FeatureGates
from quotactl.model.kueue_tas import Node, TopologyRequest
from quotactl.model.podspec import PodSpecInfo, Taint
from quotactl.model.quantity import Quantity
from tests.property_budget import examples

BLOCK, RACK, HOST = "example.com/block", "example.com/rack", "kubernetes.io/hostname"
GPU = "nvidia.com/gpu"
ON = FeatureGates({"TASNodeFeasibilityForAllLevels": True})
OFF = FeatureGates({"TASNodeFeasibilityForAllLevels": False})


def gpu_node(name, rack="r1", block="b1", gpus="8", taints=(), hostname=None):
    alloc = {"cpu": Quantity.parse("64"), "pods": Quantity.parse("110"), GPU: Quantity.parse(gpus)}
    return Node(source=None, name=name, labels={BLOCK: block, RACK: rack, HOST: hostname or name},
                allocatable=alloc, taints=tuple(taints), ready=True)


def topology(nodes, gates, tolerations=()):
    return FlavorTopology("gpu", "default", (BLOCK, RACK), nodes, tuple(tolerations), gates)


def job(count, gpus, request=None, name="main"):
    return PodSetTASRequest(name, count, {"cpu": 1000, GPU: gpus}, request or TopologyRequest(required=RACK),
                            PodSpecInfo(), False)


def placed(result, ps="main"):
    ta = result[ps].assignment
    return None if ta is None else (ta.levels, [(d.values, d.count) for d in ta.domains])


def one_rack(gates, **kw):
    return topology([gpu_node("x1", **kw), gpu_node("x2")], gates)


def test_pods_pooled_in_a_rack_leaf_fit_per_node_with_the_gate():
    """2 nodes x 8 GPU, 3 pods x 5 GPU: the rack's 16 GPU hold 3, each node only 1."""
    assert placed(one_rack(OFF).find_assignments([job(3, 5)])) == ((BLOCK, RACK), [(("b1", "r1"), 3)])
    res = one_rack(ON).find_assignments([job(3, 5)])
    assert res["main"].assignment is None
    assert res["main"].reason == 'topology "default" allows to fit only 2 out of 3 pod(s)'


def test_the_assignment_is_rolled_up_to_the_declared_levels():
    t = topology([gpu_node(n, rack=r) for n, r in (("x1", "r1"), ("x2", "r1"), ("x3", "r2"), ("x4", "r2"))], ON)
    res = t.find_assignments([job(4, 8, TopologyRequest(required=BLOCK))])
    assert placed(res) == ((BLOCK, RACK), [(("b1", "r1"), 2), (("b1", "r2"), 2)])
    assert t.levels == (BLOCK, RACK, HOST) and t.declared_levels == (BLOCK, RACK)


def test_a_tainted_node_is_excluded_only_with_the_gate():
    taint = Taint(key="gpu", value="broken", effect="NoSchedule")
    assert placed(one_rack(OFF, taints=[taint]).find_assignments([job(2, 5)])) == ((BLOCK, RACK), [(("b1", "r1"), 2)])
    res = one_rack(ON, taints=[taint]).find_assignments([job(2, 5)])
    assert res["main"].reason == ('topology "default" allows to fit only 1 out of 2 pod(s). '
                                  'Total nodes: 2; excluded: taint "gpu=broken:NoSchedule": 1')


def test_nodes_sharing_a_hostname_label_stay_apart():
    t = topology([gpu_node("x1", hostname="same"), gpu_node("x2", hostname="same")], ON)
    assert sorted(t.leaves) == ["x1", "x2"]
    assert t.find_assignments([job(2, 8)])["main"].assignment is not None


def test_an_admitted_workloads_usage_bounds_its_rack():
    """8 of the rack's 16 GPU held by an admitted workload (assignment b1/r1, no node named):
    each node still counts a pod, the rack only one."""
    t = one_rack(ON)
    t.update_tas_usage("b1,r1", {"cpu": 1000, GPU: 8, "pods": 1}, 1)
    assert all(not leaf.tas_usage for leaf in t.leaves.values())
    res = t.find_assignments([job(2, 5)])
    assert res["main"].reason == 'topology "default" allows to fit only 1 out of 2 pod(s)'
    assert t.fits([("b1,r1", {"cpu": 1000, GPU: 5}, 1)]) and not t.fits([("b1,r1", {"cpu": 1000, GPU: 5}, 2)])
    t.update_tas_usage("b1,r1", {"cpu": 1000, GPU: 8, "pods": 1}, -1)  # it finishes: both fit again
    assert placed(t.find_assignments([job(2, 5)])) == ((BLOCK, RACK), [(("b1", "r1"), 2)])


def test_pods_assumed_earlier_in_the_run_are_kept_per_node():
    """Two pod sets of one workload: the first's pod (4 GPU) lands on one node, which then has no
    room for a 6-GPU pod; the rack as one leaf would still hold both."""
    first, second = job(1, 4, name="first"), job(2, 6, name="second")
    assert placed(one_rack(OFF).find_assignments([first, second]), "second") == ((BLOCK, RACK), [(("b1", "r1"), 2)])
    res = one_rack(ON).find_assignments([first, second])
    assert placed(res, "first") == ((BLOCK, RACK), [(("b1", "r1"), 1)])
    assert res["second"].reason == ('topology "default" allows to fit only 1 out of 2 pod(s). '
                                    'Total nodes: 2; excluded: resource "nvidia.com/gpu": 1')


def test_a_leader_and_its_workers_are_fitted_per_node():
    """A 6-GPU leader and two 6-GPU workers in one rack of two 8-GPU nodes: the rack's 16 GPU hold
    two of them, one per node; a rack of three nodes holds all three."""
    def group(count):
        request = TopologyRequest(required=RACK, pod_set_group_name="g")
        return [job(1, 6, request, name="leader"), job(count, 6, request)]
    t = topology([gpu_node("x1"), gpu_node("x2"), gpu_node("x3", rack="r2"), gpu_node("x4", rack="r2"),
                  gpu_node("x5", rack="r2")], ON)
    res = t.find_assignments(group(2))
    assert placed(res, "leader") == ((BLOCK, RACK), [(("b1", "r2"), 1)])
    assert placed(res) == ((BLOCK, RACK), [(("b1", "r2"), 2)])


def test_a_hostname_topology_is_the_same_with_the_gate_on_or_off():
    def run(gates):
        t = FlavorTopology("gpu", "default", (BLOCK, RACK, HOST), [gpu_node("x1"), gpu_node("x2")], (), gates)
        return t.find_assignments([job(3, 5)])
    assert run(ON) == run(OFF)


RACK_REQUESTS = (TopologyRequest(required=RACK), TopologyRequest(preferred=RACK), TopologyRequest(required=BLOCK),
                 TopologyRequest(unconstrained=True),
                 TopologyRequest(required=BLOCK, slice_required_topology=RACK, slice_size=2),
                 TopologyRequest(preferred=RACK, pod_set_group_name="g"))


@settings(max_examples=examples(100), deadline=None)
@given(st.lists(st.tuples(st.integers(0, 1), st.integers(0, 2), st.integers(0, 8)), min_size=1, max_size=10),
       st.lists(st.tuples(st.integers(0, len(RACK_REQUESTS) - 1), st.integers(1, 6), st.integers(1, 8),
                          st.booleans()), min_size=1, max_size=12))
def test_kept_counts_place_as_a_fresh_fill_on_a_virtual_hostname(raw, steps):
    """The counts cache (``counts_cache``) recounts a rack whose admitted usage changed."""
    def build(keep):
        t = topology([gpu_node(f"n{i}", rack=f"b{b}-r{r}", block=f"b{b}", gpus=str(g))
                      for i, (b, r, g) in enumerate(raw)], ON)
        if not keep:
            t.COUNT_TREES = 0
        return t
    kept, fresh = build(True), build(False)
    for index, count, gpus, admit in steps:
        request = RACK_REQUESTS[index]
        requests = [job(count * (request.slice_size or 1), gpus, request)]
        if request.pod_set_group_name:  # a single-pod leader in the group
            requests.insert(0, job(1, 1, request, name="leader"))
        got = kept.find_assignments(requests)
        assert got == fresh.find_assignments(requests)
        if admit and all(not r.reason for r in got.values()):
            for tr in requests:
                for did, usage in usage_per_domain(got[tr.name].assignment, tr.single_pod_requests).items():
                    kept.update_tas_usage(did, usage, 1)
                    fresh.update_tas_usage(did, usage, 1)
