"""Fair sharing: dominant resource shares (Kueue's fair_sharing.go), the admission
tournament (fair_sharing_iterator.go), and KEP-1714 User Story 3 — the fixture's share table, its
stability, and the weighted split reached by fair-sharing preemption from an even start."""

from __future__ import annotations

import json

import pytest

from quotactl.kueue.assign import initial_assignment
from quotactl.kueue.fairshare import FairSharingIterator, Head, share_tree, tournament_order
from quotactl.kueue.nomination import make_assigner
from quotactl.kueue.preempt_decision import decide
from tests.helpers import FIXTURES, run_cli
from tests.kueue.builders import admitted, cohort, configuration, cq, flavor, pending, snapshot_of

STORY3 = FIXTURES / "kep-1714-story3"
CPU = ("default", "cpu")
GPU = ("gpu", "nvidia.com/gpu")


def test_drs_example_a_flat_cohort_with_limits():
    objs = [flavor("default"),
            cq("a", [(["cpu"], [("default", {"cpu": (10, 5, None)})])], cohort="research"),
            cq("b", [(["cpu"], [("default", {"cpu": (10, None, 4)})])], cohort="research"),
            cq("c", [(["cpu"], [("default", {"cpu": 0})])], cohort="research"),
            admitted("a1", "a", {CPU: 4}), admitted("b1", "b", {CPU: 8}), admitted("c1", "c", {CPU: 6})]
    _, snap = snapshot_of(objs)
    tree = share_tree(snap)
    c = tree.node("c")
    assert c.weighted_share == pytest.approx(6000 / 14) and c.status_weighted_share == 429
    assert c.resources[0].lendable == 14000 and c.resources[0].borrowed == 6000
    assert tree.node("a").weighted_share == 0 and tree.node("b").weighted_share == 0
    assert [n.rank for n in (tree.node("a"), tree.node("b"), tree.node("c"))] == [1, 1, 3]


@pytest.mark.parametrize("weight, share", [(None, 200), (2, 100), ("500m", 400), (0, None)])
def test_drs_example_b_dominant_resource_and_weights(weight, share):
    objs = [flavor("default"), cohort("root"),
            cohort("p", parent="root", groups=[(["cpu", "memory"], [("default", {"cpu": 100, "memory": "400Gi"})])]),
            cq("x", [(["cpu", "memory"], [("default", {"cpu": 0, "memory": 0})])], cohort="p", weight=weight),
            admitted("x1", "x", {CPU: 10, ("default", "memory"): "80Gi"})]
    _, snap = snapshot_of(objs)
    x = share_tree(snap).node("x")
    assert x.dominant_resource == "memory"
    assert {r.resource: r.share for r in x.resources} == {"cpu": pytest.approx(100), "memory": pytest.approx(200)}
    if share is None:
        assert x.weighted_share is None and x.status_weighted_share == 2**63 - 1
    else:
        assert x.weighted_share == pytest.approx(share)


def test_drs_example_c_borrowing_limit_shrinks_the_denominator():
    objs = [flavor("gpu"), cohort("root", groups=[(["nvidia.com/gpu"], [("gpu", {"nvidia.com/gpu": 50})])]),
            cohort("child", parent="root", groups=[(["nvidia.com/gpu"], [("gpu", {"nvidia.com/gpu": (0, 10, None)})])]),
            cq("q", [(["nvidia.com/gpu"], [("gpu", {"nvidia.com/gpu": 0})])], cohort="child"),
            admitted("q1", "q", {GPU: 10})]
    _, snap = snapshot_of(objs)
    tree = share_tree(snap)
    assert tree.node("q").weighted_share == pytest.approx(1000)
    assert tree.node("child").weighted_share == pytest.approx(200)
    assert tree.node("root").weighted_share == 0 and not tree.node("root").has_share


def _heads(cluster, snap, keys):
    out = []
    for k in keys:
        wl = cluster.workloads[k]
        cqn = snap.cluster_queues[cluster.local_queues[(wl.namespace, wl.queue_name)].cluster_queue]
        a = make_assigner(cluster, snap, wl, cqn)
        usage = initial_assignment(a).assignment.usage
        out.append(Head(k, cqn.name, dict(usage), a.preemptor.priority, a.preemptor.queue_order_timestamp))
    return out


