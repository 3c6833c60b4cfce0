"""Pods and nodes -> YuniKorn applications, asks and allocations, as the k8s shim maps them (yunikorn-k8shim pkg/common)."""

from __future__ import annotations

from quotactl.load.yunikorn import DEFAULT_CONFIG_TEXT
from quotactl.yunikorn.priority import queue_priorities, sorted_children
from tests.yunikorn.util import cluster_from, node

QUEUES = """
partitions:
- name: default
  queues:
  - name: root
    submitacl: '*'
    queues:
    - name: a
    - name: b
"""

K8S_NODE = node("n1", "{cpu: '8', memory: 16Gi, pods: '110', nvidia.com/gpu: '2'}")


def _pod(body: str) -> str:
    return "apiVersion: v1\nkind: Pod\n" + body


def test_resources_are_mapped_like_the_shim(tmp_path):
    p = _pod("""\
metadata: {name: web, namespace: ns1, uid: u1, labels: {applicationId: app1, queue: root.a}}
spec:
  schedulerName: yunikorn
  overhead: {cpu: 100m}
  initContainers:
  - {name: init, resources: {requests: {cpu: '3', memory: 1Gi}}}
  - {name: sidecar, restartPolicy: Always, resources: {requests: {cpu: 250m}}}
  containers:
  - {name: a, resources: {requests: {cpu: 500m, memory: 1.5Gi, nvidia.com/gpu: '1'}}}
  - {name: b, resources: {requests: {cpu: '1', memory: 100M}}}
status: {phase: Pending}
""")
    c = cluster_from(tmp_path, QUEUES, K8S_NODE, p)
    t = c.task("ns1/web")
    # containers 1.5 cores + sidecar 0.25 < init step 3 cores: 3000m, plus overhead 100m; pods: 1
    assert t.resource == {"vcore": 3100, "memory": 1610612736 + 100_000_000, "nvidia.com/gpu": 1, "pods": 1}
    assert c.node("n1").capacity == {"vcore": 8000, "memory": 16 * 2**30, "pods": 110, "nvidia.com/gpu": 2}


def test_application_and_queue_labels(tmp_path):
    pods = [
        _pod("metadata: {name: p1, namespace: team, uid: u1, labels: {yunikorn.apache.org/app-id: x, queue: root.b,"
             " yunikorn.apache.org/queue: root.a, applicationId: ignored}}\n"
             "spec: {schedulerName: yunikorn, containers: [{name: c}]}\nstatus: {phase: Pending}\n"),
        _pod("metadata: {name: p2, namespace: team, uid: u2, labels: {queue: root.b}}\n"
             "spec: {schedulerName: yunikorn, containers: [{name: c}]}\nstatus: {phase: Pending}\n"),
        _pod("metadata: {name: p3, namespace: team, uid: u3, labels: {applicationId: y-uniqueautogen, queue: root.b}}\n"
             "spec: {schedulerName: yunikorn, containers: [{name: c}]}\nstatus: {phase: Pending}\n"),
    ]
    c = cluster_from(tmp_path, QUEUES, K8S_NODE, *pods)
    p1, p2, p3 = c.task("team/p1"), c.task("team/p2"), c.task("team/p3")
    assert (p1.application, p1.queue) == ("x", "root.a")  # yunikorn.apache.org/* win over the legacy labels
    assert (p2.application, p2.queue) == ("yunikorn-team-autogen", "root.b")
    assert p3.application == "y-u3"


def test_priorities_and_preemption_flags(tmp_path):
    pcs = """\
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: low, annotations: {yunikorn.apache.org/allow-preemption: 'false'}}
value: 7
preemptionPolicy: Never
"""
    pods = [
        _pod("metadata: {name: p1, namespace: d, uid: u1, labels: {applicationId: a1, queue: root.a}}\n"
             "spec: {schedulerName: yunikorn, priorityClassName: low, containers: [{name: c}]}\n"
             "status: {phase: Pending}\n"),
        _pod("metadata: {name: p2, namespace: d, uid: u2, labels: {applicationId: a1, queue: root.a},"
             " annotations: {yunikorn.apache.org/allow-preemption: 'true'}}\n"
             "spec: {schedulerName: yunikorn, priority: 3, priorityClassName: low, containers: [{name: c}]}\n"
             "status: {phase: Pending}\n"),
    ]
    c = cluster_from(tmp_path, QUEUES, K8S_NODE, pcs, *pods)
    p1, p2 = c.task("d/p1"), c.task("d/p2")
    assert p1.priority == 7 and any("PriorityClass low" in s for s in p1.sources)  # spec.priority unset
    assert not p1.allow_preempt_self and not p1.allow_preempt_other
    assert p2.priority == 3 and p2.allow_preempt_self  # the pod annotation wins over the class's


