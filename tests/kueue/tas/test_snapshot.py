"""The placement engine on its own (``kueue/tas/snapshot.py``), on tables ported from Kueue's
``pkg/cache/scheduler/tas_cache_test.go`` TestFindTopologyAssignments at kubernetes-sigs/kueue@ff69552
(the nodes, pod sets and expectations copied here; the test's names are in each test's docstring)."""

from __future__ import annotations

from quotactl.kueue.tas.feasibility import ExclusionStats, taint_text
from quotactl.kueue.tas.resources import count_in_with_limit
from quotactl.kueue.tas.snapshot import FlavorTopology, PodSetTASRequest
from quotactl.model.features import FeatureGates
from quotactl.model.kueue_tas import Node, TopologyRequest
from quotactl.model.podspec import PodSpecInfo, Taint
from quotactl.model.quantity import Quantity

BLOCK, RACK, HOST = "cloud.com/topology-block", "cloud.com/topology-rack", "kubernetes.io/hostname"
# pre-0.20 slicing, as the tests ran (the gates did not exist yet)
GATES = FeatureGates({"TASPartialSlices": False, "TASGroupedPodSetSlicing": False,
                      "TASNodeFeasibilityForAllLevels": False})


def node(name, labels, cpu, pods="10", taints=(), extra=None):
    alloc = {"cpu": Quantity.parse(cpu), "pods": Quantity.parse(pods)}
    alloc.update({k: Quantity.parse(v) for k, v in (extra or {}).items()})
    return Node(source=None, name=name, labels={**labels}, allocatable=alloc, taints=tuple(taints), ready=True)


def topology(levels, nodes, tolerations=()):
    return FlavorTopology("tas-flavor", "default", tuple(levels), nodes, tuple(tolerations), GATES)


def pod_set(count, cpu="1", name="main", request=None, implied=False, selector=None, **more):
    req = {"cpu": 1000 * int(cpu) if cpu.isdigit() else int(cpu.rstrip("m"))}
    req.update(more)
    return PodSetTASRequest(name, count, req, request, PodSpecInfo(node_selector=selector or {}), implied)


def placed(result, ps="main"):
    ta = result[ps].assignment
    return None if ta is None else (ta.levels, sorted((d.values, d.count) for d in ta.domains))


def six_hosts():
    """The test's ``defaultNodes``: two blocks, racks, six hosts (x4 the biggest)."""
    def lab(b, r, h):
        return {BLOCK: b, RACK: r, HOST: h}
    return [node("b1-r1-x3", lab("b1", "r1", "x3"), "1"), node("b1-r2-x5", lab("b1", "r2", "x5"), "1"),
            node("b1-r2-x1", lab("b1", "r2", "x1"), "1"), node("b1-r2-x6", lab("b1", "r2", "x6"), "1"),
            node("b2-r2-x2", lab("b2", "r1", "x2"), "1"), node("b2-r2-x4", lab("b2", "r2", "x4"), "2", pods="40")]


def test_rack_required_too_many_pods_to_fit_in_any_rack():
    """"rack required; too many pods to fit in any rack; BestFit"."""
    t = topology([BLOCK, RACK], six_hosts())
    res = t.find_assignments([pod_set(4, request=TopologyRequest(required=RACK))])
    assert res["main"].assignment is None
    assert res["main"].reason == 'topology "default" allows to fit only 3 out of 4 pod(s)'


def test_unconstrained_takes_the_least_free_host():
    """"unconstrained; a single pod fits into each host; LeastFreeCapacity": x3 (least free, then by name)."""
    t = topology([BLOCK, RACK, HOST], six_hosts())
    res = t.find_assignments([pod_set(1, request=TopologyRequest(unconstrained=True))])
    assert placed(res) == ((HOST,), [(("x3",), 1)])


def test_block_required_places_on_hosts_of_one_block():
    """"block required; 4 pods fit into one host each; BestFit": block b1's four hosts."""
    t = topology([BLOCK, RACK, HOST], six_hosts())
    res = t.find_assignments([pod_set(4, request=TopologyRequest(required=BLOCK))])
    assert placed(res) == ((HOST,), [(("x1",), 1), (("x3",), 1), (("x5",), 1), (("x6",), 1)])


def test_slices_of_two_pods_per_host():
    """"block required for podset; host required for slices; BestFit"."""
    nodes = [node(f"b1-r1-{h}", {BLOCK: "b1", RACK: "r1", HOST: h}, "3") for h in ("x3", "x5", "x1")]
    t = topology([BLOCK, RACK, HOST], nodes)
    request = TopologyRequest(required=BLOCK, slice_required_topology=HOST, slice_size=2)
    res = t.find_assignments([pod_set(6, request=request)])
    assert placed(res) == ((HOST,), [(("x1",), 2), (("x3",), 2), (("x5",), 2)])


