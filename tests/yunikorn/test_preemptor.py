"""The preemptor's steps on small clusters, each from an example of YuniKorn's preemptor (fence, candidate
priorities, guarantee check, node victims, additional victims, final cut, outcomes)."""

from __future__ import annotations

from quotactl.yunikorn.explain import explain_pod
from quotactl.yunikorn.preemptor import (
    DOES_NOT_HELP,
    GUARANTEES_FAILED,
    NOT_ENOUGH_QUEUE_QUOTA,
    NOT_ENOUGH_USER_QUOTA,
    PRECONDITIONS_FAILED,
    SHORTFALL,
    try_preemption,
)
from quotactl.yunikorn.scheduling import schedule_ask
from tests.yunikorn.util import cluster_from, node, pod

AB = """
partitions:
- name: default
  queues:
  - name: root
    submitacl: '*'
    queues:
    - name: a
      resources: {guaranteed: {vcore: 5}}
    - name: b
      resources: {guaranteed: {vcore: 5}}
"""


def _worked_example(tmp_path):
    """End to end: n1 has 10 vcore; b runs b1..b3 (3 each); a asks for 4."""
    return cluster_from(
        tmp_path, AB, node("n1", "{cpu: '10'}"),
        pod("b1", "root.b", "{cpu: '3'}", node="n1", minute=1, app="app-b"),
        pod("b2", "root.b", "{cpu: '3'}", node="n1", minute=2, app="app-b"),
        pod("b3", "root.b", "{cpu: '3'}", node="n1", minute=3, app="app-b"),
        pod("ask", "root.a", "{cpu: '4'}", minute=30),
    )


def test_end_to_end_example_7_13(tmp_path):
    c = _worked_example(tmp_path)
    ask = c.task("default/ask")
    assert ask.resource == {"vcore": 4000}  # no pods capacity on the node: no implicit pods: 1
    outcome = schedule_ask(c, ask)
    assert outcome.path == "A" and not outcome.headroom_fits  # headroom 10 - 9 = 1 < 4
    pre = outcome.preemption
    assert pre.fence == "root" and pre.fence_reason == "root"
    assert [x.key for x in pre.candidates] == ["default/b1", "default/b2", "default/b3"]
    assert pre.guarantee_check.passed and not pre.guarantee_check.victims_needed
    assert pre.node_checks[0].victims == ("default/b3",) and pre.node_checks[0].start_index == 0
    assert pre.node_victims == ("default/b3",)
    assert pre.additional_victims == ("default/b2",)  # b1: b's remaining is +2 by then: rejected
    assert pre.cut == ("default/b3", "default/b2")
    assert outcome.result == "Reserved" and outcome.node == "n1" and outcome.placed
    assert [v.key for v in outcome.victims] == ["default/b3", "default/b2"]
    assert [v.step for v in outcome.victims] == ["node", "additional"]
    assert pre.fits_after is True


def test_direct_call_runs_the_preemptor_even_when_the_ask_fits(tmp_path):
    c = cluster_from(
        tmp_path, AB, node("n1", "{cpu: '20'}"),
        pod("b1", "root.b", "{cpu: '4'}", node="n1", minute=1),
        pod("b2", "root.b", "{cpu: '4'}", node="n1", minute=2),
        pod("ask", "root.a", "{cpu: '4'}", minute=30),
    )
    ask = c.task("default/ask")
    normal = schedule_ask(c, ask)
    assert normal.result == "Allocated" and normal.node == "n1" and normal.victims == ()
    direct = schedule_ask(c, ask, direct=True)
    # b is over its guarantee (8 > 5): the preemptor takes the newest b pod although the ask fits
    assert direct.result == "Reserved" and [v.key for v in direct.victims] == ["default/b2"]


def test_fence_at_a_nearly_full_parent_7_2(tmp_path):
    """root.p (no max) uses 9 of 10 vcore; ask 4 in root.p.a: p's usage + ask exceeds the cluster."""
    q = """
    partitions:
    - name: default
      queues:
      - name: root
        submitacl: '*'
        queues:
        - name: p
          queues:
          - name: a
            resources: {guaranteed: {vcore: 5}}
          - name: b
        - name: other
    """
    c = cluster_from(
        tmp_path, q, node("n1", "{cpu: '10'}"),
        pod("b1", "root.p.b", "{cpu: '9'}", node="n1"),
        pod("ask", "root.p.a", "{cpu: '4'}", minute=5),
    )
    pre = try_preemption(c, c.task("default/ask"), check_preconditions=False)
    assert pre.fence == "root.p" and "exceeds its max" in pre.fence_reason
    assert dict(pre.priority_by_queue) == {"root.p.a": 0, "root.p": 0}


