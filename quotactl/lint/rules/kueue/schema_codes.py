"""Schema diagnostics (KQ001-KQ013): emitted by quotactl/lint/schema.py from the JSON Schemas in
``schemas/`` (and, for the apiVersion against --kueue-version, by quotactl/lint/versions.py),
registered here so ``quotactl rules`` documents them."""

from quotactl.lint.rule import RuleDoc, rule


def _schema(code: str, name: str, summary: str, what: str, why: str, fix: str, bad: str = "", good: str = "",
            severity: str = "error") -> None:
    rule(code=code, name=name, severity=severity, summary=summary,
         doc=RuleDoc(what, why, fix, bad, good,
                     source=("Kueue CRDs (kueue config/components/crd/bases/kueue.x-k8s.io_*.yaml, from the "
                             "kubebuilder markers in apis/kueue/*/*_types.go); quotactl's copy: schemas/kueue/")),
         layer="schema")(None)


_schema(
    "KQ001", "required-field", "A required field is missing",
    "A field the CRD schema requires is absent (e.g. nominalQuota, coveredResources, flavors, metadata.name).",
    "The API server rejects the object (422 Required); nothing is applied.",
    "Add the field.",
    "resources:\n- name: cpu\n", "resources:\n- name: cpu\n  nominalQuota: 10\n",
)
_schema(
    "KQ002", "unsupported-value", "Value not in the allowed set",
    "An enum field has a value the CRD does not allow (queueingStrategy, preemption policies, "
    "flavorFungibility, stopPolicy, ...). Values are case-sensitive; an explicit empty string is not the default.",
    "The API server rejects the object (422 NotSupported).",
    "Use one of the listed values (the message suggests the closest), or omit the field to get its default.",
    "queueingStrategy: FIFO\n", "queueingStrategy: StrictFIFO\n",
)
_schema(
    "KQ003", "wrong-type", "Value has the wrong type",
    "A field holds a value of the wrong JSON type (a list where a map is expected, a string for an integer...).",
    "The API server cannot decode the object and rejects it; CEL rules are not even evaluated.",
    "Give the field a value of the documented type.",
    "count: \"2\"\n", "count: 2\n",
)
_schema(
    "KQ004", "invalid-value", "Value outside its bounds or format",
    "A value breaks a schema bound or format: a name that is not a DNS-1123 subdomain, a count below its "
    "minimum, a list with too few items, a time that is not RFC 3339.",
    "The API server rejects the object (422 Invalid).",
    "Follow the bound given in the message.",
    "cohortName: Team_A\n", "cohortName: team-a\n",
)
_schema(
    "KQ005", "too-many", "Too many items or too long",
    "A list, map or string exceeds its maximum size (e.g. at most 16 resourceGroups, 64 flavors per group, "
    "8 nodeLabels, 18 podSets).",
    "The API server rejects the object (422 TooMany / TooLong).",
    "Split the configuration (e.g. into several ClusterQueues in a cohort) or shorten the value.",
)
_schema(
    "KQ006", "duplicate-entry", "Duplicate list entry",
    "Two entries of a keyed list share a key (two flavors with the same name in a group, two resources with "
    "the same name in a flavor, two podSets named main), or a set lists a value twice.",
    "The API server rejects the object (422 Duplicate).",
    "Merge or rename the entries.",
    "flavors:\n- name: default\n  ...\n- name: default\n", "flavors:\n- name: default\n  ...\n- name: spot\n",
)
_schema(
    "KQ007", "unknown-field", "Unknown field",
    "The object has a field its schema does not define, often a typo (nominalQuotas, borowingLimit) or a "
    "field of another version (cohort in v1beta2, cohortName in v1beta1).",
    "With kubectl's default strict field validation the request fails; with validation off the API server "
    "drops the field silently, so a typo in borrowingLimit means unlimited borrowing.",
    "Fix the field name (the message suggests the closest known one) or remove it.",
    "borowingLimit: 4\n", "borrowingLimit: 4\n",
)
_schema(
    "KQ008", "invalid-quantity", "Invalid resource quantity",
    "A quota or request is not a Kubernetes quantity: a YAML float with a fraction (1.5), a wrong suffix "
    "(1K, 1GB, 1gi), spaces, or garbage.",
    "Kueue's CRDs accept only integers or quantity strings; 1.5 unquoted is rejected although Pods accept it.",
    "Write an integer, a quoted decimal (\"1.5\") or a suffixed quantity (1500m, 2Gi, 1e3).",
    "nominalQuota: 1.5\n", "nominalQuota: 1500m\n",
)
_schema(
    "KQ009", "invalid-name", "Invalid object name",
    "metadata.name is not a valid DNS-1123 subdomain (lower case, digits, '-', '.'; at most 253 characters).",
    "The API server rejects the object.",
    "Rename the object (and the references to it).",
    "metadata:\n  name: Team_A\n", "metadata:\n  name: team-a\n",
)
_schema(
    "KQ010", "unserved-version", "apiVersion not served",
    "The apiVersion is not one Kueue serves for this kind (e.g. kueue.x-k8s.io/v1 or v1alpha1 for a "
    "ClusterQueue), or not one the Kueue release checked against serves yet (v1beta2 before v0.15).",
    "kubectl fails with 'no matches for kind'; nothing is applied.",
    "Use kueue.x-k8s.io/v1beta2 (or the deprecated v1beta1).",
)
_schema(
    "KQ011", "v1alpha1-cohort", "v1alpha1 Cohort or Topology is no longer served",
    "The Cohort uses kueue.x-k8s.io/v1alpha1 (field spec.parent), served only by Kueue v0.9 to v0.12; or the "
    "Topology uses kueue.x-k8s.io/v1alpha1, served only by Kueue v0.9 to v0.13.",
    "Later Kueue versions do not serve v1alpha1 for these kinds: applying it fails. quotactl still checks it "
    "with the rules of the last version that served it.",
    "Move to kueue.x-k8s.io/v1beta2 (for a Cohort, rename spec.parent to spec.parentName; a Topology keeps "
    "its spec).",
    severity="warning",
)
_schema(
    "KQ012", "deprecated-version", "Deprecated apiVersion v1beta1",
    "The object uses kueue.x-k8s.io/v1beta1, which Kueue marks deprecated in favour of v1beta2.",
    "v1beta1 still works (it is converted), but it will be removed; some fields differ (spec.cohort became "
    "spec.cohortName, Workload priorityClassName became priorityClassRef).",
    "Run quotactl convert --to v1beta2 FILE (it rewrites the fields that differ, as Kueue's conversion does).",
    severity="info",
)
_schema(
    "KQ013", "unserved-v1beta1", "v1beta1 no longer served by the target Kueue",
    "The object uses kueue.x-k8s.io/v1beta1 and the Kueue release checked against (--kueue-version, default "
    "v0.20) no longer serves it: v0.20 marks v1beta1 unserved and v0.21 removes it. Reported once per object.",
    "After the upgrade the API server refuses every v1beta1 manifest (kubectl apply fails with 'no matches for "
    "kind'); kubectl convert does not handle Kueue's CRDs.",
    "Run quotactl convert --to v1beta2 FILE --in-place and review the diff (cohort becomes cohortName, "
    "priorityClassName/priorityClassSource become priorityClassRef, ...).",
    "apiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\nspec:\n  cohort: team\n",
    "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nspec:\n  cohortName: team\n",
    severity="warning",
)
