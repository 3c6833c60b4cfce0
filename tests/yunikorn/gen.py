"""Random YuniKorn clusters for property tests, built straight on the engine's model (no YAML).

Shapes follow the diff-preempt generator's description: root -> 1..3 parents -> 1..3 leaves, some
guarantees / maxes on vcore / memory (sometimes a GPU), offsets, priority and preemption fences,
``preemption.policy: disabled`` leaves; 1..4 nodes filled by running pods with small priority sets;
one pending pod that usually asks for more than any node has free.
"""

from __future__ import annotations

import random
from dataclasses import replace

from quotactl.model.yunikorn_resources import add
from quotactl.yunikorn.cluster import Application, Cluster, Node, QueueInfo, Task

GI = 2**30


def _res(rng: random.Random, gpu: bool, scale: int = 1) -> dict:
    r = {"vcore": rng.choice([250, 500, 1000, 1500, 2000, 3000]) * scale,
         "memory": rng.choice([256, 512, 1024, 2048, 4096]) * 2**20 * scale, "pods": 1}
    if gpu and rng.random() < 0.3:
        r["nvidia.com/gpu"] = rng.choice([1, 2])
    return r


def _limit(rng: random.Random, gpu: bool) -> dict | None:
    if rng.random() < 0.45:
        return None
    r = {}
    if rng.random() < 0.8:
        r["vcore"] = rng.choice([2, 4, 6, 8, 12]) * 1000
    if rng.random() < 0.5:
        r["memory"] = rng.choice([4, 8, 16]) * GI
    if gpu and rng.random() < 0.3:
        r["nvidia.com/gpu"] = rng.choice([1, 2, 4])
    return r or None


def _queue(path: str, parent: str | None, children: tuple[str, ...], leaf: bool, rng: random.Random,
           gpu: bool) -> QueueInfo:
    guaranteed = _limit(rng, gpu) if parent else None
    maximum = _limit(rng, gpu) if parent else None
    if guaranteed and maximum:  # keep configs valid: guaranteed <= max
        maximum = {k: max(v, guaranteed.get(k, 0)) for k, v in maximum.items()}
    return QueueInfo(
        path=path, name=path.rsplit(".", 1)[-1], parent=parent, children=children, leaf=leaf, dynamic=False,
        guaranteed=guaranteed, max=maximum,
        priority_policy="fence" if parent and rng.random() < 0.15 else "default",
        priority_offset=rng.choice([0, 0, 0, -10, 5, 20, 50]) if parent else 0,
        preemption_policy=("disabled" if leaf and rng.random() < 0.1 else
                           "fence" if parent and rng.random() < 0.12 else "default"),
        preemption_delay=30 * 10**9, sort_policy="fifo", sort_priority=True,
    )


def random_cluster(seed: int) -> tuple[Cluster, Task]:
    rng = random.Random(seed)
    gpu = rng.random() < 0.3
    queues: dict[str, QueueInfo] = {}
    parents = [f"root.p{i}" for i in range(rng.randint(1, 3))]
    leaves: list[str] = []
    for p in parents:
        kids = tuple(f"{p}.l{j}" for j in range(rng.randint(1, 3)))
        leaves += kids
        queues[p] = _queue(p, "root", kids, False, rng, gpu)
        for k in kids:
            queues[k] = _queue(k, p, (), True, rng, gpu)
    nodes_n = rng.randint(1, 4)
    node_caps = []
    for i in range(nodes_n):
        cap = {"vcore": rng.choice([4, 8]) * 1000, "memory": rng.choice([8, 16]) * GI, "pods": 110}
        if gpu and rng.random() < 0.6:
            cap["nvidia.com/gpu"] = 4
        node_caps.append((f"node-{i + 1}", cap))
    prios = rng.choice([[0], [0, 10], [0, 10, 100], [-5, 0, 5], [0, 50, 100, 1000]])
    tasks: list[Task] = []
    used = {name: {} for name, _ in node_caps}
    t0 = 1_780_000_000
    for i in range(rng.randint(2, 24)):
        leaf = rng.choice(leaves)
        res = _res(rng, gpu)
        fits = [n for n, cap in node_caps if all(add(used[n], res).get(k, 0) <= cap.get(k, 0) for k in res)]
        if not fits:
            continue
        node = rng.choice(fits)
        used[node] = add(used[node], res)
        app = f"app-{leaf.replace('.', '-')}-{rng.randint(1, 2)}"
        tasks.append(Task(key=f"default/pod-{i}", namespace="default", name=f"pod-{i}", uid=f"u{i}",
                          application=app, queue=leaf, resource=res, priority=rng.choice(prios),
                          create_time=t0 + i * rng.randint(1, 20), node=node,
                          allow_preempt_self=rng.random() > 0.05, originator=rng.random() < 0.1))
    ask_leaf = rng.choice(leaves)
    if rng.random() < 0.8:  # the pending pod's leaf usually has its own guarantee
        q = queues[ask_leaf]
        g = {"vcore": rng.choice([4, 6, 8, 12]) * 1000, "memory": rng.choice([8, 16]) * GI}
        m = {k: max(v, g.get(k, 0)) for k, v in q.max.items()} if q.max else None
        queues[ask_leaf] = replace(q, guaranteed=g, max=m)
    ask = Task(key="default/pending", namespace="default", name="pending", uid="pending",
               application=f"app-{ask_leaf.replace('.', '-')}-pending", queue=ask_leaf,
               resource=_res(rng, gpu, scale=rng.choice([1, 2, 3])),
               priority=rng.choice(prios + [max(prios) + 1]), create_time=t0 + 10_000, node=None,
               allow_preempt_other=rng.random() > 0.05)
    tasks.append(ask)
    nodes = tuple(Node(n, cap, used[n], {}) for n, cap in node_caps)
    total: dict = {}
    for n in nodes:
        total = add(total, n.capacity)
    queues["root"] = QueueInfo(path="root", name="root", parent=None, children=tuple(parents), leaf=False,
                               dynamic=False, guaranteed=None, max=total, priority_policy="default",
                               priority_offset=0, preemption_policy="default", preemption_delay=30 * 10**9,
                               sort_policy="fifo", sort_priority=True)
    apps = {}
    for t in tasks:
        apps.setdefault(t.application, Application(t.application, t.queue, t.create_time))
    cluster = Cluster(partition="default", queues=queues, nodes=nodes, tasks=tuple(tasks), applications=apps,
                      has_nodes=True, pods_resource=True, resource_weights={"vcore": 1.0, "memory": 1.0})
    return cluster, ask
