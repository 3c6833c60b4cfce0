"""Workload status rules: admission, conditions, reclaimable pods, admission-check pod-set updates,
and the CEL rules on status (kueue ``apis/kueue/v1beta2/workload_types.go``,
``pkg/webhooks/workload_webhook.go``)."""

from __future__ import annotations

from quotactl.kueue.amounts import to_amount
from quotactl.lint.k8s_checks import quote, quoted_list, scalar_text, toleration_cel_problems
from quotactl.lint.rule import Finding, RuleDoc, rule
from quotactl.lint.rules.kueue.common import (
    annotation_findings,
    any_quota_reserved_true,
    given,
    label_map_findings,
    podset_count,
    podset_name,
    podset_names,
    podsets,
    quota_reserved,
    raw,
    raw_podsets,
)
from quotactl.model.coerce import as_dict, as_int, as_list, as_quantity
from quotactl.model.validation import qualified_name_errors

WL = ("Workload",)


def _reserved_assignments(wl):
    """(k, podSetAssignment) for each status.admission.podSetAssignments entry, while the Workload's
    QuotaReserved condition is True and status.admission is an object (an entry that is not a map
    reads as ``{}``)."""
    adm = raw(wl, ("status", "admission"))
    if not isinstance(adm, dict) or not quota_reserved(wl):
        return
    for k, psa in enumerate(as_list(adm.get("podSetAssignments"))):
        yield k, as_dict(psa)


@rule(
    code="KQ410", name="quota-reserved-without-admission", severity="error", layer="webhook", kinds=WL,
    summary="QuotaReserved=True but status.admission is missing",
    doc=RuleDoc(
        what="A Workload whose QuotaReserved condition is True must say where the quota is reserved "
             "(status.admission).",
        why="The webhook rejects the status update (403, Required at status.admission). Every quota engine "
            "reads usage from status.admission, so such a workload would hold quota nobody can account for.",
        fix="Add status.admission (clusterQueue and podSetAssignments), or set QuotaReserved to False.",
        bad="status:\n  conditions:\n  - {type: QuotaReserved, status: \"True\", ...}\n",
        good="status:\n  admission:\n    clusterQueue: team-a\n    podSetAssignments: [...]\n  conditions:\n"
             "  - {type: QuotaReserved, status: \"True\", ...}\n",
        source="kueue pkg/webhooks/workload_webhook.go validateAdmission",
    ),
)
def check_reserved_without_admission(wl, ctx):
    if quota_reserved(wl) and not given(wl, ("status", "admission")):
        yield Finding(
            ("status", "admission"),
            "must be set while the QuotaReserved condition is true",
            type="Required",
            hint="Add status.admission, or set the QuotaReserved condition to False.",
        )


@rule(
    code="KQ411", name="admission-podset-count-mismatch", severity="error", layer="cel", kinds=WL,
    summary="status.admission has a different number of podSetAssignments than spec.podSets",
    doc=RuleDoc(
        what="CEL rule on the Workload: while QuotaReserved is True and status.admission exists, there must be "
             "exactly one podSetAssignment per pod set.",
        why="The API server rejects the object (422 Invalid, reported at the object root). Kueue charges quota "
            "per assignment, so a missing assignment would be free and an extra one would be charged twice.",
        fix="Give status.admission.podSetAssignments one entry per spec.podSets entry, with matching names.",
        bad="spec:\n  podSets: [{name: main1, ...}, {name: main2, ...}]\nstatus:\n  admission:\n"
            "    podSetAssignments: [{name: main1}, {name: main2}, {name: main3}]\n",
        good="spec:\n  podSets: [{name: main1, ...}, {name: main2, ...}]\nstatus:\n  admission:\n"
             "    podSetAssignments: [{name: main1}, {name: main2}]\n",
        source=("kueue apis/kueue/v1beta2/workload_types.go Workload (CEL: podSetAssignments must have the "
                "same number of podSets as the spec)"),
    ),
)
def check_assignment_count(wl, ctx):
    adm = raw(wl, ("status", "admission"))
    if not isinstance(adm, dict) or not any_quota_reserved_true(wl):
        return
    n_ps = len(raw_podsets(wl))
    n_psa = len(as_list(adm.get("podSetAssignments")))
    if n_ps != n_psa:
        yield Finding(
            (),
            "podSetAssignments must have the same number of podSets as the spec "
            f"(spec.podSets has {n_ps}, status.admission.podSetAssignments has {n_psa})",
            hint="One podSetAssignment per pod set, with the same names.",
        )


