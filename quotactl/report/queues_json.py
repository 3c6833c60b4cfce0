"""``quotactl queues --output json``: the documented contract (schemas/output/queues.json).

Resources are YuniKorn's internal integers: ``vcore`` in millicores, ``memory`` and
``ephemeral-storage`` in bytes, everything else as configured.
"""

from __future__ import annotations

import json

from quotactl.model.yunikorn import Limit
from quotactl.model.yunikorn_resources import parse_lenient
from quotactl.report.renderers import register
from quotactl.yunikorn import properties as props
from quotactl.yunikorn.tree import ConfigView, PartitionView, QueueView

SCHEMA_VERSION = 1


def _limit(lim: Limit) -> dict:
    res, _ = parse_lenient(lim.maxresources)
    return {
        "limit": lim.limit, "users": list(lim.users or []), "groups": list(lim.groups or []),
        "maxResources": res or None, "maxApplications": lim.maxapplications,
    }


def live_queue_dict(lq) -> dict:
    return {
        "allocated": dict(lq.allocated), "pending": dict(lq.pending), "runningPods": lq.running_pods,
        "pendingPods": lq.pending_pods, "currentPriority": lq.current_priority,
        "exposedPriority": lq.exposed_priority, "rank": lq.rank, "overGuaranteed": lq.over_guarantee,
        "dynamic": lq.dynamic,
        "applications": [{"id": a.id, "priority": a.priority, "running": a.running, "pending": a.pending}
                         for a in lq.apps],
    }


def queue_dict(v: QueueView, live=None) -> dict:
    settings = {}
    for s in v.settings:
        settings[s.key] = {"value": s.value, "source": s.source, "from": s.origin, "written": s.written,
                           "note": s.note}
    ct = v.child_template
    delay = v.setting(props.PREEMPTION_DELAY)
    out = {
        "name": v.name,
        "path": v.path,
        "type": "leaf" if v.leaf else "parent",
        "inserted": v.inserted,
        "guaranteed": v.applied_guaranteed,
        "max": v.applied_max,
        "effectiveMax": v.effective_max or None,
        "configured": {"guaranteed": v.guaranteed, "max": v.max},
        "maxApplications": v.max_applications,
        "submitACL": v.submit_acl,
        "adminACL": v.admin_acl,
        "properties": dict(sorted(v.properties.items())),
        "effectiveProperties": dict(sorted(v.effective_properties.items())),
        "settings": settings,
        "priority": {"policy": v.priority_policy, "offset": v.priority_offset, "fence": v.priority_fence,
                     "atRoot": v.priority_at_root},
        "preemption": {"policy": v.preemption_policy, "fence": v.preemption_fence,
                       "disabled": v.preemption_disabled, "delay": delay.value if v.leaf and delay else None},
        "sortPolicy": (v.setting(props.SORT_POLICY).value if v.setting(props.SORT_POLICY) else None),
        "sortPriority": (v.setting(props.SORT_PRIORITY).value == "enabled") if v.setting(props.SORT_PRIORITY) else True,
        "limits": [_limit(x) for x in v.limits],
        "childTemplate": None if ct is None else {
            "maxApplications": ct.maxapplications, "properties": dict(sorted((ct.properties or {}).items())),
            "guaranteed": parse_lenient(ct.resources.guaranteed)[0] or None,
            "max": parse_lenient(ct.resources.max)[0] or None,
        },
        "templateFrom": v.template_from,
        "queues": [queue_dict(c, live) for c in v.children],
    }
    if live is not None:
        lq = live.get(v.path)
        out["live"] = live_queue_dict(lq) if lq is not None else None
    return out


def partition_dict(pv: PartitionView, live=None) -> dict:
    live = live if live is not None and live.partition == pv.name else None
    return {
        "name": pv.name,
        "nodeSortPolicy": {"type": pv.node_sort_policy, "resourceWeights": pv.resource_weights},
        "preemption": {"enabled": pv.preemption_enabled, "quotaPreemptionEnabled": pv.quota_preemption_enabled},
        "userGroupResolver": pv.user_group_resolver,
        "placementRules": [dict(r) for r in pv.placement_rules],
        "limits": [_limit(x) for x in pv.limits],
        "root": queue_dict(pv.root, live),
    }


def live_dict(live) -> dict:
    """The cluster-state summary: partition, counts, and the queues placement rules created."""
    return {
        "partition": live.partition, "nodes": live.nodes, "pods": live.pods, "notes": list(live.notes),
        "dynamicQueues": [{"path": q.path, **live_queue_dict(q)} for q in live.queues.values() if q.dynamic],
    }


def config_dict(r: ConfigView) -> dict:
    doc = {
        "file": r.file, "origin": r.origin, "kind": r.kind, "valid": r.valid, "errors": r.errors,
        "warnings": r.warnings, "rejectedWith": r.rejected_with, "notes": list(r.notes),
        "partitions": [partition_dict(p, r.live) for p in r.partitions],
    }
    if r.live is not None:
        doc["live"] = live_dict(r.live)
    return doc


def render(reports: list[ConfigView]) -> str:
    doc = {"version": SCHEMA_VERSION, "configs": [config_dict(r) for r in reports]}
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


register("queues", "json", lambda reports, view: render(reports))
