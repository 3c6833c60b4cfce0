"""The release table: served API versions and feature gates per Kueue release."""

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
    # Counted in pkg/features/kube_features.go defaultVersionedFeatureGates at each release tag.
    counts = {r: len(gate_table(r)) for r in RELEASES}
    assert counts == {"v0.14": 28, "v0.15": 32, "v0.16": 34, "v0.17": 51, "v0.18": 66, "v0.19": 77, "v0.20": 80}


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
