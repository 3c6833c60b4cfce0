"""ClusterQueue concurrentAdmissionPolicy rules (kueue ``pkg/webhooks/clusterqueue_webhook.go``).

They belong to the alpha feature gate ConcurrentAdmission (off by default): Kueue only runs them
with the gate on.  A ClusterQueue that sets ``concurrentAdmissionPolicy`` means to use the feature,
so quotactl runs them unless the gate is explicitly disabled (``--feature-gates
ConcurrentAdmission=false`` or the Configuration's featureGates).  The field exists in v1beta2 only.
"""

from __future__ import annotations

from quotactl.lint.k8s_checks import go_list, quote
from quotactl.lint.rule import Finding, RuleDoc, rule
from quotactl.lint.rules.kueue.common import raw

GATE = "ConcurrentAdmission"
KINDS = ("ClusterQueue",)
MAX_FLAVORS = 16
POLICY = ("spec", "concurrentAdmissionPolicy")


def _active(cq, ctx) -> bool:
    return (
        cq.version == "v1beta2"
        and isinstance(raw(cq, POLICY), dict)
        and ctx.gates.enabled_for_use(GATE)
    )


def _migration(cq, ctx) -> dict | None:
    """spec.concurrentAdmissionPolicy.migration when the rules run and it is an object."""
    if not _active(cq, ctx):
        return None
    migration = raw(cq, POLICY + ("migration",))
    return migration if isinstance(migration, dict) else None


def _group_count(cq) -> int:
    groups = raw(cq, ("spec", "resourceGroups"))
    return len(groups) if isinstance(groups, list) else 0


@rule(
    code="KQ205", name="concurrent-admission-one-group", severity="error", layer="webhook", kinds=KINDS,
    gate=GATE,
    summary="concurrentAdmissionPolicy needs exactly one resource group",
    doc=RuleDoc(
        what="A ClusterQueue with concurrentAdmissionPolicy must have exactly one resource group.",
        why="With the ConcurrentAdmission gate on, Kueue's webhook rejects it (403, \"must have exactly one "
            "ResourceGroup when ConcurrentAdmissionPolicy is defined\").",
        fix="Merge the resource groups into one (covering all resources), or drop concurrentAdmissionPolicy.",
        bad="concurrentAdmissionPolicy:\n  migration: {mode: TryPreferredFlavors}\nresourceGroups:\n"
            "- coveredResources: [cpu]\n  ...\n- coveredResources: [nvidia.com/gpu]\n  ...\n",
        good="concurrentAdmissionPolicy:\n  migration: {mode: TryPreferredFlavors}\nresourceGroups:\n"
             "- coveredResources: [cpu, nvidia.com/gpu]\n  ...\n",
        source="kueue pkg/webhooks/clusterqueue_webhook.go validateConcurrentAdmissionPolicy",
    ),
)
def check_one_group(cq, ctx):
    if not _active(cq, ctx):
        return
    n = _group_count(cq)
    if n != 1:
        yield Finding(
            ("spec", "resourceGroups"),
            f"must have exactly one ResourceGroup when ConcurrentAdmissionPolicy is defined: the ClusterQueue has {n}",
            type="Invalid",
            hint="Use a single resource group, or remove spec.concurrentAdmissionPolicy.",
        )


@rule(
    code="KQ206", name="concurrent-admission-max-flavors", severity="error", layer="webhook", kinds=KINDS,
    gate=GATE,
    summary="concurrentAdmissionPolicy allows at most 16 flavors",
    doc=RuleDoc(
        what="With concurrentAdmissionPolicy, the (single) resource group may have at most 16 flavors.",
        why="With the ConcurrentAdmission gate on, Kueue's webhook rejects it (403, \"cannot have more than 16 "
            "resource flavors in the ResourceGroup when ConcurrentAdmissionPolicy is defined\").",
        fix="Reduce the flavors to 16 or fewer, or drop concurrentAdmissionPolicy.",
        bad="concurrentAdmissionPolicy:\n  migration: {mode: TryPreferredFlavors}\nresourceGroups:\n"
            "- coveredResources: [cpu]\n  flavors: [f0, ..., f16]   # 17 flavors\n",
        good="concurrentAdmissionPolicy:\n  migration: {mode: TryPreferredFlavors}\nresourceGroups:\n"
             "- coveredResources: [cpu]\n  flavors: [f0, ..., f15]   # 16 flavors\n",
        source="kueue pkg/webhooks/clusterqueue_webhook.go validateConcurrentAdmissionPolicy",
    ),
)
def check_max_flavors(cq, ctx):
    if not _active(cq, ctx) or _group_count(cq) != 1:
        return
    flavors = raw(cq, ("spec", "resourceGroups", 0, "flavors"))
    if isinstance(flavors, list) and len(flavors) > MAX_FLAVORS:
        yield Finding(
            ("spec", "resourceGroups", 0, "flavors"),
            f"cannot have more than {MAX_FLAVORS} resource flavors in the ResourceGroup when "
            f"ConcurrentAdmissionPolicy is defined: got {len(flavors)}",
            type="Invalid",
            hint=f"Keep at most {MAX_FLAVORS} flavors, or remove spec.concurrentAdmissionPolicy.",
        )


