"""ClusterQueue CEL and webhook rules beyond resource groups (kueue
``apis/kueue/v1beta2/clusterqueue_types.go``, ``pkg/webhooks/clusterqueue_webhook.go``)."""

from __future__ import annotations

from quotactl.diagnostics import Fix
from quotactl.lint.k8s_checks import quote, quoted_list, selector_problems
from quotactl.lint.rule import Finding, RuleDoc, rule
from quotactl.lint.rules.kueue.common import given, raw

KINDS = ("ClusterQueue",)
RECLAIM_POLICIES = ("Never", "LowerPriority", "Any")
BORROW_POLICIES = ("Never", "LowerPriority")
PREFERENCES = ("BorrowingOverPreemption", "PreemptionOverBorrowing")
_FUNGIBILITY_VALUES = ("MayStopSearch", "TryNextFlavor", "Borrow", "Preempt")


# ------------------------------------------------------------------------------- KQ201 --------

@rule(
    code="KQ201", name="borrow-within-cohort-needs-reclaim", severity="error", layer="cel", kinds=KINDS,
    summary="borrowWithinCohort.policy set while reclaimWithinCohort is Never",
    doc=RuleDoc(
        what="preemption.borrowWithinCohort.policy other than Never requires preemption.reclaimWithinCohort "
             "other than Never. The check runs after CRD defaulting: an omitted reclaimWithinCohort is Never.",
        why="The CRD CEL rule on spec.preemption (422) and the webhook (403) both reject it: "
            "\"reclaimWithinCohort=Never and borrowWithinCohort.Policy!=Never\".",
        fix="Set reclaimWithinCohort to LowerPriority or Any, or drop borrowWithinCohort.",
        bad="preemption:\n  borrowWithinCohort:\n    policy: LowerPriority\n",
        good="preemption:\n  reclaimWithinCohort: Any\n  borrowWithinCohort:\n    policy: LowerPriority\n",
        source=("kueue apis/kueue/v1beta2/clusterqueue_types.go ClusterQueuePreemption (CEL); kueue "
                "pkg/webhooks/clusterqueue_webhook.go validatePreemption"),
    ),
)
def check_borrow_needs_reclaim(cq, ctx):
    reclaim = raw(cq, ("spec", "preemption", "reclaimWithinCohort"))
    policy = raw(cq, ("spec", "preemption", "borrowWithinCohort", "policy"))
    if reclaim is not None and reclaim != "Never":
        return
    if not isinstance(policy, str) or policy == "Never" or policy not in BORROW_POLICIES:
        return  # an unknown policy is an enum error (KQ002), which stops CEL and the webhook
    how = "is Never" if reclaim is not None else "defaults to Never (omitted)"
    yield Finding(
        ("spec", "preemption"),
        f"reclaimWithinCohort=Never and borrowWithinCohort.Policy!=Never: borrowWithinCohort.policy is {policy} "
        f"but reclaimWithinCohort {how}",
        type="Invalid",
        hint="Set preemption.reclaimWithinCohort to LowerPriority or Any (a queue that preempts while borrowing "
             "must also be allowed to reclaim), or remove borrowWithinCohort.",
    )


# ------------------------------------------------------------------------------- KQ202 --------

