"""What a pending workload asks for and what an admitted workload holds, as Kueue computes it.

Source: ``pkg/workload/workload.go: totalRequestsFromPodSets, totalRequestsFromAdmission,
HasActiveQuotaReservation``, ``pkg/workload/resources.go``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone

from quotactl.kueue.amounts import saturate, to_amount
from quotactl.kueue.options import EngineOptions
from quotactl.kueue.priority import (
    PriorityInfo,
    is_evicted,
    queue_order_timestamp,
    quota_reservation_time,
    workload_priority,
)
from quotactl.model.dra import integration_enabled
from quotactl.model.kueue import KueueCluster, ResourceTransformation, Workload
from quotactl.model.quantity import Quantity

FR = tuple  # (flavor, resource)


# ------------------------------------------------------------------------- pending requests ---

@dataclass(frozen=True)
class PodSetRequest:
    """One pod set of a pending workload: the per-pod request and the total (per-pod x count)."""

    name: str
    count: int
    per_pod: dict[str, int]  # Kueue amounts (cpu milli, everything else whole units)
    total: dict[str, int]


def _drop_excluded(requests: dict[str, Quantity], prefixes: tuple[str, ...]) -> dict[str, Quantity]:
    if not prefixes:
        return requests
    return {r: q for r, q in requests.items() if not any(r.startswith(p) for p in prefixes)}


def _transform(requests: dict[str, Quantity],
               transformations: tuple[ResourceTransformation, ...]) -> dict[str, Quantity]:
    """Configured resource transformations (Retain / Replace; outputs per unit of input)."""
    if not transformations:
        return requests
    by_input: dict[str, ResourceTransformation] = {}
    for t in transformations:
        if t.input and t.input not in by_input:
            by_input[t.input] = t
    out: dict[str, Quantity] = {}

    def add(name: str, q: Quantity) -> None:
        out[name] = out[name] + q if name in out else q

    for name, q in requests.items():
        t = by_input.get(name)
        if t is None:
            add(name, q)
            continue
        units = q.value()
        for out_name, base in t.outputs.items():
            add(out_name, base * units)
        if t.retains_input:
            add(name, q)
    return out


def pod_set_requests(wl: Workload, options: EngineOptions) -> tuple[PodSetRequest, ...]:
    """``totalRequestsFromPodSets``: per pod set, the effective per-pod request (excluded
    prefixes dropped, transformations applied) in Kueue amounts, times the count minus the
    reclaimable pods.  The devices of DRA claims (``wl.dra``) are charged to their logical
    resources per pod when Kueue's DRA integration is on."""
    out = []
    charged = wl.dra.per_pod if wl.dra is not None and integration_enabled(options.gates) else None
    for ps in wl.pod_sets:
        reclaim = wl.reclaimable_pods.get(ps.name, 0) if options.gates.enabled("ReclaimablePods") else 0
        count = max(0, ps.count - reclaim)
        reqs = _transform(_drop_excluded(dict(ps.pod.requests), options.exclude_resource_prefixes),
                          options.transformations)
        per_pod = {r: to_amount(r, q) for r, q in reqs.items()}
        if charged is not None and ps.name in charged:
            # totalRequestsFromPodSets: the DRA devices join the effective per-pod requests
            for r, devices in charged[ps.name].items():
                per_pod[r] = saturate(per_pod.get(r, 0) + devices)
        total = {r: saturate(v * count) for r, v in per_pod.items()}
        out.append(PodSetRequest(ps.name, count, per_pod, total))
    return tuple(out)


# pkg/constants: constants.AdmissionName, the field manager of Kueue's admission status patches
KUEUE_ADMISSION_MANAGER = "kueue-admission"


def eviction_clears_admission(wl: Workload, options: EngineOptions) -> bool | None:
    """Whether finishing ``wl``'s eviction removes its ``status.admission`` (None: the input
    does not say).  The job reconciler's ``UnsetQuotaReservationWithCondition`` sets it nil and
    ``patching.PatchAdmissionStatus`` writes that: a merge patch (gate
    WorkloadRequestUseMergePatch) removes it always; the default server-side apply, as field
    manager kueue-admission, removes only a field that manager owns, so an admission written
    by anyone else outlives the eviction and the workload comes back on its flavors
    (``nomination_requests``)."""
    if options.gates.enabled("WorkloadRequestUseMergePatch"):
        return True
    owner = wl.admission.owner if wl.admission is not None else None
    if owner is None:
        return None
    return owner == (KUEUE_ADMISSION_MANAGER, "Apply")


