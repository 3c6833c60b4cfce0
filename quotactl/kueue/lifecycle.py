"""What happens to a workload after its quota reservation: two-phase admission (admission checks)
and WaitForPodsReady, Kueue's rules as pure functions (``simulate/lifecycle.py`` puts them on the
clock; ``explain`` reads a snapshot's check states with them).

- ``applicable_checks``: ``pkg/workload/workload.go AdmissionChecksForWorkload``;
- ``check_verdict``: ``pkg/workload/admissionchecks.go SyncAdmittedCondition`` and
  ``pkg/controller/core/workload_controller.go reconcileCheckBasedEviction``;
- ``requeue_backoff``: ``pkg/workload/workload.go UpdateRequeueState`` (jitter taken as 0);
- ``PodsReadySettings``: ``apis/config/v1beta2/defaults.go`` for waitForPodsReady.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from quotactl.model.kueue import AdmissionCheckRule, AdmissionCheckState

READY, RETRY, REJECTED, PENDING = "Ready", "Retry", "Rejected", "Pending"
CHECK_STATES = (READY, RETRY, REJECTED, PENDING)

# eviction reasons of the simulation's report (Kueue's condition reasons)
PODS_READY_TIMEOUT = "PodsReadyTimeout"
ADMISSION_CHECK = "AdmissionCheck"
DEACTIVATED = "Deactivated"

US = 1_000_000
DEFAULT_TIMEOUT = 30 * 60 * US  # 30m
DEFAULT_BACKOFF_BASE = 60  # seconds
DEFAULT_BACKOFF_MAX = 3600  # seconds


@dataclass(frozen=True)
class PodsReadySettings:
    """waitForPodsReady with Kueue's defaults applied; durations in microseconds."""

    timeout: int = DEFAULT_TIMEOUT
    block_admission: bool = False
    backoff_limit_count: int | None = None
    backoff_base_seconds: int = DEFAULT_BACKOFF_BASE
    backoff_max_seconds: int = DEFAULT_BACKOFF_MAX


def applicable_checks(rules: Iterable[AdmissionCheckRule], flavors: Iterable[str]) -> tuple[str, ...]:
    """The checks of a ClusterQueue that apply to an assignment on ``flavors``: a rule with no
    onFlavors, or one naming a flavor of the assignment (sorted, each once)."""
    used = set(flavors)
    return tuple(sorted({r.name for r in rules if r.name and (not r.on_flavors or used.intersection(r.on_flavors))}))


def waiting_checks(rules: Iterable[AdmissionCheckRule], flavors: Iterable[str],
                   states: Iterable[AdmissionCheckState]) -> tuple[AdmissionCheckState, ...]:
    """The applicable checks of a reserved workload that are not Ready yet, with the state and
    message of its ``status.admissionChecks`` (Pending when it has no entry for one)."""
    by_name = {s.name: s for s in states}
    out = []
    for name in applicable_checks(rules, flavors):
        st = by_name.get(name)
        if st is None:
            out.append(AdmissionCheckState(name, PENDING, None))
        elif st.state != READY:
            out.append(st)
    return tuple(out)


def check_verdict(states: Iterable[str]) -> str:
    """What a workload's check states make of it: REJECTED (deactivated) before RETRY (evicted
    and requeued), else READY when every one is Ready (Admitted), else PENDING (waits, holding
    its quota)."""
    seen = set(states)
    if REJECTED in seen:
        return REJECTED
    if RETRY in seen:
        return RETRY
    return READY if seen <= {READY} else PENDING


def requeue_backoff(count: int, base_seconds: int, max_seconds: int) -> int:
    """Seconds until a workload evicted for the ``count``-th time by PodsReadyTimeout may be
    queued again: min(base * 2^(count-1), max).  Capped before it is computed, so a huge count or
    base never builds a huge number (Kueue's wait.Backoff caps the same way)."""
    base, cap = max(0, base_seconds), max(0, max_seconds)
    if base == 0:
        return 0
    shift = max(0, count - 1)
    if shift >= cap.bit_length() + 1 or base > cap:
        return cap
    return min(base << shift, cap)


def deactivates(count_after: int, limit: int | None) -> bool:
    """A PodsReadyTimeout that would make requeueState.count exceed backoffLimitCount deactivates
    the workload instead of requeuing it (``workload_controller.go triggerDeactivation``)."""
    return limit is not None and count_after > limit
