"""Workload spec rules: the CRD CEL rules and the validating webhook's pod-set checks
(kueue ``apis/kueue/v1beta2/workload_types.go``, ``pkg/webhooks/workload_webhook.go``)."""

from __future__ import annotations

from quotactl.lint.k8s_checks import quote, scalar_text
from quotactl.lint.rule import Finding, RuleDoc, rule
from quotactl.lint.rules.kueue.common import (
    annotation_findings,
    given,
    label_map_findings,
    podset_count,
    podset_resource_entries,
    podsets,
    raw,
)
from quotactl.model.coerce import as_dict, as_int, as_list, as_quantity

WL = ("Workload",)
ELASTIC_JOB_ANNOTATION = "kueue.x-k8s.io/elastic-job"


# --------------------------------------------------------------------------------- KQ401 ----

@rule(
    code="KQ401", name="priority-class-ref-kind-mismatch", severity="error", layer="cel", kinds=WL,
    summary="priorityClassRef kind does not belong to its group",
    doc=RuleDoc(
        what="Checks the two CEL rules on a v1beta2 Workload's spec.priorityClassRef: group scheduling.k8s.io "
             "requires kind PriorityClass, group kueue.x-k8s.io requires kind WorkloadPriorityClass.",
        why="The API server rejects the Workload (422 Invalid at spec.priorityClassRef); the job that owns it "
            "stays without a Workload and is never queued.",
        fix="Pair the group with its kind: {group: kueue.x-k8s.io, kind: WorkloadPriorityClass} for Kueue "
            "priority classes, {group: scheduling.k8s.io, kind: PriorityClass} for pod priority classes.",
        bad="priorityClassRef:\n  group: scheduling.k8s.io\n  kind: WorkloadPriorityClass\n  name: low\n",
        good="priorityClassRef:\n  group: kueue.x-k8s.io\n  kind: WorkloadPriorityClass\n  name: low\n",
        source="kueue apis/kueue/v1beta2/workload_types.go PriorityClassRef (CEL x-kubernetes-validations)",
    ),
)
def check_priority_class_ref_kind(wl, ctx):
    if wl.version == "v1beta1":
        return  # v1beta1 has priorityClassName + priorityClassSource (an enum) instead
    ref = raw(wl, ("spec", "priorityClassRef"))
    if not isinstance(ref, dict):
        return
    group, kind = ref.get("group"), ref.get("kind")
    if not isinstance(group, str) or not isinstance(kind, str):
        return
    path = ("spec", "priorityClassRef")
    if group == "scheduling.k8s.io" and kind != "PriorityClass":
        yield Finding(
            path,
            "only the PriorityClass kind is allowed for the scheduling.k8s.io group "
            f"(got kind {quote(kind)})",
            hint="Use kind: PriorityClass, or group: kueue.x-k8s.io for a WorkloadPriorityClass.",
        )
    elif group == "kueue.x-k8s.io" and kind != "WorkloadPriorityClass":
        yield Finding(
            path,
            "only the WorkloadPriorityClass kind is allowed for the kueue.x-k8s.io group "
            f"(got kind {quote(kind)})",
            hint="Use kind: WorkloadPriorityClass, or group: scheduling.k8s.io for a pod PriorityClass.",
        )


# --------------------------------------------------------------------------------- KQ402 ----

def _class_value(ctx, wl):
    ref = wl.priority_class_ref
    if ref is None or not ref.name:
        return None
    if ref.is_workload_priority_class:
        c = ctx.cluster.workload_priority_classes.get(ref.name)
    elif ref.is_pod_priority_class:
        c = ctx.cluster.priority_classes.get(ref.name)
    else:
        return None
    return None if c is None else c.value


