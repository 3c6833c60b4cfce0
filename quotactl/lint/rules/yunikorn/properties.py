"""YK2xx: queue properties that YuniKorn parses leniently and silently replaces with a default
(yunikorn-core queue.go ``UpdateQueueProperties``).  The validator accepts any property, so
these are warnings: the config loads, but does something other than what it says."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from quotactl.lint.rule import RuleDoc
from quotactl.lint.rules.yunikorn.base import YKContext, yk_rule
from quotactl.load.yunikorn import YuniKornInput
from quotactl.model.yunikorn import QueueRef, queue_object
from quotactl.yunikorn import properties as P
from quotactl.yunikorn.issues import Issue
from quotactl.yunikorn.tree import QueueView

LEAF_ONLY = (P.SORT_POLICY, P.PREEMPTION_DELAY, P.BACKOFF, P.BACKOFF_DELAY)


@dataclass(frozen=True)
class Site:
    """One written properties map: a queue's own, or its childtemplate's."""

    ref: QueueRef
    values: dict[str, str]
    path: tuple
    template: bool

    @property
    def object(self) -> str:
        return queue_object(self.ref.partition, self.ref.names)

    @property
    def where(self) -> str:
        if self.template:
            return f"the dynamic queues created under {self.ref.dotted} (childtemplate)"
        return f"queue {self.ref.dotted}"

    @property
    def leaf(self) -> bool:
        return self.template or (self.ref.queue.is_leaf and not self.ref.is_root)


def sites(ctx: YKContext) -> Iterator[Site]:
    for ref in ctx.queues():
        q = ref.queue
        if q.properties:
            yield Site(ref, q.properties, q.path + ("properties",), False)
        if q.childtemplate.properties:
            yield Site(ref, q.childtemplate.properties, q.childtemplate.path + ("properties",), True)


def _views(ctx: YKContext) -> dict[tuple, QueueView]:
    cache = ctx.extra.get("views_by_path")
    if cache is None:
        cache = {}
        for pv in ctx.views:
            for v in pv.root.walk():
                cache[(pv.index, v.path)] = v
        ctx.extra["views_by_path"] = cache
    return cache


def inheriting_leaves(ctx: YKContext, site: Site, key: str) -> list[str]:
    """Leaf queues below ``site`` whose ``key`` comes from it (configured children inherit; dynamic
    children do not)."""
    views = _views(ctx)
    me = views.get((site.ref.partition.index, site.ref.dotted))
    if me is None:
        return []
    out = []
    for v in me.walk():
        s = v.setting(key)
        if v.leaf and s is not None and s.origin == site.ref.dotted:
            out.append(v.path)
    return out


def _applies_to(ctx: YKContext, site: Site, key: str) -> str:
    if site.template or site.leaf:
        return site.where
    leaves = inheriting_leaves(ctx, site, key)
    if not leaves:
        return f"queue {site.ref.dotted} (no configured leaf below inherits it)"
    shown = ", ".join(leaves[:4]) + (f" and {len(leaves) - 4} more" if len(leaves) > 4 else "")
    return f"the leaf queues below {site.ref.dotted} that inherit it ({shown})"


def _issue(site: Site, key: str, message: str, hint: str, severity: str | None = None) -> Issue:
    return Issue("property", message, site.object, site.path + (key,), value=True, hint=hint, severity=severity,
                 type=None)


def _bad_value(key: str, what_it_does: str, hint: str):
    """A YK2xx check: ``key`` written with a value YuniKorn cannot use."""

    def check(inp: YuniKornInput, ctx: YKContext) -> Iterator[Issue]:
        for site in sites(ctx):
            if key not in site.values:
                continue
            raw = site.values[key]
            parsed = P.PARSERS[key](raw)
            if parsed.error is None:
                continue
            used = P.describe(key, parsed.value)
            if key in LEAF_ONLY:
                target = _applies_to(ctx, site, key)
            else:
                target = site.where
            if key == P.SORT_POLICY and raw == "stateaware":
                yield _issue(site, key, f"{key} \"stateaware\" is deprecated: YuniKorn sorts applications fifo in "
                             f"{target}", "use fifo (or fair)", severity="info")
                continue
            yield _issue(site, key, f"{key} {_q(raw)} is ignored ({parsed.error}): YuniKorn silently uses "
                         f"{used} for {target}{what_it_does}", hint)
    return check


def _q(raw: str) -> str:
    return '"' + raw.replace('"', '\\"') + '"'


yk_rule(
    code="YK201", name="priority-offset-invalid", severity="warning", layer="lenient",
    summary="priority.offset that is not an int32: YuniKorn uses 0",
    doc=RuleDoc(
        what="priority.offset is parsed as a base-10 int32 (an optional sign and digits). Anything else (`abc`, "
             "`1.5`, `10 `, `3000000000`) is a parse error.",
        why="YuniKorn logs the error at debug level and uses offset 0: the queue silently loses its boost (or "
            "penalty). It does not clamp an out-of-range value.",
        fix="Write a whole number between -2147483648 and 2147483647, as a string: `priority.offset: \"10\"`.",
        bad="properties:\n  priority.offset: high\n", good="properties:\n  priority.offset: \"100\"\n",
        source=("yunikorn-core pkg/scheduler/objects/queue.go priorityOffset (strconv.ParseInt(value, 10, "
                "32)), called by UpdateQueueProperties"),
    ),
    check=_bad_value(P.PRIORITY_OFFSET, " (the offset is not inherited by children)",
                     "write a whole number between -2147483648 and 2147483647, e.g. \"10\""),
)

yk_rule(
    code="YK202", name="priority-policy-invalid", severity="warning", layer="lenient",
    summary="priority.policy other than default / fence: YuniKorn uses default",
    doc=RuleDoc(
        what="priority.policy is `default` or `fence` (case-insensitive).",
        why="Any other value silently means `default`: the queue is not a priority fence, so its subtree's priorities "
            "compete with the rest of the cluster.",
        fix="Use fence or default.",
        bad="properties:\n  priority.policy: fenced\n", good="properties:\n  priority.policy: fence\n",
        source=("yunikorn-core pkg/scheduler/objects/queue.go UpdateQueueProperties (priority.policy); "
                "yunikorn-core pkg/scheduler/objects/queue.go priorityValueByPolicy"),
    ),
    check=_bad_value(P.PRIORITY_POLICY, " (no priority fence)", "use fence or default"),
)

yk_rule(
    code="YK203", name="sort-policy-invalid", severity="warning", layer="lenient",
    summary="application.sort.policy other than fifo / fair (case-sensitive): YuniKorn uses fifo",
    doc=RuleDoc(
        what="application.sort.policy is `fifo` or `fair`, lower case (`stateaware` is deprecated and behaves as "
             "fifo). It applies to leaf queues and is inherited verbatim, so a bad value on a parent reaches every "
             "leaf below that does not set its own.",
        why="Any other value (including `FIFO` or `Fair`) silently means fifo.",
        fix="Use fifo or fair in lower case.",
        bad="properties:\n  application.sort.policy: Fair\n", good="properties:\n  application.sort.policy: fair\n",
        source=("yunikorn-core pkg/scheduler/objects/queue.go UpdateQueueProperties "
                "(application.sort.policy)"),
    ),
    check=_bad_value(P.SORT_POLICY, "", "use fifo or fair (lower case)"),
)

yk_rule(
    code="YK204", name="sort-priority-invalid", severity="warning", layer="lenient",
    summary="application.sort.priority other than enabled / disabled: YuniKorn uses enabled",
    doc=RuleDoc(
        what="application.sort.priority is `enabled` or `disabled` (case-insensitive); it is inherited.",
        why="Any other value (`false`, `off`, `no`) silently means enabled: priorities keep ordering applications "
            "(leaf) or child queues (parent).",
        fix="Use enabled or disabled.",
        bad="properties:\n  application.sort.priority: \"false\"\n",
        good="properties:\n  application.sort.priority: disabled\n",
        source=("yunikorn-core pkg/scheduler/objects/queue.go applicationSortPriorityEnabled, called by "
                "UpdateQueueProperties"),
    ),
    check=_bad_value(P.SORT_PRIORITY, "", "use enabled or disabled"),
)

yk_rule(
    code="YK205", name="preemption-policy-invalid", severity="warning", layer="lenient",
    summary="preemption.policy other than default / fence / disabled: YuniKorn uses default",
    doc=RuleDoc(
        what="preemption.policy is `default`, `fence` or `disabled` (case-insensitive).",
        why="Any other value silently means default: the queue is neither a preemption fence nor protected from "
            "preemption (and `disabled` is the only value children inherit).",
        fix="Use default, fence or disabled.",
        bad="properties:\n  preemption.policy: never\n", good="properties:\n  preemption.policy: disabled\n",
        source=("yunikorn-core pkg/scheduler/objects/queue.go UpdateQueueProperties (preemption.policy); "
                "yunikorn-core pkg/scheduler/objects/queue.go findPreemptionFenceRoot"),
    ),
    check=_bad_value(P.PREEMPTION_POLICY, "", "use default, fence or disabled"),
)

yk_rule(
    code="YK206", name="preemption-delay-invalid", severity="warning", layer="lenient",
    summary="preemption.delay that is not a positive Go duration: YuniKorn uses 30s",
    doc=RuleDoc(
        what="preemption.delay is a Go duration > 0 (`30s`, `1m30s`, `2h`); it applies to leaf queues and is "
             "inherited.",
        why="An unparsable value (`30`, `1 min`, `1d`), zero or a negative duration silently means 30s.",
        fix="Write a positive duration with a unit: s, m or h.",
        bad="properties:\n  preemption.delay: \"60\"\n", good="properties:\n  preemption.delay: 60s\n",
        source=("yunikorn-core pkg/scheduler/objects/queue.go convertDelay, called by UpdateQueueProperties "
                "(preemption.delay)"),
    ),
    check=_bad_value(P.PREEMPTION_DELAY, "", "write a positive duration with a unit, e.g. 60s or 2m"),
)

yk_rule(
    code="YK207", name="quota-preemption-delay-invalid", severity="warning", layer="lenient",
    summary="quota.preemption.delay that is not a Go duration: quota preemption stays off",
    doc=RuleDoc(
        what="quota.preemption.delay is a Go duration; > 0 turns on quota preemption for the queue.",
        why="An unparsable or negative value silently means 0: quota preemption stays off.",
        fix="Write a positive duration with a unit.",
        bad="properties:\n  quota.preemption.delay: 5 minutes\n", good="properties:\n  quota.preemption.delay: 5m\n",
        source=("yunikorn-core pkg/scheduler/objects/queue.go convertDelay, called by UpdateQueueProperties "
                "(quota.preemption.delay)"),
    ),
    check=_bad_value(P.QUOTA_PREEMPTION_DELAY, " (quota preemption off)", "write a positive duration, e.g. 5m"),
)


def _backoff(inp: YuniKornInput, ctx: YKContext) -> Iterator[Issue]:
    yield from _bad_value(P.BACKOFF, " (backoff off)", "write a whole number of attempts, e.g. \"3\"")(inp, ctx)
    yield from _bad_value(P.BACKOFF_DELAY, "", "write a positive duration, e.g. 30s")(inp, ctx)


yk_rule(
    code="YK208", name="unschedulable-backoff-invalid", severity="warning", layer="lenient",
    summary="application.unschedasks.backoff(.delay) that does not parse: YuniKorn uses its default",
    doc=RuleDoc(
        what="application.unschedasks.backoff is an unsigned integer (0 = off); application.unschedasks.backoff.delay "
             "a positive Go duration (default 30s).",
        why="Values that do not parse silently fall back to the defaults.",
        fix="Write a whole number / a positive duration.",
        source=("yunikorn-core pkg/scheduler/objects/queue.go unschedulableAskBackoff, convertDelay, called "
                "by UpdateQueueProperties"),
    ),
    check=_backoff,
)


# --------------------------------------------------------------------------- YK209 ------------

def check_no_effect(inp: YuniKornInput, ctx: YKContext) -> Iterator[Issue]:
    for site in sites(ctx):
        p = site.ref.partition
        values = site.values
        if site.ref.is_root and not site.template:
            for key in (P.PRIORITY_POLICY, P.PRIORITY_OFFSET):
                if key in values:
                    yield _issue(site, key, f"{key} {_q(values[key])} on root has no effect: root has no parent and "
                                 "no siblings to compare its priority with, and children do not inherit it",
                                 f"remove it, or set {key} on the child queues that should be boosted or fenced")
            if P.PREEMPTION_POLICY in values and P.parse_preemption_policy(values[P.PREEMPTION_POLICY]).value == "fence":
                yield _issue(site, P.PREEMPTION_POLICY, "preemption.policy fence on root has no effect: root always "
                             "bounds the preemption search, and fence is not inherited",
                             "set preemption.policy: fence on the queues whose subtree should be closed")
        if P.QUOTA_PREEMPTION_DELAY in values and not p.preemption.quota_preemption_effective:
            if P.parse_quota_preemption_delay(values[P.QUOTA_PREEMPTION_DELAY]).value:
                yield _issue(site, P.QUOTA_PREEMPTION_DELAY,
                             f"quota.preemption.delay {_q(values[P.QUOTA_PREEMPTION_DELAY])} on {site.where} has no "
                             "effect: quota preemption is off for the partition (preemption.quotapreemptionenabled is "
                             "not true)", "set preemption: {quotapreemptionenabled: true} on the partition, or remove "
                             "the property")
        if not p.preemption.enabled_effective:
            for key in (P.PREEMPTION_POLICY, P.PREEMPTION_DELAY):
                if key in values:
                    yield _issue(site, key, f"{key} {_q(values[key])} on {site.where} has no effect: preemption is "
                                 "disabled for the partition (preemption.enabled: false)",
                                 "enable preemption on the partition, or remove the property")
        if not site.template and site.ref.queue.parent and not site.ref.queue.children and not site.ref.is_root:
            for key in LEAF_ONLY:
                if key in values:
                    yield _issue(site, key, f"{key} {_q(values[key])} on {site.where} has no effect: it applies to "
                                 f"leaf queues, {site.ref.dotted} has no configured children, and the dynamic queues "
                                 "created under it do not inherit its properties",
                                 f"move it to childtemplate.properties of {site.ref.dotted}")


yk_rule(
    code="YK209", name="property-no-effect", severity="warning", layer="lenient",
    summary="a property set where YuniKorn ignores it",
    doc=RuleDoc(
        what="Properties that cannot change anything where they are written: priority.policy / priority.offset on "
             "root, preemption.policy fence on root, preemption settings when the partition disables preemption, "
             "quota.preemption.delay when quota preemption is off, and leaf-only properties "
             "(application.sort.policy, preemption.delay, application.unschedasks.*) on a parent without configured "
             "children (dynamic children take their properties from childtemplate, not from the parent).",
        why="The setting looks active but YuniKorn ignores it, without a message.",
        fix="Move the property to where it applies, or remove it.",
        bad="- name: root\n  properties:\n    priority.offset: \"100\"\n",
        good="- name: root\n  queues:\n    - name: critical\n      properties:\n        priority.offset: \"100\"\n",
        source=("yunikorn-core pkg/scheduler/objects/queue.go filterParentProperty, mergeProperties; "
                "YuniKorn priority scheduling design ('can be set on the root queue but have no effect')"),
    ),
    check=check_no_effect,
)


# --------------------------------------------------------------------------- YK210 ------------

def check_unknown(inp: YuniKornInput, ctx: YKContext) -> Iterator[Issue]:
    for site in sites(ctx):
        for key in site.values:
            if key in P.KNOWN:
                continue
            guess = P.suggest(key)
            if guess:
                msg = (f"unknown queue property {_q(key)} on {site.where}: YuniKorn ignores it; did you mean {guess}? "
                       f"({guess} stays {P.DEFAULT_TEXT[guess]} unless set elsewhere)")
                hint = f"rename the key to {guess}"
            else:
                msg = f"unknown queue property {_q(key)} on {site.where}: YuniKorn keeps it but nothing reads it"
                hint = "known properties: " + ", ".join(P.KNOWN)
            yield _issue(site, key, msg, hint)


yk_rule(
    code="YK210", name="property-unknown", severity="warning", layer="lenient",
    summary="a queue property YuniKorn does not know (often a typo)",
    doc=RuleDoc(
        what="Known properties: " + ", ".join(P.KNOWN) + ". Other keys are kept and ignored.",
        why="A misspelt key (`priority.ofset`, `preemption_policy`) silently leaves the real setting at its default.",
        fix="Correct the key, or remove it.",
        bad="properties:\n  preemption_policy: disabled\n", good="properties:\n  preemption.policy: disabled\n",
        source=("yunikorn-core pkg/scheduler/objects/queue.go UpdateQueueProperties (unknown keys are "
                "skipped)"),
    ),
    check=check_unknown,
)


# --------------------------------------------------------------------------- YK211 ------------

def check_large_offset(inp: YuniKornInput, ctx: YKContext) -> Iterator[Issue]:
    flagged: set[tuple] = set()
    for site in sites(ctx):
        if P.PRIORITY_OFFSET not in site.values or (site.ref.is_root and not site.template):
            continue
        parsed = P.parse_priority_offset(site.values[P.PRIORITY_OFFSET])
        if parsed.error is not None:
            continue
        offset = int(parsed.value)
        if abs(offset) <= P.SAFE_OFFSET:
            continue
        flagged.add((site.ref.partition.index, site.ref.dotted))
        yield _issue(site, P.PRIORITY_OFFSET, _large_message(site.where, offset, None), _LARGE_HINT)
    # offsets that add up along a path of default-policy queues
    refs = {(r.partition.index, r.dotted): r for r in ctx.queues()}
    for pv in ctx.views:
        for v in pv.root.walk():
            if not v.leaf or not v.priority_at_root.startswith("p") or v.priority_at_root == "p":
                continue
            shift = int(v.priority_at_root[1:])
            if abs(shift) <= P.SAFE_OFFSET:
                continue
            if any((pv.index, ".".join(v.names[:i])) in flagged for i in range(2, len(v.names) + 1)):
                continue
            ref = refs.get((pv.index, v.path))
            if ref is None:
                continue
            yield Issue("property", _large_message(f"queue {v.path}", shift, "the priority.offset values on its path "
                        "add up"), queue_object(ref.partition, ref.names),
                        ref.queue.path + ("properties", P.PRIORITY_OFFSET), type=None, hint=_LARGE_HINT)


_LARGE_HINT = ("keep offsets within ±999999999 (the limit the priority design considered), or fence the queue "
               "(priority.policy: fence) so its boost stays inside its subtree")


def _large_message(where: str, offset: int, how: str | None) -> str:
    lead = f"{how} to {offset}" if how else f"priority.offset {offset}"
    if offset > 0:
        seen = min(P.INT32_MAX, P.HIGHEST_USER_PRIORITY + offset)
        clamp = " (clamped at 2147483647)" if P.HIGHEST_USER_PRIORITY + offset > P.INT32_MAX else ""
        return (f"{lead} on {where} is very large: a pod with the highest user priority (1000000000) is seen as "
                f"{seen}{clamp}, above system-cluster-critical ({P.SYSTEM_CLUSTER_CRITICAL}) and system-node-critical "
                f"({P.SYSTEM_NODE_CRITICAL}) pods in other queues")
    low = P.HIGHEST_USER_PRIORITY * -1 + offset
    clamp = low < P.INT32_MIN
    return (f"{lead} on {where} is very large: pod priorities are pushed down to {max(P.INT32_MIN, low)}"
            + (" (clamped at -2147483648, the value YuniKorn also uses for 'nothing pending': the queue can look "
               "idle to its parent)" if clamp else "")
            + ", below every system priority")


yk_rule(
    code="YK211", name="priority-offset-large", severity="warning", layer="lenient",
    summary="a priority offset so large that pods clamp at int32 or outrank system priorities",
    doc=RuleDoc(
        what="Offsets beyond ±999999999 (alone, or added up along a path of non-fenced queues).",
        why="The priority design warns that a very large offset clamps all pods of the queue at the maximum "
            "priority, or lifts them above Kubernetes' system priority classes (2000000000 and 2000001000), which "
            "can starve node- and cluster-critical pods in sibling queues. YuniKorn accepts it without a message.",
        fix="Use offsets well inside the user priority range, or fence the queue.",
        bad="properties:\n  priority.offset: \"1500000000\"\n", good="properties:\n  priority.offset: \"1000\"\n",
        source=("yunikorn-core pkg/scheduler/objects/queue.go priorityValueByPolicy, recalculatePriority; "
                "YuniKorn priority scheduling design (priority offset)"),
    ),
    check=check_large_offset,
)
