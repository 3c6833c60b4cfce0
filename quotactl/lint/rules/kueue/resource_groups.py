"""Resource groups and quotas of ClusterQueues and Cohorts (kueue
``apis/kueue/v1beta2/clusterqueue_types.go``, ``cohort_types.go``).

Kueue checks these in ``validateResourceGroups`` / ``validateFlavorQuotas``
(pkg/webhooks/clusterqueue_webhook.go, shared by the Cohort webhook) plus two CEL rules in the CRD:
one on each resource group (flavor size = coveredResources size) and, for ClusterQueues, one on
``spec`` (no borrowingLimit without a cohort).
"""

from __future__ import annotations

from collections.abc import Iterator

from quotactl.diagnostics import Fix
from quotactl.lint.k8s_checks import go_list, label_key_errors, quote, scalar_text
from quotactl.lint.rule import Finding, RuleDoc, rule
from quotactl.lint.rules.kueue.common import invalid_value, raw
from quotactl.load.document import format_path
from quotactl.model.kueue import ClusterQueue, FlavorQuotas, ResourceGroup, ResourceQuota

KINDS = ("ClusterQueue", "Cohort")
MAX_TOTAL_FLAVORS = 256
MAX_TOTAL_RESOURCES = 256
MAX_COMBINATIONS = 512


# ------------------------------------------------------------------------------ helpers -------

def _is_cq(model) -> bool:
    return isinstance(model, ClusterQueue)


def _parent_path(model) -> tuple:
    """Where the cohort (ClusterQueue) / parent (Cohort) name is."""
    return model.cohort_path if _is_cq(model) else model.parent_path


def _has_parent(model) -> bool:
    """Kueue's ``hasParent``: the cohort (ClusterQueue) / parent (Cohort) name is non-empty."""
    value = raw(model, _parent_path(model))
    return value is not None and scalar_text(value) != ""


def _parent_word(model) -> str:
    return "cohort" if _is_cq(model) else "parent"


def _parent_field(model) -> str:
    return format_path(_parent_path(model))


def _covered_names(model) -> Iterator[tuple[ResourceGroup, int, str]]:
    """(group, j, name) for every coveredResources entry that is a string (others are schema errors)."""
    for rg in model.resource_groups:
        for j, name in enumerate(rg.covered_raw):
            if isinstance(name, str):
                yield rg, j, name


def _quotas(model) -> Iterator[tuple[ResourceGroup, FlavorQuotas, int, ResourceQuota]]:
    """Every (group, flavor, k, quota) the webhook looks at: positions k < len(coveredResources)."""
    for rg in model.resource_groups:
        for fq in rg.flavors:
            for k, rq in enumerate(fq.resources):
                if k >= len(rg.covered_resources):
                    break
                yield rg, fq, k, rq


def _where(fq: FlavorQuotas, rq: ResourceQuota) -> str:
    res = rq.name if rq.name is not None else "?"
    flavor = fq.name if fq.name is not None else "?"
    return f'{res} in flavor "{flavor}"'


def _limits_without_parent(model, limit: str) -> Iterator[tuple[FlavorQuotas, ResourceQuota, object]]:
    """(flavor, quota, raw value) of every ``limit`` set on an object without a cohort / parent."""
    if _has_parent(model):
        return
    for _, fq, _, rq in _quotas(model):
        value = raw(model, rq.path + (limit,))
        if value is not None:
            yield fq, rq, value


def _related(model, path: tuple) -> tuple[str, ...]:
    pos = model.source.ref.pos(path)
    return (f"{model.source.ref.file}:{pos.line}",)


# ------------------------------------------------------------------------------- KQ101 --------

