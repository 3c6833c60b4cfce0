"""Feature gates at a target release, checked as Kueue's manager checks them at start-up."""

import pytest

from quotactl.model.features import (
    KUEUE_GATE_DEFAULTS,
    FeatureGates,
    check_gate,
    gate_defaults,
    gate_warnings,
    parse_gate_list,
)

# The gates the engine reads, with their defaults at v0.20: deriving them from the release table must
# not change any of them (RejectUpdatesToCQWithInvalidOnFlavors is Beta and on in v0.20.0, kueue#14776).
ENGINE_GATES_AT_V0_20 = {
    "ConcurrentAdmission": False, "RejectUpdatesToCQWithInvalidOnFlavors": True, "PartialAdmission": True,
    "ElasticJobsViaWorkloadSlices": True, "TopologyAwareScheduling": True, "TASValidateWorkloadSliceSize": True,
    "WorkloadValidationForPodSetMetadata": True, "WorkloadValidateResourcesAreNonNegative": True,
    "AdmissionGatedBy": True, "PriorityBoost": False, "QuotaCheckStrategy": True,
    "WorkloadPriorityClassDefaulting": True, "DisableWaitForPodsReady": False, "FlavorFungibility": True,
    "PrioritySortingWithinCohort": True, "FairSharingPreemptWithinNominal": True,
    "FairSharingPrioritizeNonBorrowing": True, "UnadmittedWorkloadsObservability": True,
    "SchedulingEquivalenceHashing": True, "FlavorFungibilityPreserveScanProgress": True,
    "RecomputeAssignmentUponPreemptionTargetsOverlap": True, "PrioritizePreemptorWorkloads": False,
    "ReclaimablePods": True,
}


def test_engine_defaults_at_v0_20_are_unchanged():
    for name, default in ENGINE_GATES_AT_V0_20.items():
        assert KUEUE_GATE_DEFAULTS[name] is default, name
        assert FeatureGates().enabled(name) is default, name


def test_every_real_gate_is_accepted():
    text = ",".join(f"{name}={str(d).lower()}" for name, d in gate_defaults("v0.20").items())
    assert len(parse_gate_list(text)) == 111


def test_unknown_gate_suggests_the_closest():
    with pytest.raises(ValueError, match="did you mean TopologyAwareScheduling"):
        parse_gate_list("TopologyAwareSchedulng=true")


def test_gate_of_a_later_or_earlier_release():
    with pytest.raises(ValueError, match=r"'ConcurrentAdmission' in Kueue v0.17 \(added in v0.18\)"):
        parse_gate_list("ConcurrentAdmission=true", "v0.17")
    with pytest.raises(ValueError, match=r"removed in v0.19"):
        parse_gate_list("DynamicResourceAllocation=true", "v0.19")
    assert parse_gate_list("DynamicResourceAllocation=false", "v0.18") == {"DynamicResourceAllocation": False}


def test_locked_gate_only_takes_its_default():
    with pytest.raises(ValueError, match="locked to true"):
        parse_gate_list("ManagedJobsNamespaceSelectorAlwaysRespected=false", "v0.19")
    assert parse_gate_list("ManagedJobsNamespaceSelectorAlwaysRespected=true", "v0.19")
    assert gate_warnings({"ManagedJobsNamespaceSelectorAlwaysRespected": True}, "v0.19") == [
        "setting GA feature gate ManagedJobsNamespaceSelectorAlwaysRespected=true: it will be removed in a future "
        "Kueue release"]


def test_deprecated_gate_is_a_warning():
    problem = check_gate("TASReplaceNodeDueToNotReadyOverFixedTime", True, "v0.20")
    assert problem is not None and problem.severity == "warning"
    assert check_gate("PartialAdmission", False) is None


def test_bad_value_is_refused():
    with pytest.raises(ValueError, match="must be true or false"):
        parse_gate_list("PartialAdmission=yes")


def test_defaults_follow_the_release():
    assert FeatureGates(release="v0.17").enabled("ElasticJobsViaWorkloadSlices") is False
    assert FeatureGates(release="v0.18").enabled("ElasticJobsViaWorkloadSlices") is True
    assert FeatureGates(release="v0.17").enabled("ConcurrentAdmission") is False  # not a gate yet: off


def test_all_alpha_sets_every_unlocked_alpha_gate_not_named():
    gates = FeatureGates({"AllAlpha": True, "PriorityBoost": False})
    assert gates.enabled("ConcurrentAdmission") is True
    assert gates.enabled("PriorityBoost") is False  # named explicitly: wins
    assert gates.enabled("PartialAdmission") is True  # beta: untouched
    assert "AllAlpha" not in gates.explicit
