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


def test_fair_sharing_commands_on_a_deep_chain(tmp_path):
    # The fair-sharing tournament and preemption walk the tree too (found by the fuzzer in
    # `shares`: RecursionError in the tournament's subtree walk).
    import json

    from tests.helpers import run_json
    from tests.kueue.builders import configuration, pending, with_queues

    objs = chain(DEPTH, top_quota=12) + [cq("other", [(["cpu"], [("default", {"cpu": 0})])], cohort="c0"),
                           admitted("o", "other", {CPU: 6}),
                           pending("p1", "q-leaf", {"cpu": 2}), pending("p2", "q-other", {"cpu": 2}),
                           configuration(fair_sharing=True)]
    path = tmp_path / "deep.json"
    path.write_text(json.dumps({"apiVersion": "v1", "kind": "List", "items": with_queues(objs)}))
    code, shares = run_json("shares", "-f", str(path))
    assert code == 0 and [h["workload"] for h in shares["heads"]][:2] == ["default/p1", "default/p2"]
    code, sched = run_json("schedule", "-f", str(path))
    assert code == 0 and {a["workload"] for a in sched["admitted"]} == {"default/p1"}
    code, _ = run_json("preempt", "default/p2", "-f", str(path))
    assert code == 0


def test_a_what_if_copy_of_a_deep_chain_changes_only_the_quota_asked_for():
    # with_quotas copied the tree recursively (found by the fuzzer with `diff` on 3,000 Cohorts)
    from quotactl.kueue.quota import ResourceQuota, with_quotas

    _, snap = snapshot_of(chain(DEPTH))
    top = snap.cohorts[f"c{DEPTH - 1}"]
    view = with_quotas(snap, {(top, CPU): ResourceQuota(nominal=20_000)})
    assert potential_available(view.cluster_queues["leaf"], CPU) == 20_000
    assert potential_available(snap.cluster_queues["leaf"], CPU) == 10_000  # the snapshot is untouched
    assert view.cluster_queues["leaf"].root() is view.cohorts[f"c{DEPTH - 1}"]


def test_lendables_from_one_walk_down_are_each_nodes_own():
    from quotactl.kueue.quota import calculate_lendable, lendables_up

    _, snap = snapshot_of(chain(50, top_quota=7))
    leaf = snap.cluster_queues["leaf"]
    path = [leaf, *leaf.path_parent_to_root()]
    assert lendables_up(path) == [calculate_lendable(n) for n in path]