@rule(
    code="KQ412", name="admission-unknown-podset", severity="error", layer="webhook", kinds=WL,
    summary="A podSetAssignment names a pod set the spec does not have",
    doc=RuleDoc(
        what="While QuotaReserved is True, every status.admission.podSetAssignments[k].name (default main) must "
             "be one of spec.podSets[].name.",
        why="The webhook rejects the status update (403, NotFound at ...podSetAssignments[k].name); the quota "
            "of an assignment that matches no pod set cannot be attributed to any pods.",
        fix="Rename the assignment to the pod set it belongs to.",
        bad="spec:\n  podSets: [{name: driver, ...}]\nstatus:\n  admission:\n    podSetAssignments:\n"
            "    - name: launcher\n",
        good="spec:\n  podSets: [{name: driver, ...}]\nstatus:\n  admission:\n    podSetAssignments:\n"
             "    - name: driver\n",
        source="kueue pkg/webhooks/workload_webhook.go validateAdmission",
    ),
)
def check_assignment_names(wl, ctx):
    names = podset_names(wl)
    for k, psa in _reserved_assignments(wl):
        name = psa.get("name")
        name = scalar_text(name) if name is not None else "main"
        if name not in names:
            yield Finding(
                ("status", "admission", "podSetAssignments", k, "name"),
                f"Not found: {quote(name)} is not a pod set of this Workload (pod sets: {', '.join(names) or 'none'})",
                type="NotFound",
                hint="Use the name of the pod set this assignment belongs to.",
            )


@rule(
    code="KQ413", name="resource-usage-not-multiple-of-count", severity="error", layer="webhook", kinds=WL,
    summary="Admitted resourceUsage is not divisible by the admitted pod count",
    doc=RuleDoc(
        what="While QuotaReserved is True, each podSetAssignment with count > 0 must have every resourceUsage "
             "value divisible by count (cpu compared in millicores, other resources in whole units).",
        why="resourceUsage is the total for all pods of the pod set; Kueue divides it by count when pods finish "
            "or the set is scaled. The webhook rejects a usage that is not a whole per-pod multiple (403, "
            "Invalid at ...resourceUsage[<res>]).",
        fix="Set resourceUsage to per-pod request x count (e.g. 3 pods x 1 cpu = \"3\").",
        bad="podSetAssignments:\n- name: main\n  count: 3\n  resourceUsage: {cpu: \"1\"}\n",
        good="podSetAssignments:\n- name: main\n  count: 3\n  resourceUsage: {cpu: \"3\"}\n",
        source="kueue pkg/webhooks/workload_webhook.go validateAdmission",
    ),
)
def check_usage_multiple(wl, ctx):
    for k, psa in _reserved_assignments(wl):
        count = as_int(psa.get("count"))
        if count is None or count <= 0:
            continue
        for rname, v in as_dict(psa.get("resourceUsage")).items():
            q = as_quantity(v)
            if q is None:
                continue
            val = to_amount(str(rname), q)
            if val % count:
                unit = "m" if rname == "cpu" else ""
                yield Finding(
                    ("status", "admission", "podSetAssignments", k, "resourceUsage", str(rname)),
                    f"is not a multiple of {count}: {rname} usage {scalar_text(v)} ({val}{unit}) cannot be split "
                    f"evenly over {count} pods",
                    hint="resourceUsage is the total for all pods: per-pod request x count.",
                )