def test_preemption_policy_fence_stops_the_walk(tmp_path):
    q = AB.replace("    - name: a\n", "    - name: a\n      properties: {preemption.policy: fence}\n")
    c = cluster_from(
        tmp_path, q, node("n1", "{cpu: '10'}"),
        pod("b1", "root.b", "{cpu: '9'}", node="n1"),
        pod("ask", "root.a", "{cpu: '4'}", minute=5),
    )
    pre = try_preemption(c, c.task("default/ask"), check_preconditions=False)
    assert pre.fence == "root.a" and pre.candidates == ()
    assert not pre.success and pre.refusal == DOES_NOT_HELP


def _offset_cluster(tmp_path, b_props: str):
    q = f"""
    partitions:
    - name: default
      queues:
      - name: root
        submitacl: '*'
        queues:
        - name: a
          resources: {{guaranteed: {{vcore: 10}}}}
        - name: b
          properties: {b_props}
    """
    return cluster_from(
        tmp_path, q, node("n1", "{cpu: '10'}"),
        pod("low", "root.b", "{cpu: '4'}", node="n1", priority=40, minute=1),
        pod("high", "root.b", "{cpu: '4'}", node="n1", priority=60, minute=2),
        pod("ask", "root.a", "{cpu: '4'}", priority=100, minute=5),
    )


def test_candidate_priority_is_offset_adjusted_7_3(tmp_path):
    """Ask 100 in root.a; b has offset 50: compared with 100 - 50 = 50, only the 40 pod qualifies."""
    c = _offset_cluster(tmp_path, "{priority.offset: '50'}")
    pre = try_preemption(c, c.task("default/ask"), check_preconditions=False)
    assert [x.key for x in pre.candidates] == ["default/low"]
    assert pre.candidates[0].compared_with == 50
    assert [e.what for e in pre.excluded] == ["default/high"]


def test_priority_fenced_sibling_7_3(tmp_path):
    c = _offset_cluster(tmp_path, "{priority.offset: '50', priority.policy: fence}")
    pre = try_preemption(c, c.task("default/ask"), check_preconditions=False)
    assert sorted(x.key for x in pre.candidates) == ["default/high", "default/low"]
    assert all(x.fenced for x in pre.candidates)
    c = _offset_cluster(tmp_path, "{priority.offset: '150', priority.policy: fence}")
    pre = try_preemption(c, c.task("default/ask"), check_preconditions=False)
    assert pre.candidates == () and pre.excluded[0].what == "root.b"


def test_equal_priority_is_a_candidate(tmp_path):
    c = _offset_cluster(tmp_path, "{}")
    ask = c.task("default/ask")
    pre = try_preemption(c, ask, check_preconditions=False)
    assert {x.key for x in pre.candidates} == {"default/low", "default/high"}  # 40, 60 <= 100


def test_guarantee_check_fails_without_any_guarantee(tmp_path):
    q = """
    partitions:
    - name: default
      queues:
      - name: root
        submitacl: '*'
        queues: [{name: a}, {name: b}]
    """
    c = cluster_from(
        tmp_path, q, node("n1", "{cpu: '10'}"),
        pod("b1", "root.b", "{cpu: '9'}", node="n1"),
        pod("ask", "root.a", "{cpu: '4'}", minute=5),
    )
    outcome = schedule_ask(c, c.task("default/ask"))
    assert outcome.refusal == GUARANTEES_FAILED
    assert outcome.log == (GUARANTEES_FAILED, DOES_NOT_HELP, NOT_ENOUGH_QUEUE_QUOTA)
    assert "neither" in outcome.preemption.guarantee_check.reason


def test_shortfall_when_victims_are_smaller_than_the_ask(tmp_path):
    c = cluster_from(
        tmp_path, AB, node("n1", "{cpu: '6'}"), node("n2", "{cpu: '6'}"),
        pod("b1", "root.b", "{cpu: '3'}", node="n1", minute=1),
        pod("b2", "root.b", "{cpu: '3'}", node="n2", minute=2),
        pod("b3", "root.b", "{cpu: '3'}", node="n2", minute=3),
        pod("ask", "root.a", "{cpu: '5'}", minute=30),
    )
    outcome = schedule_ask(c, c.task("default/ask"))
    pre = outcome.preemption
    # n1 (3 free) + b1 fits the ask, so n1 is chosen; the cut only counts victims on n1 (the ask does
    # not fit n1 as it is): b1's 3 vcore < 5, although the node itself would then have room
    assert pre.node_victims == ("default/b1",) and pre.cut == ("default/b1",)
    assert outcome.refusal == SHORTFALL and not outcome.placed and outcome.victims == ()
    assert outcome.log[:2] == (SHORTFALL, DOES_NOT_HELP)


def test_preemption_policy_never_fails_preconditions_unless_direct(tmp_path):
    c = _worked_example(tmp_path)
    ask = c.task("default/ask")
    from dataclasses import replace

    never = replace(ask, allow_preempt_other=False)
    outcome = schedule_ask(c, never)
    assert outcome.refusal == PRECONDITIONS_FAILED and outcome.preemption.preconditions
    assert schedule_ask(c, never, direct=True).result == "Reserved"


