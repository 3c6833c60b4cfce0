"""kueue.selection: which workloads a filter takes, and what it leaves of a schedule run."""

from __future__ import annotations

from quotactl.kueue.options import EngineOptions
from quotactl.kueue.scheduler import schedule
from quotactl.kueue.selection import Selection, restrict_schedule, selected_keys
from quotactl.model.kueue import build_cluster
from quotactl.model.label_selector import parse_selector
from tests.kueue.builders import admitted, cq, flavor, lq, objects, pending


def _cluster():
    wl = pending("w", "q-b", {"cpu": 1}, ns="team-a")
    wl["metadata"]["labels"] = {"tier": "gold"}
    return build_cluster(objects([
        flavor("f"), cq("a", [(["cpu"], [("f", {"cpu": (2, None)})])]), cq("b", [(["cpu"], [("f", {"cpu": (2, None)})])]),
        lq("q-a", "a", "team-a"), lq("q-b", "b", "team-a"), lq("q-a", "b", "team-b"),
        # admitted to ClusterQueue a; its LocalQueue q-a points to b now: the admission says where it is
        admitted("run", "a", {("f", "cpu"): 1}, ns="team-b"),
        wl, pending("x", "q-a", {"cpu": 3}, ns="team-b"),
    ]))


def test_namespace_cluster_queue_and_labels():
    cluster = _cluster()
    assert selected_keys(cluster, Selection(namespace="team-a")) == {"team-a/w"}
    assert selected_keys(cluster, Selection(cluster_queues=("a",))) == {"team-b/run"}
    assert selected_keys(cluster, Selection(cluster_queues=("b", "c"))) == {"team-a/w", "team-b/x"}
    gold = Selection(selector=parse_selector("tier=gold"), selector_text="tier=gold")
    assert selected_keys(cluster, gold) == {"team-a/w"}
    # a job's labels count for the Workload that stands for it; the Workload's own win
    assert selected_keys(cluster, gold, {"team-b/x": {"tier": "gold"}, "team-a/w": {"tier": "bronze"}}) == \
        {"team-a/w", "team-b/x"}


def test_restricted_run_keeps_the_cycles_and_counts_what_it_left():
    cluster = _cluster()
    result = schedule(cluster, EngineOptions())
    mine = restrict_schedule(result, Selection(namespace="team-a"), frozenset({"team-a/w"}))
    assert mine.cycles_run == result.cycles_run and mine.usage == result.usage
    assert [a.workload for a in mine.admitted] == ["team-a/w"]
    assert dict((what, (n, total)) for what, n, total in mine.shown.counts) == {
        "admitted": (1, len(result.admitted)), "preempted": (0, 0), "pending": (0, len(result.pending))}