@rule(
    code="KQ101", name="invalid-resource-name", severity="error", layer="webhook", kinds=KINDS,
    summary="coveredResources entry is not a valid resource name",
    doc=RuleDoc(
        what="Every entry of spec.resourceGroups[].coveredResources must be a valid label key "
             "([prefix/]name: the name part is 1-63 alphanumerics, '-', '_' or '.', starting and ending "
             "alphanumeric; the optional prefix is a DNS subdomain).",
        why="Kueue's webhook rejects the ClusterQueue or Cohort (403 Invalid), so none of its quota exists.",
        fix="Use the resource name exactly as pods request it (cpu, memory, nvidia.com/gpu). Kueue does not "
            "require a domain prefix for extended resources.",
        bad="coveredResources: [\"@cpu\", memory]\n",
        good="coveredResources: [cpu, memory]\n",
        source="kueue pkg/webhooks/common.go validateResourceName (called by validateResourceGroups)",
    ),
)
def check_resource_names(model, ctx):
    for rg, j, name in _covered_names(model):
        yield from invalid_value(
            rg.path + ("coveredResources", j), name, label_key_errors(name),
            hint="Name the resource as pods request it, e.g. cpu, memory or example.com/gpu "
                 "(a valid label key).",
        )


# ------------------------------------------------------------------------------- KQ102 --------

@rule(
    code="KQ102", name="resource-in-several-groups", severity="error", layer="webhook", kinds=KINDS,
    summary="A resource is covered by more than one resource group",
    doc=RuleDoc(
        what="A resource name may appear only once in all coveredResources lists of an object: in one "
             "resource group, and only once in it.",
        why="Kueue's webhook rejects the object (403 Duplicate). A resource group is the unit of flavor "
            "assignment: a resource listed twice would have two competing flavor lists.",
        fix="Keep the resource in exactly one group. Resources that must get the same flavor (cpu and memory "
            "of the same machines) belong in the same group.",
        bad="resourceGroups:\n- coveredResources: [cpu, memory]\n  flavors: [...]\n"
            "- coveredResources: [memory]\n  flavors: [...]\n",
        good="resourceGroups:\n- coveredResources: [cpu, memory]\n  flavors: [...]\n"
             "- coveredResources: [nvidia.com/gpu]\n  flavors: [...]\n",
        source="kueue pkg/webhooks/clusterqueue_webhook.go validateResourceGroups",
    ),
)
def check_duplicate_resources(model, ctx):
    seen: dict[str, tuple] = {}
    for rg, j, name in _covered_names(model):
        path = rg.path + ("coveredResources", j)
        if name in seen:
            first = seen[name]
            same_group = first[:-2] == rg.path
            where = "earlier in this resource group" if same_group else "by another resource group"
            yield Finding(
                path,
                f"Duplicate value: {quote(name)}: resource {name} is already covered {where} "
                f"({format_path(first)}); a resource may appear in only one resource group",
                type="Duplicate",
                hint=f"Remove {name} here (and its entry in every flavor of this group), or merge the groups.",
                related=_related(model, first),
            )
        else:
            seen[name] = path


# ------------------------------------------------------------------------------- KQ103 --------

@rule(
    code="KQ103", name="flavor-resource-count-mismatch", severity="error", layer="cel", kinds=KINDS,
    summary="A flavor lists a different number of resources than coveredResources",
    doc=RuleDoc(
        what="Every flavor of a resource group must have exactly as many resources entries as the group's "
             "coveredResources (CEL rule on each resource group).",
        why="The API server rejects the object (422): \"flavors must have the same number of resources as "
            "the coveredResources\".",
        fix="Give each flavor one entry per covered resource, in the same order. Add a missing resource with "
            "nominalQuota: 0 if the flavor has none of it; move an extra resource into coveredResources.",
        bad="- coveredResources: [cpu]\n  flavors:\n  - name: alpha\n    resources:\n"
            "    - {name: cpu, nominalQuota: 8}\n    - {name: memory, nominalQuota: 32Gi}\n",
        good="- coveredResources: [cpu, memory]\n  flavors:\n  - name: alpha\n    resources:\n"
             "    - {name: cpu, nominalQuota: 8}\n    - {name: memory, nominalQuota: 32Gi}\n",
        source=("kueue apis/kueue/v1beta2/clusterqueue_types.go ResourceGroup (CEL "
                "x-kubernetes-validations: flavors must have the same number of resources as the "
                "coveredResources)"),
    ),
)
def check_flavor_sizes(model, ctx):
    for rg in model.resource_groups:
        covered = raw(model, rg.path + ("coveredResources",))
        flavors = raw(model, rg.path + ("flavors",))
        if not isinstance(covered, list) or not isinstance(flavors, list):
            continue  # Required / type errors block CEL
        bad = []
        for f in flavors:
            if not isinstance(f, dict) or not isinstance(f.get("resources"), list):
                continue
            if len(f["resources"]) != len(covered):
                names = [scalar_text(r.get("name")) if isinstance(r, dict) else "?" for r in f["resources"]]
                bad.append(f'flavor {quote(scalar_text(f.get("name")))} lists {len(names)} ({", ".join(names)})')
        if bad:
            cov = ", ".join(scalar_text(c) for c in covered)
            yield Finding(
                rg.path,
                "flavors must have the same number of resources as the coveredResources: coveredResources has "
                f"{len(covered)} ({cov}) but " + "; ".join(bad),
                type="Invalid",
                hint="List every covered resource once in each flavor, in the coveredResources order; use "
                     "nominalQuota: 0 for a resource the flavor does not provide, or add an extra resource to "
                     "coveredResources.",
            )


