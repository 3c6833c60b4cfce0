"""The Kueue releases quotactl knows: which API versions each serves and its feature gates.

Facts from Kueue's own sources at each release tag (v0.14.0 ... v0.19.0, and the v0.20 line):
the CRD manifests (config/components/crd/bases/kueue.x-k8s.io_*.yaml: ``served``,
``deprecated``), the v0.20 change that stops serving v1beta1 (kubernetes-sigs/kueue#14558,
plan in #13957), and the feature-gate table ``defaultVersionedFeatureGates`` in
pkg/features/kube_features.go.

Kueue registers its gates with k8s.io/component-base without an emulation version of its own,
so the Kubernetes binary version (1.x) is what picks a gate's spec: the last entry of a gate's
versioned list always applies.  The table therefore records, per gate, the spec in effect at each
release where it changed (``None`` = the gate no longer exists from that release on).
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
GATE_CHANGES: dict[str, tuple[tuple[str, GateSpec | None], ...]] = {
    "AdmissionFairSharing": (("v0.14", _spec(False, ALPHA)), ("v0.15", _spec(True, BETA)),),
    "AdmissionGatedBy": (("v0.17", _spec(False, ALPHA)), ("v0.19", _spec(True, BETA)),),
    "AssignQueueLabelsForPods": (("v0.17", _spec(True, BETA)),),
    "CleanupProvisioningRequestsOnEviction": (("v0.19", _spec(True, BETA)),),
    "ConcurrentAdmission": (("v0.18", _spec(False, ALPHA)),),
    "ConfigurableResourceTransformations": (("v0.14", _spec(True, GA, locked=True)), ("v0.16", None),),
    "CustomMetricLabels": (("v0.17", _spec(False, ALPHA)),),
    "DRAExtendedResources": (
        ("v0.17", _spec(False, ALPHA)),
        ("v0.18", _spec(False, DEPRECATED, locked=True)),
        ("v0.19", None),
    ),
    "DeferRayServiceFinalizationForRedisCleanup": (("v0.19", _spec(True, BETA)),),
    "DisableWaitForPodsReady": (("v0.19", _spec(False, ALPHA)),),
    "DynamicResourceAllocation": (
        ("v0.14", _spec(False, ALPHA)),
        ("v0.18", _spec(False, DEPRECATED, locked=True)),
        ("v0.19", None),
    ),
    "ElasticJobsViaWorkloadSlices": (("v0.14", _spec(False, ALPHA)), ("v0.18", _spec(True, BETA)),),
    "ElasticJobsViaWorkloadSlicesWithTAS": (("v0.17", _spec(False, ALPHA)),),
    "ExposeFlavorsInLocalQueue": (("v0.14", _spec(True, BETA)), ("v0.15", None),),
    "FailureRecoveryPolicy": (("v0.15", _spec(False, ALPHA)),),
    "FairSharingPreemptWithinNominal": (("v0.17", _spec(True, BETA)),),
    "FairSharingPrioritizeNonBorrowing": (("v0.17", _spec(True, BETA)),),
    "FastQuotaReleaseInPodIntegration": (("v0.17", _spec(False, ALPHA)),),
    "FinishOrphanedWorkloads": (("v0.18", _spec(True, BETA)),),
    "FlavorFungibility": (("v0.14", _spec(True, BETA)),),
    "FlavorFungibilityImplicitPreferenceDefault": (
        ("v0.14", _spec(False, ALPHA)),
        ("v0.15", _spec(False, DEPRECATED)),
        ("v0.16", None),
    ),
    "FlavorFungibilityPreserveScanProgress": (("v0.20", _spec(True, BETA)),),
    "HierarchicalCohorts": (("v0.14", _spec(True, BETA)), ("v0.17", _spec(True, GA, locked=True)), ("v0.20", None),),
    "KueueDRAIntegration": (("v0.18", _spec(True, BETA)),),
    "KueueDRAIntegrationConsumableCapacity": (("v0.19", _spec(False, ALPHA)),),
    "KueueDRAIntegrationExtendedResource": (("v0.18", _spec(False, ALPHA)), ("v0.19", _spec(True, BETA)),),
    "KueueDRAIntegrationPartitionableDevices": (("v0.18", _spec(False, ALPHA)), ("v0.19", _spec(True, BETA)),),
    "KueueDRARejectWorkloadsWhenDRADisabled": (("v0.18", _spec(True, BETA)),),
    "LWSImmutableGroupSize": (("v0.20", _spec(True, BETA)),),
    "LendingLimit": (("v0.14", _spec(True, BETA)), ("v0.17", _spec(True, GA, locked=True)), ("v0.19", None),),
    "LocalQueueDefaulting": (("v0.14", _spec(True, BETA)), ("v0.17", _spec(True, GA, locked=True)), ("v0.19", None),),
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
    "MultiKueueAllowInsecureKubeconfigs": (
        ("v0.15", _spec(False, ALPHA)),
        ("v0.17", _spec(False, DEPRECATED)),
        ("v0.19", _spec(False, DEPRECATED, locked=True)),
        ("v0.20", None),
    ),
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
    "MultiKueueOrchestratedPreemption": (("v0.17", _spec(False, ALPHA)),),
    "MultiKueueRedoAdmissionOnEvictionInWorker": (
        ("v0.16", _spec(True, BETA)),
        ("v0.18", _spec(True, GA, locked=True)),
        ("v0.20", None),
    ),
    "MultiKueueRemoteSpecSync": (("v0.20", _spec(True, BETA)),),
    "MultiKueueWaitForWorkloadAdmitted": (
        ("v0.16", _spec(True, BETA)),
        ("v0.18", _spec(True, GA, locked=True)),
        ("v0.20", None),
    ),
    "ObjectRetentionPolicies": (
        ("v0.14", _spec(True, BETA)),
        ("v0.17", _spec(True, GA, locked=True)),
        ("v0.20", None),
    ),
    "PartialAdmission": (("v0.14", _spec(True, BETA)),),
    "PodIntegrationValidateGroupOwner": (("v0.20", _spec(True, BETA)),),
    "PrioritizePreemptorWorkloads": (("v0.20", _spec(False, ALPHA)),),
    "PriorityBoost": (("v0.17", _spec(False, ALPHA)),),
    "PrioritySortingWithinCohort": (("v0.14", _spec(True, BETA)),),
    "PropagateBatchJobLabelsToWorkload": (
        ("v0.15", _spec(True, BETA)),
        ("v0.17", _spec(True, GA, locked=True)),
        ("v0.20", None),
    ),
    "ProvisioningACC": (("v0.14", _spec(True, GA, locked=True)), ("v0.15", None),),
    "QuotaCheckStrategy": (("v0.18", _spec(False, ALPHA)), ("v0.19", _spec(True, BETA)),),
    "ReclaimablePods": (("v0.15", _spec(True, BETA)),),
    "RecomputeAssignmentUponPreemptionTargetsOverlap": (("v0.20", _spec(True, BETA)),),
    "RejectUpdatesToCQWithInvalidOnFlavors": (("v0.18", _spec(False, ALPHA)),),
    "RemoveFinalizersWithStrictPatch": (("v0.17", _spec(True, BETA)),),
    "SanitizePodSets": (("v0.15", _spec(True, BETA)), ("v0.17", _spec(True, GA, locked=True)), ("v0.19", None),),
    "SchedulerLibraryIntegration": (("v0.19", _spec(False, ALPHA)),),
    "SchedulerLongRequeueInterval": (("v0.17", _spec(False, ALPHA)), ("v0.20", None),),
    "SchedulerTimestampPreemptionBuffer": (("v0.17", _spec(False, ALPHA)), ("v0.20", None),),
    "SchedulingEquivalenceHashing": (("v0.17", _spec(False, BETA)), ("v0.18", _spec(True, BETA)),),
    "ShortWorkloadNames": (("v0.17", _spec(False, ALPHA)),),
    "SkipAncestorCheckForDeletedWorkloads": (("v0.20", _spec(True, BETA)),),
    "SkipFinalizersForPodsSuspendedByParent": (
        ("v0.16", _spec(True, BETA)),
        ("v0.18", _spec(True, GA, locked=True)),
        ("v0.20", None),
    ),
    "SkipReassignmentForPodOwnedWorkloads": (("v0.19", _spec(True, BETA)),),
    "SparkApplicationIntegration": (("v0.17", _spec(False, ALPHA)),),
    "TASAssignmentsEncodingByHostnamePrefix": (("v0.19", _spec(True, BETA)),),
    "TASBalancedPlacement": (("v0.15", _spec(False, ALPHA)),),
    "TASCacheNodeMatchResults": (("v0.19", _spec(True, BETA)),),
    "TASCacheTopologyTree": (("v0.20", _spec(True, BETA)),),
    "TASCachingRemainingResources": (("v0.19", _spec(True, BETA)),),
    "TASFailedNodeReplacement": (("v0.14", _spec(True, BETA)),),
    "TASFailedNodeReplacementFailFast": (("v0.14", _spec(True, BETA)),),
    "TASHandleOverlappingFlavors": (("v0.18", _spec(True, BETA)),),
    "TASMultiLayerTopology": (("v0.17", _spec(False, ALPHA)), ("v0.19", _spec(True, BETA)),),
    "TASProfileLeastFreeCapacity": (("v0.14", _spec(False, DEPRECATED)), ("v0.17", None),),
    "TASProfileMixed": (("v0.14", _spec(False, DEPRECATED)), ("v0.15", _spec(True, BETA)),),
    "TASRecomputeAssignmentWithinSchedulingCycle": (("v0.19", _spec(True, BETA)),),
    "TASReplaceNodeDueToNotReadyOverFixedTime": (("v0.19", _spec(False, DEPRECATED)),),
    "TASReplaceNodeOnNodeTaints": (("v0.17", _spec(True, BETA)),),
    "TASReplaceNodeOnPodTermination": (("v0.14", _spec(True, BETA)),),
    "TASRespectNodeAffinityPreferred": (("v0.18", _spec(False, ALPHA)),),
    "TASValidateWorkloadSliceSize": (("v0.20", _spec(True, BETA)),),
    "TLSOptions": (("v0.16", _spec(True, BETA)), ("v0.20", _spec(True, GA, locked=True)),),
    "TopologyAwareScheduling": (("v0.14", _spec(True, BETA)),),
    "UnadmittedWorkloadsExplicitStatus": (("v0.19", _spec(False, BETA)),),
    "UnadmittedWorkloadsObservability": (("v0.19", _spec(False, BETA)), ("v0.20", _spec(True, BETA)),),
    "ValidateRayAndSparkJobUpdates": (("v0.20", _spec(True, BETA)),),
    "VectorizedResourceRequests": (("v0.19", _spec(True, BETA)),),
    "VisibilityOnDemand": (("v0.14", _spec(True, BETA)),),
    "WorkloadIdentifierAnnotations": (("v0.18", _spec(True, BETA)),),
    "WorkloadPriorityClassDefaulting": (("v0.18", _spec(False, ALPHA)), ("v0.20", _spec(True, BETA)),),
    "WorkloadRequestUseMergePatch": (("v0.14", _spec(False, ALPHA)),),
    "WorkloadValidateResourcesAreNonNegative": (("v0.20", _spec(True, BETA)),),
    "WorkloadValidationForPodSetMetadata": (("v0.20", _spec(True, BETA)),),
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
