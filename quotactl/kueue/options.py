"""The Kueue manager settings the engine needs, resolved once from the input's Configuration,
the command line and Kueue's defaults (kueue ``apis/config/v1beta2/defaults.go``)."""

from __future__ import annotations

from dataclasses import dataclass, field

from quotactl.kueue.afs import AfsSettings, afs_settings
from quotactl.model.features import FeatureGates
from quotactl.model.kueue import KueueCluster, ResourceTransformation
from quotactl.model.kueue_checks import build_admission_check
from quotactl.model.kueue_versions import DEFAULT_RELEASE

LESS_THAN_OR_EQUAL_TO_FINAL_SHARE = "LessThanOrEqualToFinalShare"
LESS_THAN_INITIAL_SHARE = "LessThanInitialShare"
DEFAULT_STRATEGIES = (LESS_THAN_OR_EQUAL_TO_FINAL_SHARE, LESS_THAN_INITIAL_SHARE)


@dataclass(frozen=True)
class EngineOptions:
    fair_sharing: bool = False
    preemption_strategies: tuple[str, ...] = DEFAULT_STRATEGIES
    gates: FeatureGates = field(default_factory=FeatureGates)
    requeuing_timestamp: str = "Eviction"  # waitForPodsReady.requeuingStrategy.timestamp
    exclude_resource_prefixes: tuple[str, ...] = ()
    transformations: tuple[ResourceTransformation, ...] = ()
    quota_check_strategy: str = "BlockUndeclared"
    # Names of AdmissionCheck objects in the input and whether each is Active; None when the
    # input holds no AdmissionCheck object at all (then admission checks are not judged).
    admission_checks: dict[str, bool] | None = None
    # admissionFairSharing when on (kueue/afs.py); None: no LocalQueue usage orders anything
    admission_fair_sharing: AfsSettings | None = None
    # waitForPodsReady.blockAdmission in force (scheduler.go waitForPodsReadyIfNeeded)
    block_admission: bool = False

    @property
    def ignore_undeclared(self) -> bool:
        return self.gates.enabled("QuotaCheckStrategy") and self.quota_check_strategy == "IgnoreUndeclared"


def engine_options(cluster: KueueCluster, *, fair_sharing: bool | None = None,
                   feature_gates: dict[str, bool] | None = None,
                   admission_checks: dict[str, bool] | None = None,
                   release: str = DEFAULT_RELEASE, fair_sharing_by_usage: bool = True) -> EngineOptions:
    """Command line over the input's Configuration over Kueue's defaults.  Raises
    ``afs.AfsConfigError`` on an admissionFairSharing value Kueue refuses; with
    ``fair_sharing_by_usage`` False admission fair sharing is left out (lint's quota rules do
    not depend on it, and KQ802 reports such a value as a finding)."""
    cfg = cluster.configuration
    explicit = dict(cfg.feature_gates) if cfg else {}
    explicit.update(feature_gates or {})
    fs = bool(cfg and cfg.fair_sharing_enabled)
    if fair_sharing is not None:
        fs = fair_sharing
    strategies = tuple(cfg.preemption_strategies) if cfg and cfg.preemption_strategies else ()
    strategies = tuple(s for s in strategies if s in DEFAULT_STRATEGIES) or DEFAULT_STRATEGIES
    requeuing = (cfg.requeuing_timestamp if cfg else None) or "Eviction"
    gates = FeatureGates(explicit, release)
    return EngineOptions(
        fair_sharing=fs,
        preemption_strategies=strategies,
        gates=gates,
        requeuing_timestamp=requeuing,
        exclude_resource_prefixes=tuple(cfg.exclude_resource_prefixes) if cfg else (),
        transformations=tuple(cfg.transformations) if cfg else (),
        quota_check_strategy=cfg.quota_check_strategy if cfg else "BlockUndeclared",
        admission_checks=admission_checks,
        admission_fair_sharing=afs_settings(cfg, gates) if fair_sharing_by_usage else None,
        block_admission=_blocks_admission(cfg, explicit, release),
    )


def _blocks_admission(cfg, explicit: dict[str, bool], release: str) -> bool:
    """waitForPodsReady is on with blockAdmission: true, and DisableWaitForPodsReady is off."""
    if cfg is None or cfg.pods_ready is None or not cfg.pods_ready.block_admission:
        return False
    return not FeatureGates(explicit, release).enabled("DisableWaitForPodsReady")


def admission_check_states(objects) -> dict[str, bool] | None:
    """AdmissionCheck objects of the input -> whether each is Active (condition Active=True).

    None when the input has no AdmissionCheck at all: ``kubectl get clusterqueues,...`` dumps
    usually leave them out, and Kueue's verdict then cannot be known (the engine assumes active).
    """
    found: dict[str, bool] | None = None
    for obj in objects:
        if getattr(obj, "kind", None) != "AdmissionCheck" or not getattr(obj, "name", None):
            continue
        found = found if found is not None else {}
        check = build_admission_check(obj)
        found.setdefault(check.name, check.active)
    return found
