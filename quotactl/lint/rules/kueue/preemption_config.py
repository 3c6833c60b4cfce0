"""PreemptionConfig (kueue.x-k8s.io/v1alpha1, Kueue v0.20 ConfigurablePreemptions): the CEL rules of
its CRD (``x-kubernetes-validations`` of apis/kueue/v1alpha1/preemptionconfig_types.go).  The kind is
kept out of the model, so lint/runner.py checks its objects as loaded, after their schema (KQ001-KQ007),
and emits KQ450; it is registered here so ``quotactl rules`` documents it."""

from __future__ import annotations

from quotactl.diagnostics import Diagnostic, Severity
from quotactl.lint.rule import RuleDoc, rule
from quotactl.load.document import format_path
from quotactl.load.objects import KubeObject
from quotactl.model.coerce import as_dict, as_int, as_list

CODE = "KQ450"
MSG_PRIORITY = "mode and comparison must be specified together"
MSG_BOUNDS = "minValue must be less than or equal to maxValue"


rule(code=CODE, name="preemption-config-constraint", severity="error", layer="cel",
     summary="PreemptionConfig rule breaks a CEL rule of its CRD",
     doc=RuleDoc(
         what="In each candidate selector of a PreemptionConfig rule: priority.mode and priority.comparison are "
              "set together, and a numericLabels entry's minValue is not above its maxValue.",
         why="The API server evaluates these CEL rules of the CRD and rejects the object (422 Invalid).",
         fix="Set both priority.mode and priority.comparison (or neither); make minValue <= maxValue.",
         bad="priority:\n  mode: Base\n", good="priority:\n  mode: Base\n  comparison: LessThan\n",
         source="kueue apis/kueue/v1alpha1/preemptionconfig_types.go (PreemptionConfigPriorityConstraint, "
                "PreemptionConfigNumericLabelConstraint XValidation rules)"),
)(None)


def preemption_config_findings(obj: KubeObject) -> list[Diagnostic]:
    """KQ450 for one PreemptionConfig as loaded (its schema checked separately)."""
    out = []
    for i, pc_rule in enumerate(as_list(as_dict(obj.data.get("spec")).get("rules"))):
        for j, sel in enumerate(as_list(as_dict(pc_rule).get("candidateSelectors"))):
            base = ("spec", "rules", i, "candidateSelectors", j)
            priority = as_dict(as_dict(sel).get("priority"))
            if ("mode" in priority) != ("comparison" in priority):
                out.append(_finding(obj, (*base, "priority"), MSG_PRIORITY))
            for k, label in enumerate(as_list(as_dict(sel).get("numericLabels"))):
                low, high = as_int(as_dict(label).get("minValue")), as_int(as_dict(label).get("maxValue"))
                if low is not None and high is not None and low > high:
                    out.append(_finding(obj, (*base, "numericLabels", k), MSG_BOUNDS))
    return out


def _finding(obj: KubeObject, path: tuple, message: str) -> Diagnostic:
    pos = obj.ref.pos(path)
    return Diagnostic(CODE, Severity.ERROR, f"Invalid value: \"object\": {message}", obj.ref.file, pos.line,
                      pos.column, object=obj.display, field=format_path(path), type="Invalid")
