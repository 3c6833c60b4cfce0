"""The typed YuniKorn scheduler config (``quotactl.model.yunikorn``) from a decoded queues
document.

Lenient: the decoder already reported every value of the wrong type, so a missing or unreadable
field takes the Go zero value here.  Each part keeps its document path, so a finding about it
points at the exact source line through the input's position map.
"""

from __future__ import annotations

from quotactl.load.yunikorn_yaml import Decoded
from quotactl.model.yunikorn import (
    ChildTemplate,
    Filter,
    Limit,
    NodeSortingPolicy,
    PartitionConfig,
    PartitionPreemption,
    PlacementRule,
    QueueConfig,
    Resources,
    SchedulerConfig,
)


def _tuple(values) -> tuple | None:
    return None if values is None else tuple(values)


def _str_map(values) -> dict | None:
    return None if values is None else dict(values)


def _resources(data: dict | None, path: tuple) -> Resources:
    data = data or {}
    return Resources(_str_map(data.get("guaranteed")), _str_map(data.get("max")), path)


def _limit(data: dict, path: tuple) -> Limit:
    return Limit(
        limit=data.get("limit") or "", users=_tuple(data.get("users")), groups=_tuple(data.get("groups")),
        maxresources=_str_map(data.get("maxresources")), maxapplications=data.get("maxapplications") or 0, path=path,
    )


def _limits(values, path: tuple) -> tuple[Limit, ...] | None:
    if values is None:
        return None
    return tuple(_limit(v or {}, path + (i,)) for i, v in enumerate(values))


def _queue(data: dict, path: tuple) -> QueueConfig:
    ct = data.get("childtemplate")
    ct_path = path + ("childtemplate",)
    template = ChildTemplate(
        maxapplications=(ct or {}).get("maxapplications") or 0,
        properties=_str_map((ct or {}).get("properties")),
        resources=_resources((ct or {}).get("resources"), ct_path + ("resources",)),
        path=ct_path, present="childtemplate" in data,
    )
    children = data.get("queues")
    return QueueConfig(
        name=data.get("name") or "",
        parent=bool(data.get("parent")),
        resources=_resources(data.get("resources"), path + ("resources",)),
        maxapplications=data.get("maxapplications") or 0,
        properties=_str_map(data.get("properties")),
        adminacl=data.get("adminacl") or "",
        submitacl=data.get("submitacl") or "",
        childtemplate=template,
        queues=None if children is None else tuple(_queue(c or {}, path + ("queues", i)) for i, c in enumerate(children)),
        limits=_limits(data.get("limits"), path + ("limits",)),
        path=path,
        keys=frozenset(data),
    )


def _rule(data: dict, path: tuple) -> PlacementRule:
    f = data.get("filter") or {}
    parent = data.get("parent")
    return PlacementRule(
        name=data.get("name") or "",
        create=bool(data.get("create")),
        filter=Filter(f.get("type") or "", _tuple(f.get("users")), _tuple(f.get("groups")), path + ("filter",)),
        parent=_rule(parent, path + ("parent",)) if isinstance(parent, dict) else None,
        value=data.get("value") or "",
        path=path,
        keys=frozenset(data),
    )


def _partition(data: dict, index: int) -> PartitionConfig:
    path = ("partitions", index)
    queues = data.get("queues")
    rules = data.get("placementrules")
    pre = data.get("preemption") or {}
    nsp = data.get("nodesortpolicy") or {}
    ugr = data.get("usergroupresolver") or {}
    return PartitionConfig(
        name=data.get("name") or "",
        queues=None if queues is None else tuple(_queue(q or {}, path + ("queues", i)) for i, q in enumerate(queues)),
        placementrules=None if rules is None else tuple(
            _rule(r or {}, path + ("placementrules", i)) for i, r in enumerate(rules)),
        limits=_limits(data.get("limits"), path + ("limits",)),
        preemption=PartitionPreemption(pre.get("enabled"), pre.get("quotapreemptionenabled"), path + ("preemption",)),
        nodesortpolicy=NodeSortingPolicy(nsp.get("type") or "", nsp.get("resourceweights"), path + ("nodesortpolicy",)),
        usergroupresolver=ugr.get("type") or "",
        path=path,
        keys=frozenset(data),
        index=index,
    )


def build_config(decoded: Decoded) -> SchedulerConfig:
    """The scheduler config of a decoded queues document."""
    data = decoded.data or {}
    parts = data.get("partitions") or []
    return SchedulerConfig(
        partitions=tuple(_partition(p or {}, i) for i, p in enumerate(parts)),
        checksum=data.get("checksum") or "",
        keys=frozenset(data),
    )
