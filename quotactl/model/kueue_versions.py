"""The Kueue releases quotactl knows: which API versions each serves and its feature gates.

Facts from Kueue's own sources: the CRD manifests (config/components/crd/bases/kueue.x-k8s.io_*.yaml:
``served``, ``deprecated``), the v0.20 change that stops serving v1beta1 (kubernetes-sigs/kueue#14558,
plan in #13957), and the feature-gate table ``defaultVersionedFeatureGates`` in
pkg/features/kube_features.go.

Kueue registers its gates with k8s.io/component-base without an emulation version of its own,
so the Kubernetes binary version (1.x) is what picks a gate's spec: the last entry of a gate's
versioned list always applies.  The table therefore records, per gate, the spec in effect at each
release where it changed (``None`` = the gate no longer exists from that release on).

A release line here is its newest patch: patch releases add gates (fixes cherry-picked with their
gate), and a Configuration valid on v0.19.2 must not be refused as "v0.19".  v0.14 ... v0.19 are
kube_features.go at tags v0.14.8, v0.15.8, v0.16.9, v0.17.8, v0.18.6 and v0.19.2 (a comment names
the patch that added a gate after the .0, or the cherry-pick PR merged after the last tag).
v0.20 is v0.20.0 as released: kube_features.go on main before the release (commit ff69552e79),
updated by CHANGELOG/CHANGELOG-0.20.md, whose entry (PR number) each gate added or changed there
cites; the test data tests/model/data/kueue-v0.20.0-gates.tsv holds the same list.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

RELEASES: tuple[str, ...] = ("v0.14", "v0.15", "v0.16", "v0.17", "v0.18", "v0.19", "v0.20")
DEFAULT_RELEASE = "v0.20"

ALPHA, BETA, GA, DEPRECATED = "Alpha", "Beta", "GA", "Deprecated"


@dataclass(frozen=True)
class GateSpec:
    """One gate at one release: its default, its stage, and whether it is locked to the default."""

    default: bool
    stage: str
    locked: bool = False


def _spec(default: bool, stage: str, locked: bool = False) -> GateSpec:
    return GateSpec(default, stage, locked)


# Gate name -> (release from which a spec applies, that spec or None when removed), in release order.
# A comment names where a gate's spec comes from when it is not kube_features.go at the line's .0 tag.
GATE_CHANGES: dict[str, tuple[tuple[str, GateSpec | None], ...]] = {
    "AdmissionFairSharing": (("v0.14", _spec(False, ALPHA)), ("v0.15", _spec(True, BETA)),),
    # v0.20: CHANGELOG-0.20 #15000
    "AdmissionFairSharingAnchorAtQuotaReservation": (("v0.20", _spec(True, BETA)),),
    "AdmissionGatedBy": (("v0.17", _spec(False, ALPHA)), ("v0.19", _spec(True, BETA)),),
    "AssignQueueLabelsForPods": (("v0.17", _spec(True, BETA)),),
    # v0.17 from v0.17.7; v0.18 from v0.18.3
    "CleanupProvisioningRequestsOnEviction": (("v0.17", _spec(True, BETA)),),
    "ConcurrentAdmission": (("v0.18", _spec(False, ALPHA)),),
    "ConfigurablePreemptions": (("v0.20", _spec(False, ALPHA)),),  # v0.20: CHANGELOG-0.20 #15913
    "ConfigurableResourceTransformations": (("v0.14", _spec(True, GA, locked=True)), ("v0.16", None),),
    "CustomMetricLabels": (("v0.17", _spec(False, ALPHA)),),
    "DRAExtendedResources": (
        ("v0.17", _spec(False, ALPHA)),
        ("v0.18", _spec(False, DEPRECATED, locked=True)),
        ("v0.19", None),
    ),
    # v0.17 from v0.17.7; v0.18 from v0.18.3
    "DeferRayServiceFinalizationForRedisCleanup": (("v0.17", _spec(True, BETA)),),
    "DeploymentJobUIDLabel": (("v0.20", _spec(True, BETA)),),  # v0.20: CHANGELOG-0.20 #15641
    "DisableWaitForPodsReady": (("v0.19", _spec(False, ALPHA)),),
    # v0.20: CHANGELOG-0.20 #15283 (KEP-12382: alpha in v0.20)
    "DynamicQuotaOrchestration": (("v0.20", _spec(False, ALPHA)),),
    "DynamicResourceAllocation": (
        ("v0.14", _spec(False, ALPHA)),
        ("v0.18", _spec(False, DEPRECATED, locked=True)),
        ("v0.19", None),
    ),
    "ElasticJobsViaWorkloadSlices": (("v0.14", _spec(False, ALPHA)), ("v0.18", _spec(True, BETA)),),
    # v0.20: CHANGELOG-0.20 #16400 (default not stated: a bug-fix gate, Beta and on like #13956's)
    "ElasticJobsViaWorkloadSlicesFlavorChangeFromZero": (("v0.20", _spec(True, BETA)),),
    # v0.20: CHANGELOG-0.20 #14316
    "ElasticJobsViaWorkloadSlicesForProvisioningRequests": (("v0.20", _spec(False, ALPHA)),),
    "ElasticJobsViaWorkloadSlicesWithTAS": (("v0.17", _spec(False, ALPHA)),),
    "EnforceProvisioningPodTemplateContents": (("v0.20", _spec(True, BETA)),),  # v0.20: CHANGELOG-0.20 #13015
    "ExposeFlavorsInLocalQueue": (("v0.14", _spec(True, BETA)), ("v0.15", None),),
    "FailureRecoveryPolicy": (("v0.15", _spec(False, ALPHA)),),
    # v0.15 from v0.15.6; v0.16 from v0.16.3
    "FairSharingPreemptWithinNominal": (("v0.15", _spec(True, BETA)),),
    # v0.15 from v0.15.5; v0.16 from v0.16.2
    "FairSharingPrioritizeNonBorrowing": (("v0.15", _spec(True, BETA)),),
    # v0.20: CHANGELOG-0.20 #14128
    "FairSharingReevaluatePreemptionCandidates": (("v0.20", _spec(False, ALPHA)),),
    "FairSharingRefill": (("v0.20", _spec(False, ALPHA)),),  # v0.20: CHANGELOG-0.20 #13729
    "FastQuotaReleaseInPodIntegration": (("v0.17", _spec(False, ALPHA)),),
    # v0.16 from v0.16.6; v0.17 from v0.17.1
    "FinishOrphanedWorkloads": (("v0.16", _spec(False, ALPHA)), ("v0.18", _spec(True, BETA)),),
    "FlavorFungibility": (("v0.14", _spec(True, BETA)),),
    # v0.16 from v0.16.4
    "FlavorFungibilityImplicitPreferenceDefault": (
        ("v0.14", _spec(False, ALPHA)),
        ("v0.15", _spec(False, DEPRECATED)),
        ("v0.17", None),
    ),
    # v0.18 from v0.18.5; v0.19 from v0.19.1
    "FlavorFungibilityPreserveScanProgress": (("v0.18", _spec(True, BETA)),),
    "HierarchicalCohorts": (
        ("v0.14", _spec(True, BETA)),
        ("v0.17", _spec(True, GA, locked=True)),
        ("v0.20", None),
    ),
    "HighMaxParallelismWithinReconcile": (("v0.20", _spec(True, BETA)),),  # v0.20: CHANGELOG-0.20 #16336
    "KueueDRADeviceFeasibility": (("v0.20", _spec(False, ALPHA)),),  # v0.20: CHANGELOG-0.20 #15577
    "KueueDRAIntegration": (("v0.18", _spec(True, BETA)),),
    "KueueDRAIntegrationConsumableCapacity": (("v0.19", _spec(False, ALPHA)),),
    # v0.20: CHANGELOG-0.20 #16169 (stage not stated: new gates start Alpha, off)
    "KueueDRAIntegrationDeviceTaints": (("v0.20", _spec(False, ALPHA)),),
    "KueueDRAIntegrationExtendedResource": (("v0.18", _spec(False, ALPHA)), ("v0.19", _spec(True, BETA)),),
    "KueueDRAIntegrationPartitionableDevices": (
        ("v0.18", _spec(False, ALPHA)),
        ("v0.19", _spec(True, BETA)),
    ),
    "KueueDRAIntegrationPrioritizedList": (("v0.20", _spec(False, ALPHA)),),  # v0.20: CHANGELOG-0.20 #14130
    "KueueDRARejectWorkloadsWhenDRADisabled": (("v0.18", _spec(True, BETA)),),
    "LWSImmutableGroupSize": (("v0.18", _spec(True, BETA)),),  # v0.18 from v0.18.5; v0.19 from v0.19.1
    "LendingLimit": (("v0.14", _spec(True, BETA)), ("v0.17", _spec(True, GA, locked=True)), ("v0.19", None),),
    "LocalQueueDefaulting": (
        ("v0.14", _spec(True, BETA)),
        ("v0.17", _spec(True, GA, locked=True)),
        ("v0.19", None),
    ),
    "LocalQueueMetrics": (("v0.14", _spec(False, ALPHA)), ("v0.17", _spec(True, BETA)),),
    "ManagedJobsNamespaceSelector": (("v0.14", _spec(True, GA, locked=True)), ("v0.15", None),),
    "ManagedJobsNamespaceSelectorAlwaysRespected": (
        ("v0.14", _spec(False, ALPHA)),
        ("v0.15", _spec(True, BETA)),
        ("v0.19", _spec(True, GA, locked=True)),
    ),
    "MetricForWorkloadCreationLatency": (("v0.18", _spec(True, BETA)),),
    "MetricsForCohorts": (("v0.18", _spec(True, BETA)),),
    "MultiKueue": (("v0.14", _spec(True, BETA)),),
    "MultiKueueAdaptersForCustomJobs": (("v0.14", _spec(False, ALPHA)), ("v0.15", _spec(True, BETA)),),
    # v0.14 from v0.14.3
    "MultiKueueAllowInsecureKubeconfigs": (
        ("v0.14", _spec(False, ALPHA)),
        ("v0.17", _spec(False, DEPRECATED)),
        ("v0.19", _spec(False, DEPRECATED, locked=True)),
        ("v0.20", None),
    ),
    # v0.20: CHANGELOG-0.20 #15126
    "MultiKueueBatchJobClearingTTLSecondsAfterFinishedOnWorkerCluster": (("v0.20", _spec(False, ALPHA)),),
    "MultiKueueBatchJobWithManagedBy": (
        ("v0.14", _spec(False, ALPHA)),
        ("v0.15", _spec(True, BETA)),
        ("v0.17", _spec(True, GA, locked=True)),
        ("v0.19", None),
    ),
    "MultiKueueClusterProfile": (("v0.15", _spec(False, ALPHA)),),
    "MultiKueueIncrementalDispatcherConfig": (("v0.19", _spec(True, BETA)),),
    "MultiKueueIncrementalDispatcherRespectConfigOrder": (("v0.19", _spec(True, BETA)),),
    "MultiKueueKubeConfigPathValidation": (("v0.19", _spec(False, ALPHA)), ("v0.20", _spec(True, BETA)),),
    "MultiKueueManagerQuotaAutomation": (("v0.18", _spec(False, ALPHA)),),
    # Beta and on in v0.20: CHANGELOG-0.20 #16235
    "MultiKueueOrchestratedPreemption": (("v0.17", _spec(False, ALPHA)), ("v0.20", _spec(True, BETA)),),
    # v0.20: CHANGELOG-0.20 #13435 (stage not stated: new gates start Alpha, off)
    "MultiKueueRayInTreeAutoscaling": (("v0.20", _spec(False, ALPHA)),),
    "MultiKueueRedoAdmissionOnEvictionInWorker": (
        ("v0.16", _spec(True, BETA)),
        ("v0.18", _spec(True, GA, locked=True)),
        ("v0.20", None),
    ),
    "MultiKueueRemoteSpecSync": (("v0.18", _spec(True, BETA)),),  # v0.18 from v0.18.5; v0.19 from v0.19.1
    # v0.18: cherry-pick #15296; v0.19: cherry-pick #15294; v0.20: CHANGELOG-0.20 #15280
    "MultiKueueReuseClientConnectionConfigForWorkers": (
        ("v0.18", _spec(False, ALPHA)),
        ("v0.20", _spec(True, BETA)),
    ),
    # v0.14 from v0.14.8; v0.15 from v0.15.3
    "MultiKueueWaitForWorkloadAdmitted": (
        ("v0.14", _spec(True, BETA)),
        ("v0.18", _spec(True, GA, locked=True)),
        ("v0.20", None),
    ),
    "ObjectRetentionPolicies": (
        ("v0.14", _spec(True, BETA)),
        ("v0.17", _spec(True, GA, locked=True)),
        ("v0.20", None),
    ),
    "PartialAdmission": (("v0.14", _spec(True, BETA)),),
    "PodGroupSchedulingShapeOrdering": (("v0.20", _spec(True, BETA)),),  # v0.20: CHANGELOG-0.20 #14809
    # v0.20: CHANGELOG-0.20 #15734
    "PodIntegrationCountSucceededPodsAsReady": (("v0.20", _spec(True, BETA)),),
    # v0.18 from v0.18.6; v0.19 from v0.19.2
    "PodIntegrationValidateGroupOwner": (("v0.18", _spec(True, BETA)),),
    # v0.18 from v0.18.6; v0.19 from v0.19.2
    "PrioritizePreemptorWorkloads": (("v0.18", _spec(False, ALPHA)),),
    "PriorityBoost": (("v0.17", _spec(False, ALPHA)),),
    "PrioritySortingWithinCohort": (("v0.14", _spec(True, BETA)),),
    # v0.14 from v0.14.5
    "PropagateBatchJobLabelsToWorkload": (
        ("v0.14", _spec(True, BETA)),
        ("v0.17", _spec(True, GA, locked=True)),
        ("v0.20", None),
    ),
    "ProvisioningACC": (("v0.14", _spec(True, GA, locked=True)), ("v0.15", None),),
    "QuotaCheckStrategy": (("v0.18", _spec(False, ALPHA)), ("v0.19", _spec(True, BETA)),),
    "RayServiceValidateUpgradeStrategy": (("v0.20", _spec(True, BETA)),),  # v0.20: CHANGELOG-0.20 #16094
    "ReclaimablePods": (("v0.14", _spec(True, BETA)),),  # v0.14 from v0.14.4
    # v0.18 from v0.18.5; v0.19 from v0.19.1
    "RecomputeAssignmentUponPreemptionTargetsOverlap": (
        ("v0.18", _spec(False, ALPHA)),
        ("v0.20", _spec(True, BETA)),
    ),
    # v0.16 from v0.16.6; v0.17 from v0.17.1; Beta and on in v0.20: CHANGELOG-0.20 #14776
    "RejectUpdatesToCQWithInvalidOnFlavors": (("v0.16", _spec(False, ALPHA)), ("v0.20", _spec(True, BETA)),),
    # v0.15 from v0.15.4; v0.16 from v0.16.1
    "RemoveFinalizersWithStrictPatch": (("v0.15", _spec(True, BETA)),),
    # v0.14 from v0.14.3
    "SanitizePodSets": (
        ("v0.14", _spec(True, BETA)),
        ("v0.17", _spec(True, GA, locked=True)),
        ("v0.19", None),
    ),
    "SchedulerLibraryIntegration": (("v0.19", _spec(False, ALPHA)),),
    # v0.15 from v0.15.6; v0.16 from v0.16.3
    "SchedulerLongRequeueInterval": (("v0.15", _spec(False, ALPHA)), ("v0.20", None),),
    # v0.15 from v0.15.6; v0.16 from v0.16.3
    "SchedulerTimestampPreemptionBuffer": (("v0.15", _spec(False, ALPHA)), ("v0.20", None),),
    # v0.15 from v0.15.6; v0.16 from v0.16.3
    "SchedulingEquivalenceHashing": (("v0.15", _spec(False, BETA)), ("v0.18", _spec(True, BETA)),),
    # v0.20: CHANGELOG-0.20 #14784
    "SchedulingEquivalenceHashingIgnorePodSetName": (("v0.20", _spec(True, BETA)),),
    "ShortWorkloadNames": (("v0.15", _spec(False, ALPHA)),),  # v0.15 from v0.15.8; v0.16 from v0.16.5
    # v0.18 from v0.18.5; v0.19 from v0.19.1
    "SkipAncestorCheckForDeletedWorkloads": (("v0.18", _spec(True, BETA)),),
    # v0.20: CHANGELOG-0.20 #16370 (stage not stated: "when enabled", so Alpha, off)
    "SkipChildJobSuspension": (("v0.20", _spec(False, ALPHA)),),
    # v0.14 from v0.14.8; v0.15 from v0.15.3
    "SkipFinalizersForPodsSuspendedByParent": (
        ("v0.14", _spec(True, BETA)),
        ("v0.18", _spec(True, GA, locked=True)),
        ("v0.20", None),
    ),
    # v0.17 from v0.17.8; v0.18 from v0.18.4
    "SkipReassignmentForPodOwnedWorkloads": (("v0.17", _spec(False, ALPHA)), ("v0.19", _spec(True, BETA)),),
    "SparkApplicationIntegration": (("v0.17", _spec(False, ALPHA)),),
    "TASAssignmentsEncodingByHostnamePrefix": (("v0.19", _spec(True, BETA)),),
    "TASBalancedPlacement": (("v0.15", _spec(False, ALPHA)),),
    "TASCacheNodeMatchResults": (("v0.17", _spec(True, BETA)),),  # v0.17 from v0.17.8; v0.18 from v0.18.4
    # v0.18 from v0.18.6; v0.19 from v0.19.2
    "TASCacheTopologyTree": (("v0.18", _spec(False, ALPHA)), ("v0.20", _spec(True, BETA)),),
    "TASCachingRemainingResources": (("v0.17", _spec(True, BETA)),),  # v0.17 from v0.17.8; v0.18 from v0.18.4
    "TASFailedNodeReplacement": (("v0.14", _spec(True, BETA)),),
    "TASFailedNodeReplacementFailFast": (("v0.14", _spec(True, BETA)),),
    "TASGroupedPodSetSlicing": (("v0.20", _spec(True, BETA)),),  # v0.20: CHANGELOG-0.20 #15111
    # v0.16 from v0.16.9; v0.17 from v0.17.4
    "TASHandleOverlappingFlavors": (("v0.16", _spec(False, ALPHA)), ("v0.18", _spec(True, BETA)),),
    # v0.19: cherry-pick #15690; v0.20: CHANGELOG-0.20 #15447 (off in that cherry-pick, on in v0.20)
    "TASLeaderPodSetFeasibility": (("v0.19", _spec(False, ALPHA)), ("v0.20", _spec(True, BETA)),),
    "TASMultiLayerTopology": (("v0.17", _spec(False, ALPHA)), ("v0.19", _spec(True, BETA)),),
    "TASNodeFeasibilityForAllLevels": (("v0.20", _spec(True, BETA)),),  # v0.20: CHANGELOG-0.20 #14191
    "TASPartialSlices": (("v0.20", _spec(True, BETA)),),  # v0.20: CHANGELOG-0.20 #15640
    "TASProfileLeastFreeCapacity": (("v0.14", _spec(False, DEPRECATED)), ("v0.17", None),),
    "TASProfileMixed": (("v0.14", _spec(False, DEPRECATED)), ("v0.15", _spec(True, BETA)),),
    # v0.17 from v0.17.6; v0.18 from v0.18.2
    "TASRecomputeAssignmentWithinSchedulingCycle": (("v0.17", _spec(True, BETA)),),
    "TASRejectFalseUnconstrainedTopology": (("v0.20", _spec(False, ALPHA)),),  # v0.20: CHANGELOG-0.20 #15262
    "TASReplaceMultipleFailedNodes": (("v0.20", _spec(False, ALPHA)),),  # v0.20: CHANGELOG-0.20 #12344
    # v0.17 from v0.17.8; v0.18 from v0.18.4
    "TASReplaceNodeDueToNotReadyOverFixedTime": (
        ("v0.17", _spec(True, BETA)),
        ("v0.19", _spec(False, DEPRECATED)),
    ),
    # v0.15 from v0.15.5; v0.16 from v0.16.2
    "TASReplaceNodeOnNodeTaints": (("v0.15", _spec(False, ALPHA)), ("v0.17", _spec(True, BETA)),),
    "TASReplaceNodeOnPodTermination": (("v0.14", _spec(True, BETA)),),
    "TASRespectNodeAffinityPreferred": (("v0.18", _spec(False, ALPHA)),),
    "TASTopologySpreading": (("v0.20", _spec(False, ALPHA)),),  # v0.20: CHANGELOG-0.20 #14820
    "TASValidateWorkloadSliceSize": (("v0.18", _spec(True, BETA)),),  # v0.18 from v0.18.5; v0.19 from v0.19.1
    "TLSOptions": (("v0.16", _spec(True, BETA)), ("v0.20", _spec(True, GA, locked=True)),),
    "TopologyAwareScheduling": (("v0.14", _spec(True, BETA)),),
    # v0.18 from v0.18.5
    "UnadmittedWorkloadsExplicitStatus": (("v0.18", _spec(False, ALPHA)), ("v0.19", _spec(False, BETA)),),
    # v0.18 from v0.18.5
    "UnadmittedWorkloadsObservability": (
        ("v0.18", _spec(False, ALPHA)),
        ("v0.19", _spec(False, BETA)),
        ("v0.20", _spec(True, BETA)),
    ),
    # v0.18 from v0.18.6; v0.19 from v0.19.2
    "ValidateRayAndSparkJobUpdates": (("v0.18", _spec(True, BETA)),),
    "VectorizedResourceRequests": (("v0.17", _spec(True, BETA)),),  # v0.17 from v0.17.8; v0.18 from v0.18.4
    "VisibilityOnDemand": (("v0.14", _spec(True, BETA)),),
    "WaitForPodsReadyMaxNotReady": (("v0.20", _spec(False, ALPHA)),),  # v0.20: CHANGELOG-0.20 #16059
    "WaitForPodsReadyUnscheduledTimeout": (("v0.20", _spec(False, ALPHA)),),  # v0.20: CHANGELOG-0.20 #15402
    # v0.17 from v0.17.4
    "WorkloadIdentifierAnnotations": (("v0.17", _spec(False, ALPHA)), ("v0.18", _spec(True, BETA)),),
    "WorkloadLevelWaitForPodsReady": (("v0.20", _spec(False, ALPHA)),),  # v0.20: CHANGELOG-0.20 #15503
    "WorkloadPriorityClassDefaulting": (("v0.18", _spec(False, ALPHA)), ("v0.20", _spec(True, BETA)),),
    "WorkloadRequestUseMergePatch": (("v0.14", _spec(False, ALPHA)),),
    # v0.18 from v0.18.5; v0.19 from v0.19.1
    "WorkloadValidateResourcesAreNonNegative": (("v0.18", _spec(True, BETA)),),
    # v0.18 from v0.18.5; v0.19 from v0.19.1
    "WorkloadValidationForPodSetMetadata": (("v0.18", _spec(True, BETA)),),
}


@dataclass(frozen=True)
class ApiVersionLife:
    """When Kueue serves one API version: from ``since`` (None = before the oldest release known
    here), deprecated from ``deprecated``, not served any more from ``unserved``."""

    since: str | None = None
    deprecated: str | None = None
    unserved: str | None = None


# (API group, version) -> its life.  v1alpha1 is the Cohort of Kueue v0.9-v0.12; the manager
# Configuration is a file Kueue decodes itself, so its versions are not CRD versions.
API_VERSIONS: dict[tuple[str, str], ApiVersionLife] = {
    ("kueue.x-k8s.io", "v1alpha1"): ApiVersionLife(unserved="v0.13"),
    ("kueue.x-k8s.io", "v1beta1"): ApiVersionLife(deprecated="v0.16", unserved="v0.20"),
    ("kueue.x-k8s.io", "v1beta2"): ApiVersionLife(since="v0.15"),
    ("config.kueue.x-k8s.io", "v1beta1"): ApiVersionLife(),
    ("config.kueue.x-k8s.io", "v1beta2"): ApiVersionLife(since="v0.15"),
}

_RELEASE = re.compile(r"v?(\d+)\.(\d+)(?:\.\d+)?")


def release_key(release: str) -> tuple[int, int]:
    """(major, minor) of "v0.20" / "0.20" / "v0.20.3", for ordering releases."""
    m = _RELEASE.fullmatch(release.strip())
    if not m:
        raise ValueError(f"not a Kueue version: {release!r}")
    return int(m.group(1)), int(m.group(2))


def parse_release(text: str) -> str:
    """The known release ``text`` names ("v0.19", "0.19" and "v0.19.2" all name v0.19)."""
    known = ", ".join(RELEASES)
    try:
        key = release_key(text)
    except ValueError:
        raise ValueError(f"--kueue-version: {text!r} is not a Kueue version (known: {known})") from None
    for release in RELEASES:
        if release_key(release) == key:
            return release
    raise ValueError(f"--kueue-version: quotactl does not know Kueue {text} (known: {known})")


def _reached(release: str, milestone: str | None) -> bool:
    return milestone is not None and release_key(release) >= release_key(milestone)


def api_version_state(release: str, group: str, version: str) -> str:
    """"served", "deprecated" (served, marked deprecated), "unserved" (no longer served),
    "future" (not served yet) or "unknown" (an API version Kueue never had)."""
    life = API_VERSIONS.get((group, version))
    if life is None:
        return "unknown"
    if life.since is not None and not _reached(release, life.since):
        return "future"
    if _reached(release, life.unserved):
        return "unserved"
    return "deprecated" if _reached(release, life.deprecated) else "served"


def served_versions(release: str, group: str) -> tuple[str, ...]:
    """The versions of ``group`` Kueue ``release`` serves, oldest first."""
    return tuple(v for (g, v) in API_VERSIONS if g == group
                 and api_version_state(release, g, v) in ("served", "deprecated"))


def _spec_at(changes: tuple[tuple[str, GateSpec | None], ...], release: str) -> GateSpec | None:
    current = None
    for since, spec in changes:
        if release_key(since) <= release_key(release):
            current = spec
    return current


@cache
def gate_table(release: str) -> dict[str, GateSpec]:
    """Every feature gate Kueue ``release`` knows, with its spec there."""
    table = {}
    for name, changes in GATE_CHANGES.items():
        spec = _spec_at(changes, release)
        if spec is not None:
            table[name] = spec
    return table


def gate_removed_in(name: str, release: str) -> str | None:
    """The release (at or before ``release``) that removed gate ``name``; None if it was not removed."""
    changes = GATE_CHANGES.get(name, ())
    if _spec_at(changes, release) is not None or not changes:
        return None
    return next((since for since, spec in reversed(changes)
                 if spec is None and release_key(since) <= release_key(release)), None)


def gate_introduced_in(name: str) -> str | None:
    """The first release known here that has gate ``name``."""
    return next((since for since, spec in GATE_CHANGES.get(name, ()) if spec is not None), None)
