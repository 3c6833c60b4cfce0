"""Kubernetes objects -> YuniKorn applications, allocations and asks, as the k8s shim does it
(yunikorn.md §8; yunikorn-k8shim ``pkg/common/utils/utils.go``, ``pkg/common/resource.go``,
``pkg/cache/task.go``, ``pkg/cache/context.go``).

``build_cluster`` takes the partition config and the loaded ``Node`` / ``Pod`` / ``PriorityClass``
objects (raw data, no file access) and returns a ``quotactl.yunikorn.cluster.Cluster``: the
configured queue tree plus the queues placement rules create, node resources, every YuniKorn pod as
a running allocation or a pending ask, and the pods of other schedulers as foreign allocations.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from datetime import datetime, timezone

from quotactl.model.coerce import as_dict, as_int, as_list, as_str, quantity_map, str_map
from quotactl.model.podspec import effective_pod_requests, parse_taints, pod_spec_info
from quotactl.model.quantity import Quantity
from quotactl.model.yunikorn import PartitionConfig, SchedulerConfig
from quotactl.model.yunikorn_resources import VCORE, Resource, add, parse_lenient
from quotactl.yunikorn import properties as props
from quotactl.yunikorn.cluster import Application, Cluster, ForeignPod, Node, QueueInfo, Task
from quotactl.yunikorn.placement import place
from quotactl.yunikorn.tree import QueueView, build_tree

SCHEDULER_NAME = "yunikorn"
APP_ID_LABEL = "yunikorn.apache.org/app-id"
QUEUE_LABEL = "yunikorn.apache.org/queue"
LEGACY_APP_ID_LABEL = "applicationId"
SPARK_APP_LABEL = "spark-app-selector"
LEGACY_QUEUE_LABEL = "queue"
ALLOW_PREEMPTION = "yunikorn.apache.org/allow-preemption"
USER_INFO = "yunikorn.apache.org/user.info"
PLACEHOLDER = "yunikorn.apache.org/placeholder"
AUTOGEN_SUFFIX = "-uniqueautogen"
DEFAULT_USER = "nobody"
PODS = "pods"
TERMINAL_PHASES = ("Succeeded", "Failed")


# ------------------------------------------------------------------------------- helpers ------

def parse_time(value) -> float:
    """``metadata.creationTimestamp`` -> epoch seconds (0 when missing / unreadable)."""
    if isinstance(value, datetime):
        dt = value
    elif isinstance(value, str) and value:
        text = value.strip().replace("Z", "+00:00")
        try:
            dt = datetime.fromisoformat(text)
        except ValueError:
            return 0.0
    else:
        return 0.0
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=timezone.utc)
    return dt.timestamp()


def to_yunikorn(requests: dict[str, Quantity]) -> Resource:
    """The shim's resource mapping: ``cpu`` -> ``vcore`` millicores, everything else ``Value()``."""
    out: Resource = {}
    for name, q in requests.items():
        if name == "cpu":
            out[VCORE] = q.milli_value()
        else:
            out[name] = q.value()
    return out


def _quantities(raw) -> dict[str, Quantity]:
    return quantity_map(raw)


def application_id(md: dict, generate_unique: bool = False) -> tuple[str, str]:
    """``GetApplicationIDFromPod``: (id, where it came from)."""
    labels = str_map(md.get("labels"))
    annotations = str_map(md.get("annotations"))
    uid = as_str(md.get("uid")) or ""
    for source, value in ((f"label {APP_ID_LABEL}", labels.get(APP_ID_LABEL)),
                          (f"annotation {APP_ID_LABEL}", annotations.get(APP_ID_LABEL)),
                          (f"label {LEGACY_APP_ID_LABEL}", labels.get(LEGACY_APP_ID_LABEL)),
                          (f"label {SPARK_APP_LABEL}", labels.get(SPARK_APP_LABEL))):
        if value:
            if value.endswith(AUTOGEN_SUFFIX):
                value = value[: -len(AUTOGEN_SUFFIX)] + "-" + uid
            return value, source
    ns = as_str(md.get("namespace")) or "default"
    if generate_unique:
        return f"{ns[:26]}-{uid}"[:63], "generated (unique per pod)"
    return f"yunikorn-{ns}-autogen"[:63], "generated (no application id label)"


