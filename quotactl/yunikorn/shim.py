"""Kubernetes objects -> YuniKorn applications, allocations and asks, as the k8s shim does it
(yunikorn-k8shim ``pkg/common/utils/utils.go``, ``pkg/common/resource.go``,
``pkg/cache/task.go``, ``pkg/cache/context.go``).

``build_cluster`` takes the partition config and the typed ``Pod`` / ``Node`` / ``PriorityClass``
records of ``quotactl.model.yunikorn_cluster`` and returns a ``quotactl.yunikorn.cluster.Cluster``:
the configured queue tree plus the queues placement rules create, node resources, every YuniKorn
pod as a running allocation or a pending ask, and the pods of other schedulers as foreign
allocations.  Each step is its own function: queues, pods -> asks, applications (placement), tasks,
nodes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace

from quotactl.model.quantity import Quantity
from quotactl.model.yunikorn import PartitionConfig, SchedulerConfig
from quotactl.model.yunikorn_cluster import ALLOW_PREEMPTION, ClusterObjects, Pod, parse_go_bool
from quotactl.model.yunikorn_cluster import Node as NodeObject
from quotactl.model.yunikorn_resources import VCORE, Resource, add
from quotactl.yunikorn.cluster import Application, Cluster, ForeignPod, Node, QueueInfo, Task
from quotactl.yunikorn.placement import place
from quotactl.yunikorn.shim_queues import create_queues, queue_infos
from quotactl.yunikorn.tree import QueueView

SCHEDULER_NAME = "yunikorn"
APP_ID_LABEL = "yunikorn.apache.org/app-id"
QUEUE_LABEL = "yunikorn.apache.org/queue"
LEGACY_APP_ID_LABEL = "applicationId"
SPARK_APP_LABEL = "spark-app-selector"
LEGACY_QUEUE_LABEL = "queue"
USER_INFO = "yunikorn.apache.org/user.info"
PLACEHOLDER = "yunikorn.apache.org/placeholder"
AUTOGEN_SUFFIX = "-uniqueautogen"
DEFAULT_USER = "nobody"
PODS = "pods"
TERMINAL_PHASES = ("Succeeded", "Failed")


# ------------------------------------------------------------------------------- helpers ------

def to_yunikorn(requests: dict[str, Quantity]) -> Resource:
    """The shim's resource mapping: ``cpu`` -> ``vcore`` millicores, everything else ``Value()``."""
    out: Resource = {}
    for name, q in requests.items():
        if name == "cpu":
            out[VCORE] = q.milli_value()
        else:
            out[name] = q.value()
    return out


def application_id(pod: Pod, generate_unique: bool = False) -> tuple[str, str]:
    """``GetApplicationIDFromPod``: (id, where it came from)."""
    for source, value in ((f"label {APP_ID_LABEL}", pod.labels.get(APP_ID_LABEL)),
                          (f"annotation {APP_ID_LABEL}", pod.annotations.get(APP_ID_LABEL)),
                          (f"label {LEGACY_APP_ID_LABEL}", pod.labels.get(LEGACY_APP_ID_LABEL)),
                          (f"label {SPARK_APP_LABEL}", pod.labels.get(SPARK_APP_LABEL))):
        if value:
            if value.endswith(AUTOGEN_SUFFIX):
                value = value[: -len(AUTOGEN_SUFFIX)] + "-" + pod.uid
            return value, source
    ns = pod.namespace
    if generate_unique:
        return f"{ns[:26]}-{pod.uid}"[:63], "generated (unique per pod)"
    return f"yunikorn-{ns}-autogen"[:63], "generated (no application id label)"


def queue_name(pod: Pod) -> tuple[str, str]:
    """``GetQueueNameFromPod``: (queue, where it came from); "" when the pod names none."""
    for source, value in ((f"label {QUEUE_LABEL}", pod.labels.get(QUEUE_LABEL)),
                          (f"annotation {QUEUE_LABEL}", pod.annotations.get(QUEUE_LABEL)),
                          (f"label {LEGACY_QUEUE_LABEL}", pod.labels.get(LEGACY_QUEUE_LABEL))):
        if value:
            return value, source
    return "", "none"


def _user_info(annotations: dict[str, str]) -> tuple[str, tuple[str, ...]]:
    raw = annotations.get(USER_INFO)
    if not raw:
        return DEFAULT_USER, ()
    try:
        info = json.loads(raw)
    except ValueError:
        return DEFAULT_USER, ()
    if not isinstance(info, dict):
        return DEFAULT_USER, ()
    user = info.get("user") if isinstance(info.get("user"), str) and info.get("user") else DEFAULT_USER
    groups = tuple(g for g in (info.get("groups") if isinstance(info.get("groups"), list) else [])
                   if isinstance(g, str))
    return user, groups


