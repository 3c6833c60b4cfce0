"""Cohort trees deeper than Python's stack. Kueue walks its tree recursively (Go's stacks grow);
quotactl's walks are iterative, so a chain of thousands of cohorts answers the same as a short
one. Found by the fuzzer: a chain of 1,000 Cohorts raised RecursionError in schedule, explain,
shares and lint."""

from __future__ import annotations

import sys

from quotactl.kueue.fairshare import share_tree
from quotactl.kueue.quota import cq_available, potential_available
from quotactl.kueue.quota.arithmetic import node_height
from tests.kueue.builders import admitted, cohort, cq, flavor, snapshot_of

CPU = ("default", "cpu")
DEPTH = 3 * sys.getrecursionlimit()


def chain(depth: int, top_quota: int = 10):
    """c0 (the leaf's parent) -> c1 -> ... -> c{depth-1} (the root, holding all the quota)."""
    objs = [flavor("default"), cq("leaf", [(["cpu"], [("default", {"cpu": 0})])], cohort="c0"),
            admitted("w", "leaf", {CPU: 3})]
    for k in range(depth - 1):
        objs.append(cohort(f"c{k}", parent=f"c{k + 1}"))
    objs.append(cohort(f"c{depth - 1}", groups=[(["cpu"], [("default", {"cpu": top_quota})])]))
    return objs


def test_quota_through_a_chain_deeper_than_the_stack_is_the_quota_at_its_top():
    _, snap = snapshot_of(chain(DEPTH))
    leaf = snap.cluster_queues["leaf"]
    assert potential_available(leaf, CPU) == 10_000  # millicores
    assert cq_available(leaf, CPU) == 7_000  # 10 at the root, 3 used below
    assert snap.cohorts[f"c{DEPTH - 1}"].usage[CPU] == 3_000
    assert node_height(snap.cohorts[f"c{DEPTH - 1}"]) == DEPTH


def test_deep_and_shallow_chains_agree():
    deep, shallow = snapshot_of(chain(DEPTH))[1], snapshot_of(chain(3))[1]
    for s in (deep, shallow):
        assert cq_available(s.cluster_queues["leaf"], CPU) == 7_000


def test_share_tree_of_a_deep_chain_lists_every_node_parent_first():
    _, snap = snapshot_of(chain(DEPTH))
    nodes = share_tree(snap).nodes
    assert [n.name for n in nodes[:3]] == [f"c{DEPTH - 1}", f"c{DEPTH - 2}", f"c{DEPTH - 3}"]
    assert nodes[-1].name == "leaf" and nodes[-1].depth == DEPTH