# ------------------------------------------------------------------------- KQ104 / KQ105 ------

@rule(
    code="KQ104", name="borrowing-limit-without-cohort", severity="error", layer="webhook", kinds=KINDS,
    summary="borrowingLimit on a ClusterQueue without cohort / a Cohort without parent",
    doc=RuleDoc(
        what="borrowingLimit is only allowed when there is something to borrow from: a ClusterQueue must "
             "name a cohort (spec.cohortName; v1beta1 spec.cohort) and a Cohort a parent (spec.parentName; "
             "v1alpha1 spec.parent).",
        why="For a ClusterQueue the CRD CEL rule on spec rejects it (422, \"borrowingLimit must be nil when "
            "cohort is empty\"); the webhook also reports each limit (\"must be nil when cohort is empty\"). "
            "For a Cohort the webhook rejects it (403, \"must be nil when parent is empty\").",
        fix="Set the cohort / parent the object should borrow from, or delete borrowingLimit.",
        bad="spec:\n  resourceGroups:\n  - coveredResources: [cpu]\n    flavors:\n    - name: x86\n"
            "      resources:\n      - {name: cpu, nominalQuota: 8, borrowingLimit: 4}\n",
        good="spec:\n  cohortName: research\n  resourceGroups:\n  - coveredResources: [cpu]\n    flavors:\n"
             "    - name: x86\n      resources:\n      - {name: cpu, nominalQuota: 8, borrowingLimit: 4}\n",
        source=("kueue apis/kueue/v1beta2/clusterqueue_types.go ClusterQueueSpec (CEL: borrowingLimit must "
                "be nil when cohort is empty); kueue pkg/webhooks/clusterqueue_webhook.go validateLimit"),
    ),
)
def check_borrowing_limit_parent(model, ctx):
    for fq, rq, value in _limits_without_parent(model, "borrowingLimit"):
        word, fieldname = _parent_word(model), _parent_field(model)
        kueue_msg = f"must be nil when {word} is empty"
        if _is_cq(model):
            detail = (f"{kueue_msg}: borrowingLimit {scalar_text(value)} for {_where(fq, rq)} but the ClusterQueue "
                      f"has no {fieldname} (CEL on spec: \"borrowingLimit must be nil when cohort is empty\")")
        else:
            detail = (f"{kueue_msg}: borrowingLimit {scalar_text(value)} for {_where(fq, rq)} but the Cohort has "
                      f"no {fieldname}, so there is nothing to borrow from")
        yield Finding(
            rq.path + ("borrowingLimit",), detail, type="Invalid",
            hint=f"Set {fieldname} to the {word} to borrow from, or delete borrowingLimit.",
        )