def nomination_requests(wl: Workload, options: EngineOptions,
                        requests: tuple[PodSetRequest, ...] | None = None,
                        admission_cleared: bool = False) -> tuple[tuple[PodSetRequest, ...], dict]:
    """What the flavor assigner starts from for a workload that holds no quota (``workload.NewInfo``):
    (requests per pod set, {pod set: {resource: flavor}} to keep).

    Kueue builds the requests from ``status.admission`` whenever it is still set
    (``totalRequestsFromAdmission``: the admission's counts, usage and flavors), and the flavor
    assigner keeps those flavors as they are, mode Fit, no quota check, no borrowing (its
    TopologyAwareScheduling pre-assignment path, on by default).  Kueue's reference runs show this
    for every workload evicted from the input's admissions: the eviction leaves ``status.admission``
    in place and the victim comes back on its old flavors (kueue-fix-schedule, all 14 re-admitted
    victims; docs/schedule.md).  Pod sets the admission does not list keep their own requests.
    ``requests``: ``pod_set_requests(wl, options)`` when the caller has them;
    ``admission_cleared``: a run finished an eviction that removed the admission
    (``eviction_clears_admission``).
    """
    if requests is None:
        requests = pod_set_requests(wl, options)
    if wl.admission is None or admission_cleared or not options.gates.enabled("TopologyAwareScheduling"):
        return requests, {}
    preset: dict[str, dict[str, str]] = {}
    carried: dict[str, PodSetRequest] = {}
    for name, count, usage, flavors in admission_rows(wl, options):
        if not flavors:
            continue
        preset[name] = dict(flavors)
        total: dict[str, int] = {}
        for (_flavor, res), v in usage.items():
            total[res] = total.get(res, 0) + v
        carried[name] = PodSetRequest(name, count, {r: v // count if count else 0 for r, v in total.items()}, total)
    return tuple(carried.get(r.name, r) for r in requests), preset


def admission_rows(wl: Workload, options: EngineOptions):
    """(pod set, live count, usage per fr, flavors) of every podSetAssignment of
    ``status.admission`` (``totalRequestsFromAdmission``): counts default to the spec's, reclaimable pods are taken off."""
    spec_counts = None
    reclaim_on = options.gates.enabled("ReclaimablePods")
    for psa in wl.admission.pod_set_assignments if wl.admission else ():
        count = psa.count
        if count is None:
            if spec_counts is None:
                spec_counts = {ps.name: ps.count for ps in wl.pod_sets}
            count = spec_counts.get(psa.name, 1)
        reclaim = wl.reclaimable_pods.get(psa.name, 0) if reclaim_on and wl.reclaimable_pods else 0
        ps_usage: dict[FR, int] = {}
        flavors = psa.flavors
        for res, q in psa.resource_usage.items():
            flavor = flavors.get(res)
            if flavor is None:
                continue  # no flavor: Kueue charges it to no quota anybody has
            v = to_amount(res, q)
            if reclaim > 0 and count > 0:
                # Requests.Divide(count) then Mul(count - reclaim), integer arithmetic.
                v = (v // count) * max(0, count - reclaim)
            fr = (flavor, res)
            ps_usage[fr] = ps_usage.get(fr, 0) + v
        yield psa.name, max(0, count - reclaim), ps_usage, flavors


# --------------------------------------------------------------------------- admitted usage ---

_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


def _micros(t: datetime) -> int:
    d = t - _EPOCH
    return (d.days * 86400 + d.seconds) * 1_000_000 + d.microseconds


class AdmittedWorkload:
    """A workload that holds quota in a ClusterQueue (Kueue's ``workload.Info`` in the cache).

    ``usage`` is read from ``status.admission`` (already totals), scaled down by reclaimable
    pods; priority and timestamps are computed on first use (most workloads are never looked at
    individually).
    """

    __slots__ = ("key", "workload", "cluster_queue", "usage", "flavor_resources", "tas_usage",
                 "_cluster", "_options", "_priority", "_queue_ts", "_reserved_at", "_evicted", "_ordering")

    def __init__(self, wl: Workload, cluster_queue: str, cluster: KueueCluster, options: EngineOptions):
        self.key = wl.key
        self.tas_usage: tuple = ()  # topology-aware scheduling: set by the snapshot (tas.state.DomainUsage)
        self.workload = wl
        self.cluster_queue = cluster_queue
        self._cluster = cluster
        self._options = options
        self._priority: PriorityInfo | None = None
        self._queue_ts: datetime | None = None
        self._reserved_at: datetime | None = None
        self._evicted: bool | None = None
        usage: dict[FR, int] = {}
        frs: set[FR] = set()
        for _name, _count, ps_usage, flavors in self._assignments():
            for res, flavor in flavors.items():
                frs.add((flavor, res))
            for fr, v in ps_usage.items():
                usage[fr] = usage.get(fr, 0) + v
        self.usage = usage
        self.flavor_resources = frozenset(frs)

    def _assignments(self):
        """(pod set, live count, usage per fr, flavors) of every podSetAssignment (``totalRequestsFromAdmission``)."""
        return admission_rows(self.workload, self._options)

    @property
    def pod_sets(self) -> tuple:
        """(pod set, live count, usage per fr) per podSetAssignment."""
        return tuple((n, c, u) for n, c, u, _f in self._assignments())

    def pod_set_flavors(self) -> dict[str, dict[str, str]]:
        """pod set -> resource -> flavor (no quantity is parsed)."""
        adm = self.workload.admission
        return {psa.name: psa.flavors for psa in adm.pod_set_assignments} if adm else {}

    # -- lazily computed ordering keys ---------------------------------------------------
    @property
    def priority_info(self) -> PriorityInfo:
        if self._priority is None:
            self._priority = workload_priority(self._cluster, self.workload, self._options.gates)
        return self._priority

    @property
    def priority(self) -> int:
        info = self._priority
        if info is None:
            info = self.priority_info
        return info.value

    @property
    def queue_order_timestamp(self) -> datetime:
        if self._queue_ts is None:
            self._queue_ts = queue_order_timestamp(self.workload, self._options.gates,
                                                   self._options.requeuing_timestamp)
        return self._queue_ts

    @property
    def quota_reserved_at(self) -> datetime:
        if self._reserved_at is None:
            self._reserved_at = quota_reservation_time(self.workload)
        return self._reserved_at

    @property
    def evicted(self) -> bool:
        if self._evicted is None:
            self._evicted = is_evicted(self.workload)
        return self._evicted

    @property
    def uid(self) -> str:
        return self.workload.uid or ""

    @property
    def ordering_fields(self) -> tuple:
        """(0 if evicted else 1, priority, -quota reservation time in microseconds, uid, key):
        the preemptor-independent parts of ``CandidatesOrdering``, computed once (all of them
        are fixed for the life of the object)."""
        try:
            return self._ordering
        except AttributeError:  # not computed yet (subclasses may not initialise the slot)
            self._ordering = (0 if self.evicted else 1, self.priority, -_micros(self.quota_reserved_at),
                              self.uid, self.key)
            return self._ordering

    def uses_resources(self, frs) -> bool:
        """``WorkloadUsesResources``: admitted on a flavor of some fr in ``frs``."""
        return not self.flavor_resources.isdisjoint(frs)

    def __repr__(self) -> str:
        return f"AdmittedWorkload({self.key} in {self.cluster_queue})"


def counts_against_quota(wl: Workload) -> bool:
    """``HasActiveQuotaReservation``: QuotaReserved=True (with an admission), not Finished, not deactivated."""
    return wl.has_quota_reservation


def admission_checks_failed(wl: Workload) -> bool:
    """Some admission check of the workload is in state Retry or Rejected (the scheduler does not
    nominate it: ``pkg/scheduler/scheduler.go: nominate``)."""
    return any(c.state in ("Retry", "Rejected") for c in wl.admission_checks)
