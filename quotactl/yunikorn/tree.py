"""The queue tree as YuniKorn runs it: effective resources, properties after inheritance, the
priority each queue exposes and where the fences are (``quotactl queues``; yunikorn-core queue.go
``setResources``, ``UpdateQueueProperties``, ``recalculatePriority``).

Data only: ``build_tree`` returns frozen dataclasses that the JSON and text renderers show as is.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from quotactl.model.yunikorn import (
    ChildTemplate,
    Limit,
    PartitionConfig,
    QueueConfig,
    SchedulerConfig,
)
from quotactl.model.yunikorn_resources import (
    Resource,
    component_wise_min_permissive,
    parse_lenient,
    strictly_greater_than_zero,
)
from quotactl.yunikorn import properties as props


@dataclass(frozen=True)
class Setting:
    """One interpreted property: the value YuniKorn uses and where it came from."""

    key: str
    value: str  # as a user would write it (fifo, 30s, 10, enabled)
    source: str  # "own" | "inherited" | "reset" (not inherited: YuniKorn's default) | "default" | "fallback" | "fixed"
    origin: str | None = None  # the queue the text came from (own or an ancestor)
    written: str | None = None  # the text in force before parsing (None when unset)
    note: str | None = None  # why the written text was not used, or why the setting does not apply


@dataclass(frozen=True)
class QueueView:
    name: str
    path: str  # root.team.dev
    names: tuple[str, ...]
    leaf: bool
    parent_flag: bool
    inserted: bool
    guaranteed: Resource | None  # parsed, as configured (None: unset)
    max: Resource | None
    applied_guaranteed: Resource | None  # after setResources: a map without any positive value is unset
    applied_max: Resource | None
    effective_max: Resource | None  # min along the path (root: cluster size, unknown offline -> None)
    max_applications: int
    submit_acl: str
    admin_acl: str
    properties: dict[str, str]  # as configured on this queue
    effective_properties: dict[str, str]  # after inheritance (the text map YuniKorn holds)
    settings: tuple[Setting, ...]
    priority_policy: str
    priority_offset: int
    priority_fence: bool
    preemption_policy: str
    preemption_fence: bool
    preemption_disabled: bool
    priority_at_root: str  # how a pod priority p in this queue is seen by root: "p+10", "10 (fenced at ...)"
    limits: tuple[Limit, ...]
    child_template: ChildTemplate | None
    template_from: str | None  # the queue whose childtemplate applies to dynamic children created here
    children: tuple[QueueView, ...]

    def setting(self, key: str) -> Setting | None:
        return next((s for s in self.settings if s.key == key), None)

    def walk(self):
        yield self
        for c in self.children:
            yield from c.walk()


@dataclass(frozen=True)
class PartitionView:
    name: str
    index: int
    root: QueueView
    placement_rules: tuple[dict, ...]
    node_sort_policy: str
    resource_weights: dict[str, float]
    preemption_enabled: bool
    quota_preemption_enabled: bool
    user_group_resolver: str | None
    limits: tuple[Limit, ...]


def _applied(r: Resource | None) -> Resource | None:
    """queue.go ``setResources``: a max / guaranteed that is not strictly greater than zero is treated as unset."""
    return r if r and strictly_greater_than_zero(r) else None


def _settings(merged: dict[str, str], own: dict[str, str], origins: dict[str, str], leaf: bool,
              is_root: bool, preemption_on: bool) -> tuple[Setting, ...]:
    out: list[Setting] = []
    for key in props.KNOWN:
        raw = merged.get(key)
        parsed = props.PARSERS[key](raw)
        if key in own:
            source = "own"
        elif raw is not None:
            source = "inherited" if key in origins else "reset"
        else:
            source = "default"
        note = parsed.error
        value = props.describe(key, parsed.value)
        if raw is not None and parsed.error and parsed.default:
            source = "fallback"
        if key == props.SORT_POLICY and not leaf:
            value, source, note = "fair", "fixed", "parent queues always order their children fair (by usage)"
        if key == props.PREEMPTION_DELAY and not leaf and note is None:
            note = "applies to leaf queues only (inherited by children)"
        if is_root and key in (props.PRIORITY_POLICY, props.PRIORITY_OFFSET) and key in own:
            note = "no effect on root: nothing above it to compare priorities with"
        if key in (props.PREEMPTION_POLICY, props.PREEMPTION_DELAY) and not preemption_on:
            note = "preemption is disabled for the partition (preemption.enabled: false)"
        out.append(Setting(key, value, source, origins.get(key), raw, note))
    return tuple(out)


def _priority_at_root(chain: list[tuple[str, str, int]]) -> str:
    """``chain`` = [(path, policy, offset)] from the queue up to (not including) root."""
    const: int | None = None
    shift = 0
    fence_at = None
    for path, policy, offset in chain:
        if policy == "fence":
            const, shift, fence_at = offset, 0, path
            continue
        shift += offset
    if const is not None:
        value = max(props.INT32_MIN, min(props.INT32_MAX, const + shift))
        return f"{value} (fenced at {fence_at})"
    if shift == 0:
        return "p"
    return f"p{shift:+d}"


def build_tree(partition: PartitionConfig) -> PartitionView:
    preemption_on = partition.preemption.enabled_effective

    def build(q: QueueConfig, names: tuple[str, ...], parent_eff: dict[str, str] | None,
              parent_origins: dict[str, str], parent_max: Resource | None, ancestors: list[tuple[str, str, int]],
              template: tuple[ChildTemplate, str] | None, is_root: bool) -> QueueView:
        path = ".".join(names)
        own = dict(q.properties or {})
        merged = props.merge_properties(parent_eff, own) if not is_root else dict(own)
        origins = {k: v for k, v in parent_origins.items()
                   if k in merged and parent_eff is not None and merged[k] == parent_eff.get(k)}
        for k in own:
            origins[k] = path
        leaf = q.is_leaf and not is_root
        guaranteed = None if is_root else (parse_lenient(q.resources.guaranteed)[0]
                                            if q.resources.guaranteed is not None else None)
        maximum = None if is_root else (parse_lenient(q.resources.max)[0] if q.resources.max is not None else None)
        applied_max = _applied(maximum)
        effective_max = component_wise_min_permissive(applied_max, parent_max)
        settings = _settings(merged, own, origins, leaf, is_root, preemption_on)
        pp = props.parse_priority_policy(merged.get(props.PRIORITY_POLICY)).value
        po = props.parse_priority_offset(merged.get(props.PRIORITY_OFFSET)).value
        pre = props.parse_preemption_policy(merged.get(props.PREEMPTION_POLICY)).value
        chain = ([(path, pp, po)] + ancestors) if not is_root else []
        own_template = (q.childtemplate, path) if q.childtemplate.present and not q.childtemplate.is_empty else None
        in_force = own_template or template
        children = tuple(
            build(c, names + (c.name,), merged, origins, effective_max, chain, in_force, False) for c in q.children
        )
        return QueueView(
            name=q.name if not is_root else "root", path=path, names=names, leaf=leaf, parent_flag=q.parent,
            inserted=q.inserted, guaranteed=guaranteed, max=maximum, applied_guaranteed=_applied(guaranteed),
            applied_max=applied_max, effective_max=effective_max, max_applications=q.maxapplications,
            submit_acl=q.submitacl, admin_acl=q.adminacl, properties=own, effective_properties=merged,
            settings=settings, priority_policy=pp, priority_offset=po, priority_fence=pp == "fence",
            preemption_policy=pre, preemption_fence=pre == "fence" or is_root, preemption_disabled=pre == "disabled",
            priority_at_root="p" if is_root else _priority_at_root(chain),
            limits=tuple(q.limits or ()), child_template=q.childtemplate if own_template else None,
            template_from=None if leaf else (in_force[1] if in_force else None), children=children,
        )

    root_q = partition.root()
    root_limits = root_q.limits or partition.limits or ()
    root_view = build(root_q, ("root",), None, {}, None, [], None, True)
    if root_limits and not root_view.limits:
        from dataclasses import replace

        root_view = replace(root_view, limits=tuple(root_limits))
    rules = []
    for i, rule in enumerate(partition.rules):
        chain = rule.chain()
        rules.append({
            "index": i, "chain": "->".join(r.name for r in chain), "create": rule.create,
            "values": [r.value for r in chain if r.value], "filter": rule.filter.type or None,
        })
    return PartitionView(
        name=partition.normalized_name, index=partition.index, root=root_view, placement_rules=tuple(rules),
        node_sort_policy=partition.nodesortpolicy.type or "fair",
        resource_weights=dict(partition.nodesortpolicy.resourceweights or {}),
        preemption_enabled=preemption_on,
        quota_preemption_enabled=partition.preemption.quota_preemption_effective,
        user_group_resolver=partition.usergroupresolver or None,
        limits=tuple(partition.limits or ()),
    )


def build_views(config: SchedulerConfig) -> list[PartitionView]:
    return [build_tree(p) for p in config.partitions]


@dataclass
class ConfigView:
    """One scheduler config of the run: where it came from, its partitions, and lint's verdict on it."""

    file: str
    origin: str
    kind: str
    partitions: list[PartitionView]
    errors: int = 0
    warnings: int = 0
    rejected_with: str | None = None  # YuniKorn's own first error, when the config is invalid
    notes: list[str] = field(default_factory=list)
    live: object | None = None  # quotactl.yunikorn.live.LiveState when the input holds Nodes / Pods

    @property
    def valid(self) -> bool:
        return self.errors == 0