@rule(
    code="KQ402", name="priority-class-without-priority", severity="error", layer="cel", kinds=WL,
    summary="priorityClassRef (v1beta1: priorityClassName) set without spec.priority",
    doc=RuleDoc(
        what="A Workload that names a priority class must also carry the numeric spec.priority (CEL rule on "
             "spec). v1beta2 checks priorityClassRef, v1beta1 checks priorityClassName.",
        why="The API server rejects the Workload (422 Invalid at spec). Kueue copies the class value into "
            "spec.priority when it creates a Workload from a job; a hand-written Workload must do the same.",
        fix="Add spec.priority with the class's value, or drop the class reference.",
        bad="spec:\n  priorityClassRef: {group: kueue.x-k8s.io, kind: WorkloadPriorityClass, name: high}\n",
        good="spec:\n  priorityClassRef: {group: kueue.x-k8s.io, kind: WorkloadPriorityClass, name: high}\n"
             "  priority: 1000\n",
        source=("kueue apis/kueue/v1beta2/workload_types.go WorkloadSpec (CEL: priority should not be nil "
                "when priorityClassRef is set)"),
    ),
)
def check_priority_without_value(wl, ctx):
    field_name = "priorityClassName" if wl.version == "v1beta1" else "priorityClassRef"
    if not given(wl, ("spec", field_name)) or given(wl, ("spec", "priority")):
        return
    value = _class_value(ctx, wl)
    hint = "Set spec.priority to the value of the class"
    if value is not None:
        hint += f" ({value})"
    yield Finding(
        ("spec",),
        f"priority should not be nil when {field_name} is set",
        hint=hint + ".",
    )


# ----------------------------------------------------------------------------- minCount -----

def _partial_admission(ctx) -> bool:
    # With PartialAdmission off, the defaulting webhook clears minCount before any validation.
    return ctx.gates.enabled("PartialAdmission")


@rule(
    code="KQ403", name="min-count-above-count", severity="error", layer="cel", kinds=WL,
    summary="podSet minCount is larger than count",
    doc=RuleDoc(
        what="CEL rule on each pod set: minCount (partial admission) must not exceed count (default 1).",
        why="The API server rejects the Workload (422 Invalid at spec.podSets[i]).",
        fix="Lower minCount to at most count, or raise count.",
        bad="podSets:\n- name: workers\n  count: 3\n  minCount: 4\n",
        good="podSets:\n- name: workers\n  count: 4\n  minCount: 2\n",
        source=("kueue apis/kueue/v1beta2/workload_types.go PodSet (CEL: minCount should be positive and "
                "less or equal to count)"),
    ),
)
def check_min_count(wl, ctx):
    if not _partial_admission(ctx):
        return
    for i, ps in podsets(wl):
        mc = as_int(ps.get("minCount"))
        count = podset_count(ps)
        if mc is None or count is None:
            continue
        if mc > count:
            yield Finding(
                ("spec", "podSets", i),
                f"minCount should be positive and less or equal to count (minCount {mc} > count {count})",
                hint=f"Set minCount to at most {count}.",
            )


@rule(
    code="KQ404", name="several-min-counts", severity="error", layer="webhook", kinds=WL,
    summary="More than one podSet uses minCount",
    doc=RuleDoc(
        what="Kueue's webhook allows partial admission (minCount) on at most one pod set of a Workload.",
        why="The Workload is rejected (403, Invalid at spec.podSets).",
        fix="Keep minCount on the one pod set that may shrink (usually the workers) and remove it elsewhere.",
        bad="podSets:\n- {name: ps1, count: 3, minCount: 2, ...}\n- {name: ps2, count: 3, minCount: 1, ...}\n",
        good="podSets:\n- {name: ps1, count: 3, minCount: 2, ...}\n- {name: ps2, count: 3, ...}\n",
        source="kueue pkg/webhooks/workload_webhook.go ValidateWorkload",
    ),
)
def check_several_min_counts(wl, ctx):
    if not _partial_admission(ctx):
        return
    with_min = [scalar_text(ps.get("name") or "main") for _, ps in podsets(wl)
                if ps.get("minCount") is not None]
    if len(with_min) > 1:
        yield Finding(
            ("spec", "podSets"),
            f"at most one podSet can use minCount ({len(with_min)} do: {', '.join(with_min)})",
            hint="Remove minCount from all but one pod set.",
        )