@rule(
    code="KQ207", name="concurrent-admission-constraints-mode", severity="error", layer="webhook", kinds=KINDS,
    gate=GATE,
    summary="migration.constraints needs mode TryPreferredFlavors",
    doc=RuleDoc(
        what="concurrentAdmissionPolicy.migration.constraints may only be set when migration.mode is "
             "TryPreferredFlavors.",
        why="With the ConcurrentAdmission gate on, Kueue's webhook rejects it (403 Forbidden, 'may only be set "
            "when migration.mode is \"TryPreferredFlavors\" (got \"<mode>\")').",
        fix="Use mode: TryPreferredFlavors, or remove constraints (RetainFirstAdmission never migrates, so there "
            "is nothing to constrain).",
        bad="migration:\n  mode: RetainFirstAdmission\n  constraints: {lastAcceptableFlavorName: spot}\n",
        good="migration:\n  mode: TryPreferredFlavors\n  constraints: {lastAcceptableFlavorName: spot}\n",
        source=("kueue pkg/webhooks/clusterqueue_webhook.go validateConcurrentAdmissionPolicy "
                "(migration.constraints)"),
    ),
)
def check_constraints_mode(cq, ctx):
    migration = _migration(cq, ctx)
    if migration is None or migration.get("constraints") is None:
        return
    mode = migration.get("mode")
    if mode in (None, "", "TryPreferredFlavors") or not isinstance(mode, str):
        return
    yield Finding(
        POLICY + ("migration", "constraints"),
        f'may only be set when migration.mode is "TryPreferredFlavors" (got {quote(mode)})',
        type="Forbidden",
        hint="Set migration.mode: TryPreferredFlavors, or remove migration.constraints.",
    )


@rule(
    code="KQ208", name="concurrent-admission-unknown-flavor", severity="error", layer="webhook", kinds=KINDS,
    gate=GATE,
    summary="lastAcceptableFlavorName is not a flavor of the ClusterQueue",
    doc=RuleDoc(
        what="concurrentAdmissionPolicy.migration.constraints.lastAcceptableFlavorName must name one of the "
             "ClusterQueue's flavors.",
        why="With the ConcurrentAdmission gate on, Kueue's webhook rejects it (403, \"must be one of the "
            "flavors defined in the ClusterQueue: [...]\").",
        fix="Use the name of one of the ClusterQueue's flavors (migration stops at that flavor in the order "
            "the resource group lists them).",
        bad="constraints:\n  lastAcceptableFlavorName: non-existent-flavor\n",
        good="constraints:\n  lastAcceptableFlavorName: flavor1\n",
        source=("kueue pkg/webhooks/clusterqueue_webhook.go validateConcurrentAdmissionPolicy "
                "(lastAcceptableFlavorName)"),
    ),
)
def check_last_acceptable_flavor(cq, ctx):
    migration = _migration(cq, ctx)
    if migration is None:
        return
    mode = migration.get("mode")
    if isinstance(mode, str) and mode not in ("", "TryPreferredFlavors"):
        return  # KQ207 reports the constraints themselves
    constraints = migration.get("constraints")
    if not isinstance(constraints, dict):
        return
    name = constraints.get("lastAcceptableFlavorName")
    if not isinstance(name, str) or not name:
        return
    flavors = list(dict.fromkeys(cq.flavor_names))
    if name in flavors:
        return
    yield Finding(
        POLICY + ("migration", "constraints", "lastAcceptableFlavorName"),
        f"must be one of the flavors defined in the ClusterQueue: {go_list(flavors)} (got {quote(name)})",
        type="Invalid",
        hint="Name one of the flavors of the ClusterQueue's resource group.",
    )


@rule(
    code="KQ209", name="concurrent-admission-strict-fifo", severity="error", layer="webhook", kinds=KINDS,
    gate=GATE,
    summary="StrictFIFO cannot be combined with concurrentAdmissionPolicy",
    doc=RuleDoc(
        what="A ClusterQueue with concurrentAdmissionPolicy may not use queueingStrategy: StrictFIFO.",
        why="With the ConcurrentAdmission gate on, Kueue's webhook rejects it (403, \"StrictFIFO queueing "
            "strategy cannot be used when ConcurrentAdmissionPolicy is defined\").",
        fix="Use queueingStrategy: BestEffortFIFO (the default), or drop concurrentAdmissionPolicy.",
        bad="queueingStrategy: StrictFIFO\nconcurrentAdmissionPolicy:\n  migration: {mode: TryPreferredFlavors}\n",
        good="queueingStrategy: BestEffortFIFO\nconcurrentAdmissionPolicy:\n  migration: {mode: TryPreferredFlavors}\n",
        source="kueue pkg/webhooks/clusterqueue_webhook.go validateConcurrentAdmissionPolicy",
    ),
)
def check_strict_fifo(cq, ctx):
    if not _active(cq, ctx):
        return
    if raw(cq, ("spec", "queueingStrategy")) == "StrictFIFO":
        yield Finding(
            ("spec", "queueingStrategy"),
            "StrictFIFO queueing strategy cannot be used when ConcurrentAdmissionPolicy is defined",
            type="Invalid",
            hint="Use queueingStrategy: BestEffortFIFO, or remove spec.concurrentAdmissionPolicy.",
        )