def select_partition(config: SchedulerConfig) -> PartitionConfig | None:
    """The shim submits everything to the ``default`` partition."""
    parts = config.partitions
    for p in parts:
        if p.normalized_name == "default":
            return p
    return parts[0] if parts else None


# ------------------------------------------------------------------------------- cluster -----

def build_cluster(partition: PartitionConfig, objects: ClusterObjects, *,
                  generate_unique_app_id: bool = False) -> Cluster:
    """The partition's queues with the nodes and pods of ``objects``."""
    queues, views = queue_infos(partition)
    pods_resource = _counts_pods(objects)
    asks = _Asks()
    for pod in objects.pods:
        _sort_pod(pod, pods_resource, generate_unique_app_id, asks)
    apps = _place_applications(partition, queues, views, asks.yunikorn)
    tasks, rejected = _tasks(objects, asks.yunikorn, apps)
    nodes = _nodes(objects.nodes, tasks, asks.foreign)
    if objects.nodes:
        queues["root"] = replace(queues["root"], max=_cluster_size(nodes))
    ns_policy = partition.nodesortpolicy
    weights = dict(ns_policy.resourceweights or {}) or {VCORE: 1.0, "memory": 1.0}
    return Cluster(
        partition=partition.normalized_name, queues=queues, nodes=tuple(sorted(nodes, key=lambda n: n.name)),
        tasks=tuple(tasks), applications=apps, foreign=tuple(asks.foreign), has_nodes=bool(objects.nodes),
        pods_resource=pods_resource, preemption_enabled=partition.preemption.enabled_effective,
        node_sort_policy=ns_policy.type or "fair", resource_weights=weights, rejected=tuple(rejected),
        ignored=tuple(asks.ignored),
        notes=_node_notes(nodes, tasks),
    )


def _cluster_size(nodes: list[Node]) -> Resource | None:
    """Root's max: the sum of the nodes' capacity."""
    total: Resource = {}
    for n in nodes:
        total = add(total, n.capacity)
    return total or None


def _node_notes(nodes: list[Node], tasks: list[Task]) -> tuple[str, ...]:
    if not nodes:
        return ("no Node objects in the input: node fit and per-node victims are not evaluated "
                "(queue-level only), and root's max (the cluster size) is unknown",)
    known = {n.name for n in nodes}
    stray = sorted({t.node for t in tasks if t.node and t.node not in known})
    return ("pods run on nodes missing from the input: " + ", ".join(stray),) if stray else ()


def _counts_pods(objects: ClusterObjects) -> bool:
    """Whether the shim's implicit ``pods: 1`` per pod applies.

    Real nodes report a ``pods`` capacity.  Abstract states (translated unit tests: opaque resource
    names, no cpu / memory anywhere) carry only what they list, so the implicit count is added only
    for a Kubernetes-shaped node list; with no nodes, when pods ask for Kubernetes resources.
    """
    if not objects.nodes:
        return any(k in ("cpu", "memory") for p in objects.pods for k in p.spec.requests)
    node_types = {k for n in objects.nodes for k in n.resource_names}
    return PODS in node_types and bool(node_types & {"cpu", "memory"})


@dataclass(frozen=True)
class _Ask:
    """A YuniKorn pod before its application is placed."""

    pod: Pod
    resource: Resource
    application: str


@dataclass
class _Asks:
    """The pods sorted by what YuniKorn does with them."""

    yunikorn: list[_Ask] = field(default_factory=list)
    foreign: list[ForeignPod] = field(default_factory=list)  # other schedulers' pods on a node
    ignored: list[tuple[str, str]] = field(default_factory=list)  # (pod, why YuniKorn ignores it)


def _pod_resource(pod: Pod, pods_resource: bool) -> Resource:
    resource = to_yunikorn(pod.requests)
    if pods_resource and PODS not in resource:
        # the shim's implicit pod count (a pod that names ``pods`` itself, as translated test
        # states do, already carries it)
        resource = add(resource, {PODS: 1})
    return resource


def _sort_pod(pod: Pod, pods_resource: bool, generate_unique_app_id: bool, asks: _Asks) -> None:
    if pod.phase in TERMINAL_PHASES:
        asks.ignored.append((pod.key, f"the pod has finished (phase {pod.phase})"))
        return
    resource = _pod_resource(pod, pods_resource)
    node = pod.node_name
    if pod.scheduler_name != SCHEDULER_NAME:
        asks.ignored.append((pod.key, f"spec.schedulerName is {pod.scheduler_name}, not {SCHEDULER_NAME}: "
                                      "YuniKorn does not schedule it" + (
                                          f" (it occupies resources on {node})" if node else "")))
        if node:
            static = any(r.kind == "Node" for r in pod.owners)
            asks.foreign.append(ForeignPod(pod.key, node, resource, static))
        return
    asks.yunikorn.append(_Ask(pod, resource, application_id(pod, generate_unique_app_id)[0]))


