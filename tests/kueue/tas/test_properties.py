"""Properties of the placement engine on random trees of nodes: a placement never puts more pods on
a node than its free capacity takes, its pod counts sum to the pod set's count, every domain is a
node of the flavor, a required level keeps all pods in one domain of that level, and a failure is
one of Kueue's texts; with a partial slice (TASPartialSlices) every domain of the slice level holds
whole slices but one."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from quotactl.kueue.tas.resources import count_in
from quotactl.kueue.tas.snapshot import FlavorTopology, PodSetTASRequest
from quotactl.model.features import FeatureGates
from quotactl.model.kueue_tas import Node, TopologyRequest
from quotactl.model.podspec import PodSpecInfo
from quotactl.model.quantity import Quantity
from tests.property_budget import examples

BLOCK, RACK, HOST = "block", "rack", "kubernetes.io/hostname"
LEVELS = (BLOCK, RACK, HOST)

nodes_strategy = st.lists(
    st.tuples(st.integers(0, 2), st.integers(0, 2), st.integers(0, 8), st.integers(0, 6), st.integers(0, 3)),
    min_size=1, max_size=12)
request_strategy = st.sampled_from([
    TopologyRequest(required=BLOCK), TopologyRequest(required=RACK), TopologyRequest(required=HOST),
    TopologyRequest(preferred=RACK), TopologyRequest(preferred=BLOCK), TopologyRequest(unconstrained=True),
    TopologyRequest(required=BLOCK, slice_required_topology=RACK, slice_size=2)])


def _topology(raw, gates):
    nodes = [Node(source=None, name=f"n{i}", labels={BLOCK: f"b{b}", RACK: f"b{b}-r{r}", HOST: f"n{i}"},
                  allocatable={"cpu": Quantity.parse(str(cpu)), "pods": Quantity.parse(str(pods))}, ready=True)
             for i, (b, r, cpu, pods, _used) in enumerate(raw)]
    t = FlavorTopology("f", "default", LEVELS, nodes, (), gates)
    for i, (_b, _r, _cpu, _pods, used) in enumerate(raw):
        t.update_tas_usage(f"n{i}", {"cpu": used * 1000, "pods": used}, 1)
    return t


@settings(max_examples=examples(300), deadline=None)
@given(nodes_strategy, request_strategy, st.integers(1, 12), st.integers(1, 3), st.booleans())
def test_a_placement_fits_every_node_and_places_every_pod(raw, request, count, cpu, balanced):
    if request.slice_size:
        count *= request.slice_size  # Kueue's webhook admits only whole slices (before TASPartialSlices)
    gates = FeatureGates({"TASBalancedPlacement": balanced})
    t = _topology(raw, gates)
    free = {leaf.id: t.remaining(leaf, False) for leaf in t.leaves.values()}
    single = {"cpu": cpu * 1000}
    result = t.find_assignments([PodSetTASRequest("main", count, single, request, PodSpecInfo(), False)])["main"]
    if result.assignment is None:
        assert result.reason.startswith('topology "default" ') or "slice" in result.reason
        return
    ta = result.assignment
    assert ta.levels == (HOST,)
    assert sum(d.count for d in ta.domains) == count
    for d in ta.domains:
        assert d.count > 0 and d.values[0] in free
        assert count_in({**single, "pods": 1}, free[d.values[0]]) >= d.count
    if request.required is not None:
        level = LEVELS.index(request.required)
        parents = {t.leaves[d.values[0]].values[:level + 1] for d in ta.domains}
        assert len(parents) == 1


@settings(max_examples=examples(300), deadline=None)
@given(nodes_strategy, st.sampled_from([RACK, HOST]), st.integers(2, 4), st.integers(1, 14), st.booleans())
def test_a_partial_slice_sits_in_one_domain(raw, slice_level, size, count, preferred):
    level = {"preferred": BLOCK} if preferred else {"required": BLOCK}
    request = TopologyRequest(**level, slice_required_topology=slice_level, slice_size=size)
    t = _topology(raw, FeatureGates({}))
    result = t.find_assignments([PodSetTASRequest("main", count, {"cpu": 1000}, request, PodSpecInfo(), False)])
    ta = result["main"].assignment
    if ta is None:
        assert result["main"].reason.startswith('topology "default" ')
        return
    assert sum(d.count for d in ta.domains) == count
    per_domain: dict[tuple, int] = {}
    for d in ta.domains:
        key = t.leaves[d.values[0]].values[:LEVELS.index(slice_level) + 1]
        per_domain[key] = per_domain.get(key, 0) + d.count
    residues = sorted(pods % size for pods in per_domain.values())
    assert residues[:-1] == [0] * (len(residues) - 1) and residues[-1] == count % size