@rule(
    code="KQ105", name="lending-limit-without-cohort", severity="error", layer="webhook", kinds=KINDS,
    summary="lendingLimit on a ClusterQueue without cohort / a Cohort without parent",
    doc=RuleDoc(
        what="lendingLimit is only allowed on a ClusterQueue that names a cohort, or a Cohort that names a "
             "parent.",
        why="Kueue's webhook rejects the object (403, \"must be nil when cohort is empty\" / \"must be nil when "
            "parent is empty\"). Without a cohort there is nobody to lend to.",
        fix="Set the cohort / parent, or delete lendingLimit.",
        bad="resources:\n- {name: cpu, nominalQuota: 8, lendingLimit: 2}   # no cohortName\n",
        good="# spec.cohortName: research\nresources:\n- {name: cpu, nominalQuota: 8, lendingLimit: 2}\n",
        source="kueue pkg/webhooks/clusterqueue_webhook.go validateLimit",
    ),
)
def check_lending_limit_parent(model, ctx):
    for fq, rq, value in _limits_without_parent(model, "lendingLimit"):
        word, fieldname = _parent_word(model), _parent_field(model)
        yield Finding(
            rq.path + ("lendingLimit",),
            f"must be nil when {word} is empty: lendingLimit {scalar_text(value)} for {_where(fq, rq)} but the "
            f"{model.source.kind} has no {fieldname}, so there is nobody to lend to",
            type="Invalid",
            hint=f"Set {fieldname}, or delete lendingLimit.",
        )


# ------------------------------------------------------------------------------- KQ106 --------

@rule(
    code="KQ106", name="resource-order-mismatch", severity="error", layer="webhook", kinds=KINDS,
    summary="resources[k].name differs from coveredResources[k]",
    doc=RuleDoc(
        what="In every flavor, resources[k].name must equal coveredResources[k]: same names, same order.",
        why="Kueue's webhook rejects the object (403, \"must match the name in coveredResources\"). Order "
            "matters: [memory, cpu] under coveredResources [cpu, memory] is rejected.",
        fix="Reorder (or rename) the flavor's resources to follow coveredResources.",
        bad="coveredResources: [cpu, memory]\nflavors:\n- name: x86\n  resources:\n"
            "  - {name: memory, nominalQuota: 32Gi}\n  - {name: cpu, nominalQuota: 8}\n",
        good="coveredResources: [cpu, memory]\nflavors:\n- name: x86\n  resources:\n"
             "  - {name: cpu, nominalQuota: 8}\n  - {name: memory, nominalQuota: 32Gi}\n",
        source="kueue pkg/webhooks/clusterqueue_webhook.go validateFlavorQuotas",
    ),
)
def check_resource_order(model, ctx):
    for rg, fq, k, rq in _quotas(model):
        if rq.name is None or not isinstance(rg.covered_raw[k], str):
            continue  # missing name: schema Required
        want = rg.covered_resources[k]
        if rq.name == want:
            continue
        if rq.name in rg.covered_resources:
            extra = f"order matters: list the resources as coveredResources does, {go_list(rg.covered_resources)}"
        else:
            extra = f"{rq.name} is not in coveredResources {go_list(rg.covered_resources)}"
        yield Finding(
            rq.path + ("name",),
            f"must match the name in coveredResources: flavor {quote(fq.name or '?')} has {quote(rq.name)} at "
            f"resources[{k}] where coveredResources[{k}] is {quote(want)} ({extra})",
            type="Invalid",
            hint=f"Use {want} here: every flavor lists its resources in the order of coveredResources.",
            fix=Fix(f"rename to {want}", want),
        )


# ------------------------------------------------------------------------------- KQ107 --------

@rule(
    code="KQ107", name="negative-quota", severity="error", layer="webhook", kinds=KINDS,
    summary="Negative nominalQuota, borrowingLimit or lendingLimit",
    doc=RuleDoc(
        what="nominalQuota, borrowingLimit and lendingLimit must be >= 0.",
        why="Kueue's webhook rejects the object (403, \"must be greater than or equal to 0\").",
        fix="Use 0 or a positive quantity. To stop a ClusterQueue from borrowing set borrowingLimit: 0; to "
            "keep all its quota set lendingLimit: 0.",
        bad="- {name: cpu, nominalQuota: -1}\n",
        good="- {name: cpu, nominalQuota: 0}\n",
        source="kueue pkg/webhooks/clusterqueue_webhook.go validateResourceQuantity",
    ),
)
def check_negative_quota(model, ctx):
    for _, fq, _, rq in _quotas(model):
        for fieldname, q in (("nominalQuota", rq.nominal), ("borrowingLimit", rq.borrowing_limit),
                             ("lendingLimit", rq.lending_limit)):
            if q is not None and q.is_negative():
                yield Finding(
                    rq.path + (fieldname,),
                    f"must be greater than or equal to 0: {fieldname} {q} for {_where(fq, rq)} is negative",
                    type="Invalid",
                    hint=f"Set {fieldname} to 0 or a positive quantity.",
                )