def _place_applications(partition: PartitionConfig, queues: dict[str, QueueInfo], views: dict[str, QueueView],
                        asks: list[_Ask]) -> dict[str, Application]:
    """Each application's queue, fixed by its first pod (placement rules may create queues)."""
    first: dict[str, Pod] = {}
    for ask in asks:
        if ask.application not in first or ask.pod.created < first[ask.application].created:
            first[ask.application] = ask.pod
    apps: dict[str, Application] = {}
    for app_id, pod in sorted(first.items(), key=lambda kv: (kv[1].created, kv[0])):
        submitted, _src = queue_name(pod)
        user, groups = _user_info(pod.annotations)
        tags = {"namespace": pod.namespace}
        for k, v in pod.labels.items():
            tags.setdefault(k.lower(), v)
        pl = place(partition.rules, queues, submitted, user, groups, tags)
        if pl.queue is not None and pl.create:
            create_queues(queues, views, pl.create)
        apps[app_id] = Application(app_id, pl.queue, pod.created, user, groups, pl.rule)
    return apps


def _originators(asks: list[_Ask]) -> dict[str, set[str]]:
    """Per application, the uids its pods name as owners (a pod among them is the originator)."""
    out: dict[str, set[str]] = {}
    for ask in asks:
        for ref in ask.pod.owners:
            if ref.uid:
                out.setdefault(ask.application, set()).add(ref.uid)
    return out


def _tasks(objects: ClusterObjects, asks: list[_Ask],
           apps: dict[str, Application]) -> tuple[list[Task], list[tuple[str, str]]]:
    owner_uids = _originators(asks)
    tasks: list[Task] = []
    rejected: list[tuple[str, str]] = []
    for ask in asks:
        pod, app = ask.pod, apps[ask.application]
        priority, sources = _priority(objects, pod)
        allow_self, opt_out = _allow_preempt_self(objects, pod)
        tasks.append(Task(
            key=pod.key, namespace=pod.namespace, name=pod.name, uid=pod.uid, application=app.id, queue=app.queue,
            resource=ask.resource, priority=priority, create_time=pod.created, node=pod.node_name,
            allow_preempt_self=allow_self, allow_preempt_other=_preemption_policy(objects, pod) != "Never",
            originator=bool(pod.uid) and pod.uid in owner_uids.get(app.id, set()), required_node=pod.required_node,
            placeholder=parse_go_bool(pod.annotations.get(PLACEHOLDER)) is True
            or pod.labels.get("placeholder") == "true",
            user=app.user, groups=app.groups, spec=pod.spec, sources=tuple(sources + opt_out),
        ))
        if app.queue is None:
            rejected.append((pod.key, app.placement))
    return tasks, rejected


def _priority(objects: ClusterObjects, pod: Pod) -> tuple[int, list[str]]:
    """spec.priority, else the PriorityClass's value, else the global default's; where it came from."""
    if pod.priority is not None:
        return pod.priority, []
    name = pod.spec.priority_class_name
    pc = objects.priority_classes.get(name) if name else None
    if pc is not None:
        return pc.value, [f"priority {pc.value} from PriorityClass {pc.name} (spec.priority unset)"]
    default = objects.default_priority_class
    if not name and default is not None:
        return default.value, [f"priority {default.value} from the global default PriorityClass {default.name}"]
    return 0, []


def _preemption_policy(objects: ClusterObjects, pod: Pod) -> str | None:
    name = pod.spec.priority_class_name
    pc = objects.priority_classes.get(name) if name else None
    if pod.preemption_policy is None and pc is not None and pc.preemption_policy:
        return pc.preemption_policy
    return pod.preemption_policy


def _allow_preempt_self(objects: ClusterObjects, pod: Pod) -> tuple[bool, list[str]]:
    """The pod's allow-preemption annotation, else its PriorityClass's; where an opt-out came from."""
    allowed = parse_go_bool(pod.annotations.get(ALLOW_PREEMPTION))
    if allowed is not None:
        return allowed, []
    name = pod.spec.priority_class_name
    pc = objects.priority_classes.get(name) if name else None
    if pc is not None and pc.allow_preemption is False:
        return False, [f"opted out of preemption by PriorityClass {pc.name}"]
    return True, []


def _nodes(node_objects: tuple[NodeObject, ...], tasks: list[Task], foreign: list[ForeignPod]) -> list[Node]:
    """Each node with what YuniKorn allocated on it and what other schedulers' pods occupy."""
    on_node: dict[str, Resource] = {}
    for t in tasks:
        if t.node:
            on_node[t.node] = add(on_node.get(t.node), t.resource)
    foreign_on: dict[str, Resource] = {}
    for f in foreign:
        foreign_on[f.node] = add(foreign_on.get(f.node), f.resource)
    return [Node(n.name, to_yunikorn(n.allocatable), on_node.get(n.name, {}), foreign_on.get(n.name, {}),
                 schedulable=n.schedulable, ready=n.ready, labels=n.labels, taints=n.taints)
            for n in node_objects]
