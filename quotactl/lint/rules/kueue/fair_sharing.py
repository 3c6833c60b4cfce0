"""Fair-sharing weights of ClusterQueues and Cohorts (kueue
``apis/kueue/v1beta2/fairsharing_types.go``, ``pkg/webhooks/common.go``).  LocalQueue weights are not webhook-checked and are not handled here."""

from __future__ import annotations

from quotactl.lint.rule import Finding, RuleDoc, rule
from quotactl.lint.rules.kueue.common import given, raw
from quotactl.model.quantity import Quantity

KINDS = ("ClusterQueue", "Cohort")
ONE_NANO = Quantity(1)


def _weight(model):
    fs = getattr(model, "fair_sharing", None)
    if fs is None or fs.weight is None:
        return None, None
    return fs, fs.weight


def _shown(model, q: Quantity) -> str:
    text = raw(model, ("spec", "fairSharing", "weight"))
    return str(text) if text is not None else str(q)


@rule(
    code="KQ113", name="negative-fair-sharing-weight", severity="error", layer="webhook", kinds=KINDS,
    summary="Negative fair-sharing weight",
    doc=RuleDoc(
        what="spec.fairSharing.weight of a ClusterQueue or Cohort must be >= 0.",
        why="Kueue's webhook rejects the object (403 Invalid at spec.fairSharing, \"must be greater than or "
            "equal to 0\").",
        fix="Use a positive weight (default 1; larger = bigger fair share), or 0 for a queue that should "
            "always yield when it borrows.",
        bad="fairSharing:\n  weight: -1\n",
        good="fairSharing:\n  weight: \"0.5\"\n",
        source="kueue pkg/webhooks/common.go validateFairSharing",
    ),
)
def check_negative_weight(model, ctx):
    fs, w = _weight(model)
    if w is not None and w.is_negative():
        yield Finding(
            fs.path,
            f"must be greater than or equal to 0: fairSharing.weight is {_shown(model, w)}",
            type="Invalid",
            hint="Use a positive weight (default 1), or 0 to make this node always lose fair-sharing "
                 "comparisons while it borrows.",
        )


@rule(
    code="KQ114", name="tiny-fair-sharing-weight", severity="error", layer="webhook", kinds=KINDS,
    summary="Non-zero fair-sharing weight of 1n or less",
    doc=RuleDoc(
        what="A non-zero spec.fairSharing.weight must be greater than 1n (10^-9). Quantities are rounded up to "
             "a multiple of 1n, so any value below 1n becomes 1n and is rejected too; the smallest accepted "
             "positive weight is 2n.",
        why="Kueue's webhook rejects the object (403 Invalid at spec.fairSharing, \"When not 0, weight must be "
            "> 10e-9\"): such a weight would collapse the weighted share.",
        fix="Use a weight of at least 2n (in practice something like 0.1 or 1m), or exactly 0.",
        bad="fairSharing:\n  weight: 1n\n",
        good="fairSharing:\n  weight: 1m\n",
        source=("kueue pkg/webhooks/common.go validateFairSharing (quantities round up to 1n: "
                "k8s.io/apimachinery pkg/api/resource/quantity.go)"),
    ),
)
def check_tiny_weight(model, ctx):
    fs, w = _weight(model)
    if w is not None and not w.is_negative() and not w.is_zero() and w <= ONE_NANO:
        yield Finding(
            fs.path,
            f"When not 0, weight must be > 10e-9: fairSharing.weight {_shown(model, w)} rounds to 1n",
            type="Invalid",
            hint="Use 0, or a weight of at least 2n (e.g. 1m or 0.1).",
        )


@rule(
    code="KQ115", name="zero-fair-sharing-weight", severity="info", layer="runtime", kinds=KINDS,
    summary="Fair-sharing weight 0: infinite share whenever it borrows",
    doc=RuleDoc(
        what="Reports spec.fairSharing.weight: 0 on a ClusterQueue or Cohort.",
        why="With fair sharing, a node of weight 0 that borrows has an infinite weighted share (status shows "
            "9223372036854775807): it sorts after every other node, loses every admission tournament while "
            "borrowing, is the first preemption target, and can never reclaim by share rules. That is "
            "sometimes intended (a scavenger queue) but often a typo for a small weight.",
        fix="Keep 0 only for a best-effort queue; otherwise use a small positive weight such as 0.1.",
        bad="fairSharing:\n  weight: 0\n",
        good="fairSharing:\n  weight: \"0.1\"\n",
        source=("kueue pkg/cache/scheduler/fair_sharing.go dominantResourceShare (weight 0 gives an "
                "infinite share)"),
    ),
)
def check_zero_weight(model, ctx):
    fs, w = _weight(model)
    if w is not None and w.is_zero() and given(model, ("spec", "fairSharing", "weight")):
        yield Finding(
            fs.path + ("weight",),
            "fairSharing.weight is 0: whenever this "
            f"{model.source.kind} borrows its weighted share is infinite, so it loses every fair-sharing "
            "comparison and its borrowing workloads are preempted first",
            type=None,
            hint="Intended for scavenger queues only; use a small positive weight (e.g. 0.1) for a low but "
                 "finite share.",
        )
