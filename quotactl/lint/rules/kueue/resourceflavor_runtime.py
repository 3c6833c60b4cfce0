"""ResourceFlavor taints that Kueue's flavor assignment ignores (kueue-api.md §6 "Meaning";
kueue-scheduling.md §5 and §11 item 15).  Infos, never errors."""

from __future__ import annotations

from quotactl.lint.rule import Finding, RuleDoc, rule
from quotactl.lint.rules.kueue.labels import raw, scalar_text
from quotactl.model.podspec import Taint, Toleration

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
        source="kueue-api.md §6; kueue-scheduling.md §11 item 15",
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


@rule(
    code="KQ309", name="taint-tolerated-by-flavor", severity="info", layer="runtime", kinds=KINDS,
    summary="A nodeTaint is tolerated by the flavor's own tolerations",
    doc=RuleDoc(
        what="Reports a NoSchedule/NoExecute entry of spec.nodeTaints that one of the flavor's own "
             "spec.tolerations tolerates.",
        why="Kueue counts the flavor's tolerations as if every workload had them (and adds them to admitted "
            "pods), so such a taint never keeps a workload off this flavor.",
        fix="Remove the toleration if only workloads that tolerate the taint should get the flavor; otherwise "
            "the taint entry is redundant for Kueue.",
        bad="nodeTaints:\n- {key: spot, value: 'true', effect: NoSchedule}\n"
            "tolerations:\n- {key: spot, operator: Exists}\n",
        good="nodeTaints:\n- {key: spot, value: 'true', effect: NoSchedule}\n",
        source="kueue-api.md §6 (Meaning); kueue-scheduling.md §5, §11 item 15",
    ),
)
def check_taint_self_tolerated(rf, ctx):
    items = raw(rf, ("spec", "tolerations"))
    tolerations = []
    if isinstance(items, list):
        for t in items:
            if not isinstance(t, dict):
                continue
            value = t.get("value")
            tolerations.append(Toleration(
                t.get("key") if isinstance(t.get("key"), str) else None,
                t.get("operator") if isinstance(t.get("operator"), str) else None,
                scalar_text(value) if value is not None else None,
                t.get("effect") if isinstance(t.get("effect"), str) else None,
            ))
    if not tolerations:
        return
    for i, taint in _taints(rf):
        if taint.effect not in ("NoSchedule", "NoExecute"):
            continue
        for j, tol in enumerate(tolerations):
            if tol.tolerates(taint):
                yield Finding(
                    ("spec", "nodeTaints", i),
                    f"taint {_show(taint)} is tolerated by the flavor's own tolerations[{j}]: Kueue adds those "
                    "tolerations to every workload, so this taint never keeps a workload off flavor "
                    f"{rf.name}",
                    type=None,
                    hint="Drop the toleration if only tolerating workloads should get this flavor.",
                )
                break