def queue_name(md: dict) -> tuple[str, str]:
    """``GetQueueNameFromPod``: (queue, where it came from); "" when the pod names none."""
    labels = str_map(md.get("labels"))
    annotations = str_map(md.get("annotations"))
    for source, value in ((f"label {QUEUE_LABEL}", labels.get(QUEUE_LABEL)),
                          (f"annotation {QUEUE_LABEL}", annotations.get(QUEUE_LABEL)),
                          (f"label {LEGACY_QUEUE_LABEL}", labels.get(LEGACY_QUEUE_LABEL))):
        if value:
            return value, source
    return "", "none"


def _bool_text(value: str | None) -> bool | None:
    """Go's ``strconv.ParseBool``."""
    if value is None:
        return None
    if value in ("1", "t", "T", "TRUE", "true", "True"):
        return True
    if value in ("0", "f", "F", "FALSE", "false", "False"):
        return False
    return None


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
    groups = tuple(g for g in as_list(info.get("groups")) if isinstance(g, str))
    return user, groups


def _spec_with_status(spec: dict, status: dict) -> dict:
    """Per container, the larger of the spec request and the resized (status) request (§8)."""
    statuses = {as_str(as_dict(s).get("name")): as_dict(s) for s in as_list(status.get("containerStatuses"))}
    if not statuses:
        return spec
    containers = []
    changed = False
    for c in as_list(spec.get("containers")):
        c = as_dict(c)
        st = statuses.get(as_str(c.get("name")))
        if not st:
            containers.append(c)
            continue
        extra = {}
        extra.update(_quantities(st.get("allocatedResources")))
        for k, v in _quantities(as_dict(st.get("resources")).get("requests")).items():
            if k not in extra or v > extra[k]:
                extra[k] = v
        if not extra:
            containers.append(c)
            continue
        res = dict(as_dict(c.get("resources")))
        req = _quantities(res.get("requests"))
        for k, v in extra.items():
            if k not in req or v > req[k]:
                req[k] = v
                changed = True
        res["requests"] = {k: str(v) for k, v in req.items()}
        containers.append({**c, "resources": res})
    return {**spec, "containers": containers} if changed else spec


@dataclass(frozen=True)
class PriorityClassInfo:
    name: str
    value: int
    global_default: bool
    preemption_policy: str | None
    allow_preemption: bool | None  # the yunikorn.apache.org/allow-preemption annotation


def priority_classes(objects) -> dict[str, PriorityClassInfo]:
    out = {}
    for o in objects:
        if o.kind != "PriorityClass" or not o.name:
            continue
        value = as_int(o.data.get("value"))
        ann = str_map(o.metadata.get("annotations"))
        out[o.name] = PriorityClassInfo(o.name, value if value is not None else 0,
                                        o.data.get("globalDefault") is True,
                                        as_str(o.data.get("preemptionPolicy")), _bool_text(ann.get(ALLOW_PREEMPTION)))
    return out


# --------------------------------------------------------------------------------- queues -----

def _queue_infos(partition: PartitionConfig) -> tuple[dict[str, QueueInfo], dict[str, QueueView]]:
    pv = build_tree(partition)
    infos: dict[str, QueueInfo] = {}
    views: dict[str, QueueView] = {}

    def walk(v: QueueView, parent: str | None) -> None:
        path = v.path.lower()
        eff = v.effective_properties
        infos[path] = QueueInfo(
            path=path, name=v.name.lower(), parent=parent, children=tuple(c.path.lower() for c in v.children),
            leaf=v.leaf, dynamic=False, guaranteed=v.applied_guaranteed, max=v.applied_max,
            priority_policy=v.priority_policy, priority_offset=v.priority_offset,
            preemption_policy=v.preemption_policy,
            preemption_delay=int(props.parse_preemption_delay(eff.get(props.PREEMPTION_DELAY)).value),
            sort_policy=str(props.parse_sort_policy(eff.get(props.SORT_POLICY)).value),
            sort_priority=bool(props.parse_sort_priority(eff.get(props.SORT_PRIORITY)).value),
            max_applications=v.max_applications, submit_acl=v.submit_acl, admin_acl=v.admin_acl,
            limits=tuple(v.limits),
        )
        views[path] = v
        for c in v.children:
            walk(c, path)

    walk(pv.root, None)
    return infos, views