def test_tournament_example9_lower_share_after_admission_wins():
    objs = [flavor("default"), configuration(True),
            cq("s", [(["cpu"], [("default", {"cpu": 12})])], cohort="flat"),
            cq("a", [(["cpu"], [("default", {"cpu": 0})])], cohort="flat"),
            cq("b", [(["cpu"], [("default", {"cpu": 0})])], cohort="flat"),
            admitted("a0", "a", {CPU: 6}), admitted("b0", "b", {CPU: 2}),
            pending("a1", "q-a", {"cpu": 4}, created=100), pending("b1", "q-b", {"cpu": 4}, created=200)]
    cluster, snap = snapshot_of(objs)
    order = tournament_order(snap, _heads(cluster, snap, ["default/a1", "default/b1"]))
    assert [e.key for e in order] == ["default/b1", "default/a1"]
    it = FairSharingIterator(snap, _heads(cluster, snap, ["default/a1", "default/b1"]))
    it.pop()
    shares = {s.entry: s.share for s in it.standings}
    assert shares == {"default/a1": pytest.approx(10000 / 12), "default/b1": pytest.approx(6000 / 12)}


@pytest.mark.parametrize("gate, first", [(True, "default/b1"), (False, "default/a1")])
def test_tournament_prefers_entries_that_do_not_borrow_what_they_request(gate, first):
    # qb already borrows cpu (share 500) but its head only asks for memory within qb's nominal quota;
    # qa's head borrows 1 cpu (share 83.3).  FairSharingPrioritizeNonBorrowing puts b1 first.
    g = ["cpu", "memory"]
    objs = [flavor("default"), configuration(True),
            cq("s", [(g, [("default", {"cpu": 12, "memory": "12Gi"})])], cohort="co"),
            cq("qa", [(g, [("default", {"cpu": 0, "memory": 0})])], cohort="co"),
            cq("qb", [(g, [("default", {"cpu": 0, "memory": "4Gi"})])], cohort="co"),
            admitted("b0", "qb", {CPU: 6}),
            pending("a1", "q-qa", {"cpu": 1}, created=100),
            pending("b1", "q-qb", {"memory": "1Gi"}, created=200)]
    cluster, snap = snapshot_of(objs, gates={"FairSharingPrioritizeNonBorrowing": gate})
    order = tournament_order(snap, _heads(cluster, snap, ["default/a1", "default/b1"]))
    assert order[0].key == first


def test_tournament_iterator_sees_usage_added_between_pops():
    objs = [flavor("default"), configuration(True),
            cq("s", [(["cpu"], [("default", {"cpu": 12})])], cohort="flat"),
            cq("a", [(["cpu"], [("default", {"cpu": 0})])], cohort="flat"),
            cq("b", [(["cpu"], [("default", {"cpu": 0})])], cohort="flat"),
            cq("c", [(["cpu"], [("default", {"cpu": 0})])], cohort="flat"),
            admitted("b0", "b", {CPU: 2}),
            pending("a1", "q-a", {"cpu": 1}, created=100), pending("b1", "q-b", {"cpu": 1}, created=200),
            pending("c1", "q-c", {"cpu": 4}, created=300)]
    cluster, snap = snapshot_of(objs)
    it = FairSharingIterator(snap, _heads(cluster, snap, ["default/a1", "default/b1", "default/c1"]))
    first = it.pop()
    assert first.key == "default/a1"  # 1 cpu: share 83.3, lowest
    snap.add_usage(snap.cluster_queues["a"], first.usage)  # admitted: a now holds 1
    second = it.pop()
    assert second.key == "default/b1"  # 3 cpu after: 250 < c1's 333.3
    snap.remove_usage(snap.cluster_queues["a"], first.usage)


# ------------------------------------------------------------------ KEP-1714 User Story 3 ---

