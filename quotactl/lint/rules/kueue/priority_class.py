"""PriorityClass and WorkloadPriorityClass rules (kueue ``apis/kueue/v1beta2/workloadpriorityclass_types.go``;
kubernetes ``pkg/apis/scheduling/types.go``)."""

from __future__ import annotations

from quotactl.lint.rule import Finding, RuleDoc, rule
from quotactl.lint.rules.kueue.common import raw
from quotactl.model.coerce import as_int

HIGHEST_USER_DEFINABLE = 1_000_000_000
SYSTEM_PREFIX = "system-"
SYSTEM_CLASSES = {"system-cluster-critical": 2_000_000_000, "system-node-critical": 2_000_001_000}


def _loc(model) -> str:
    return f"{model.source.ref.file}:{model.source.ref.pos().line}"


@rule(
    code="KQ430", name="priority-class-value-reserved", severity="error", layer="webhook", kinds=("PriorityClass",),
    summary="PriorityClass value above 1000000000",
    doc=RuleDoc(
        what="A user-defined scheduling.k8s.io PriorityClass (name not starting with system-) may have a value of "
             "at most 1000000000; larger values are reserved for the system classes.",
        why="The Kubernetes API server rejects the PriorityClass (Forbidden at value), so workloads naming it "
            "cannot be created.",
        fix="Use a value of at most 1000000000; order your classes below that.",
        bad="kind: PriorityClass\nmetadata: {name: critical-batch}\nvalue: 2000000000\n",
        good="kind: PriorityClass\nmetadata: {name: critical-batch}\nvalue: 1000000000\n",
        source=("kubernetes pkg/apis/scheduling/validation/validation.go ValidatePriorityClass "
                "(HighestUserDefinablePriority)"),
    ),
)
def check_value(pc, ctx):
    value = as_int(raw(pc, ("value",)))
    if value is None or (pc.name or "").startswith(SYSTEM_PREFIX):
        return
    if value > HIGHEST_USER_DEFINABLE:
        yield Finding(
            ("value",),
            f"maximum allowed value of a user defined priority is {HIGHEST_USER_DEFINABLE} (got {value})",
            type="Forbidden",
            hint=f"Use a value of at most {HIGHEST_USER_DEFINABLE}.",
        )


@rule(
    code="KQ431", name="priority-class-system-prefix", severity="error", layer="webhook", kinds=("PriorityClass",),
    summary="PriorityClass name with the reserved system- prefix",
    doc=RuleDoc(
        what="PriorityClass names starting with system- are reserved: only the built-in system-cluster-critical "
             "(2000000000) and system-node-critical (2000001000), with their exact values and globalDefault "
             "false, are accepted.",
        why="The Kubernetes API server rejects any other system- class (Forbidden at metadata.name). The two "
            "built-ins always exist in a cluster, so there is no need to declare them.",
        fix="Rename the class (e.g. platform-critical) and keep its value at or below 1000000000.",
        bad="kind: PriorityClass\nmetadata: {name: system-batch}\nvalue: 1000\n",
        good="kind: PriorityClass\nmetadata: {name: batch-high}\nvalue: 1000\n",
        source="kubernetes pkg/apis/scheduling/helpers.go IsKnownSystemPriorityClass",
    ),
)
def check_system_prefix(pc, ctx):
    name = pc.name or ""
    if not name.startswith(SYSTEM_PREFIX):
        return
    prefix = f"priority class names with '{SYSTEM_PREFIX}' prefix are reserved for system use only. error: "
    value = as_int(raw(pc, ("value",)))
    if name not in SYSTEM_CLASSES:
        yield Finding(("metadata", "name"), prefix + f"{name} is not a known system priority class",
                      type="Forbidden", hint="Rename the class; system- names belong to Kubernetes.")
    elif value is not None and value != SYSTEM_CLASSES[name]:
        yield Finding(("metadata", "name"), prefix + f"value of {name} PriorityClass must be {SYSTEM_CLASSES[name]}",
                      type="Forbidden", hint="Do not redefine the built-in system classes; they already exist.")
    elif pc.global_default:
        yield Finding(("metadata", "name"), prefix + f"globalDefault of {name} PriorityClass must be false",
                      type="Forbidden", hint="Do not redefine the built-in system classes; they already exist.")


