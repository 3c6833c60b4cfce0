"""YK3xx: configs the validator accepts but that fail, or do something surprising, when YuniKorn
builds the partition and schedules (yunikorn-core partition.go ``newPartitionContext``, queue.go
``setResources``)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from quotactl.lint.rule import RuleDoc
from quotactl.lint.rules.yunikorn.base import YKContext, yk_rule
from quotactl.load.yunikorn import YuniKornInput
from quotactl.model.yunikorn import ROOT, PlacementRule, queue_object, rule_object
from quotactl.model.yunikorn_resources import (
    QuantityError,
    parse_lenient,
    parse_quantity,
    strictly_greater_than_zero,
)
from quotactl.yunikorn.issues import Issue
from quotactl.yunikorn.validate import RULE_NAME_RE

KNOWN_RULES = ("provided", "user", "tag", "fixed")


def _issue(kind: str, message: str, obj: str, field: tuple, hint: str, at: tuple | None = None,
           value: bool = True, severity: str | None = None) -> Issue:
    return Issue(kind, message, obj, field, at=at, value=value, hint=hint, type=None, severity=severity)


# --------------------------------------------------------------------------- YK301 ------------

def check_rule_names(inp: YuniKornInput, ctx: YKContext) -> Iterator[Issue]:
    for p in inp.config.partitions:
        for i, rule in enumerate(p.rules):
            cur: PlacementRule | None = rule
            while cur is not None:
                name = cur.name
                low = name.lower()
                if RULE_NAME_RE.fullmatch(name) and low not in KNOWN_RULES:
                    why = ("the recovery rule is internal and cannot be configured" if low == "recovery"
                           else f"unknown rule name specified {name}, failing placement rule config")
                    yield _issue("rule-unknown", f"placement rule {name!r} passes validation but YuniKorn rejects it "
                                 f"when it builds the placement manager ({why}): the whole rule set is not applied",
                                 rule_object(p, i), cur.path + ("name",),
                                 "use one of provided, user, tag, fixed (any case)")
                cur = cur.parent


yk_rule(
    code="YK301", name="placement-rule-unknown", severity="warning", layer="runtime",
    summary="a placement rule name the placement manager does not know",
    doc=RuleDoc(
        what="The validator only checks that rule names are identifiers; the placement manager knows provided, "
             "user, tag and fixed (any case) and rejects everything else, including `recovery`.",
        why="`unknown rule name specified <name>, failing placement rule config`: the rules are not applied.",
        fix="Use a known rule name.",
        bad="placementrules:\n  - name: namespace\n", good="placementrules:\n  - name: tag\n    value: namespace\n",
        source="yunikorn-core pkg/scheduler/placement/rule.go newRule (unknown rule name specified)",
    ),
    check=check_rule_names,
)


# --------------------------------------------------------------------------- YK302 ------------

def check_acl_spaces(inp: YuniKornInput, ctx: YKContext) -> Iterator[Issue]:
    for ref in ctx.queues():
        q = ref.queue
        for fieldname in ("adminacl", "submitacl"):
            acl = getattr(q, fieldname)
            trimmed = acl.strip()
            if not trimmed or trimmed == "*" or len(trimmed.split()) > 2:
                continue  # empty, wildcard, or already a validator error (YK105)
            if "  " in trimmed:
                yield _issue("acl-runtime", f"{fieldname} {acl!r} on queue {ref.dotted} passes validation but "
                             "queue creation fails with 'multiple spaces found in ACL': the runtime parser splits on "
                             "single spaces", queue_object(ref.partition, ref.names), q.path + (fieldname,),
                             "separate users from groups with exactly one space: 'user1,user2 group1,group2'")


yk_rule(
    code="YK302", name="acl-runtime-spaces", severity="warning", layer="runtime",
    summary="an ACL with repeated whitespace that fails at queue creation",
    doc=RuleDoc(
        what="The validator splits an ACL on runs of whitespace; the runtime ACL parser splits on single spaces.",
        why="`\"alice  admins\"` passes validate-conf but creating the queue fails with `multiple spaces found in "
            "ACL`.",
        fix="Use exactly one space between the users and the groups part.",
        bad="submitacl: \"alice  admins\"\n", good="submitacl: \"alice admins\"\n",
        source="yunikorn-core pkg/common/security/acl.go NewACL (splits on single spaces)",
    ),
    check=check_acl_spaces,
)


# --------------------------------------------------------------------------- YK303 / YK304 ----

def check_root_name(inp: YuniKornInput, ctx: YKContext) -> Iterator[Issue]:
    for p in inp.config.partitions:
        top = p.queues or ()
        if len(top) == 1 and top[0].name.lower() == ROOT and top[0].name != ROOT:
            yield _issue("root-case", f"top queue {top[0].name!r} passes validation (any case is accepted) but "
                         "partition creation needs exactly 'root': 'partition cannot be created without root queue'",
                         queue_object(p, (ROOT,)), top[0].path + ("name",), "name it root (lower case)")


yk_rule(
    code="YK303", name="root-name-case", severity="warning", layer="runtime",
    summary="the top queue is spelled ROOT / Root",
    doc=RuleDoc(
        what="The validator accepts any case for the root queue; partition creation requires exactly `root`.",
        why="`partition cannot be created without root queue`: the config passes validate-conf but is not applied.",
        fix="Spell it root.",
        bad="queues:\n  - name: ROOT\n", good="queues:\n  - name: root\n",
        source="yunikorn-core pkg/scheduler/partition.go (partition cannot be created without root queue)",
    ),
    check=check_root_name,
)


def check_parent_false(inp: YuniKornInput, ctx: YKContext) -> Iterator[Issue]:
    for ref in ctx.queues():
        q = ref.queue
        if q.children and q.has("parent") and not q.parent and not ref.is_root:
            yield _issue("parent-false", f"queue {ref.dotted} says parent: false but has {len(q.children)} child "
                         "queue(s): YuniKorn silently makes it a parent", queue_object(ref.partition, ref.names),
                         q.path + ("parent",), "remove 'parent: false' (or the children)")


yk_rule(
    code="YK304", name="parent-false-with-children", severity="warning", layer="runtime",
    summary="parent: false on a queue that has children",
    doc=RuleDoc(
        what="A queue with child queues is a parent whatever its `parent` flag says.",
        why="The flag is silently ignored (the docs claim it is a parse error). Note that placement-rule checks only "
            "honour an explicit `parent: true`.",
        fix="Remove `parent: false`.",
        source="yunikorn-core pkg/scheduler/objects/queue.go applyConf (isLeaf = !conf.Parent)",
    ),
    check=check_parent_false,
)


# --------------------------------------------------------------------------- YK305 ------------

def check_child_template(inp: YuniKornInput, ctx: YKContext) -> Iterator[Issue]:
    for ref in ctx.queues():
        q = ref.queue
        ct = q.childtemplate
        if not ct.present:
            continue
        obj = queue_object(ref.partition, ref.names)
        for which in ("guaranteed", "max"):
            conf = getattr(ct.resources, which)
            _, errors = parse_lenient(conf)
            for name, err in errors.items():
                path = ct.path + ("resources", which)
                yield _issue("template", f"childtemplate.resources.{which}.{name} {(conf or {}).get(name)!r} on "
                             f"{ref.dotted}: {err}; the validator does not check child templates, but partition "
                             "creation fails ('configured queue creation failed')", obj, path,
                             "use a YuniKorn quantity (whole number, optional suffix)", at=path + (name,))
        if q.is_leaf and not ref.is_root and not ct.is_empty:
            yield _issue("template", f"childtemplate on leaf queue {ref.dotted} has no effect: only parent queues get "
                         "dynamic children", obj, ct.path, "move it to a parent queue (or mark this one parent: true)",
                         value=False, severity="info")


yk_rule(
    code="YK305", name="child-template-invalid", severity="warning", layer="runtime",
    summary="a childtemplate that breaks partition creation or has no effect",
    doc=RuleDoc(
        what="`childtemplate` is not validated. A bad quantity in it makes partition creation fail; a template on a "
             "leaf queue is never used.",
        why="`configured queue creation failed: ...` at load time, although validate-conf accepted the config.",
        fix="Fix the quantities; put templates on parent queues.",
        source=("yunikorn-core pkg/scheduler/objects/template/template.go FromConf; yunikorn-core "
                "pkg/scheduler/objects/queue.go NewConfiguredQueue"),
    ),
    check=check_child_template,
)


# --------------------------------------------------------------------------- YK306 - YK308 -----

def _resource_maps(ctx: YKContext):
    """(object, where, conf, path) for every resource map of every queue, limit and template."""
    for ref in ctx.queues():
        q = ref.queue
        obj = queue_object(ref.partition, ref.names)
        if not ref.is_root:
            for which in ("guaranteed", "max"):
                conf = getattr(q.resources, which)
                if conf:
                    yield obj, f"resources.{which} of {ref.dotted}", conf, q.resources.path + (which,)
        for which in ("guaranteed", "max"):
            conf = getattr(q.childtemplate.resources, which)
            if conf:
                yield (obj, f"childtemplate.resources.{which} of {ref.dotted}", conf,
                       q.childtemplate.resources.path + (which,))
        for i, lim in enumerate(q.limits or ()):
            if lim.maxresources:
                yield obj, f"limits[{i}].maxresources of {ref.dotted}", lim.maxresources, lim.path + ("maxresources",)
    for p in ctx.inp.config.partitions:
        for i, lim in enumerate(p.limits or ()):
            if lim.maxresources:
                yield (f"partition/{p.normalized_name}", f"limits[{i}].maxresources of partition {p.normalized_name}",
                       lim.maxresources, lim.path + ("maxresources",))


def check_zero_maps(inp: YuniKornInput, ctx: YKContext) -> Iterator[Issue]:
    for ref in ctx.queues():
        q = ref.queue
        if ref.is_root:
            continue
        for which in ("guaranteed", "max"):
            conf = getattr(q.resources, which)
            if not conf:
                continue
            res, errors = parse_lenient(conf)
            if errors or strictly_greater_than_zero(res):
                continue
            effect = ("the queue has no max at all (only its ancestors limit it)" if which == "max"
                      else "the queue has no guarantee")
            yield _issue("zero-map", f"resources.{which} of {ref.dotted} has no value above zero: YuniKorn treats it "
                         f"as unset, so {effect}", queue_object(ref.partition, ref.names),
                         q.resources.path + (which,),
                         "remove it, or give the resources that should be limited a positive value (a 0 next to a "
                         "positive value does block that resource)", value=False)


yk_rule(
    code="YK306", name="resources-all-zero", severity="warning", layer="runtime",
    summary="a max or guaranteed map with only zeros: YuniKorn treats it as unset",
    doc=RuleDoc(
        what="A queue max (or guarantee) that is not strictly greater than zero — every value 0 — is ignored when the "
             "queue is built. A max that has some zero entries next to positive ones is kept, and blocks the "
             "zero-valued resources.",
        why="`max: {vcore: 0, memory: 0}` meant to stop a queue leaves it unlimited instead.",
        fix="To block a queue, give one resource a small positive max and the others 0, or remove the queue; "
            "otherwise remove the map.",
        bad="resources:\n  max: {vcore: 0, memory: 0}\n", good="resources:\n  max: {vcore: 0, memory: 1}\n",
        source=("yunikorn-core pkg/scheduler/objects/queue.go setResources (a map without a positive value "
                "is unset)"),
    ),
    check=check_zero_maps,
)

SUSPICIOUS = {
    "cpu": "vcore", "cpus": "vcore", "vcores": "vcore", "core": "vcore", "cores": "vcore", "vcpu": "vcore",
    "mem": "memory", "ram": "memory", "memory_mb": "memory", "memorymb": "memory",
    "gpu": "nvidia.com/gpu", "gpus": "nvidia.com/gpu",
}


def check_resource_names(inp: YuniKornInput, ctx: YKContext) -> Iterator[Issue]:
    for obj, label, conf, path in _resource_maps(ctx):
        for name in conf:
            meant = SUSPICIOUS.get(name.lower()) if name not in ("vcore", "memory") else None
            if not meant and name.lower() in ("vcore", "memory") and name != name.lower():
                meant = name.lower()
            if meant:
                yield _issue("resource-name", f"{label} uses resource {name!r}, which YuniKorn "
                             f"treats as an arbitrary resource that pods from the shim never request: it limits "
                             f"nothing. The shim sends CPU as 'vcore' (millicores) and memory as 'memory' (bytes)",
                             obj, path, f"rename {name!r} to {meant!r}",
                             at=path + (name,), value=False)


yk_rule(
    code="YK307", name="resource-name-suspicious", severity="warning", layer="runtime",
    summary="a resource name like cpu / mem that pods never request",
    doc=RuleDoc(
        what="Only `vcore` gets CPU treatment; the shim turns a pod's `cpu` into `vcore` and keeps `memory`, "
             "`pods`, `ephemeral-storage` and extended resources (`nvidia.com/gpu`) verbatim. `cpu`, `vcores`, "
             "`mem`... in a queue config are arbitrary resources.",
        why="A max or guarantee on a name no pod asks for does nothing.",
        fix="Use vcore, memory, or the exact extended resource name.",
        bad="max: {cpu: 8, mem: 16Gi}\n", good="max: {vcore: 8, memory: 16Gi}\n",
        source=("yunikorn-core pkg/common/resources/resources.go NewResourceFromConf; yunikorn-k8shim "
                "pkg/common/resource.go (the names the shim sends)"),
    ),
    check=check_resource_names,
)


def check_memory_units(inp: YuniKornInput, ctx: YKContext) -> Iterator[Issue]:
    for obj, label, conf, path in _resource_maps(ctx):
        for name in ("memory", "ephemeral-storage"):
            raw = conf.get(name)
            if raw is None or not re.fullmatch(r"\s*[0-9]+\s*", raw):
                continue
            try:
                value = parse_quantity(raw)  # YuniKorn's own parser (Python's int() refuses 4,301 digits: fuzzer)
            except QuantityError:
                continue  # an overflow: the quantity rules report it
            if 0 < value < 1024 * 1024:
                yield _issue("memory-unit", f"{name} {value} in {label} has no unit: YuniKorn counts {name} in "
                             f"bytes, so this is {value} B, not {value}Mi or {value}Gi",
                             obj, path, f"write {value}Mi or {value}Gi",
                             at=path + (name,))


yk_rule(
    code="YK308", name="memory-without-unit", severity="warning", layer="runtime",
    summary="a memory quantity without a unit, far too small to be meant as bytes",
    doc=RuleDoc(
        what="memory (and ephemeral-storage) are bytes. A plain number below 1Mi is almost certainly missing its unit.",
        why="`memory: 512` allows 512 bytes: nothing fits (max), or the guarantee is meaningless.",
        fix="Add the unit: 512Mi, 16Gi.",
        bad="max: {memory: 512}\n", good="max: {memory: 512Mi}\n",
        source="yunikorn-core pkg/common/resources/quantity.go ParseQuantity (a bare number is bytes)",
    ),
    check=check_memory_units,
)


# --------------------------------------------------------------------------- YK309 ------------

def check_resolver(inp: YuniKornInput, ctx: YKContext) -> Iterator[Issue]:
    for p in inp.config.partitions:
        t = p.usergroupresolver
        if t and t not in ("os", "ldap"):
            yield _issue("resolver", f"usergroupresolver.type {t!r} is not os or ldap; the validator does not check it",
                         f"partition/{p.normalized_name}", p.path + ("usergroupresolver", "type"),
                         "use os (default) or ldap")


yk_rule(
    code="YK309", name="user-group-resolver-unknown", severity="warning", layer="runtime",
    summary="an unknown usergroupresolver type",
    doc=RuleDoc(
        what="usergroupresolver.type is empty, `os` or `ldap`; it is not validated.",
        why="An unknown resolver does not resolve groups the way the limits and ACLs expect.",
        fix="Use os or ldap.",
        source="yunikorn-core pkg/common/security/usergroup.go GetUserGroupCache",
    ),
    check=check_resolver,
)