def _dynamic_queue(path: str, parent: QueueInfo, leaf: bool, views: dict[str, QueueView],
                   template_from: str | None) -> QueueInfo:
    """A queue created by a placement rule: no inherited properties; a leaf takes the nearest
    ``childtemplate`` (properties, guaranteed, max, maxapplications)."""
    tprops: dict[str, str] = {}
    guaranteed = maximum = None
    max_apps = 0
    if leaf and template_from and template_from in views and views[template_from].child_template is not None:
        ct = views[template_from].child_template
        tprops = dict(ct.properties or {})
        g = parse_lenient(ct.resources.guaranteed)[0] if ct.resources.guaranteed else None
        m = parse_lenient(ct.resources.max)[0] if ct.resources.max else None
        guaranteed = g if g and any(x > 0 for x in g.values()) and not any(x < 0 for x in g.values()) else None
        maximum = m if m and any(x > 0 for x in m.values()) and not any(x < 0 for x in m.values()) else None
        max_apps = ct.maxapplications
    return QueueInfo(
        path=path, name=path.rsplit(".", 1)[1], parent=parent.path, children=(), leaf=leaf, dynamic=True,
        guaranteed=guaranteed, max=maximum,
        priority_policy=str(props.parse_priority_policy(tprops.get(props.PRIORITY_POLICY)).value),
        priority_offset=int(props.parse_priority_offset(tprops.get(props.PRIORITY_OFFSET)).value),
        preemption_policy=str(props.parse_preemption_policy(tprops.get(props.PREEMPTION_POLICY)).value),
        preemption_delay=int(props.parse_preemption_delay(tprops.get(props.PREEMPTION_DELAY)).value),
        sort_policy=str(props.parse_sort_policy(tprops.get(props.SORT_POLICY)).value),
        sort_priority=bool(props.parse_sort_priority(tprops.get(props.SORT_PRIORITY)).value),
        max_applications=max_apps,
    )


def _template_for(path: str, infos: dict[str, QueueInfo], views: dict[str, QueueView]) -> str | None:
    cur = path
    while cur:
        if cur in views:
            return views[cur].template_from
        cur = infos[cur].parent if cur in infos else None
    return None


def _create(queues: dict[str, QueueInfo], views: dict[str, QueueView], paths: tuple[str, ...]) -> None:
    for i, path in enumerate(paths):
        if path in queues:
            continue
        parent_path = path.rsplit(".", 1)[0]
        parent = queues[parent_path]
        leaf = i == len(paths) - 1
        q = _dynamic_queue(path, parent, leaf, views, _template_for(parent_path, queues, views))
        queues[path] = q
        queues[parent_path] = replace(parent, children=parent.children + (path,))


def select_partition(config: SchedulerConfig) -> PartitionConfig | None:
    """The shim submits everything to the ``default`` partition."""
    parts = config.partitions
    for p in parts:
        if p.normalized_name == "default":
            return p
    return parts[0] if parts else None


# ------------------------------------------------------------------------------- cluster -----