@rule(
    code="KQ405", name="min-count-on-elastic-job", severity="error", layer="webhook", kinds=WL,
    gate="ElasticJobsViaWorkloadSlices",
    summary="Partial admission (minCount) on an elastic job",
    doc=RuleDoc(
        what="A Workload annotated kueue.x-k8s.io/elastic-job: \"true\" (workload slices, gate "
             "ElasticJobsViaWorkloadSlices, beta, on) must not use minCount.",
        why="The Workload is rejected (403, Invalid at spec.podSets): elastic scaling and partial admission "
            "both change the admitted pod count and cannot be combined.",
        fix="Drop minCount, or drop the elastic-job annotation.",
        bad="metadata:\n  annotations: {kueue.x-k8s.io/elastic-job: \"true\"}\nspec:\n  podSets:\n"
            "  - {name: main, count: 10, minCount: 5, ...}\n",
        good="metadata:\n  annotations: {kueue.x-k8s.io/elastic-job: \"true\"}\nspec:\n  podSets:\n"
             "  - {name: main, count: 10, ...}\n",
        source="kueue pkg/webhooks/workload_webhook.go ValidateWorkload",
    ),
)
def check_min_count_elastic(wl, ctx):
    if not _partial_admission(ctx) or not ctx.gates.enabled("ElasticJobsViaWorkloadSlices"):
        return
    if wl.annotations.get(ELASTIC_JOB_ANNOTATION) != "true":
        return
    with_min = [ps for _, ps in podsets(wl) if ps.get("minCount") is not None]
    if with_min:
        yield Finding(
            ("spec", "podSets"),
            "partial admission and elastic job cannot be used together "
            f"({len(with_min)} pod set(s) set minCount on a Workload annotated {ELASTIC_JOB_ANNOTATION}: \"true\")",
            hint="Remove minCount, or remove the elastic-job annotation.",
        )


# --------------------------------------------------------------------------- resources ------

@rule(
    code="KQ406", name="reserved-pods-resource", severity="error", layer="webhook", kinds=WL,
    summary="Pod-set template requests or limits the reserved resource \"pods\"",
    doc=RuleDoc(
        what="The resource key `pods` in a container's, init container's or the pod-level requests/limits of a "
             "Workload pod-set template.",
        why="Kueue reserves `pods` for its own pod counting (a ClusterQueue that covers `pods` is charged one per "
            "pod); the webhook rejects the Workload (403, Invalid at ...requests[pods]).",
        fix="Remove `pods` from the template's resources; to limit pod counts, cover `pods` in the ClusterQueue.",
        bad="resources:\n  requests:\n    cpu: \"1\"\n    pods: \"1\"\n",
        good="resources:\n  requests:\n    cpu: \"1\"\n",
        source="kueue pkg/webhooks/workload_webhook.go validateResourceList",
    ),
)
def check_reserved_pods_resource(wl, ctx):
    for i, ps in podsets(wl):
        for path, rname, _v, where in podset_resource_entries(ps, ("spec", "podSets", i)):
            if rname == "pods":
                yield Finding(
                    path,
                    f"the key is reserved for internal kueue use (resource \"pods\" in {where} of pod set {i})",
                    hint="Remove it; Kueue counts pods itself when a ClusterQueue covers the `pods` resource.",
                )


@rule(
    code="KQ407", name="negative-resource", severity="error", layer="webhook", kinds=WL,
    gate="WorkloadValidateResourcesAreNonNegative",
    summary="Negative request or limit in a pod-set template",
    doc=RuleDoc(
        what="Negative quantities in container, init-container or pod-level requests/limits of a Workload "
             "(gate WorkloadValidateResourcesAreNonNegative, beta, on by default).",
        why="The webhook rejects the Workload (403, Invalid at ...requests[<res>]); with the gate off a negative "
            "request would reduce the quota Kueue charges.",
        fix="Use a non-negative quantity.",
        bad="requests:\n  cpu: \"-1\"\n",
        good="requests:\n  cpu: \"1\"\n",
        source=("kueue pkg/webhooks/workload_webhook.go validateResourceList (feature gate "
                "WorkloadValidateResourcesAreNonNegative)"),
    ),
)
def check_negative_resources(wl, ctx):
    if not ctx.gates.enabled("WorkloadValidateResourcesAreNonNegative"):
        return
    for i, ps in podsets(wl):
        for path, rname, v, where in podset_resource_entries(ps, ("spec", "podSets", i)):
            q = as_quantity(v)
            if q is not None and q.is_negative():
                yield Finding(
                    path,
                    f"must be greater than or equal to 0 ({rname} is {scalar_text(v)} in {where} "
                    f"of pod set {i})",
                    hint="Requests and limits must be zero or positive.",
                )