def test_foreign_and_finished_pods(tmp_path):
    pods = [
        _pod("metadata: {name: dns, namespace: kube-system, uid: u1}\n"
             "spec: {nodeName: n1, containers: [{name: c, resources: {requests: {cpu: '1'}}}]}\n"
             "status: {phase: Running}\n"),
        _pod("metadata: {name: done, namespace: d, uid: u2, labels: {applicationId: a, queue: root.a}}\n"
             "spec: {schedulerName: yunikorn, nodeName: n1, containers: [{name: c, resources: {requests: {cpu: '4'}}}]}\n"
             "status: {phase: Succeeded}\n"),
        _pod("metadata: {name: run, namespace: d, uid: u3, labels: {applicationId: a, queue: root.a}}\n"
             "spec: {schedulerName: yunikorn, nodeName: n1, containers: [{name: c, resources: {requests: {cpu: '2'}}}]}\n"
             "status: {phase: Running}\n"),
    ]
    c = cluster_from(tmp_path, QUEUES, K8S_NODE, *pods)
    n1 = c.node("n1")
    assert n1.occupied == {"vcore": 1000, "pods": 1} and n1.allocated == {"vcore": 2000, "pods": 1}
    assert n1.available["vcore"] == 5000
    assert c.task("kube-system/dns") is None and c.task("d/done") is None
    assert dict(c.ignored)["kube-system/dns"].startswith("spec.schedulerName is default-scheduler")
    assert c.allocated("root") == {"vcore": 2000, "pods": 1}


def test_default_config_places_by_namespace(tmp_path):
    p = _pod("metadata: {name: p, namespace: Analytics, uid: u1, labels: {queue: root.ignored}}\n"
             "spec: {schedulerName: yunikorn, containers: [{name: c}]}\nstatus: {phase: Pending}\n")
    c = cluster_from(tmp_path, DEFAULT_CONFIG_TEXT, K8S_NODE, p)  # YuniKorn's config when it is given none
    t = c.task("Analytics/p")
    assert t.queue == "root.analytics" and c.queues["root.analytics"].dynamic


def test_queue_priorities_worked_example_6_5(tmp_path):
    q = """
    partitions:
    - name: default
      queues:
      - name: root
        submitacl: '*'
        queues:
        - name: tenant
          properties: {priority.policy: fence, priority.offset: '10'}
          queues:
          - name: q1
          - name: q2
            properties: {priority.offset: '5'}
        - name: system
    """

    def ask(name, queue, prio):
        return _pod(f"metadata: {{name: {name}, namespace: d, uid: {name}, labels: {{applicationId: {name}, "
                    f"queue: {queue}}}}}\nspec: {{schedulerName: yunikorn, priority: {prio}, containers: [{{name: c}}]}}\n"
                    "status: {phase: Pending}\n")

    c = cluster_from(tmp_path, q, K8S_NODE, ask("a", "root.tenant.q1", 500), ask("b", "root.tenant.q2", 20),
                     ask("c", "root.system", 50))
    prios = queue_priorities(c)
    assert prios["root.tenant.q1"].exposed == 500 and prios["root.tenant.q2"].exposed == 25
    assert prios["root.tenant"].current == 500 and prios["root.tenant"].exposed == 10
    assert prios["root.system"].exposed == 50 and prios["root"].current == 50
    assert sorted_children(c, c.queues["root"], prios) == ["root.system", "root.tenant"]
    assert sorted_children(c, c.queues["root.tenant"], prios) == ["root.tenant.q1", "root.tenant.q2"]
    # nothing pending below a fence: it exposes MinPriority, not its offset
    c2 = cluster_from(tmp_path, q, K8S_NODE, ask("c", "root.system", 50))
    p2 = queue_priorities(c2)
    assert not p2["root.tenant"].pending and p2["root.tenant"].exposed == -(2**31)


def test_offsets_clamp_and_sort_priority_disabled(tmp_path):
    q = """
    partitions:
    - name: default
      queues:
      - name: root
        submitacl: '*'
        properties: {application.sort.priority: disabled}
        queues:
        - name: hot
          properties: {priority.offset: '2147483000'}
          resources: {guaranteed: {vcore: 1}}
        - name: cold
          resources: {guaranteed: {vcore: 100}}
    """

    def ask(name, queue, prio, minute=0):
        return _pod(f"metadata: {{name: {name}, namespace: d, uid: {name}, creationTimestamp: '2026-07-01T12:{minute:02d}:00Z',"
                    f" labels: {{applicationId: {name}, queue: {queue}}}}}\n"
                    f"spec: {{schedulerName: yunikorn, priority: {prio}, containers: [{{name: c, resources: "
                    "{requests: {cpu: '1'}}}]}\nstatus: {phase: Pending}\n")

    def run(name, queue):
        return _pod(f"metadata: {{name: {name}, namespace: d, uid: {name}, labels: {{applicationId: {name}, "
                    f"queue: {queue}}}}}\nspec: {{schedulerName: yunikorn, nodeName: n1, containers: [{{name: c, "
                    "resources: {requests: {cpu: '2'}}}]}\nstatus: {phase: Running}\n")

    c = cluster_from(tmp_path, q, K8S_NODE, ask("h", "root.hot", 1000), ask("c1", "root.cold", 5, 1),
                     ask("c2", "root.cold", 9, 2), run("r", "root.hot"))
    prios = queue_priorities(c)
    assert prios["root.hot"].exposed == 2**31 - 1  # 1000 + 2147483000 clamped to MaxPriority
    # root sorts fairness first (hot uses 2x its guarantee, cold nothing), priority only breaks ties
    assert sorted_children(c, c.queues["root"], prios) == ["root.cold", "root.hot"]
    from quotactl.yunikorn.priority import sorted_applications

    # the leaf inherits application.sort.priority: disabled: fifo (c1 was submitted first) despite c2's 9
    assert sorted_applications(c, c.queues["root.cold"]) == ["c1", "c2"]
