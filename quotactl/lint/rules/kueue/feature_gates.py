"""The ``featureGates`` map of a Kueue manager Configuration, checked against the gates of the
target Kueue release (--kueue-version) the way the manager checks it at start-up."""

from __future__ import annotations

from quotactl.diagnostics import Severity
from quotactl.lint.k8s_checks import scalar_text
from quotactl.lint.rule import Finding, RuleDoc, rule
from quotactl.lint.rules.kueue.common import raw
from quotactl.model.features import check_gate


@rule(
    code="KQ820", name="invalid-feature-gate", severity="error", layer="config", kinds=("Configuration",),
    summary="featureGates names a gate the target Kueue release does not have, or sets a locked one",
    doc=RuleDoc(
        what="Every key of featureGates must be a feature gate of the Kueue release checked against "
             "(--kueue-version, default the newest release quotactl knows), and a gate locked to its default "
             "(GA or deprecated and locked) may only be set to that default. Setting a GA or deprecated gate "
             "is a warning: Kueue accepts it and logs that the gate will be removed.",
        why="Kueue refuses to start on an unknown gate or a locked gate set to the other value (Invalid at "
            "featureGates), so the whole queueing system stays down after an upgrade that removed a gate.",
        fix="Fix the gate name (the message suggests the closest one), or drop a gate the release removed.",
        bad="apiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\nfeatureGates:\n"
            "  TopologyAwareSchedulng: true\n",
        good="apiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\nfeatureGates:\n"
             "  TopologyAwareScheduling: true\n",
        source="kueue pkg/config/validation.go LoadAndValidateFeatureGates; pkg/features/kube_features.go "
               "defaultVersionedFeatureGates; k8s.io/component-base featuregate SetFromMap",
    ),
)
def check_feature_gates(cfg, ctx):
    gates = raw(cfg, ("featureGates",))
    if not isinstance(gates, dict):
        return  # the schema reports a featureGates that is not a map
    for name, value in gates.items():
        if not isinstance(value, bool):
            continue  # the schema reports a value that is not a bool
        problem = check_gate(scalar_text(name), value, ctx.options.kueue_version)
        if problem is None:
            continue
        warning = problem.severity == "warning"
        yield Finding(("featureGates", name), problem.message, type=None if warning else "Invalid",
                      severity=Severity.WARNING if warning else None)