def test_opted_out_pods_sort_last_and_disabled_queues_give_nothing(tmp_path):
    q = AB.replace("    - name: b\n", "    - name: b\n      properties: {preemption.policy: disabled}\n")
    c = cluster_from(
        tmp_path, q, node("n1", "{cpu: '10'}"),
        pod("b1", "root.b", "{cpu: '9'}", node="n1"),
        pod("ask", "root.a", "{cpu: '4'}", minute=5),
    )
    pre = try_preemption(c, c.task("default/ask"), check_preconditions=False)
    assert pre.excluded[0].what == "root.b" and "disabled" in pre.excluded[0].reason


def test_without_nodes_the_preemptor_is_queue_level_only(tmp_path):
    c = cluster_from(
        tmp_path, AB,
        pod("b1", "root.b", "{cpu: '3'}", node="n1", minute=1),
        pod("b2", "root.b", "{cpu: '3'}", node="n1", minute=2),
        pod("b3", "root.b", "{cpu: '3'}", node="n1", minute=3),
        pod("ask", "root.a", "{cpu: '4'}", minute=30),
    )
    assert not c.has_nodes and any("no Node objects" in n for n in c.notes)
    direct = schedule_ask(c, c.task("default/ask"), direct=True)
    assert direct.preemption.queue_level_only and direct.placed is None and direct.node is None
    # the queue rules alone: b3 first (newest); then a's remaining guarantee (5 - 3) cannot absorb b2
    assert [v.key for v in direct.victims] == ["default/b3"]
    normal = schedule_ask(c, c.task("default/ask"))  # no max anywhere, no cluster size: fits headroom
    assert normal.result == "Unknown" and normal.placed is None


def test_required_node_preemption_for_daemonset_pods(tmp_path):
    ds = """\
apiVersion: v1
kind: Pod
metadata:
  name: agent-x
  namespace: kube-system
  uid: uid-agent
  creationTimestamp: '2026-07-01T13:00:00Z'
  labels: {applicationId: agents, queue: root.a}
  ownerReferences: [{apiVersion: apps/v1, kind: DaemonSet, name: agent, uid: ds-1}]
spec:
  schedulerName: yunikorn
  priority: 1000
  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms:
        - matchFields: [{key: metadata.name, operator: In, values: [n1]}]
  containers: [{name: main, resources: {requests: {cpu: '2'}}}]
status: {phase: Pending}
"""
    c = cluster_from(
        tmp_path, AB, node("n1", "{cpu: '10'}"), node("n2", "{cpu: '10'}"),
        pod("b1", "root.b", "{cpu: '5'}", node="n1", minute=1),
        pod("b2", "root.b", "{cpu: '4'}", node="n1", minute=2, priority=2000),
        ds,
    )
    ask = c.task("kube-system/agent-x")
    assert ask.required_node == "n1"
    outcome = schedule_ask(c, ask)
    assert outcome.result == "Reserved" and outcome.node == "n1"
    assert [v.key for v in outcome.victims] == ["default/b1"]  # b2's priority is higher than the ask's


def test_user_quota_and_max_applications(tmp_path):
    q = """
    partitions:
    - name: default
      queues:
      - name: root
        submitacl: '*'
        queues:
        - name: a
          maxapplications: 1
          limits:
          - limit: nobody is small
            users: [nobody]
            maxresources: {vcore: 4}
    """
    c = cluster_from(
        tmp_path, q, node("n1", "{cpu: '10'}"),
        pod("r1", "root.a", "{cpu: '3'}", node="n1", app="one"),
        pod("more", "root.a", "{cpu: '2'}", minute=3, app="one"),
        pod("new", "root.a", "{cpu: '1'}", minute=4, app="two"),
    )
    more = schedule_ask(c, c.task("default/more"))
    assert more.refusal == NOT_ENOUGH_USER_QUOTA and not more.user_fits
    new = schedule_ask(c, c.task("default/new"))
    assert not new.app_runnable and new.result == "Pending"


def test_explain_running_pod_and_queue_priorities(tmp_path):
    c = _worked_example(tmp_path)
    e = explain_pod(c, c.task("default/b1"))
    assert e.status == "Running" and e.mode == "Fit" and e.outcome is None
    e = explain_pod(c, c.task("default/ask"))
    assert e.status == "Pending" and e.mode == "Preempt" and e.reason == "Reserved"
    assert [q.path for q in e.queue_priorities] == ["root.a", "root"]
    assert e.order[0].parent == "root" and e.order[0].position == 1


def test_placement_needs_a_submit_acl(tmp_path):
    q = """
    partitions:
    - name: default
      queues:
      - name: root
        queues: [{name: a, submitacl: 'alice'}]
    """
    c = cluster_from(tmp_path, q, node("n1", "{cpu: '10'}"), pod("p", "root.a", "{cpu: '1'}"))
    p = c.task("default/p")
    assert p.queue is None and c.rejected and "submit" in c.rejected[0][1]
    e = explain_pod(c, p)
    assert e.status == "Rejected" and e.reason == "ApplicationRejected"
