"""ResourceFlavor CEL and webhook rules (kueue ``apis/kueue/v1beta2/resourceflavor_types.go``,
``pkg/webhooks/resourceflavor_webhook.go``).

The CEL rules sit on the ``spec.nodeTaints`` / ``spec.tolerations`` lists and on ``spec``, so Kueue
reports them at those paths; quotactl reports one finding per offending entry, at the same path,
naming the entry in the message.
"""

from __future__ import annotations

from quotactl.lint.k8s_checks import (
    EFFECTS_MSG,
    TAINT_EFFECTS,
    TOL_KEY_EMPTY,
    TOL_OPERATOR,
    TOL_SECONDS,
    TOL_VALUE,
    label_key_errors,
    label_map_problems,
    quote,
    scalar_text,
    toleration_rule_breaks,
)
from quotactl.lint.rule import Finding, RuleDoc, rule
from quotactl.lint.rules.kueue.common import invalid_value, raw
from quotactl.model.validation import label_value_errors

KINDS = ("ResourceFlavor",)


def _entries(rf, name: str):
    items = raw(rf, ("spec", name))
    if not isinstance(items, list):
        return
    for i, item in enumerate(items):
        if isinstance(item, dict):
            yield i, item


def _taint_text(t: dict) -> str:
    key, value, effect = (scalar_text(t.get(k)) for k in ("key", "value", "effect"))
    return f"{key}={value}:{effect}" if value else f"{key}:{effect}"


# ------------------------------------------------------------------------------- KQ301 --------

@rule(
    code="KQ301", name="invalid-node-labels", severity="error", layer="webhook", kinds=KINDS,
    summary="nodeLabels key or value is not a valid label",
    doc=RuleDoc(
        what="Every key of spec.nodeLabels must be a label key ([prefix/]name) and every value a label value "
             "(at most 63 alphanumerics, '-', '_' or '.', starting and ending alphanumeric, or empty).",
        why="Kueue's webhook rejects the ResourceFlavor (403 Invalid at spec.nodeLabels). These labels become "
            "node selectors of admitted pods, so they must be real node labels anyway.",
        fix="Copy the label exactly as it appears on the nodes (kubectl get nodes --show-labels).",
        bad="nodeLabels:\n  '@abc': foo\n",
        good="nodeLabels:\n  cloud.example.com/pool: foo\n",
        source=("k8s.io/apimachinery pkg/apis/meta/v1/validation/validation.go ValidateLabels (called by "
                "kueue pkg/webhooks/resourceflavor_webhook.go ValidateResourceFlavor)"),
    ),
)
def check_node_labels(rf, ctx):
    for p in label_map_problems(raw(rf, ("spec", "nodeLabels")), ("spec", "nodeLabels")):
        what = "key" if p.is_key else "value"
        yield from invalid_value(
            p.path, p.bad_value, [p.message],
            hint=f"nodeLabels {what} {quote(p.bad_value)} is not a valid label {what}; use the label exactly as "
                 "the nodes carry it.",
        )


# ------------------------------------------------------------------------------- KQ302 --------

@rule(
    code="KQ302", name="invalid-node-taint", severity="error", layer="webhook", kinds=KINDS,
    summary="nodeTaints key or value is not valid",
    doc=RuleDoc(
        what="spec.nodeTaints[i].key must be a label key and spec.nodeTaints[i].value a label value.",
        why="Kueue's webhook rejects the ResourceFlavor (403 Invalid at spec.nodeTaints[i].key / .value).",
        fix="Use the taint exactly as it is set on the nodes (kubectl describe node).",
        bad="nodeTaints:\n- {key: 'spot instance', value: 'true', effect: NoSchedule}\n",
        good="nodeTaints:\n- {key: cloud.example.com/spot, value: 'true', effect: NoSchedule}\n",
        source="kueue pkg/webhooks/resourceflavor_webhook.go validateNodeTaints",
    ),
)
def check_taint_key_value(rf, ctx):
    for i, t in _entries(rf, "nodeTaints"):
        key = t.get("key")
        if isinstance(key, str):
            yield from invalid_value(
                ("spec", "nodeTaints", i, "key"), key, label_key_errors(key),
                hint="A taint key is a label key: [prefix/]name, e.g. cloud.example.com/spot.",
            )
        value = t.get("value")
        if value is not None and not isinstance(value, (dict, list)):
            text = scalar_text(value)
            yield from invalid_value(  # Kueue joins these errors with ";", not "; "
                ("spec", "nodeTaints", i, "value"), text, label_value_errors(text), sep=";",
                hint="A taint value is a label value: at most 63 alphanumerics, '-', '_' or '.'.",
            )


