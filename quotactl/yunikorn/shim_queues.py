"""The queues of a partition as YuniKorn's core builds them: the configured tree with its applied
properties, and the queues placement rules create at run time (a created leaf takes the nearest
``childtemplate``)."""

from __future__ import annotations

from dataclasses import replace

from quotactl.model.yunikorn import PartitionConfig
from quotactl.model.yunikorn_resources import parse_lenient
from quotactl.yunikorn import properties as props
from quotactl.yunikorn.cluster import QueueInfo
from quotactl.yunikorn.tree import QueueView, build_tree


def queue_infos(partition: PartitionConfig) -> tuple[dict[str, QueueInfo], dict[str, QueueView]]:
    """The configured queues as the core builds them (keyed by lower-cased path), and their views."""
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


def create_queues(queues: dict[str, QueueInfo], views: dict[str, QueueView], paths: tuple[str, ...]) -> None:
    """Add the queues a placement rule creates (``paths``: parent first) to ``queues``."""
    for i, path in enumerate(paths):
        if path in queues:
            continue
        parent_path = path.rsplit(".", 1)[0]
        parent = queues[parent_path]
        leaf = i == len(paths) - 1
        q = _dynamic_queue(path, parent, leaf, views, _template_for(parent_path, queues, views))
        queues[path] = q
        queues[parent_path] = replace(parent, children=parent.children + (path,))
