"""KQ515: admission fair sharing settings that have no effect (kueue
``apis/config/v1beta2/configuration_types.go``, ``apis/kueue/v1beta2/localqueue_types.go``).

ClusterQueue/Cohort fair-sharing weights without fair sharing are KQ116."""

from __future__ import annotations

from quotactl.lint.rule import Finding, RuleDoc, rule
from quotactl.lint.rules.kueue.common import raw
from quotactl.lint.rules.kueue.crossref_helpers import loc, objects_of


@rule(
    code="KQ515", name="admission-fair-sharing-not-enabled", severity="info", layer="config", scope="cluster",
    summary="Admission fair sharing used by a queue but not enabled in the Configuration",
    doc=RuleDoc(
        what="When a Kueue Configuration is in the input and has no admissionFairSharing section: a LocalQueue "
             "spec.fairSharing.weight, or a ClusterQueue spec.admissionScope.admissionMode "
             "UsageBasedAdmissionFairSharing, has no effect. (ClusterQueue/Cohort fair-sharing weights without "
             "fairSharing are reported by KQ116.)",
        why="LocalQueue weights and usage-based admission ordering are only read by admission fair sharing, "
            "which the manager Configuration switches on (admissionFairSharing). Without it workloads are ordered "
            "by priority and creation time only.",
        fix="Add admissionFairSharing (usageHalfLifeTime, usageSamplingInterval) to the Configuration, or drop "
            "the per-queue settings.",
        bad="# Configuration without admissionFairSharing\nkind: LocalQueue\nspec:\n  fairSharing: {weight: 2}\n",
        good="# Configuration:\nadmissionFairSharing:\n  usageHalfLifeTime: 168h\n  usageSamplingInterval: 5m\n",
        source=("kueue pkg/cache/scheduler/cache.go ClusterQueueUsesAdmissionFairSharing; kueue "
                "pkg/config/validation.go validateAdmissionFairSharing"),
    ),
)
def check_admission_fair_sharing(ctx):
    cfg = ctx.cluster.configuration
    if cfg is None or isinstance(raw(cfg, ("admissionFairSharing",)), dict):
        return
    where = loc(cfg)
    for lq in objects_of(ctx.cluster, "LocalQueue"):
        if lq.fair_sharing is not None:
            yield Finding(
                lq.fair_sharing.path,
                f"LocalQueue {lq.namespace}/{lq.name} sets fairSharing, but the Kueue Configuration has no "
                "admissionFairSharing: the weight has no effect",
                type=None, subject=lq, related=(where,),
                hint="Enable admissionFairSharing in the Configuration, or remove spec.fairSharing.",
            )
    for cq in objects_of(ctx.cluster, "ClusterQueue"):
        if cq.admission_mode == "UsageBasedAdmissionFairSharing":
            yield Finding(
                ("spec", "admissionScope", "admissionMode"),
                f"ClusterQueue {cq.name} asks for UsageBasedAdmissionFairSharing, but the Kueue Configuration has "
                "no admissionFairSharing: workloads are ordered by priority and creation time only",
                type=None, subject=cq, related=(where,),
                hint="Enable admissionFairSharing in the Configuration.",
            )