# ------------------------------------------------------------------------------- KQ108 --------

@rule(
    code="KQ108", name="lending-limit-above-nominal", severity="error", layer="webhook",
    kinds=("ClusterQueue",),
    summary="ClusterQueue lendingLimit is greater than its nominalQuota",
    doc=RuleDoc(
        what="On a ClusterQueue, lendingLimit may not exceed nominalQuota of the same resource and flavor "
             "(Cohorts may lend more than their own nominal quota, because they lend their subtree's).",
        why="Kueue's webhook rejects the ClusterQueue (403, \"must be less than or equal to the nominalQuota\").",
        fix="Lower lendingLimit to at most nominalQuota (lendingLimit = nominalQuota lends everything, the "
            "same as omitting it).",
        bad="- {name: cpu, nominalQuota: 4, lendingLimit: 6}\n",
        good="- {name: cpu, nominalQuota: 4, lendingLimit: 4}\n",
        source="kueue pkg/webhooks/clusterqueue_webhook.go validateLendingLimit",
    ),
)
def check_lending_above_nominal(model, ctx):
    for _, fq, _, rq in _quotas(model):
        if rq.lending_limit is None or rq.nominal is None:
            continue
        if rq.lending_limit > rq.nominal:
            yield Finding(
                rq.path + ("lendingLimit",),
                f"must be less than or equal to the nominalQuota: lendingLimit {rq.lending_limit} for "
                f"{_where(fq, rq)} exceeds nominalQuota {rq.nominal}",
                type="Invalid",
                hint=f"Set lendingLimit to at most {rq.nominal} (or omit it to lend all unused quota).",
                fix=Fix("cap lendingLimit at nominalQuota", str(rq.nominal)),
            )


# ------------------------------------------------------------------------------- KQ109 --------

@rule(
    code="KQ109", name="flavor-in-several-groups", severity="error", layer="webhook", kinds=KINDS,
    summary="A flavor is used in more than one resource group",
    doc=RuleDoc(
        what="A ResourceFlavor may appear in only one resource group of a ClusterQueue or Cohort. (Two entries "
             "with the same name inside one group are a schema error, KQ006.)",
        why="Kueue's webhook rejects the object (403 Duplicate at spec.resourceGroups[i].flavors[j].name).",
        fix="Put the resources that share the flavor into one group, or use a separate ResourceFlavor (with the "
            "same nodeLabels) for the other group.",
        bad="- coveredResources: [cpu]\n  flavors: [{name: beta, ...}]\n"
            "- coveredResources: [memory]\n  flavors: [{name: beta, ...}]\n",
        good="- coveredResources: [cpu, memory]\n  flavors: [{name: beta, ...}]\n",
        source="kueue pkg/webhooks/clusterqueue_webhook.go validateResourceGroups",
    ),
)
def check_flavor_groups(model, ctx):
    seen: dict[str, tuple] = {}
    for rg in model.resource_groups:
        for fq in rg.flavors:
            if fq.name is None:
                continue
            if fq.name not in seen:
                seen[fq.name] = fq.path
                continue
            first = seen[fq.name]
            if first[:-2] == rg.path:
                continue  # duplicate inside one group: the schema's list-map check reports it
            yield Finding(
                fq.path + ("name",),
                f"Duplicate value: {quote(fq.name)}: flavor {fq.name} is already used by {format_path(first[:-2])}; "
                "a flavor may appear in only one resource group",
                type="Duplicate",
                hint="Merge the groups that share this flavor, or give this group its own ResourceFlavor.",
                related=_related(model, first),
            )


# ------------------------------------------------------------------------- KQ110-KQ112 --------

