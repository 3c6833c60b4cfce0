"""The Kueue features present in an input that can change the answer and that quotactl does not
model: one detector per feature (``DETECTORS``), each a small pure function over the typed model.
A detector is deleted when its feature gets modelled; none reports a feature the input lacks.

The engines still answer by quota alone: these say where Kueue may answer differently."""

from __future__ import annotations

from dataclasses import dataclass

from quotactl.caveat import MAX_OBJECTS, Caveat, caveat, run_detectors
from quotactl.kueue.afs import uses_afs
from quotactl.kueue.options import EngineOptions
from quotactl.model.dra import integration_enabled
from quotactl.model.features import gate_defaults
from quotactl.model.kueue import OUTCOME_ANNOTATION, KueueCluster, WorkloadTraits
from quotactl.model.kueue_checks import MULTIKUEUE_CONTROLLER, AlphaObject
from quotactl.model.kueue_tas import HOSTNAME

# Feature gates the engines honour (kueue/, simulate/, jobs/ and model/ read them with
# ``gates.enabled``); tests/kueue/test_caveats.py checks this against the code.
MODELLED_GATES = frozenset({
    "AdmissionFairSharing", "FairSharingPreemptWithinNominal", "FairSharingPrioritizeNonBorrowing", "FairSharingReevaluatePreemptionCandidates",
    "FlavorFungibility", "FlavorFungibilityPreserveScanProgress", "PartialAdmission", "PrioritizePreemptorWorkloads",
    "PriorityBoost", "PrioritySortingWithinCohort", "QuotaCheckStrategy", "ReclaimablePods",
    "RecomputeAssignmentUponPreemptionTargetsOverlap", "SchedulingEquivalenceHashing", "TopologyAwareScheduling",
    "UnadmittedWorkloadsObservability", "TASBalancedPlacement", "TASHandleOverlappingFlavors", "TASProfileMixed",
    "TASRecomputeAssignmentWithinSchedulingCycle", "TASRespectNodeAffinityPreferred", "WorkloadRequestUseMergePatch",
    # DRA (model/dra.py)
    "DynamicResourceAllocation", "KueueDRAIntegration", "KueueDRARejectWorkloadsWhenDRADisabled",
    # status.effectiveQuotas (kueue/quota/snapshot.py)
    "DynamicQuotaOrchestration",
    # the refill of the fair-sharing tournament (kueue/scheduler/loop.py)
    "FairSharingRefill",
})
# Gates whose setting the detectors below already take into account (switching them off turns
# the unmodelled feature off, which is then no caveat).
GATES_OF_DETECTORS = frozenset({"DisableWaitForPodsReady", "TASNodeFeasibilityForAllLevels",
                                "TASPartialSlices", "TASGroupedPodSetSlicing"})


@dataclass(frozen=True)
class KueueInput:
    """What the detectors look at: the model (its configuration objects), the engine options, the
    traits of every Workload of the input and the alpha-kind objects."""

    cluster: KueueCluster
    options: EngineOptions
    workloads: tuple[WorkloadTraits, ...] = ()
    alpha: tuple[AlphaObject, ...] = ()

    @property
    def checks_answered(self) -> set[str]:
        """The checks some Workload gives its own answer for (quotactl.io/check.<name>)."""
        return {name for wl in self.workloads for name in wl.answered_checks}


def kueue_caveats(cluster: KueueCluster, options: EngineOptions, workloads: tuple[WorkloadTraits, ...] = (),
                  alpha: tuple[AlphaObject, ...] = ()) -> tuple[Caveat, ...]:
    """Every caveat of the input, sorted by feature."""
    return run_detectors(DETECTORS, KueueInput(cluster, options, workloads, alpha))


def topology_aware_scheduling(inp: KueueInput) -> Caveat | None:
    """TAS flavors and pod sets with a topology request (kueue pkg/cache/scheduler/tas_*): without
    Nodes in the input nothing is placed; with them, what the placement leaves out."""
    gates = inp.options.gates
    if not gates.enabled("TopologyAwareScheduling"):
        return None  # Kueue ignores topologies then, as quotactl does
    flavors = [f for f in inp.cluster.resource_flavors.values() if f.topology_name]
    names = [f.display for f in flavors] + [wl.display for wl in inp.workloads if wl.topology_request]
    if not names:
        return None
    if not inp.cluster.nodes:
        return caveat("TopologyAwareScheduling", names,
                      "quotactl places workloads by quota only; Kueue also needs a topology domain with "
                      "room for their pods, so a workload that fits the quota may stay pending with "
                      "TopologyPlacementFailed")  # no Nodes in the input: nothing to place them on
    left_out = ["failed-node replacement", "elastic workload slices",
                "the placement of a delayed topology request once its admission check is ready (second pass)",
                "nodeSelector and tolerations an admission check adds (podSetUpdates)"]
    levels = [inp.cluster.topologies[f.topology_name].levels for f in flavors
              if f.topology_name in inp.cluster.topologies]
    if gates.enabled("TASNodeFeasibilityForAllLevels") and any(lv and lv[-1] != HOSTNAME for lv in levels):
        # the gate is modelled (kueue/tas/snapshot.py, a virtual hostname level) after Kueue's later
        # topology tree; how v0.20.0 itself accounted admitted usage there is what may differ
        left_out.insert(0, "the usage of admitted workloads on topologies without a kubernetes.io/hostname level "
                           "(TASNodeFeasibilityForAllLevels: quotactl fits pods per node and bounds each "
                           "lowest-level domain by the usage its admitted workloads' assignments name, as "
                           "Kueue after v0.20.0 does; v0.20.0 may account that usage differently)")
    # TASPartialSlices and TASGroupedPodSetSlicing are modelled (kueue/tas/partial_slices.py, KQ606); a
    # partial slice is refused with slice layers, which needs the pod set's count the webhook reads
    if gates.enabled("TASPartialSlices") and any(wl.uneven_slice_layers for wl in inp.workloads):
        left_out.append("a pod set with slice layers whose outer slice size does not divide its count (Kueue's "
                        "job webhook rejects it under TASPartialSlices; quotactl places its whole slices)")
    return caveat("TopologyAwareScheduling", names,
                  "quotactl places pods on the Nodes as Kueue's TAS does, except: " + "; ".join(left_out))