# ------------------------------------------------------------------------------- KQ303 --------

@rule(
    code="KQ303", name="duplicate-node-taint", severity="error", layer="webhook", kinds=KINDS,
    summary="Two nodeTaints share key and effect",
    doc=RuleDoc(
        what="spec.nodeTaints may hold at most one taint per (key, effect) pair.",
        why="Kueue's webhook rejects the ResourceFlavor (403 Duplicate at spec.nodeTaints[i], \"taints must "
            "be unique by key and effect pair\"); a node cannot carry two such taints either.",
        fix="Remove the duplicate, or merge the two entries into one.",
        bad="nodeTaints:\n- {key: spot, value: 'true', effect: NoSchedule}\n"
            "- {key: spot, value: 'yes', effect: NoSchedule}\n",
        good="nodeTaints:\n- {key: spot, value: 'true', effect: NoSchedule}\n",
        source="kueue pkg/webhooks/resourceflavor_webhook.go validateNodeTaints",
    ),
)
def check_duplicate_taints(rf, ctx):
    seen: dict[tuple[str, str], int] = {}
    for i, t in _entries(rf, "nodeTaints"):
        pair = (scalar_text(t.get("effect")), scalar_text(t.get("key")))
        if pair in seen:
            yield Finding(
                ("spec", "nodeTaints", i),
                f"Duplicate value: {_taint_text(t)}: taints must be unique by key and effect pair "
                f"(nodeTaints[{seen[pair]}] has key {quote(pair[1])} and effect {pair[0] or '(none)'})",
                type="Duplicate",
                hint="Remove one of the two taints.",
            )
            continue
        seen[pair] = i


# ------------------------------------------------------------------------------- KQ304 --------

@rule(
    code="KQ304", name="invalid-taint-effect", severity="error", layer="cel", kinds=KINDS,
    summary="nodeTaints effect is not NoSchedule, PreferNoSchedule or NoExecute",
    doc=RuleDoc(
        what="Every spec.nodeTaints[].effect must be NoSchedule, PreferNoSchedule or NoExecute (an empty string "
             "too is rejected).",
        why="The CRD CEL rule on spec.nodeTaints rejects the ResourceFlavor (422, \"" + EFFECTS_MSG + "\").",
        fix="Use one of the three effects, spelt exactly (case-sensitive).",
        bad="nodeTaints:\n- {key: spot, effect: NoScheduled}\n",
        good="nodeTaints:\n- {key: spot, effect: NoSchedule}\n",
        source=("kueue apis/kueue/v1beta2/resourceflavor_types.go ResourceFlavorSpec.NodeTaints (CEL "
                "x-kubernetes-validations)"),
    ),
)
def check_taint_effects(rf, ctx):
    for i, t in _entries(rf, "nodeTaints"):
        effect = t.get("effect")
        if effect is None or not isinstance(effect, str):
            continue  # missing effect: Required (schema); wrong type: schema
        if effect not in TAINT_EFFECTS:
            yield Finding(
                ("spec", "nodeTaints"),
                f"{EFFECTS_MSG}: nodeTaints[{i}] has effect {quote(effect)}",
                type="Invalid",
                hint="Use NoSchedule, PreferNoSchedule or NoExecute.",
            )


# ------------------------------------------------------------------------------- KQ305 --------

_TOLERATION_HINTS = {
    TOL_KEY_EMPTY: "Add a key, or use operator: Exists to tolerate every taint.",
    TOL_SECONDS: "Remove tolerationSeconds, or use effect: NoExecute.",
    TOL_VALUE: "Remove value (Exists matches any value), or use operator: Equal.",
    EFFECTS_MSG: "Use NoSchedule, PreferNoSchedule or NoExecute, or omit effect to match all effects.",
}


def _toleration_hint(message: str, t: dict) -> str:
    if message == TOL_OPERATOR:
        return f"operator {quote(scalar_text(t.get('operator')))} is not supported; use Equal or Exists."
    return _TOLERATION_HINTS[message]