@rule(
    code="KQ414", name="invalid-workload-condition", severity="error", layer="webhook", kinds=WL,
    summary="status.conditions breaks the metav1.Condition rules",
    doc=RuleDoc(
        what="Kueue's webhook re-validates status.conditions with metav1 ValidateConditions. This rule reports "
             "what the schema cannot see: a zero lastTransitionTime (0001-01-01T00:00:00Z), which decodes as "
             "\"unset\". Duplicate types, missing fields, bad status values and reason formats are schema "
             "errors (KQ001-KQ006).",
        why="The status update is rejected (403, Required \"must be set\" at ...lastTransitionTime); tools that "
            "write conditions from Go zero values produce exactly this.",
        fix="Give each condition the time it last changed.",
        bad="conditions:\n- {type: QuotaReserved, status: \"True\", reason: Admitted, message: ok,\n"
            "   lastTransitionTime: \"0001-01-01T00:00:00Z\"}\n",
        good="conditions:\n- {type: QuotaReserved, status: \"True\", reason: Admitted, message: ok,\n"
             "   lastTransitionTime: \"2026-01-01T00:00:05Z\"}\n",
        source=("k8s.io/apimachinery pkg/apis/meta/v1/validation/validation.go ValidateConditions (called "
                "by kueue pkg/webhooks/workload_webhook.go ValidateWorkload)"),
    ),
)
def check_conditions(wl, ctx):
    for k, c in enumerate(as_list(raw(wl, ("status", "conditions")))):
        ltt = as_dict(c).get("lastTransitionTime")
        if ltt is not None and scalar_text(ltt).startswith("0001-01-01"):
            yield Finding(
                ("status", "conditions", k, "lastTransitionTime"),
                f"must be set (the zero time {scalar_text(ltt)} counts as unset)",
                type="Required",
                hint="Use the time the condition last changed.",
            )


@rule(
    code="KQ415", name="invalid-reclaimable-pods", severity="error", layer="webhook", kinds=WL,
    summary="reclaimablePods names an unknown pod set or exceeds its count",
    doc=RuleDoc(
        what="Each status.reclaimablePods entry must name a pod set of the Workload, and its count may not exceed "
             "that pod set's count.",
        why="The webhook rejects the status update (403: NotSupported at ...reclaimablePods[<name>].name, "
            "Invalid at ...reclaimablePods[<name>].count). Reclaimable pods are subtracted from the quota the "
            "workload holds; more reclaimable pods than pods would make usage negative.",
        fix="Use pod set names from spec.podSets and counts no larger than the pod set's count.",
        bad="spec:\n  podSets: [{name: ps1, count: 3, ...}]\nstatus:\n  reclaimablePods:\n  - {name: ps1, count: 4}\n",
        good="spec:\n  podSets: [{name: ps1, count: 3, ...}]\nstatus:\n  reclaimablePods:\n  - {name: ps1, count: 2}\n",
        source="kueue pkg/webhooks/workload_webhook.go validateReclaimablePods",
    ),
)
def check_reclaimable_pods(wl, ctx):
    counts: dict[str, int] = {}
    for _, ps in podsets(wl):
        c = podset_count(ps)
        # a count of the wrong type: the schema reports it
        counts.setdefault(podset_name(ps), c if c is not None else 2**31)
    names = list(counts)
    for rp in as_list(raw(wl, ("status", "reclaimablePods"))):
        rp = as_dict(rp)
        name = rp.get("name")
        if not isinstance(name, str):
            continue
        base = ("status", "reclaimablePods", name)
        if name not in counts:
            yield Finding(
                base + ("name",),
                f"Unsupported value: {quote(name)}: supported values: {quoted_list(names)}",
                type="NotSupported",
                hint="reclaimablePods entries are keyed by pod set name.",
            )
            continue
        count = as_int(rp.get("count"))
        if count is not None and count > counts[name]:
            yield Finding(
                base + ("count",),
                f"should be less or equal to {counts[name]} (reclaimable count {count} > pod set count "
                f"{counts[name]})",
                hint=f"At most {counts[name]} pods of {name} can be reclaimable.",
            )


