"""TASPartialSlices (Kueue's ``tas_partial_slices.go``, kueue PR #15640): a pod set whose count is
not a multiple of its slice size places its last, partial slice in one domain of the slice level;
with the gate off the pods that make no whole slice are left unplaced, as before the gate.  The
expectations follow Kueue's rules (``newSliceShape``, ``fillTailCounts``, ``closingDomainWithTail``,
``placeTail``) on small trees built here."""

from __future__ import annotations

from quotactl.kueue.tas import partial_slices
from quotactl.kueue.tas.snapshot import FlavorTopology
from quotactl.model.features import FeatureGates
from quotactl.model.kueue_tas import SliceConstraint, TopologyRequest
from tests.kueue.tas.test_snapshot import BLOCK, HOST, RACK, node, placed, pod_set


def _topology(nodes, partial: bool) -> FlavorTopology:
    gates = FeatureGates({"TASPartialSlices": partial, "TASNodeFeasibilityForAllLevels": False})
    return FlavorTopology("tas-flavor", "default", (BLOCK, RACK, HOST), nodes, (), gates)


def _racks(racks, hosts, cpu):
    return [node(f"{r}-{h}", {BLOCK: "b1", RACK: r, HOST: f"{r}{h}"}, cpu) for r in racks for h in hosts]


def test_the_tail_is_the_remainder_of_a_single_layer_only():
    one = (SliceConstraint(RACK, 4),)
    assert partial_slices.tail_size(True, one, 10, 4) == 2
    assert partial_slices.tail_size(False, one, 10, 4) == 0
    assert partial_slices.tail_size(True, one + (SliceConstraint(HOST, 2),), 10, 4) == 0
    assert partial_slices.tail_size(True, (SliceConstraint(RACK, 1),), 10, 1) == 0


def test_host_slices_of_two_place_the_odd_pod_on_a_third_host():
    request = TopologyRequest(required=BLOCK, slice_required_topology=HOST, slice_size=2)
    on = _topology(_racks(("r1", "r2"), "abc", "2"), True).find_assignments([pod_set(5, request=request)])
    assert placed(on) == ((HOST,), [(("r1a",), 2), (("r1b",), 2), (("r1c",), 1)])
    off = _topology(_racks(("r1", "r2"), "abc", "2"), False).find_assignments([pod_set(5, request=request)])
    assert placed(off) == ((HOST,), [(("r1a",), 2), (("r1b",), 2)])  # before the gate: whole slices only


def test_the_partial_slice_shares_a_rack_with_a_whole_one():
    request = TopologyRequest(required=BLOCK, slice_required_topology=RACK, slice_size=4)
    res = _topology(_racks(("r1", "r2"), "abc", "2"), True).find_assignments([pod_set(10, request=request)])
    per_rack: dict[str, int] = {}
    for (host,), count in placed(res)[1]:
        per_rack[host[:2]] = per_rack.get(host[:2], 0) + count
    assert sorted(per_rack.values()) == [4, 6]


def test_a_rack_that_cannot_also_hold_the_partial_slice_does_not_fit():
    """7 pods in slices of 4 need 7 pods in one rack (a whole slice and a partial one of 3)."""
    request = TopologyRequest(required=RACK, slice_required_topology=RACK, slice_size=4)
    res = _topology(_racks(("r1", "r2"), "abc", "2"), True).find_assignments([pod_set(7, request=request)])
    assert res["main"].reason == 'topology "default" allows to fit only 1 out of 2 slice(s)'
    off = _topology(_racks(("r1", "r2"), "abc", "2"), False).find_assignments([pod_set(7, request=request)])
    assert placed(off) == ((HOST,), [(("r1a",), 2), (("r1b",), 2)])


def test_preferred_spreads_whole_slices_and_the_partial_one_over_racks():
    request = TopologyRequest(preferred=RACK, slice_required_topology=RACK, slice_size=4)
    res = _topology(_racks(("r1", "r2"), "abc", "2"), True).find_assignments([pod_set(9, request=request)])
    assert sum(count for _values, count in placed(res)[1]) == 9


def test_a_leader_and_three_workers_fill_the_last_rack():
    """The PR's user story: 16 pods of an LWS (a leader, 15 workers in slices of 4) on 4 racks of 4
    one-pod nodes; the leader's rack holds 3 workers, the partial slice."""
    nodes = _racks(("r1", "r2", "r3", "r4"), "abcd", "1")
    group = TopologyRequest(required=BLOCK, pod_set_group_name="g")
    workers = TopologyRequest(required=BLOCK, pod_set_group_name="g", slice_required_topology=RACK, slice_size=4)
    requests = [pod_set(1, name="leader", request=group), pod_set(15, name="workers", request=workers)]
    on = _topology(nodes, True).find_assignments(requests)
    assert placed(on, "leader") == ((HOST,), [(("r1a",), 1)])
    assert len(placed(on, "workers")[1]) == 15 and ("r1a",) not in [v for v, _ in placed(on, "workers")[1]]
    off = _topology(nodes, False).find_assignments(requests)
    assert len(placed(off, "workers")[1]) == 12  # three whole slices, the rest left unplaced
