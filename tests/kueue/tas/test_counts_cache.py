"""The counts a flavor keeps per request shape (``counts_cache``) give the placement a fresh fill
gives: two copies of one random topology, one keeping counts and one counting afresh for every
placement, take the same random usage changes (admissions, finished workloads, non-TAS pods) and
must answer every request alike, assignment and failure text."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from quotactl.kueue.tas.domain import Domain
from quotactl.kueue.tas.snapshot import FlavorTopology, PodSetTASRequest, usage_per_domain
from quotactl.model.features import FeatureGates
from quotactl.model.kueue_tas import Node, TopologyRequest
from quotactl.model.podspec import PodSpecInfo
from quotactl.model.quantity import Quantity
from tests.property_budget import examples

BLOCK, RACK, HOST = "block", "rack", "kubernetes.io/hostname"
LEVELS = (BLOCK, RACK, HOST)
REQUESTS = (TopologyRequest(required=BLOCK), TopologyRequest(required=RACK), TopologyRequest(preferred=RACK),
            TopologyRequest(preferred=BLOCK), TopologyRequest(unconstrained=True),
            TopologyRequest(required=BLOCK, slice_required_topology=RACK, slice_size=2),
            TopologyRequest(preferred=BLOCK, pod_set_group_name="g"),
            # slices of 3 take any count: a partial slice (TASPartialSlices, on at the defaults)
            TopologyRequest(required=BLOCK, slice_required_topology=RACK, slice_size=3),
            TopologyRequest(preferred=BLOCK, slice_required_topology=HOST, slice_size=3),
            TopologyRequest(required=BLOCK, pod_set_group_name="g", slice_required_topology=RACK, slice_size=3))

nodes_strategy = st.lists(st.tuples(st.integers(0, 2), st.integers(0, 2), st.integers(0, 8)), min_size=1, max_size=14)
step_strategy = st.one_of(
    st.tuples(st.just("place"), st.integers(0, len(REQUESTS) - 1), st.integers(1, 10), st.integers(1, 2),
              st.booleans(), st.booleans()),
    st.tuples(st.just("use"), st.integers(0, 13), st.integers(-2, 3)),
    st.tuples(st.just("pod"), st.integers(0, 13), st.integers(1, 2)))


def _topology(raw, gates, keep_counts: bool) -> FlavorTopology:
    nodes = [Node(source=None, name=f"n{i}", labels={BLOCK: f"b{b}", RACK: f"b{b}-r{r}", HOST: f"n{i}"},
                  allocatable={"cpu": Quantity.parse(str(cpu)), "pods": Quantity.parse("8")}, ready=True)
             for i, (b, r, cpu) in enumerate(raw)]
    t = FlavorTopology("f", "default", LEVELS, nodes, (), gates)
    if not keep_counts:
        t.COUNT_TREES = 0
    return t


def _requests(index: int, count: int, cpu: int) -> list[PodSetTASRequest]:
    request = REQUESTS[index]
    if request.slice_size == 2:
        count *= request.slice_size  # whole slices
    single = {"cpu": cpu * 1000}
    workers = PodSetTASRequest("main", count, single, request, PodSpecInfo(), False)
    if request.pod_set_group_name is None:
        return [workers]
    return [PodSetTASRequest("leader", 1, {"cpu": 500}, request, PodSpecInfo(), False), workers]


@settings(max_examples=examples(200), deadline=None)
@given(nodes_strategy, st.lists(step_strategy, min_size=1, max_size=25), st.booleans())
def test_kept_counts_place_as_a_fresh_fill(raw, steps, balanced):
    gates = FeatureGates({"TASBalancedPlacement": balanced})
    kept, fresh = _topology(raw, gates, True), _topology(raw, gates, False)
    for step in steps:
        if step[0] == "place":
            _, index, count, cpu, simulate_empty, admit = step
            requests = _requests(index, count, cpu)
            got = kept.find_assignments(requests, simulate_empty=simulate_empty)
            assert got == fresh.find_assignments(requests, simulate_empty=simulate_empty)
            # the same shape for more pods, on counts the first run's descent rewrote and the cache restored
            more = _requests(index, count + 3, cpu)
            assert (kept.find_assignments(more, simulate_empty=simulate_empty)
                    == fresh.find_assignments(more, simulate_empty=simulate_empty))
            if admit and all(not r.reason for r in got.values()):
                for tr in requests:
                    for did, usage in usage_per_domain(got[tr.name].assignment, tr.single_pod_requests).items():
                        kept.update_tas_usage(did, usage, 1)
                        fresh.update_tas_usage(did, usage, 1)
        elif step[0] == "use":
            _, node, cpus = step
            for t in (kept, fresh):
                t.update_tas_usage(f"n{node}", {"cpu": cpus * 1000, "pods": 1 if cpus > 0 else -1}, 1)
        else:
            _, node, cpus = step
            for t in (kept, fresh):
                t.add_non_tas_usage(f"n{node}", {"cpu": cpus * 1000})
    assert len(kept.count_trees) <= FlavorTopology.COUNT_TREES and not fresh.count_trees


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6)), min_size=1, max_size=8), st.integers(0, 8),
       st.booleans())
def test_one_best_fit_is_what_the_sorted_minimum_takes(children, count, unconstrained):
    t = _topology([(0, 0, 1)], FeatureGates({}), True)
    domains = []
    for i, (pods, slices) in enumerate(children):
        d = Domain(f"n{i}", ("b", "r", f"n{i}"))
        d.pod_count = d.pod_count_with_leader = pods
        d.slice_count = d.slice_count_with_leader = slices
        domains.append(d)
    one = t._one_best_fit(domains, count, unconstrained)
    if one is None:
        return
    picked = t._update_counts_to_minimum(t._sorted(domains, unconstrained), count, 0, 1, unconstrained, True)
    assert picked == [one]