@rule(
    code="KQ110", name="too-many-flavors-total", severity="error", layer="webhook", kinds=("ClusterQueue",),
    summary="More than 256 flavors across all resource groups",
    doc=RuleDoc(
        what="A ClusterQueue may have at most 256 flavors summed over all its resource groups.",
        why="Kueue's webhook rejects it (403, \"total number of flavors across all resourceGroups must be "
            "≤ 256, got N\"). The CRD allows 16 groups × 64 flavors, so only the webhook catches this.",
        fix="Split the ClusterQueue into several ClusterQueues in one cohort.",
        bad="resourceGroups:   # 5 groups with 52 flavors each = 260 flavors\n- coveredResources: [cpu]\n"
            "  flavors: [{name: f0, ...}, ..., {name: f51, ...}]\n- ...\n",
        good="# team-a: groups 1-4 (208 flavors), team-b: group 5; both with cohortName: shared\n",
        source="kueue pkg/webhooks/clusterqueue_webhook.go validateTotalFlavors",
    ),
)
def check_total_flavors(model, ctx):
    total = sum(len(rg.flavors) for rg in model.resource_groups)
    if total > MAX_TOTAL_FLAVORS:
        yield Finding(
            ("spec", "resourceGroups"),
            f"total number of flavors across all resourceGroups must be ≤ {MAX_TOTAL_FLAVORS}, got {total}",
            type="Invalid",
            hint="Split the ClusterQueue into several ClusterQueues that share a cohort.",
        )


@rule(
    code="KQ111", name="too-many-resources-total", severity="error", layer="webhook", kinds=("ClusterQueue",),
    summary="More than 256 covered resources across all resource groups",
    doc=RuleDoc(
        what="A ClusterQueue may cover at most 256 resources summed over all its resource groups.",
        why="Kueue's webhook rejects it (403, \"total number of covered resources across all resourceGroups "
            "must be ≤ 256, got N\").",
        fix="Drop resources Kueue need not account for (see the Configuration's excludeResourcePrefixes), or "
            "split the ClusterQueue.",
        bad="resourceGroups:   # 5 groups covering 52 resources each = 260\n"
            "- coveredResources: [r0, r1, ..., r51]\n  ...\n",
        good="resourceGroups:   # at most 256 covered resources in total\n"
             "- coveredResources: [r0, r1, ..., r51]\n  ...   # 4 such groups = 208\n",
        source="kueue pkg/webhooks/clusterqueue_webhook.go validateTotalCoveredResources",
    ),
)
def check_total_resources(model, ctx):
    total = sum(len(rg.covered_raw) for rg in model.resource_groups)
    if total > MAX_TOTAL_RESOURCES:
        yield Finding(
            ("spec", "resourceGroups"),
            f"total number of covered resources across all resourceGroups must be ≤ {MAX_TOTAL_RESOURCES}, "
            f"got {total}",
            type="Invalid",
            hint="Cover fewer resources (exclude the ones Kueue need not count) or split the ClusterQueue.",
        )


@rule(
    code="KQ112", name="too-many-flavor-resource-combinations", severity="error", layer="webhook",
    kinds=("ClusterQueue",),
    summary="More than 512 flavor × resource entries in one resource group",
    doc=RuleDoc(
        what="In each resource group of a ClusterQueue, the number of resources entries summed over its "
             "flavors must be at most 512 (e.g. 8 flavors × 64 resources).",
        why="Kueue's webhook rejects it (403, \"number of flavor-resource combinations in a resourceGroup must "
            "be ≤ 512, got N\"); the CRD limits (64 × 64) allow more.",
        fix="Move some resources into another resource group with their own flavors, or split the ClusterQueue.",
        bad="- coveredResources: [r0, ..., r63]   # 64 resources\n  flavors: [f0, ..., f8]   # 9 flavors: 576\n",
        good="- coveredResources: [r0, ..., r63]   # 64 resources\n  flavors: [f0, ..., f7]   # 8 flavors: 512\n",
        source="kueue pkg/webhooks/clusterqueue_webhook.go validateFlavorResourceCombinations",
    ),
)
def check_combinations(model, ctx):
    for rg in model.resource_groups:
        total = sum(len(fq.resources) for fq in rg.flavors)
        if total > MAX_COMBINATIONS:
            yield Finding(
                rg.path,
                f"number of flavor-resource combinations in a resourceGroup must be ≤ {MAX_COMBINATIONS}, "
                f"got {total} ({len(rg.flavors)} flavors)",
                type="Invalid",
                hint="Split the group: move some resources (with their flavors) to another resource group.",
            )