def build_cluster(partition: PartitionConfig, objects, *, generate_unique_app_id: bool = False) -> Cluster:
    """The partition's queues with the nodes and pods of ``objects`` (loader ``KubeObject``s)."""
    queues, views = _queue_infos(partition)
    notes: list[str] = []
    pcs = priority_classes(objects)
    default_pc = next((pc for pc in pcs.values() if pc.global_default), None)

    node_objs = [o for o in objects if o.kind == "Node" and o.name]
    pod_objs = [o for o in objects if o.kind == "Pod" and o.name]
    node_types = {str(k) for o in node_objs for k in _node_allocatable(o)}
    # The shim adds ``pods: 1`` to every pod and real nodes report a ``pods`` capacity.  Abstract
    # states (translated unit tests: opaque resource names, no cpu / memory anywhere) carry only
    # what they list, so the implicit count is added only for a Kubernetes-shaped node list.
    pods_resource = PODS in node_types and bool(node_types & {"cpu", "memory"})
    if not node_objs:
        # no nodes: assume a real cluster (pods: 1) when pods ask for Kubernetes resources
        pods_resource = any(
            k in ("cpu", "memory") for o in pod_objs for k in effective_pod_requests(as_dict(o.data.get("spec"))))

    # ---- pods -> tasks -----------------------------------------------------------------------
    raw_tasks = []
    ignored: list[tuple[str, str]] = []
    foreign: list[ForeignPod] = []
    owner_uids: dict[str, set[str]] = {}
    for o in pod_objs:
        md, spec, status = o.metadata, as_dict(o.data.get("spec")), as_dict(o.data.get("status"))
        phase = as_str(status.get("phase")) or "Pending"
        ns = o.namespace or "default"
        if phase in TERMINAL_PHASES:
            ignored.append((f"{ns}/{o.name}", f"the pod has finished (phase {phase})"))
            continue
        node = as_str(spec.get("nodeName"))
        info = pod_spec_info(spec)
        resized = _spec_with_status(spec, status) if node else spec
        requests = info.requests if resized is spec else effective_pod_requests(resized)
        resource = to_yunikorn(requests)
        if pods_resource and PODS not in resource:
            # the shim's implicit pod count (a pod that names ``pods`` itself, as translated
            # test states do, already carries it)
            resource = add(resource, {PODS: 1})
        scheduler = as_str(spec.get("schedulerName")) or "default-scheduler"
        if scheduler != SCHEDULER_NAME:
            ignored.append((f"{ns}/{o.name}", f"spec.schedulerName is {scheduler}, not {SCHEDULER_NAME}: "
                                              "YuniKorn does not schedule it" + (
                                                  f" (it occupies resources on {node})" if node else "")))
            if node:
                owners = as_list(md.get("ownerReferences"))
                static = any(as_dict(r).get("kind") == "Node" for r in owners)
                foreign.append(ForeignPod(f"{ns}/{o.name}", node, resource, static))
            continue
        app_id, _ = application_id(md, generate_unique_app_id)
        for ref in as_list(md.get("ownerReferences")):
            uid = as_str(as_dict(ref).get("uid"))
            if uid:
                owner_uids.setdefault(app_id, set()).add(uid)
        raw_tasks.append((o, ns, node, resource, app_id, info))

    # ---- applications: queue fixed by the first pod ---------------------------------------
    first: dict[str, tuple[float, object]] = {}
    for o, _ns, _node, _res, app_id, _info in raw_tasks:
        t = parse_time(o.metadata.get("creationTimestamp"))
        if app_id not in first or t < first[app_id][0]:
            first[app_id] = (t, o)
    apps: dict[str, Application] = {}
    rejected: list[tuple[str, str]] = []
    for app_id, (t, o) in sorted(first.items(), key=lambda kv: (kv[1][0], kv[0])):
        md = o.metadata
        submitted, _src = queue_name(md)
        user, groups = _user_info(str_map(md.get("annotations")))
        tags = {"namespace": o.namespace or "default"}
        for k, v in str_map(md.get("labels")).items():
            tags.setdefault(k.lower(), v)
        pl = place(partition.rules, queues, submitted, user, groups, tags)
        if pl.queue is not None and pl.create:
            _create(queues, views, pl.create)
        apps[app_id] = Application(app_id, pl.queue, t, user, groups, pl.rule if pl.queue else pl.rule)

    tasks: list[Task] = []
    for o, ns, node, resource, app_id, info in raw_tasks:
        md, spec = o.metadata, as_dict(o.data.get("spec"))
        ann = str_map(md.get("annotations"))
        labels = str_map(md.get("labels"))
        sources: list[str] = []
        pc = pcs.get(info.priority_class_name or "") if info.priority_class_name else None
        prio = as_int(spec.get("priority"))
        if prio is None:
            if pc is not None:
                prio = pc.value
                sources.append(f"priority {prio} from PriorityClass {pc.name} (spec.priority unset)")
            elif not info.priority_class_name and default_pc is not None:
                prio = default_pc.value
                sources.append(f"priority {prio} from the global default PriorityClass {default_pc.name}")
            else:
                prio = 0
        policy = as_str(spec.get("preemptionPolicy"))
        if policy is None and pc is not None and pc.preemption_policy:
            policy = pc.preemption_policy
        allow_self = _bool_text(ann.get(ALLOW_PREEMPTION))
        if allow_self is None:
            allow_self = False if (pc is not None and pc.allow_preemption is False) else True
            if pc is not None and pc.allow_preemption is False:
                sources.append(f"opted out of preemption by PriorityClass {pc.name}")
        required = _required_node(md, spec)
        app = apps[app_id]
        uid = as_str(md.get("uid")) or ""
        tasks.append(Task(
            key=f"{ns}/{o.name}", namespace=ns, name=o.name, uid=uid, application=app_id, queue=app.queue,
            resource=resource, priority=prio, create_time=parse_time(md.get("creationTimestamp")), node=node,
            allow_preempt_self=allow_self, allow_preempt_other=policy != "Never",
            originator=bool(uid) and uid in owner_uids.get(app_id, set()), required_node=required,
            placeholder=_bool_text(ann.get(PLACEHOLDER)) is True or labels.get("placeholder") == "true",
            user=app.user, groups=app.groups, spec=info, sources=tuple(sources),
        ))
        if app.queue is None:
            rejected.append((f"{ns}/{o.name}", app.placement))

    # ---- nodes ----------------------------------------------------------------------------------
    on_node: dict[str, Resource] = {}
    for t in tasks:
        if t.node:
            on_node[t.node] = add(on_node.get(t.node), t.resource)
    foreign_on: dict[str, Resource] = {}
    for f in foreign:
        foreign_on[f.node] = add(foreign_on.get(f.node), f.resource)
    nodes: list[Node] = []
    for o in node_objs:
        status, spec = as_dict(o.data.get("status")), as_dict(o.data.get("spec"))
        capacity = to_yunikorn(_quantities(_node_allocatable(o)))
        ready = True
        for c in as_list(status.get("conditions")):
            c = as_dict(c)
            if c.get("type") == "Ready":
                ready = str(c.get("status")) == "True"
        allocated = on_node.get(o.name, {})
        occupied = foreign_on.get(o.name, {})
        nodes.append(Node(o.name, capacity, allocated, occupied, schedulable=spec.get("unschedulable") is not True,
                          ready=ready, labels=str_map(o.metadata.get("labels")), taints=parse_taints(spec.get("taints"))))
    known = {n.name for n in nodes}
    if node_objs:
        stray = sorted({t.node for t in tasks if t.node and t.node not in known})
        if stray:
            notes.append("pods run on nodes missing from the input: " + ", ".join(stray))

    # root max = the cluster size
    root = queues["root"]
    if node_objs:
        total: Resource = {}
        for n in nodes:
            total = add(total, n.capacity)
        queues["root"] = replace(root, max=total or None)
    else:
        notes.append("no Node objects in the input: node fit and per-node victims are not evaluated "
                     "(queue-level only), and root's max (the cluster size) is unknown")

    ns_policy = partition.nodesortpolicy
    weights = dict(ns_policy.resourceweights or {}) or {VCORE: 1.0, "memory": 1.0}
    return Cluster(
        partition=partition.normalized_name, queues=queues, nodes=tuple(sorted(nodes, key=lambda n: n.name)),
        tasks=tuple(tasks), applications=apps, foreign=tuple(foreign), has_nodes=bool(node_objs),
        pods_resource=pods_resource, preemption_enabled=partition.preemption.enabled_effective,
        node_sort_policy=ns_policy.type or "fair", resource_weights=weights, rejected=tuple(rejected),
        ignored=tuple(ignored),
        notes=tuple(notes),
    )


def _node_allocatable(o) -> dict:
    status = as_dict(o.data.get("status"))
    alloc = status.get("allocatable")
    return alloc if isinstance(alloc, dict) else as_dict(status.get("capacity"))


def _required_node(md: dict, spec: dict) -> str | None:
    """DaemonSet pods pinned to one node by node affinity on ``metadata.name`` (§8)."""
    if not any(as_dict(r).get("kind") == "DaemonSet" for r in as_list(md.get("ownerReferences"))):
        return None
    req = as_dict(as_dict(as_dict(spec.get("affinity")).get("nodeAffinity")).get(
        "requiredDuringSchedulingIgnoredDuringExecution"))
    for term in as_list(req.get("nodeSelectorTerms")):
        for f in as_list(as_dict(term).get("matchFields")):
            f = as_dict(f)
            values = as_list(f.get("values"))
            if f.get("key") == "metadata.name" and f.get("operator") == "In" and len(values) == 1:
                return str(values[0])
    return None