@rule(
    code="KQ305", name="invalid-flavor-toleration", severity="error", layer="cel", kinds=KINDS,
    summary="spec.tolerations entry breaks a toleration rule",
    doc=RuleDoc(
        what="Each spec.tolerations entry must satisfy the CRD's five CEL rules: no key ⇒ operator Exists; "
             "tolerationSeconds ⇒ effect NoExecute; operator (if set) Equal or Exists; operator Exists ⇒ no "
             "value (not even an empty one); effect (if set) NoSchedule, PreferNoSchedule or NoExecute.",
        why="The API server rejects the ResourceFlavor (422 at spec.tolerations) with the rule's message, e.g. "
            "\"" + TOL_VALUE + "\".",
        fix="Fix the toleration as the message says.",
        bad="tolerations:\n- {key: spot, operator: Exists, value: 'true'}\n",
        good="tolerations:\n- {key: spot, operator: Exists}\n",
        source=("kueue apis/kueue/v1beta2/resourceflavor_types.go ResourceFlavorSpec.Tolerations (CEL "
                "x-kubernetes-validations)"),
    ),
)
def check_tolerations(rf, ctx):
    for i, t in _entries(rf, "tolerations"):
        shown = ", ".join(f"{k}: {quote(scalar_text(t[k])) if isinstance(t[k], str) else scalar_text(t[k])}"
                          for k in ("key", "operator", "value", "effect", "tolerationSeconds") if k in t)
        for message in toleration_rule_breaks(t):
            yield Finding(
                ("spec", "tolerations"),
                f"{message}: tolerations[{i}] is {{{shown}}}",
                type="Invalid",
                hint=_toleration_hint(message, t),
            )


# ------------------------------------------------------------------------------- KQ306 --------

@rule(
    code="KQ306", name="invalid-toleration-key", severity="error", layer="webhook", kinds=KINDS,
    summary="spec.tolerations key is not a valid label key",
    doc=RuleDoc(
        what="A non-empty spec.tolerations[i].key must be a label key ([prefix/]name).",
        why="Kueue's webhook rejects the ResourceFlavor (403 Invalid at spec.tolerations[i].key).",
        fix="Use the taint key exactly as the nodes carry it.",
        bad="tolerations:\n- {key: 'spot/instance/type', operator: Exists}\n",
        good="tolerations:\n- {key: cloud.example.com/spot, operator: Exists}\n",
        source="kueue pkg/webhooks/resourceflavor_webhook.go ValidateResourceFlavor (tolerations)",
    ),
)
def check_toleration_keys(rf, ctx):
    for i, t in _entries(rf, "tolerations"):
        key = t.get("key")
        if not isinstance(key, str) or not key:
            continue
        yield from invalid_value(
            ("spec", "tolerations", i, "key"), key, label_key_errors(key),
            hint="A toleration key is a taint key: [prefix/]name, e.g. cloud.example.com/spot.",
        )


# ------------------------------------------------------------------------------- KQ307 --------

@rule(
    code="KQ307", name="topology-needs-node-labels", severity="error", layer="cel", kinds=KINDS,
    summary="topologyName set without nodeLabels",
    doc=RuleDoc(
        what="A ResourceFlavor with spec.topologyName (topology-aware scheduling) must have at least one "
             "nodeLabel.",
        why="The CRD CEL rule on spec rejects it (422, \"at least one nodeLabel is required when topology is "
            "set\"); with nodeLabels absent the rule cannot even be evaluated and the request fails too. The "
            "node labels select the nodes whose topology Kueue scrapes.",
        fix="Add the node label that selects this flavor's nodes.",
        bad="spec:\n  topologyName: default\n",
        good="spec:\n  topologyName: default\n  nodeLabels:\n    cloud.example.com/pool: tas\n",
        source=("kueue apis/kueue/v1beta2/resourceflavor_types.go ResourceFlavorSpec (CEL: at least one "
                "nodeLabel is required when topology is set)"),
    ),
)
def check_topology_labels(rf, ctx):
    topology = raw(rf, ("spec", "topologyName"))
    if topology is None:
        return
    labels = raw(rf, ("spec", "nodeLabels"))
    if isinstance(labels, dict) and labels:
        return
    state = "absent" if labels is None else "empty"
    yield Finding(
        ("spec",),
        f"at least one nodeLabel is required when topology is set: topologyName is {quote(scalar_text(topology))} "
        f"but nodeLabels is {state}",
        type="Invalid",
        hint="Add spec.nodeLabels with the label that selects this flavor's nodes.",
    )