@rule(
    code="KQ202", name="fungibility-preference-needs-try-next-flavor", severity="error", layer="cel",
    kinds=KINDS,
    summary="flavorFungibility.preference without both policies TryNextFlavor",
    doc=RuleDoc(
        what="flavorFungibility.preference may only be set when whenCanBorrow and whenCanPreempt are both "
             "TryNextFlavor, after defaulting: whenCanBorrow defaults to MayStopSearch, so a preference alone "
             "is rejected. v1beta1's Borrow / Preempt are aliases of MayStopSearch.",
        why="The CRD CEL rule on spec.flavorFungibility rejects it (422, \"preference can only be set when both "
            "whenCanBorrow and whenCanPreempt are TryNextFlavor\"); the webhook says 'preference \"<p>\" "
            "requires both whenCanBorrow and whenCanPreempt to be TryNextFlavor'.",
        fix="Set both whenCanBorrow and whenCanPreempt to TryNextFlavor, or remove preference (with "
            "MayStopSearch the first fitting flavor wins and there is nothing to prefer).",
        bad="flavorFungibility:\n  preference: PreemptionOverBorrowing\n",
        good="flavorFungibility:\n  whenCanBorrow: TryNextFlavor\n  whenCanPreempt: TryNextFlavor\n"
             "  preference: PreemptionOverBorrowing\n",
        source=("kueue apis/kueue/v1beta2/clusterqueue_types.go FlavorFungibility (CEL); kueue "
                "pkg/webhooks/clusterqueue_webhook.go validateFlavorFungibility"),
    ),
)
def check_fungibility_preference(cq, ctx):
    base = ("spec", "flavorFungibility")
    pref = raw(cq, base + ("preference",))
    if not isinstance(pref, str) or not pref:
        return
    wrong = []
    for fieldname in ("whenCanBorrow", "whenCanPreempt"):
        value = raw(cq, base + (fieldname,))
        if value is not None and value not in _FUNGIBILITY_VALUES:
            return  # enum error (KQ002) stops CEL and the webhook
        effective = getattr(cq.flavor_fungibility, "when_can_borrow" if fieldname == "whenCanBorrow"
                            else "when_can_preempt")
        if effective != "TryNextFlavor":
            if value is None:
                wrong.append(f"{fieldname} defaults to {effective}")
            elif value != effective:
                wrong.append(f"{fieldname} is {value} (= {effective})")
            else:
                wrong.append(f"{fieldname} is {effective}")
    if not wrong:
        return
    yield Finding(
        base + ("preference",),
        f"preference {quote(pref)} requires both whenCanBorrow and whenCanPreempt to be TryNextFlavor "
        f"(CEL: \"preference can only be set when both whenCanBorrow and whenCanPreempt are TryNextFlavor\"): "
        + ", ".join(wrong),
        type="Invalid",
        hint="Set whenCanBorrow: TryNextFlavor and whenCanPreempt: TryNextFlavor, or remove preference.",
    )


# ------------------------------------------------------------------------------- KQ203 --------

@rule(
    code="KQ203", name="invalid-namespace-selector", severity="error", layer="webhook", kinds=KINDS,
    summary="namespaceSelector is not a valid label selector",
    doc=RuleDoc(
        what="spec.namespaceSelector must be a valid label selector: matchLabels keys are label keys and "
             "values label values; each matchExpressions entry uses In/NotIn (with values), Exists/"
             "DoesNotExist (without values), a label-key key and label-value values.",
        why="Kueue's webhook rejects the ClusterQueue (403): e.g. \"must be specified when `operator` is 'In' "
            "or 'NotIn'\", \"not a valid selector operator\", or the label-key / label-value message.",
        fix="Fix the selector as the message says. To admit every namespace use namespaceSelector: {}.",
        bad="namespaceSelector:\n  matchExpressions:\n  - key: team\n    operator: In\n",
        good="namespaceSelector:\n  matchExpressions:\n  - key: team\n    operator: In\n    values: [ml]\n",
        source=("k8s.io/apimachinery pkg/apis/meta/v1/validation/validation.go ValidateLabelSelector "
                "(called by kueue pkg/webhooks/clusterqueue_webhook.go validateClusterQueueSpec)"),
    ),
)
def check_namespace_selector(cq, ctx):
    for p in selector_problems(raw(cq, ("spec", "namespaceSelector")), ("spec", "namespaceSelector")):
        if p.type == "Invalid":
            what = "label key" if p.is_key else ("operator" if p.path[-1] == "operator" else "label value")
            message = f"Invalid value: {quote(p.bad_value)}: {p.message}"
            hint = {
                "label key": "Label keys are [prefix/]name with alphanumerics, '-', '_' and '.' (e.g. "
                             "kubernetes.io/metadata.name).",
                "operator": "Use one of In, NotIn, Exists, DoesNotExist.",
                "label value": "Label values are at most 63 alphanumerics, '-', '_' or '.', starting and ending "
                               "alphanumeric (or empty).",
            }[what]
        elif p.type == "Required":
            message = p.message
            hint = "List the values to match under values, or use operator Exists."
        else:
            message = p.message
            hint = "Remove values, or use operator In / NotIn."
        yield Finding(p.path, message, type=p.type, hint=hint)