def test_story3_share_table_matches_the_spec():
    code = run_cli("shares", "-f", str(STORY3), "--output", "json")
    assert code.exit_code == 0, code.stderr
    doc = json.loads(code.stdout)
    got = {n["name"]: (n["resources"][0]["borrowed"], n["unweightedShare"], n["weight"], n["weightedShare"],
                       n["weightedShareStatus"]) for n in doc["nodes"]}
    assert got == {
        "org": ("0", 0, 1.0, 0, 0),
        "c1": ("150", 500.0, 1.0, 500.0, 500),
        "team-1a": ("30", 100.0, 1.0, 100.0, 100),
        "team-1b": ("30", 100.0, 1.0, 100.0, 100),
        "team-1c": ("90", 300.0, 3.0, 100.0, 100),
        "c2": ("150", 500.0, 1.0, 500.0, 500),
        "team-2a": ("150", 500.0, 1.0, 500.0, 500),
        "cs": ("0", 0, 1.0, 0, 0),
        "s": ("0", 0, 1.0, 0, 0),
    }
    lendable = {n["name"]: n["resources"][0]["lendable"] for n in doc["nodes"] if n["parent"]}
    assert set(lendable.values()) == {"300"}  # not the 150 that C1 received
    assert doc["fairSharing"] is True


@pytest.mark.parametrize("queue", ["1a", "1b", "1c", "2a"])
def test_story3_split_is_a_fixed_point(queue):
    code = run_cli("preempt", f"story3/{queue}-next", "-f", str(STORY3), "--output", "json")
    doc = json.loads(code.stdout)
    assert doc["victims"] == [] and doc["blocking"]["rule"] == "FairSharingStrategy"


def _story3_objects(size: int):
    def q(name, co, nominal, weight=None):
        return cq(name, [(["nvidia.com/gpu"], [("gpu", {"nvidia.com/gpu": nominal})])], cohort=co, reclaim="Any",
                  within="LowerPriority", weight=weight)
    return [flavor("gpu"), configuration(True), cohort("org"), cohort("cs", parent="org"),
            cohort("c1", parent="org"), cohort("c2", parent="org"), q("s", "cs", 300),
            q("1a", "c1", 0), q("1b", "c1", 0), q("1c", "c1", 0, 3), q("2a", "c2", 0)]


@pytest.mark.parametrize("size", [5, 15])
def test_story3_fair_sharing_preemption_reaches_the_weighted_split(size):
    """From an even 75/75/75/75 (admission alone drifts there), every ClusterQueue keeps one
    pending workload; repeatedly the tournament's first head that Kueue would admit or preempt
    for is applied.  Fair-sharing preemption drives the split to the story's 30/30/90 | 150."""
    base = _story3_objects(size)
    clock = iter(range(1, 10_000))
    running = [admitted(f"{c}-r{n}", c, {GPU: size}, reserved=n, created=n)
               for c in ("1a", "1b", "1c", "2a") for n in [next(clock) for _ in range(75 // size)]]
    queued = {c: pending(f"{c}-p{n}", f"q-{c}", {"nvidia.com/gpu": size}, created=n)
              for c in ("1a", "1b", "1c", "2a") for n in [next(clock)]}
    for _ in range(200):
        cluster, snap = snapshot_of(base + running + list(queued.values()))
        heads = _heads(cluster, snap, [f"default/{p['metadata']['name']}" for p in queued.values()])
        for h in FairSharingIterator(snap, heads):
            d = decide(cluster, snap, cluster.workloads[h.key])
            if d.victims or d.representative_mode == "Fit":
                gone = {v.workload for v in d.victims}
                assert all(v.reason == "InCohortFairSharing" for v in d.victims)
                running = [r for r in running if f"default/{r['metadata']['name']}" not in gone]
                running.append(admitted(queued[h.cluster_queue]["metadata"]["name"], h.cluster_queue, {GPU: size},
                                        reserved=next(clock)))
                n = next(clock)
                queued[h.cluster_queue] = pending(f"{h.cluster_queue}-p{n}", f"q-{h.cluster_queue}",
                                                  {"nvidia.com/gpu": size}, created=n)
                break
        else:
            break
    else:
        pytest.fail("no fixed point after 200 steps")
    use: dict[str, int] = {}
    for r in running:
        c = r["status"]["admission"]["clusterQueue"]
        use[c] = use.get(c, 0) + size
    assert use == {"1a": 30, "1b": 30, "1c": 90, "2a": 150}
