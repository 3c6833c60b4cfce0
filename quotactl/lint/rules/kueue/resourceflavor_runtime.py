"""ResourceFlavor taints that Kueue's flavor assignment ignores (kueue
``pkg/scheduler/flavorassigner/flavorassigner.go``: only NoSchedule / NoExecute taints count).  Infos, never errors."""

from __future__ import annotations

from quotactl.lint.k8s_checks import scalar_text
from quotactl.lint.rule import Finding, RuleDoc, rule
from quotactl.lint.rules.kueue.common import raw
from quotactl.model.podspec import Taint

KINDS = ("ResourceFlavor",)


def _taints(rf):
    items = raw(rf, ("spec", "nodeTaints"))
    if not isinstance(items, list):
        return
    for i, t in enumerate(items):
        if isinstance(t, dict) and isinstance(t.get("key"), str) and isinstance(t.get("effect"), str):
            value = t.get("value")
            yield i, Taint(t["key"], scalar_text(value) if value is not None else None, t["effect"])


def _show(t: Taint) -> str:
    return f"{t.key}={t.value}:{t.effect}" if t.value else f"{t.key}:{t.effect}"


@rule(
    code="KQ308", name="prefer-no-schedule-taint-ignored", severity="info", layer="runtime", kinds=KINDS,
    summary="PreferNoSchedule taints do not restrict flavor assignment",
    doc=RuleDoc(
        what="Reports spec.nodeTaints entries with effect PreferNoSchedule.",
        why="Kueue only checks NoSchedule and NoExecute taints when assigning a flavor: a workload without a "
            "matching toleration still gets this flavor. If the taint is meant to keep workloads off these "
            "nodes, Kueue will not enforce it (kube-scheduler only prefers other nodes).",
        fix="Use NoSchedule if workloads without a toleration must not get this flavor; keep PreferNoSchedule "
            "if it only documents the nodes' taint.",
        bad="nodeTaints:\n- {key: spot, value: 'true', effect: PreferNoSchedule}\n",
        good="nodeTaints:\n- {key: spot, value: 'true', effect: NoSchedule}\n",
        source=("kueue pkg/scheduler/flavorassigner/flavorassigner.go checkFlavorForPodSets (only "
                "NoSchedule and NoExecute taints must be tolerated)"),
    ),
)
def check_prefer_no_schedule(rf, ctx):
    for i, t in _taints(rf):
        if t.effect == "PreferNoSchedule":
            yield Finding(
                ("spec", "nodeTaints", i, "effect"),
                f"taint {_show(t)} has effect PreferNoSchedule, which Kueue ignores when assigning flavor "
                f"{rf.name}: workloads that do not tolerate it can still be admitted to this flavor",
                type=None,
                hint="Use NoSchedule if untolerating workloads must not get this flavor.",
            )