# ------------------------------------------------------------------------------- KQ204 --------

@rule(
    code="KQ204", name="admission-check-unknown-flavor", severity="error", layer="webhook", kinds=KINDS,
    summary="admissionChecksStrategy onFlavors names a flavor the ClusterQueue does not have",
    doc=RuleDoc(
        what="Every admissionChecksStrategy.admissionChecks[i].onFlavors[j] must be a flavor listed in the "
             "ClusterQueue's resource groups.",
        why="Kueue's webhook rejects the ClusterQueue (403 NotSupported; supported values = its flavors). "
            "Older ClusterQueues stored with such a value may still be updated while the "
            "RejectUpdatesToCQWithInvalidOnFlavors gate is off, but new ones are refused.",
        fix="Use the name of one of the ClusterQueue's flavors, or add the flavor to a resource group.",
        bad="admissionChecksStrategy:\n  admissionChecks:\n  - name: prov\n    onFlavors: [spot]   # no flavor spot\n",
        good="admissionChecksStrategy:\n  admissionChecks:\n  - name: prov\n    onFlavors: [on-demand]\n",
        source="kueue pkg/webhooks/clusterqueue_webhook.go validateAdmissionCheckOnFlavors",
    ),
)
def check_admission_check_flavors(cq, ctx):
    flavors = list(dict.fromkeys(cq.flavor_names))  # Kueue uses a set of the flavor names
    known = set(flavors)
    for check in cq.admission_checks:
        for j, flavor in enumerate(check.on_flavors):
            if flavor in known:
                continue
            supported = f"supported values: {quoted_list(flavors)}" if flavors else "the ClusterQueue has no flavors"
            yield Finding(
                check.path + ("onFlavors", j),
                f"Unsupported value: {quote(flavor)}: admission check {quote(check.name or '?')} is restricted to "
                f"flavor {flavor}, which is not a flavor of this ClusterQueue ({supported})",
                type="NotSupported",
                hint="Name one of the ClusterQueue's flavors, or add this flavor to a resource group.",
            )


# ------------------------------------------------------------------------------- KQ210 --------

@rule(
    code="KQ210", name="v1beta1-admission-checks-and-strategy", severity="warning", layer="runtime",
    kinds=KINDS,
    summary="v1beta1 ClusterQueue sets both admissionChecks and admissionChecksStrategy",
    doc=RuleDoc(
        what="A v1beta1 ClusterQueue that gives both spec.admissionChecks (plain list) and "
             "spec.admissionChecksStrategy.",
        why="Conversion to v1beta2 keeps the plain list (as rules without onFlavors, i.e. for every flavor) and "
            "silently drops the strategy, so per-flavor restrictions are lost. Kueue v0.14 and earlier "
            "rejected the combination (\"Either AdmissionChecks or AdmissionCheckStrategy can be set, but not "
            "both\").",
        fix="Keep only admissionChecksStrategy (list every check there, with onFlavors where needed), or move "
            "to v1beta2 where only the strategy exists.",
        bad="spec:\n  admissionChecks: [prov]\n  admissionChecksStrategy:\n    admissionChecks:\n"
            "    - {name: prov, onFlavors: [spot]}\n",
        good="spec:\n  admissionChecksStrategy:\n    admissionChecks:\n    - {name: prov, onFlavors: [spot]}\n",
        source="kueue apis/kueue/v1beta1/clusterqueue_conversion.go",
    ),
)
def check_v1beta1_both_checks(cq, ctx):
    if cq.version != "v1beta1":
        return
    if isinstance(raw(cq, ("spec", "admissionChecks")), list) and given(cq, ("spec", "admissionChecksStrategy")):
        yield Finding(
            ("spec", "admissionChecksStrategy"),
            "both spec.admissionChecks and spec.admissionChecksStrategy are set: converting to v1beta2 keeps the "
            "plain admissionChecks list (applied to every flavor) and drops admissionChecksStrategy (Kueue "
            "v0.14 and earlier rejected this: \"Either AdmissionChecks or AdmissionCheckStrategy can be set, but "
            "not both\")",
            type=None,
            hint="Remove spec.admissionChecks and list every check in admissionChecksStrategy.admissionChecks.",
            fix=Fix("remove spec.admissionChecks and keep the strategy"),
        )