def test_a_slice_topology_without_a_size_is_refused():
    t = topology([BLOCK, RACK, HOST], six_hosts())
    res = t.find_assignments([pod_set(2, request=TopologyRequest(required=BLOCK, slice_required_topology=HOST))])
    assert res["main"].reason == "slice topology requested, but slice size not provided"


def test_a_slice_level_above_the_pod_set_level_is_refused():
    t = topology([BLOCK, RACK, HOST], six_hosts())
    res = t.find_assignments([pod_set(2, request=TopologyRequest(required=RACK, slice_required_topology=BLOCK,
                                                                  slice_size=1))])
    assert res["main"].reason == f"podset slice topology {BLOCK} is above the podset topology {RACK}"


def test_a_level_the_topology_lacks():
    t = topology([BLOCK, RACK, HOST], six_hosts())
    res = t.find_assignments([pod_set(1, request=TopologyRequest(required="zone"))])
    assert res["main"].reason == "no requested topology level: zone"


def test_leader_and_workers_of_one_group_share_a_block():
    """"find topology assignment for two podsets with the same group": both on b2."""
    gpu = "example.com/gpu"
    nodes = [node("b1", {BLOCK: "b1"}, "2", extra={gpu: "2"}), node("b2", {BLOCK: "b2"}, "5", extra={gpu: "4"}),
             node("b3", {BLOCK: "b3"}, "2", extra={gpu: "2"})]
    t = topology([BLOCK], nodes)
    group = TopologyRequest(required=BLOCK, pod_set_group_name="sameGroup")
    leader = pod_set(1, name="leader", request=group)
    workers = pod_set(4, name="workers", request=group, **{gpu: 1})
    res = t.find_assignments([leader, workers])
    assert placed(res, "leader") == ((BLOCK,), [(("b2",), 1)])
    assert placed(res, "workers") == ((BLOCK,), [(("b2",), 4)])


def test_exclusion_stats_in_the_failure_text():
    """"detailed failure message with exclusion stats"."""
    nodes = [node("x1", {HOST: "x1"}, "1", taints=[Taint("key", "value", "NoSchedule")]),
             node("x2", {HOST: "x2", "zone": "zone-b"}, "1"), node("x3", {HOST: "x3", "zone": "zone-b"}, "2"),
             node("x4", {HOST: "x4", "zone": "zone-a"}, "100m")]
    t = topology([HOST], nodes)
    res = t.find_assignments([pod_set(1, request=TopologyRequest(required=HOST), selector={"zone": "zone-a"})])
    assert res["main"].reason == ('topology "default" doesn\'t allow to fit any of 1 pod(s). Total nodes: 4; '
                                  'excluded: nodeSelector: 2, resource "cpu": 1, taint "key=value:NoSchedule": 1')


def test_earlier_usage_and_assumed_pods_take_room():
    """Admitted TAS usage and the pods placed for earlier pod sets count against a host."""
    t = topology([HOST], [node("x1", {HOST: "x1"}, "2"), node("x2", {HOST: "x2"}, "2")])
    t.update_tas_usage("x1", {"cpu": 2000, "pods": 2}, 1)
    res = t.find_assignments([pod_set(2, request=TopologyRequest(required=HOST))])
    assert placed(res) == ((HOST,), [(("x2",), 2)])
    assert t.find_assignments([pod_set(2, request=TopologyRequest(required=HOST))], simulate_empty=True)
    assert not t.find_assignments([pod_set(1, request=TopologyRequest(required=HOST))],
                                  assumed={"x2": {"cpu": 2000}})["main"].assignment


def test_count_in_names_the_limiting_resource():
    assert count_in_with_limit({"cpu": 1000, "memory": 2}, {"cpu": 3000, "memory": 4}) == (2, "memory")
    assert count_in_with_limit({"cpu": 1000, "pods": 1}, {"cpu": -500, "pods": 4}) == (0, "cpu")
    assert count_in_with_limit({"cpu": 0}, {}) == (2**31 - 1, "cpu")


def test_taint_text_and_exclusion_order():
    assert taint_text(Taint("k", None, "NoExecute")) == "k:NoExecute"
    assert taint_text(Taint("k", "v", "NoSchedule")) == "k=v:NoSchedule"
    stats = ExclusionStats(total_nodes=3, affinity=1, resources={"memory": 1}, taints={"a:NoSchedule": 1})
    assert stats.suffix() == '. Total nodes: 3; excluded: affinity: 1, resource "memory": 1, taint "a:NoSchedule": 1'