@rule(
    code="KQ416", name="invalid-podset-update", severity="error", layer="webhook", kinds=WL,
    summary="An admission check's podSetUpdates entry is invalid",
    doc=RuleDoc(
        what="status.admissionChecks[k].podSetUpdates[j]: the name must be a pod set; tolerations must pass the "
             "five CRD CEL toleration rules (reported at ...tolerations) and have label-name keys; labels and "
             "nodeSelector must be valid label maps; annotations valid annotation keys.",
        why="The update is rejected (CEL: 422; webhook: 403). Admission checks use podSetUpdates to inject "
            "labels, node selectors and tolerations into the admitted pods; an invalid entry would produce "
            "pods Kubernetes rejects.",
        fix="Fix the entry named in the message (tolerations: a key or operator Exists; tolerationSeconds only "
            "with effect NoExecute; no value with Exists).",
        bad="podSetUpdates:\n- name: main\n  tolerations:\n  - {operator: Equal, value: x}\n",
        good="podSetUpdates:\n- name: main\n  tolerations:\n  - {key: dedicated, operator: Equal, value: x}\n",
        source=("kueue apis/kueue/v1beta2/workload_types.go PodSetUpdate tolerations (CEL); kueue "
                "pkg/webhooks/workload_webhook.go validatePodSetUpdates"),
    ),
)
def check_podset_updates(wl, ctx):
    names = podset_names(wl)
    for k, ac in enumerate(as_list(raw(wl, ("status", "admissionChecks")))):
        for j, psu in enumerate(as_list(as_dict(ac).get("podSetUpdates"))):
            psu = as_dict(psu)
            base = ("status", "admissionChecks", k, "podSetUpdates", j)
            name = psu.get("name")
            if isinstance(name, str) and name not in names:
                yield Finding(
                    base + ("name",),
                    f"Unsupported value: {quote(name)}: supported values: {quoted_list(sorted(set(names)))}",
                    type="NotSupported",
                    hint="podSetUpdates must name pod sets of this Workload.",
                )
            tols = psu.get("tolerations")
            for msg, bad in toleration_cel_problems(tols):
                yield Finding(base + ("tolerations",),
                              f"{msg} (offending: {', '.join(f'tolerations[{t}]' for t in bad)})")
            for t, tol in enumerate(as_list(tols)):
                key = as_dict(tol).get("key")
                if isinstance(key, str) and key:
                    for msg in qualified_name_errors(key):
                        yield Finding(base + ("tolerations", t, "key"), f"{quote(key)}: {msg}")
            yield from annotation_findings(psu.get("annotations"), base + ("annotations",))
            for fname in ("nodeSelector", "labels"):
                yield from label_map_findings(psu.get(fname), base + (fname,))


@rule(
    code="KQ419", name="cluster-name-with-nominated-clusters", severity="error", layer="cel", kinds=WL,
    summary="status.clusterName and status.nominatedClusterNames are both set",
    doc=RuleDoc(
        what="CEL rule on status (MultiKueue): a Workload is either nominated to several worker clusters or "
             "placed on one, never both.",
        why="The API server rejects the status (422 Invalid at status).",
        fix="Clear nominatedClusterNames once clusterName is set.",
        bad="status:\n  clusterName: worker1\n  nominatedClusterNames: [worker1, worker2]\n",
        good="status:\n  clusterName: worker1\n",
        source=("kueue apis/kueue/v1beta2/workload_types.go WorkloadStatus (CEL: clusterName and "
                "nominatedClusterNames are mutually exclusive)"),
    ),
)
def check_cluster_name(wl, ctx):
    if given(wl, ("status", "clusterName")) and as_list(raw(wl, ("status", "nominatedClusterNames"))):
        yield Finding(
            ("status",),
            "clusterName and nominatedClusterNames are mutually exclusive "
            f"(clusterName: {scalar_text(raw(wl, ('status', 'clusterName')))})",
            hint="Remove status.nominatedClusterNames.",
        )
