"""Kueue feature gates that change validation or scheduling, with their defaults at the
studied Kueue commit (v0.20 line; kueue ``pkg/features/kube_features.go``)."""

from __future__ import annotations

KUEUE_GATE_DEFAULTS: dict[str, bool] = {
    "ConcurrentAdmission": False,
    "RejectUpdatesToCQWithInvalidOnFlavors": False,
    "PartialAdmission": True,
    "ElasticJobsViaWorkloadSlices": True,
    "TopologyAwareScheduling": True,
    "TASValidateWorkloadSliceSize": True,
    "WorkloadValidationForPodSetMetadata": True,
    "WorkloadValidateResourcesAreNonNegative": True,
    "AdmissionGatedBy": True,
    "PriorityBoost": False,
    "QuotaCheckStrategy": True,
    "WorkloadPriorityClassDefaulting": True,
    "DisableWaitForPodsReady": False,
    "FlavorFungibility": True,
    "PrioritySortingWithinCohort": True,
    "FairSharingPreemptWithinNominal": True,
    "FairSharingPrioritizeNonBorrowing": True,
    "UnadmittedWorkloadsObservability": True,
    "SchedulingEquivalenceHashing": True,
    "FlavorFungibilityPreserveScanProgress": True,
    "RecomputeAssignmentUponPreemptionTargetsOverlap": True,
    "PrioritizePreemptorWorkloads": False,
    "ReclaimablePods": True,
}


def parse_gate_list(text: str) -> dict[str, bool]:
    """Parse ``Name=true,Other=false`` (the kube --feature-gates syntax)."""
    gates: dict[str, bool] = {}
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        name, sep, value = part.partition("=")
        name = name.strip()
        value = value.strip().lower() if sep else "true"
        if value not in ("true", "false"):
            raise ValueError(f"feature gate {name!r}: value must be true or false, got {value!r}")
        if name not in KUEUE_GATE_DEFAULTS:
            known = ", ".join(sorted(KUEUE_GATE_DEFAULTS))
            raise ValueError(f"unknown feature gate {name!r} (known: {known})")
        gates[name] = value == "true"
    return gates


class FeatureGates:
    """Explicit settings (command line over Configuration) on top of the defaults."""

    def __init__(self, explicit: dict[str, bool] | None = None):
        self.explicit = dict(explicit or {})

    def enabled(self, name: str) -> bool:
        return self.explicit.get(name, KUEUE_GATE_DEFAULTS.get(name, False))

    def explicitly_set(self, name: str) -> bool:
        return name in self.explicit

    def enabled_for_use(self, name: str) -> bool:
        """For rules about a gated field the object actually sets: run them unless the gate is
        explicitly off.  Someone who writes the field means to turn the feature on, and the
        rules say what Kueue enforces once it is."""
        return self.explicit.get(name, True)
