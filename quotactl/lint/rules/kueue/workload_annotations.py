"""Workload annotation rules (kueue ``pkg/webhooks/workload_webhook.go``,
``pkg/util/webhook/validation_admissiongatedby.go``)."""

from __future__ import annotations

import re

from quotactl.lint.k8s_checks import domain_prefixed_path_errors, quote, scalar_text
from quotactl.lint.rule import Finding, RuleDoc, rule
from quotactl.lint.rules.kueue.common import raw
from quotactl.model.coerce import as_dict

WL = ("Workload",)
ADMISSION_GATED_BY = "kueue.x-k8s.io/admission-gated-by"
PRIORITY_BOOST = "kueue.x-k8s.io/priority-boost"
MAX_GATE_NAME = 63
_INT = re.compile(r"^[+-]?[0-9]+$")


def _annotation(wl, key):
    anns = as_dict(raw(wl, ("metadata", "annotations")))
    if key not in anns:
        return None
    return scalar_text(anns[key])


def _csv(value: str) -> list[str]:
    """Kueue's pkg/util/csv.Parse: split on commas, trim spaces; blank input is no gates."""
    if not value.strip():
        return []
    return [p.strip() for p in value.split(",")]


@rule(
    code="KQ417", name="invalid-admission-gated-by", severity="error", layer="webhook", kinds=WL,
    gate="AdmissionGatedBy",
    summary="Malformed kueue.x-k8s.io/admission-gated-by annotation",
    doc=RuleDoc(
        what="The annotation kueue.x-k8s.io/admission-gated-by is a comma-separated list of gate names (spaces "
             "around names are trimmed). Each must be non-empty, unique, a domain-prefixed path such as "
             "example.com/my-controller, and at most 63 characters (gate AdmissionGatedBy, beta, on).",
        why="The webhook rejects the Workload (403, Invalid at metadata.annotations[...]). Gates can only be "
            "set at creation and only removed afterwards, so a typo cannot be fixed by editing the annotation.",
        fix="Write each gate as <dns-subdomain>/<path>, separated by commas, without duplicates.",
        bad="metadata:\n  annotations:\n    kueue.x-k8s.io/admission-gated-by: \"my gate\"\n",
        good="metadata:\n  annotations:\n    kueue.x-k8s.io/admission-gated-by: \"example.com/my-gate\"\n",
        source=("kueue pkg/util/webhook/validation_admissiongatedby.go "
                "ValidateAdmissionGatedByAnnotationOnCreate"),
    ),
)
def check_admission_gated_by(wl, ctx):
    if not ctx.gates.enabled("AdmissionGatedBy"):
        return
    value = _annotation(wl, ADMISSION_GATED_BY)
    if value is None or value == "":
        return
    path = ("metadata", "annotations", ADMISSION_GATED_BY)
    seen: set[str] = set()
    for gate in _csv(value):
        if gate == "":
            yield Finding(path, f"cannot contain empty gate names ({quote(value)})",
                          hint="Remove the stray comma.")
            continue
        if gate in seen:
            yield Finding(path, f"duplicate gate name: {gate}", hint="List each gate once.")
            continue
        seen.add(gate)
        for err in domain_prefixed_path_errors(gate):
            yield Finding(path, f"gate {quote(gate)}: {err}",
                          hint='Gate names look like "example.com/my-controller".')
        if len(gate) > MAX_GATE_NAME:
            yield Finding(path, f"gate {quote(gate)} must have at most {MAX_GATE_NAME} bytes (has {len(gate)})",
                          type="TooLong")


@rule(
    code="KQ418", name="invalid-priority-boost", severity="error", layer="webhook", kinds=WL,
    gate="PriorityBoost",
    summary="kueue.x-k8s.io/priority-boost is not a signed 32-bit integer",
    doc=RuleDoc(
        what="With gate PriorityBoost (alpha, off by default) the annotation kueue.x-k8s.io/priority-boost is "
             "added to the Workload's priority and must be a signed 32-bit integer. Checked whenever the "
             "annotation is used, unless the gate is explicitly disabled (then Kueue ignores it).",
        why="The webhook rejects the Workload (403, Invalid at metadata.annotations[kueue.x-k8s.io/priority-boost]).",
        fix="Use an integer such as \"10\" or \"-5\"; write \"0\" rather than an empty string.",
        bad="metadata:\n  annotations:\n    kueue.x-k8s.io/priority-boost: \"high\"\n",
        good="metadata:\n  annotations:\n    kueue.x-k8s.io/priority-boost: \"100\"\n",
        source=("kueue pkg/webhooks/workload_webhook.go ValidateWorkload (feature gate PriorityBoost); "
                "kueue pkg/util/priority/priority.go PriorityBoost"),
    ),
)
def check_priority_boost(wl, ctx):
    if not ctx.gates.enabled_for_use("PriorityBoost"):
        return
    value = _annotation(wl, PRIORITY_BOOST)
    if value is None:
        return
    path = ("metadata", "annotations", PRIORITY_BOOST)
    if value == "":
        yield Finding(path, 'must be a valid signed integer; use "0" explicitly, empty string is not allowed')
        return
    if not _INT.match(value) or not _fits_int32(value):
        yield Finding(path, f"must be a valid signed integer (got {quote(value)}; range -2147483648..2147483647)",
                      hint="Use a whole number such as \"10\" or \"-5\".")


def _fits_int32(value: str) -> bool:
    """Whether a signed decimal fits in 32 bits (``strconv.ParseInt(value, 10, 32)``); thousands of
    digits are out of range without asking Python's int(), which refuses them (fuzzer)."""
    digits = value.lstrip("+-").lstrip("0") or "0"
    if len(digits) > 10:
        return False
    number = -int(digits) if value.startswith("-") else int(digits)
    return -(2**31) <= number < 2**31
