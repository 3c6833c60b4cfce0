"""The release table: served API versions and feature gates per Kueue release."""

from pathlib import Path

import pytest

from quotactl.model.kueue_versions import (
    DEFAULT_RELEASE,
    RELEASES,
    api_version_state,
    gate_introduced_in,
    gate_removed_in,
    gate_table,
    parse_release,
    served_versions,
)

V0_20_GATES = Path(__file__).parent / "data" / "kueue-v0.20.0-gates.tsv"


def test_default_is_the_newest_release():
    assert DEFAULT_RELEASE == RELEASES[-1] == "v0.20"


@pytest.mark.parametrize("text", ["v0.19", "0.19", "v0.19.2", " 0.19.0 "])
def test_release_spellings(text):
    assert parse_release(text) == "v0.19"


@pytest.mark.parametrize("text", ["v0.21", "v0.13", "latest", "1", ""])
def test_unknown_release_lists_the_known_ones(text):
    with pytest.raises(ValueError) as err:
        parse_release(text)
    assert "v0.14, v0.15" in str(err.value) and "v0.20" in str(err.value)


def test_served_versions_follow_kueue_releases():
    # v1beta2 appears in v0.15, v1beta1 is deprecated from v0.16 and unserved from v0.20 (kueue#14558).
    assert served_versions("v0.14", "kueue.x-k8s.io") == ("v1beta1",)
    assert served_versions("v0.15", "kueue.x-k8s.io") == ("v1beta1", "v1beta2")
    assert served_versions("v0.20", "kueue.x-k8s.io") == ("v1beta2",)
    assert api_version_state("v0.15", "kueue.x-k8s.io", "v1beta1") == "served"
    assert api_version_state("v0.16", "kueue.x-k8s.io", "v1beta1") == "deprecated"
    assert api_version_state("v0.19", "kueue.x-k8s.io", "v1beta1") == "deprecated"
    assert api_version_state("v0.20", "kueue.x-k8s.io", "v1beta1") == "unserved"
    assert api_version_state("v0.14", "kueue.x-k8s.io", "v1beta2") == "future"
    assert api_version_state("v0.17", "kueue.x-k8s.io", "v1alpha1") == "unserved"
    assert api_version_state("v0.20", "kueue.x-k8s.io", "v1") == "unknown"
    assert served_versions("v0.20", "config.kueue.x-k8s.io") == ("v1beta1", "v1beta2")


def test_gate_counts_per_release():
    # Counted in pkg/features/kube_features.go defaultVersionedFeatureGates at each line's newest tag
    # (v0.14.8 ... v0.19.2; v0.18 and v0.19 add the cherry-picks #15296/#15294 and #15690), and for
    # v0.20.0 in the list under tests/model/data.
    counts = {r: len(gate_table(r)) for r in RELEASES}
    assert counts == {"v0.14": 34, "v0.15": 42, "v0.16": 46, "v0.17": 63, "v0.18": 89, "v0.19": 91, "v0.20": 111}


def _released_v0_20_gates() -> dict[str, tuple[bool, str, bool]]:
    rows = (line.split("\t") for line in V0_20_GATES.read_text().splitlines() if not line.startswith("#"))
    return {name: (default == "true", stage, locked == "true") for name, default, stage, locked, _source in rows}


def test_v0_20_table_is_the_released_gate_list():
    table = {name: (spec.default, spec.stage, spec.locked) for name, spec in gate_table("v0.20").items()}
    released = _released_v0_20_gates()
    assert sorted(set(released) - set(table)) == []
    assert sorted(set(table) - set(released)) == []
    assert {n: s for n, s in table.items() if released[n] != s} == {}