def admission_fair_sharing(inp: KueueInput) -> Caveat | None:
    """Admission fair sharing is modelled (kueue/afs.py); what a snapshot cannot show is the entry
    penalty Kueue keeps in memory (``AfsUsageLedger``) for a workload that holds quota and waits for
    its admission checks: only ClusterQueues using it that have admission checks are named."""
    settings = inp.options.admission_fair_sharing
    queues = [cq.display for cq in inp.cluster.cluster_queues.values()
              if uses_afs(cq, settings) and cq.admission_checks]
    if not queues:
        return None
    return caveat("AdmissionFairSharing", queues,
                  "quotactl orders these ClusterQueues' workloads by their LocalQueue's usage as Kueue does, but a "
                  "workload that holds quota at the snapshot and waits for its admission checks carries an entry "
                  "penalty Kueue keeps in memory only; quotactl counts none for it")


def _multikueue_checks(cluster: KueueCluster) -> set[str]:
    return {name for name, ac in cluster.admission_checks.items() if ac.controller_name == MULTIKUEUE_CONTROLLER}


def admission_checks(inp: KueueInput) -> Caveat | None:
    """Admission checks whose answer the input does not give (two-phase admission is modelled:
    kueue/lifecycle.py, simulate/phases.py): with neither ``quotactl.io/outcome`` on the
    AdmissionCheck nor ``quotactl.io/check.<name>`` on a Workload, a check is taken as Ready the
    moment quota is reserved."""
    multikueue = _multikueue_checks(inp.cluster)
    used = sorted({rule.name for cq in inp.cluster.cluster_queues.values() for rule in cq.admission_checks
                   if rule.name and rule.name not in multikueue})
    answered = {name for name, ac in inp.cluster.admission_checks.items()
                if OUTCOME_ANNOTATION in (ac.source.metadata.get("annotations") or {})}
    unanswered = [name for name in used if name not in answered and name not in inp.checks_answered]
    names = [inp.cluster.admission_checks[n].display if n in inp.cluster.admission_checks else f"AdmissionCheck/{n}"
             for n in unanswered]
    return caveat("AdmissionChecks", names,
                  "the input does not say when these checks answer (annotation quotactl.io/outcome on the "
                  "AdmissionCheck, or quotactl.io/check.<name> on a Workload): quotactl takes each as Ready the "
                  "moment quota is reserved; Kueue admits a workload only when its checks are Ready (a "
                  "ProvisioningRequest may take long or fail, and a check in Retry releases the quota)")


def wait_for_pods_ready(inp: KueueInput) -> Caveat | None:
    """What of waitForPodsReady stays unmodelled (timeouts, backoff, blockAdmission are modelled:
    simulate/phases.py): v0.20's unscheduledTimeout and the per-workload timeouts
    (``kueue.x-k8s.io/pods-ready-timeout``, ``spec.waitForPodsReady``, gate WorkloadLevelWaitForPodsReady)."""
    cfg = inp.cluster.configuration
    if cfg is None or cfg.pods_ready is None or inp.options.gates.enabled("DisableWaitForPodsReady"):
        return None
    names = [cfg.display] if cfg.pods_ready.unscheduled_timeout is not None else []
    names += [wl.display for wl in inp.workloads if wl.pods_ready_timeout]
    return caveat("WaitForPodsReady", names,
                  "quotactl evicts a workload whose pods are not ready within waitForPodsReady.timeout; Kueue also "
                  "evicts one whose pods stay unscheduled past unscheduledTimeout, and honours a workload's own "
                  "timeout (kueue.x-k8s.io/pods-ready-timeout), which quotactl does not read")