@rule(
    code="KQ408", name="invalid-podset-metadata", severity="error", layer="webhook", kinds=WL,
    gate="WorkloadValidationForPodSetMetadata",
    summary="Invalid labels or annotations in a pod-set template",
    doc=RuleDoc(
        what="Label keys/values and annotation keys of spec.podSets[i].template.metadata (gate "
             "WorkloadValidationForPodSetMetadata, beta, on by default).",
        why="The webhook rejects the Workload (403, Invalid at ...template.metadata.labels / .annotations); the "
            "pods could not have been created with that metadata anyway.",
        fix="Label values must be at most 63 characters of alphanumerics, '-', '_' or '.', starting and ending "
            "with an alphanumeric; keys are [prefix/]name.",
        bad="template:\n  metadata:\n    labels:\n      team: platform team\n",
        good="template:\n  metadata:\n    labels:\n      team: platform-team\n",
        source="kueue pkg/webhooks/workload_webhook.go validatePodSet",
    ),
)
def check_podset_metadata(wl, ctx):
    if not ctx.gates.enabled("WorkloadValidationForPodSetMetadata"):
        return
    for i, ps in podsets(wl):
        meta = as_dict(as_dict(ps.get("template")).get("metadata"))
        base = ("spec", "podSets", i, "template", "metadata")
        yield from label_map_findings(meta.get("labels"), base + ("labels",),
                                      hint="Fix the label so that Kubernetes would accept it on a pod.")
        yield from annotation_findings(meta.get("annotations"), base + ("annotations",))


# ------------------------------------------------------------------------------ KQ409 -------

@rule(
    code="KQ409", name="invalid-slice-topology-request", severity="error", layer="webhook", kinds=WL,
    gate="TASValidateWorkloadSliceSize",
    summary="podSetSliceSize and podSetSliceRequiredTopology must come together",
    doc=RuleDoc(
        what="Topology-aware scheduling slice rules on spec.podSets[i].topologyRequest (gate "
             "TASValidateWorkloadSliceSize, beta, on): podSetSliceRequiredTopology needs podSetSliceSize > 0, "
             "podSetSliceSize needs podSetSliceRequiredTopology, each podsetSliceRequiredTopologyConstraints "
             "size must be > 0.",
        why="The webhook rejects the Workload (403): a slice size without a slice topology (or the reverse) has "
            "no meaning for the topology assigner.",
        fix="Set both podSetSliceRequiredTopology and a positive podSetSliceSize, or neither.",
        bad="topologyRequest:\n  podSetSliceRequiredTopology: cloud.com/rack\n",
        good="topologyRequest:\n  podSetSliceRequiredTopology: cloud.com/rack\n  podSetSliceSize: 4\n",
        source="kueue pkg/webhooks/workload_webhook.go validateTASSliceSize",
    ),
)
def check_slice_topology(wl, ctx):
    if not ctx.gates.enabled("TASValidateWorkloadSliceSize"):
        return
    for i, ps in podsets(wl):
        tr = ps.get("topologyRequest")
        if not isinstance(tr, dict):
            continue
        base = ("spec", "podSets", i, "topologyRequest")
        topo = tr.get("podSetSliceRequiredTopology")
        size = tr.get("podSetSliceSize")
        if topo is not None:
            if size is None:
                yield Finding(base + ("podSetSliceSize",),
                              "must be set when podSetSliceRequiredTopology is specified "
                              f"(podSetSliceRequiredTopology: {scalar_text(topo)})", type="Required",
                              hint="Add podSetSliceSize: the number of pods per slice.")
            elif as_int(size) is not None and as_int(size) <= 0:
                yield Finding(base + ("podSetSliceSize",), f"must be greater than 0 (got {size})")
        elif size is not None:
            yield Finding(base + ("podSetSliceSize",),
                          "may not be set when podSetSliceRequiredTopology is not specified", type="Forbidden",
                          hint="Add podSetSliceRequiredTopology, or remove podSetSliceSize.")
        for k, c in enumerate(as_list(tr.get("podsetSliceRequiredTopologyConstraints"))):
            csize = as_int(as_dict(c).get("size"))
            if csize is not None and csize <= 0:
                yield Finding(base + ("podsetSliceRequiredTopologyConstraints", k, "size"),
                              f"must be greater than 0 (got {csize})")