@rule(
    code="KQ432", name="several-global-default-priority-classes", severity="error", layer="webhook",
    kinds=("PriorityClass",), scope="cluster",
    summary="More than one PriorityClass has globalDefault: true",
    doc=RuleDoc(
        what="At most one scheduling.k8s.io PriorityClass may be the global default.",
        why="Kubernetes' Priority admission refuses a second default (\"Only one default can exist\"). If several "
            "exist anyway (created concurrently), Kubernetes and Kueue use the one with the lowest value for "
            "every pod and Workload that names no class, which silently lowers the default priority.",
        fix="Set globalDefault: true on exactly one class.",
        bad="kind: PriorityClass\nmetadata: {name: low}\nvalue: 10\nglobalDefault: true\n---\n"
            "kind: PriorityClass\nmetadata: {name: normal}\nvalue: 100\nglobalDefault: true\n",
        good="kind: PriorityClass\nmetadata: {name: low}\nvalue: 10\n---\n"
             "kind: PriorityClass\nmetadata: {name: normal}\nvalue: 100\nglobalDefault: true\n",
        source=("kueue pkg/util/priority/priority.go getDefaultPriorityClass (several globalDefault "
                "classes: the lowest value wins)"),
    ),
)
def check_global_defaults(ctx):
    defaults = [o for o in ctx.cluster.all_objects if o.source.kind == "PriorityClass" and o.global_default]
    if len(defaults) < 2:
        return
    valued = [d for d in defaults if d.value is not None]
    chosen = min(valued, key=lambda d: d.value) if valued else defaults[0]
    names = ", ".join(f"{d.name} ({d.value})" for d in defaults)
    first = defaults[0]
    for d in defaults[1:]:
        yield Finding(
            ("globalDefault",),
            f"PriorityClass {first.name} is already marked as default. Only one default can exist "
            f"(global defaults: {names}); if several exist, Kubernetes and Kueue use the lowest value, "
            f"{chosen.name} ({chosen.value}), for everything that names no class",
            type="Forbidden",
            subject=d,
            hint="Keep globalDefault: true on a single class.",
            related=(_loc(first),),
        )


@rule(
    code="KQ433", name="default-workload-priority-class", severity="info", layer="runtime",
    kinds=("WorkloadPriorityClass",), gate="WorkloadPriorityClassDefaulting",
    summary="WorkloadPriorityClass named default applies to every unlabelled job",
    doc=RuleDoc(
        what="A WorkloadPriorityClass named `default` while gate WorkloadPriorityClassDefaulting is on (beta, on by "
             "default since v0.20).",
        why="Kueue labels every job that has no kueue.x-k8s.io/priority-class label with "
            "kueue.x-k8s.io/priority-class: default, so this class's value becomes the priority of all "
            "unlabelled workloads (instead of 0 or the pod PriorityClass).",
        fix="Nothing, if intended. Otherwise rename the class, or disable the gate.",
        bad="",
        good="kind: WorkloadPriorityClass\nmetadata: {name: default}\nvalue: 0\n",
        source=("kueue pkg/controller/jobframework/defaults.go ApplyDefaultWorkloadPriorityClass (feature "
                "gate WorkloadPriorityClassDefaulting)"),
    ),
)
def check_default_wpc(wpc, ctx):
    if wpc.name != "default" or not ctx.gates.enabled("WorkloadPriorityClassDefaulting"):
        return
    yield Finding(
        ("metadata", "name"),
        f"WorkloadPriorityClass \"default\" (value {wpc.value}) is applied to every job without a "
        "kueue.x-k8s.io/priority-class label (gate WorkloadPriorityClassDefaulting)",
        type=None,
    )