def dynamic_resource_allocation(inp: KueueInput) -> Caveat | None:
    """What of DRA quotactl does not model (kueue pkg/dra): it charges the devices of
    ResourceClaimTemplates to their mapped resources, but Kueue also checks CEL selectors against
    the cluster's ResourceSlices (claims.go validateCELSelectorsAgainstDevices) and charges
    mappings with counter or capacity sources from them (counters.go, capacity.go)."""
    if not integration_enabled(inp.options.gates):
        return None
    cfg = inp.cluster.configuration
    sourced = {dc for m in cfg.device_class_mappings if m.has_sources for dc in m.device_class_names} if cfg else set()
    names, left_out = [], set()
    for wl in inp.workloads:
        specs = [s for s in (inp.cluster.claim_templates.get(k) for k in wl.claim_templates) if s is not None]
        cel = any(s.cel_selectors for s in specs)
        counted = any(dc in sourced for s in specs for dc, _ in s.devices)
        if cel:
            left_out.add("whether a device in the cluster's ResourceSlices matches a claim's CEL selectors (Kueue "
                         "refuses a claim no device matches)")
        if counted:
            left_out.add("mappings with counter or capacity sources (with its partitionable-devices or "
                         "consumable-capacity gates on, Kueue charges them from the ResourceSlices; quotactl "
                         "charges the device count)")
        if cel or counted:
            names.append(wl.display)
    if not names:
        return None
    return caveat("DynamicResourceAllocation", names,
                  "quotactl charges the devices of ResourceClaimTemplates to their deviceClassMappings resources as "
                  "Kueue does, except: " + "; ".join(sorted(left_out)))


def _alpha(inp: KueueInput, kinds: tuple[str, ...]) -> list[str]:
    return [o.display for o in inp.alpha if o.kind in kinds]


def configurable_preemptions(inp: KueueInput) -> Caveat | None:
    """PreemptionConfig objects (kueue.x-k8s.io/v1alpha1, Kueue v0.20 ConfigurablePreemptions)."""
    return caveat("ConfigurablePreemptions", _alpha(inp, ("PreemptionConfig",)),
                  "quotactl chooses victims with the ClusterQueues' preemption policies only; a PreemptionConfig "
                  "changes which workloads Kueue may preempt")


def dynamic_quota_orchestration(inp: KueueInput) -> Caveat | None:
    """The v1alpha1 kinds of Kueue v0.20 Dynamic Quota Orchestration that keep rewriting the
    quota: the engines use the status.effectiveQuotas the input holds (quota/snapshot.py
    groups_in_force), not how an orchestrator would change them."""
    names = _alpha(inp, ("DynamicQuotaOrchestrator", "CapacityProvider"))
    return caveat("DynamicQuotaOrchestration", names,
                  "quotactl uses the status.effectiveQuotas the input's ClusterQueues and Cohorts hold; a "
                  "DynamicQuotaOrchestrator rewrites them as its CapacityProviders report capacity, so later "
                  "quotas may differ")


def multikueue(inp: KueueInput) -> Caveat | None:
    """ClusterQueues with a MultiKueue admission check (kueue pkg/controller/admissionchecks/multikueue)."""
    checks = _multikueue_checks(inp.cluster)
    queues = [cq.display for cq in inp.cluster.cluster_queues.values()
              if any(rule.name in checks for rule in cq.admission_checks)]
    if not queues:
        return None
    used = {rule.name for cq in inp.cluster.cluster_queues.values() for rule in cq.admission_checks}
    names = queues + [inp.cluster.admission_checks[c].display for c in checks & used]
    return caveat("MultiKueue", names,
                  "quotactl answers for this cluster's quota; Kueue dispatches a MultiKueue workload to a worker "
                  "cluster, where that cluster's own quota decides when it runs")


def feature_gates(inp: KueueInput) -> Caveat | None:
    """Gates set away from their default (Configuration featureGates, --feature-gates) that the
    engines do not honour; the table of gates is model/kueue_versions.py."""
    gates = inp.options.gates
    defaults = gate_defaults(gates.release)
    honoured = MODELLED_GATES | GATES_OF_DETECTORS
    off = sorted(name for name, value in gates.explicit.items()
                 if name in defaults and value != defaults[name] and name not in honoured)
    if not off:
        return None
    cfg = inp.cluster.configuration
    from_config = cfg is not None and any(name in cfg.feature_gates for name in off)
    from_flag = cfg is None or any(name not in cfg.feature_gates for name in off)
    names = ([cfg.display] if from_config and cfg is not None else []) + (["--feature-gates"] if from_flag else [])
    shown = [f"{name}={str(gates.enabled(name)).lower()}" for name in off[:MAX_OBJECTS]]
    settings = ", ".join(shown) + (f" and {len(off) - len(shown)} more" if len(off) > len(shown) else "")
    return caveat("FeatureGates", names,
                  f"quotactl answers with these gates at their default; Kueue runs with {settings}, which may "
                  "change the answer")


DETECTORS = (
    topology_aware_scheduling, admission_fair_sharing, admission_checks, wait_for_pods_ready,
    dynamic_resource_allocation, configurable_preemptions, dynamic_quota_orchestration, multikueue, feature_gates,
)