# Every feature gate CHANGELOG/CHANGELOG-0.20.md (the v0.20.0 release notes) names, as written there.
GATES_IN_V0_20_RELEASE_NOTES = """
AdmissionFairSharing AdmissionFairSharingAnchorAtQuotaReservation ConfigurablePreemptions CustomMetricLabels
DeploymentJobUIDLabel DynamicQuotaOrchestration ElasticJobsViaWorkloadSlices
ElasticJobsViaWorkloadSlicesFlavorChangeFromZero ElasticJobsViaWorkloadSlicesForProvisioningRequests
ElasticJobsViaWorkloadSlicesWithTAS EnforceProvisioningPodTemplateContents FailureRecoveryPolicy FairSharingRefill
FairSharingReevaluatePreemptionCandidates FlavorFungibilityPreserveScanProgress HighMaxParallelismWithinReconcile
KueueDRADeviceFeasibility KueueDRAIntegrationConsumableCapacity KueueDRAIntegrationDeviceTaints
KueueDRAIntegrationPartitionableDevices KueueDRAIntegrationPrioritizedList LWSImmutableGroupSize
MultiKueueBatchJobClearingTTLSecondsAfterFinishedOnWorkerCluster MultiKueueKubeConfigPathValidation
MultiKueueOrchestratedPreemption MultiKueueRayInTreeAutoscaling MultiKueueRemoteSpecSync
MultiKueueReuseClientConnectionConfigForWorkers PodGroupSchedulingShapeOrdering
PodIntegrationCountSucceededPodsAsReady PrioritizePreemptorWorkloads RayServiceValidateUpgradeStrategy
ReclaimablePods RecomputeAssignmentUponPreemptionTargetsOverlap RejectUpdatesToCQWithInvalidOnFlavors
SchedulerLibraryIntegration SchedulingEquivalenceHashing SchedulingEquivalenceHashingIgnorePodSetName
SkipAncestorCheckForDeletedWorkloads SkipChildJobSuspension TASCacheTopologyTree TASFailedNodeReplacementFailFast
TASGroupedPodSetSlicing TASHandleOverlappingFlavors TASLeaderPodSetFeasibility TASNodeFeasibilityForAllLevels
TASPartialSlices TASRecomputeAssignmentWithinSchedulingCycle TASRejectFalseUnconstrainedTopology
TASReplaceMultipleFailedNodes TASReplaceNodeOnPodTermination TASTopologySpreading TASValidateWorkloadSliceSize
TLSOptions TopologyAwareScheduling UnadmittedWorkloadsObservability ValidateRayAndSparkJobUpdates
VectorizedResourceRequests WaitForPodsReadyMaxNotReady WaitForPodsReadyUnscheduledTimeout
WorkloadLevelWaitForPodsReady WorkloadPriorityClassDefaulting WorkloadValidateResourcesAreNonNegative
WorkloadValidationForPodSetMetadata
""".split()


def test_every_gate_the_v0_20_release_notes_name_is_known():
    assert [name for name in GATES_IN_V0_20_RELEASE_NOTES if name not in gate_table("v0.20")] == []


def test_v0_20_graduations_from_the_release_notes():
    # "Graduated RejectUpdatesToCQWithInvalidOnFlavors to Beta (enabled by default)" (#14776),
    # "Graduated MultiKueueOrchestratedPreemption to Beta (enabled by default)" (#16235).
    for name in ("RejectUpdatesToCQWithInvalidOnFlavors", "MultiKueueOrchestratedPreemption"):
        assert (gate_table("v0.19")[name].default, gate_table("v0.20")[name].default) == (False, True)
        assert gate_table("v0.20")[name].stage == "Beta"


def test_a_gate_added_in_a_patch_release_is_known_on_its_line():
    # LWSImmutableGroupSize came with v0.18.5 and v0.19.1; FinishOrphanedWorkloads was Beta in v0.16.6
    # and went back to Alpha, off, in v0.16.8.
    assert gate_table("v0.18")["LWSImmutableGroupSize"].default is True
    assert gate_introduced_in("LWSImmutableGroupSize") == "v0.18"
    orphaned = gate_table("v0.16")["FinishOrphanedWorkloads"]
    assert (orphaned.default, orphaned.stage) == (False, "Alpha")


def test_gate_specs_change_with_the_release():
    assert gate_table("v0.14")["TopologyAwareScheduling"].default is True
    assert gate_table("v0.18")["ElasticJobsViaWorkloadSlices"].default is True
    assert gate_table("v0.17")["ElasticJobsViaWorkloadSlices"].default is False
    # UnadmittedWorkloadsObservability: beta but off in v0.19, on in v0.20.
    assert gate_table("v0.19")["UnadmittedWorkloadsObservability"].default is False
    assert gate_table("v0.20")["UnadmittedWorkloadsObservability"].default is True
    locked = gate_table("v0.19")["ManagedJobsNamespaceSelectorAlwaysRespected"]
    assert (locked.default, locked.stage, locked.locked) == (True, "GA", True)


def test_removed_and_introduced_gates():
    assert "DynamicResourceAllocation" in gate_table("v0.18")
    assert "DynamicResourceAllocation" not in gate_table("v0.19")
    assert gate_removed_in("DynamicResourceAllocation", "v0.20") == "v0.19"
    assert gate_removed_in("DynamicResourceAllocation", "v0.18") is None
    assert gate_introduced_in("ConcurrentAdmission") == "v0.18"
    assert gate_introduced_in("NoSuchGate") is None
