"""The path-only what-if arithmetic (``cq_available_with``, ``quota_views_to_root``) gives exactly
what building the whole what-if view (``with_quotas``) or walking to the root per node gives."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from quotactl.kueue.quota import (
    ResourceQuota,
    cq_available,
    cq_available_with,
    quota_view,
    quota_views_to_root,
    with_quotas,
)
from tests.kueue.builders import admitted, cohort, cq, flavor, snapshot_of
from tests.kueue.test_quota import CPU, example1, example2, m
from tests.property_budget import examples

GPU = ("default", "gpu")


def example3():
    """Two resources over a deeper chain, with lending and borrowing limits at every level."""
    return [
        flavor("default"),
        cohort("r", groups=[(["cpu", "gpu"], [("default", {"cpu": (2, None, None), "gpu": 1})])]),
        cohort("m", parent="r", groups=[(["cpu", "gpu"], [("default", {"cpu": (3, 2, 1), "gpu": (0, 1, None)})])]),
        cohort("l", parent="m", groups=[(["cpu", "gpu"], [("default", {"cpu": (1, None, 1), "gpu": 2})])]),
        cq("a", [(["cpu", "gpu"], [("default", {"cpu": (4, 1, 2), "gpu": 1})])], cohort="l"),
        cq("b", [(["cpu", "gpu"], [("default", {"cpu": 2, "gpu": (1, None, 0)})])], cohort="l"),
        cq("c", [(["cpu", "gpu"], [("default", {"cpu": (5, None, 3), "gpu": 0})])], cohort="m"),
        cq("alone", [(["cpu", "gpu"], [("default", {"cpu": 3, "gpu": 1})])]),
        admitted("a1", "a", {CPU: 5, GPU: 1}), admitted("b1", "b", {CPU: 3}),
        admitted("c1", "c", {CPU: 4, GPU: 1}), admitted("x1", "alone", {CPU: 1}),
    ]


EXAMPLES = [example1, example2, example3]
_limit = st.none() | st.integers(0, 12).map(m)
_quota = st.builds(ResourceQuota, st.integers(0, 12).map(m), _limit, _limit)


@settings(max_examples=examples(300), deadline=None)
@given(data=st.data(), example=st.sampled_from(EXAMPLES))
def test_cq_available_with_equals_the_whole_what_if_view(data, example):
    _, snap = snapshot_of(example())
    nodes = [*snap.cluster_queues.values(), *snap.cohorts.values()]
    changes = data.draw(st.dictionaries(st.tuples(st.sampled_from(nodes), st.sampled_from([CPU, GPU])), _quota,
                                        max_size=3))
    name = data.draw(st.sampled_from(sorted(snap.cluster_queues)))
    fr = data.draw(st.sampled_from([CPU, GPU]))
    quick = cq_available_with(snap, name, fr, changes)
    expected = cq_available(with_quotas(snap, changes).cluster_queues[name], fr)
    path = [snap.cluster_queues[name], *snap.cluster_queues[name].path_parent_to_root()]
    on_path = all(any(node is n for n in path) for node, _ in changes)
    assert quick == (expected if on_path else None)


def test_cq_available_with_recomputes_the_ancestors_of_a_change():
    _, snap = snapshot_of(example2())
    c1 = snap.cohorts["c1"]
    changes = {(c1, CPU): ResourceQuota(m(3), m(4))}
    assert cq_available_with(snap, "a", CPU, changes) == cq_available(with_quotas(snap, changes).cluster_queues["a"], CPU)
    assert cq_available_with(snap, "a", CPU, changes) > cq_available(snap.cluster_queues["a"], CPU)
    assert cq_available_with(snap, "d", CPU, changes) is None  # c1 is not on d's path: build the view


def test_quota_views_to_root_equal_one_view_per_node():
    for example in EXAMPLES:
        _, snap = snapshot_of(example())
        for node in [*snap.cluster_queues.values(), *snap.cohorts.values()]:
            for fr in (CPU, GPU):
                chain = [node, *node.path_parent_to_root()]
                assert quota_views_to_root(node, fr) == [quota_view(n, fr) for n in chain]
