"""Flavor assignment for a pending workload, identical to Kueue's flavor assigner
(and its messages).

Source: ``pkg/scheduler/flavorassigner/flavorassigner.go`` (``assignFlavors``,
``findFlavorForPodSets``, ``checkFlavorForPodSets``, ``flavorSelector``, ``fitsResourceQuota``,
``isPreferred``, ``shouldTryNextFlavor``, ``resolveNoFitReason``, ``Assignment.Message``),
``flavor_assigner_attempts.go``, ``podset_reducer.go`` and ``pkg/scheduler/scheduler.go:
getInitialAssignments`` (partial admission).

Pod sets are assigned in ``spec.podSets`` order; per pod set one flavor is chosen per resource
group, scanning the group's flavors in order and asking the preemption oracle where quota is
short.  Every flavor tried is recorded with Kueue's own reason texts, plus the numbers behind
each quota check (for ``explain``).
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple

from quotactl.kueue.amounts import PODS, format_amount
from quotactl.kueue.preemption.common import PreemptionPossibility, Preemptor, Target
from quotactl.kueue.preemption.oracle import OracleResult, simulate_preemption
from quotactl.kueue.preemption.policy import can_preempt_while_borrowing
from quotactl.kueue.preemption.targets import get_targets, searched_targets
from quotactl.kueue.quota import (
    ZERO_QUOTA,
    ClusterQueueNode,
    ResourceGroupView,
    Snapshot,
    cq_available,
    find_height_of_lowest_subtree_that_fits,
    potential_available,
)
from quotactl.kueue.tas.assigner import (
    PodSetInput,
    PodSetTopology,
    decide,
    flavor_mismatch,
    is_tas_only,
    placement_fits,
    placement_requests,
    unplaced_reasons,
)
from quotactl.kueue.tas.snapshot import PodSetTASRequest
from quotactl.kueue.workload import PodSetRequest
from quotactl.model.cached import cached_attribute
from quotactl.model.kueue import FlavorFungibility, PodSet, ResourceFlavor
from quotactl.model.kueue_checks import MULTIKUEUE_CONTROLLER, PROVISIONING_CONTROLLER
from quotactl.model.podspec import PodSpecInfo, Taint

# --------------------------------------------------------------------------------- modes ---

# Reasons a pod set cannot get a flavor (KEP-10852 QuotaReserved reasons), and their severity.
NO_MATCHING_FLAVOR = "NoMatchingFlavor"
EXCEEDS_MAX_QUOTA = "ExceedsMaxQuota"
WAITING_FOR_QUOTA = "WaitingForQuota"
TOPOLOGY_PLACEMENT_FAILED = "TopologyPlacementFailed"
_SEVERITY = {TOPOLOGY_PLACEMENT_FAILED: 1, WAITING_FOR_QUOTA: 2, EXCEEDS_MAX_QUOTA: 3, NO_MATCHING_FLAVOR: 4}


def most_severe_reason(a: str, b: str) -> str:
    return a if _SEVERITY.get(a, 0) >= _SEVERITY.get(b, 0) else b


class Mode(enum.IntEnum):
    """Public ``FlavorAssignmentMode``, ordered from worst to best."""

    NoFit = 0
    Preempt = 1
    DeferredFit = 2
    Fit = 3

    def __str__(self) -> str:
        return self.name


class PreemptionMode(enum.IntEnum):
    """The flavor assigner's finer internal ordering."""

    NO_FIT = 0
    NO_CANDIDATES = 1  # preemption could help in principle, the oracle found no victims
    PREEMPT = 2  # victims include workloads of the preemptor's own ClusterQueue
    RECLAIM = 3  # victims only in other ClusterQueues
    FIT = 4

    @property
    def public(self) -> Mode:
        return _PUBLIC_MODE[self]

    @property
    def label(self) -> str:
        return {0: "NoFit", 1: "NoCandidates", 2: "Preempt", 3: "Reclaim", 4: "Fit"}[int(self)]

    @classmethod
    def from_possibility(cls, p: PreemptionPossibility) -> PreemptionMode:
        return {PreemptionPossibility.NO_CANDIDATES: cls.NO_CANDIDATES,
                PreemptionPossibility.PREEMPT: cls.PREEMPT,
                PreemptionPossibility.RECLAIM: cls.RECLAIM}[p]


# PreemptionMode -> Mode (by value: the assigner asks for every quota check)
_PUBLIC_MODE = (Mode.NoFit, Mode.Preempt, Mode.Preempt, Mode.Preempt, Mode.Fit)
_MAX_LEVEL = 2**63 - 1


@dataclass(frozen=True)
class GranularMode:
    preemption_mode: PreemptionMode
    borrowing_level: int

    def is_preempt_mode(self) -> bool:
        return self.preemption_mode in (PreemptionMode.PREEMPT, PreemptionMode.RECLAIM)


WORST = GranularMode(PreemptionMode.NO_FIT, _MAX_LEVEL)
BEST = GranularMode(PreemptionMode.FIT, 0)
_GRANULAR: dict[tuple[PreemptionMode, int], GranularMode] = {}


def granular_mode(mode: PreemptionMode, borrowing_level: int) -> GranularMode:
    """The (immutable) ``GranularMode``, shared: the assigner needs one per quota check, and
    there are only a few distinct ones."""
    key = (mode, borrowing_level)
    g = _GRANULAR.get(key)
    if g is None:
        g = _GRANULAR[key] = GranularMode(mode, borrowing_level)
    return g


def is_preferred(a: GranularMode, b: GranularMode, ff: FlavorFungibility) -> bool:
    """``isPreferred``: is ``a`` strictly better than ``b`` under the ClusterQueue's policy."""
    if a.preemption_mode == PreemptionMode.NO_FIT:
        return False
    if b.preemption_mode == PreemptionMode.NO_FIT:
        return True
    a_none = a.preemption_mode == PreemptionMode.NO_CANDIDATES
    b_none = b.preemption_mode == PreemptionMode.NO_CANDIDATES
    if a_none != b_none:
        return not a_none
    if ff.preference == "PreemptionOverBorrowing":
        if a.borrowing_level != b.borrowing_level:
            return a.borrowing_level < b.borrowing_level
        return a.preemption_mode > b.preemption_mode
    if a.preemption_mode != b.preemption_mode:
        return a.preemption_mode > b.preemption_mode
    return a.borrowing_level < b.borrowing_level


def should_try_next_flavor(mode: GranularMode, ff: FlavorFungibility) -> bool:
    """``shouldTryNextFlavor`` (whenCanPreempt / whenCanBorrow)."""
    if mode.preemption_mode in (PreemptionMode.NO_FIT, PreemptionMode.NO_CANDIDATES):
        return True
    if mode.is_preempt_mode() and ff.when_can_preempt == "TryNextFlavor":
        return True
    if mode.borrowing_level > 0 and ff.when_can_borrow == "TryNextFlavor":
        return True
    return False


# ------------------------------------------------------------------------------- results ---

class QuotaCheck(NamedTuple):
    """One ``fitsResourceQuota`` evaluation: the numbers Kueue compared, and its verdict.
    (A named tuple, like the records below: every nomination builds several, and a frozen
    dataclass is several times slower to build.)"""

    flavor: str
    resource: str
    previous: int  # already assigned to this fr by earlier pod sets of the workload
    request: int  # this pod set's request
    nominal: int
    borrowing_limit: int | None
    lending_limit: int | None
    usage: int  # the ClusterQueue's current usage on the fr
    available: int
    potential_available: int
    mode: PreemptionMode
    borrow: int  # borrowing level (after the simulated preemptions when the oracle ran)
    may_reclaim_in_hierarchy: bool
    reason: str | None  # Kueue's reason text, None when it fits
    no_fit_reason: str  # ExceedsMaxQuota / WaitingForQuota / "" (preemption possible)
    oracle: OracleResult | None = None

    @property
    def value(self) -> int:
        return self.previous + self.request

    @property
    def missing(self) -> int:
        return max(0, self.value - self.available)


class FlavorAttempt(NamedTuple):
    """One flavor examined for one resource group of a pod set."""

    flavor: str
    resource_group: int
    mode: Mode
    preemption_mode: PreemptionMode
    borrow: int
    reasons: tuple[str, ...]  # sorted, as Kueue records them
    no_fit_reason: str
    eligibility: str | None = None  # taint / node affinity / missing flavor text
    checks: tuple[QuotaCheck, ...] = ()

    @property
    def preemption_possibility(self) -> str | None:
        if self.preemption_mode in (PreemptionMode.NO_CANDIDATES, PreemptionMode.PREEMPT, PreemptionMode.RECLAIM):
            return {1: "NoCandidates", 2: "Preempt", 3: "Reclaim"}[int(self.preemption_mode)]
        return None


class FlavorAssignment(NamedTuple):
    """The flavor chosen for one resource of a pod set."""

    flavor: str
    mode: Mode
    borrow: int
    preemption_mode: PreemptionMode
    tried_flavor_idx: int = -1


class PodSetAssignment(NamedTuple):
    """One pod set's flavor assignment (a named tuple, like the records above: every nomination
    builds one per pod set)."""

    name: str
    count: int
    requests: dict[str, int]  # what was assigned (incl. ``pods`` when the CQ covers it)
    flavors: dict[str, FlavorAssignment]  # empty when the pod set got no flavors
    reasons: tuple[str, ...]  # the status reasons (unsorted, as collected)
    error: str | None
    no_fit_reason: str  # the status's own no-fit reason (e.g. uncovered resource)
    attempts: tuple[FlavorAttempt, ...]  # in scan order
    uncovered: tuple[str, ...] = ()  # requested resources no resource group covers
    resource_groups: dict[str, int] | None = None  # requested resource -> group index (None: none)

    def attempts_for(self, resource: str) -> tuple[FlavorAttempt, ...]:
        """The flavors tried for the resource group covering ``resource``."""
        g = self.resource_groups.get(resource) if self.resource_groups else None
        return tuple(a for a in self.attempts if a.resource_group == g) if g is not None else ()

    @property
    def is_fit(self) -> bool:
        return self.error is None and not self.reasons

    @property
    def representative_mode(self) -> Mode:
        if self.is_fit:
            return Mode.Fit
        if self.error is not None or not self.flavors:
            return Mode.NoFit
        return min(fa.mode for fa in self.flavors.values())

    def status_message(self) -> str:
        if self.error is not None:
            return self.error
        return ", ".join(sorted(self.reasons))


@dataclass(frozen=True)
class Assignment:
    """``flavorassigner.Assignment`` plus what ``explain`` needs to show how it came about."""

    pod_sets: tuple[PodSetAssignment, ...]
    borrowing: int  # max borrowing level over the chosen flavors
    usage: dict  # fr -> amount, the whole assignment
    no_fit_reason: str = ""
    not_evaluated: tuple[str, ...] = ()  # pod sets after the first one that failed
    counts: tuple[int, ...] | None = None  # reduced counts (partial admission), else None
    # topology-aware scheduling: pod set -> its placement, and the mode the TAS step set (Kueue
    # sets the assignment's mode there, whatever the pod sets' own modes say)
    topology: dict[str, PodSetTopology] = field(default_factory=dict)
    mode_override: Mode | None = None

    @cached_attribute
    def representative_mode(self) -> Mode:
        # cached: the scheduler asks several times per nomination (the fields never change)
        if self.mode_override is not None:
            return self.mode_override
        if not self.pod_sets:
            return Mode.NoFit
        return min(ps.representative_mode for ps in self.pod_sets)

    def message(self) -> str:
        """``Assignment.Message``: what Kueue writes in the QuotaReserved=False condition."""
        parts = []
        for ps in self.pod_sets:
            if ps.is_fit:
                continue
            if ps.error is not None:
                return f"failed to assign flavors to pod set {ps.name}: {ps.error}"
            parts.append(f"couldn't assign flavors to pod set {ps.name}: {ps.status_message()}")
        return "; ".join(parts)

    def frs_need_preemption(self) -> set:
        """``flavorResourcesNeedPreemption``: frs whose assigned mode is Preempt."""
        out = set()
        for ps in self.pod_sets:
            for res, fa in ps.flavors.items():
                if fa.mode == Mode.Preempt:
                    out.add((fa.flavor, res))
        return out

    def borrows(self) -> bool:
        return self.borrowing > 0


# ---------------------------------------------------------------------------- eligibility ---

def format_taint(t: Taint) -> str:
    """Go's default print of a core/v1 Taint value: ``{key value effect <nil>}``."""
    return f"{{{t.key or ''} {t.value or ''} {t.effect or ''} <nil>}}"


def untolerated_taint(flavor: ResourceFlavor, pod: PodSpecInfo) -> Taint | None:
    """``FindMatchingUntoleratedTaint`` over NoSchedule/NoExecute taints, with the pod's and the
    flavor's own tolerations."""
    tolerations = tuple(pod.tolerations) + tuple(flavor.tolerations)
    for taint in flavor.node_taints:
        if taint.effect not in ("NoSchedule", "NoExecute"):
            continue
        if not any(t.tolerates(taint) for t in tolerations):
            return taint
    return None


def matches_flavor_labels(flavor: ResourceFlavor, pod: PodSpecInfo) -> bool:
    """``flavorSelector`` + match: nodeSelector and required node affinity restricted to the
    flavor's own label keys, matched against its nodeLabels."""
    labels = flavor.node_labels
    for k, v in pod.node_selector.items():
        if k in labels and labels[k] != v:
            return False
    terms = []
    for term in pod.required_affinity:
        exprs = [e for e in term.match_expressions if e.key in labels]
        if not exprs:
            terms = []  # an all-irrelevant term matches anything: affinity is ignored
            break
        terms.append(exprs)
    if terms and not any(all(e.matches(labels) for e in exprs) for exprs in terms):
        return False
    return True


def check_flavor(snapshot: Snapshot, flavor_name: str, pod_set: PodSet, cq: ClusterQueueNode | None = None,
                 covered: tuple[str, ...] = ()) -> str | None:
    """``checkFlavorForPodSets``: the eligibility failure text, or None."""
    flavor = snapshot.resource_flavors.get(flavor_name)
    if flavor is None:
        return f"flavor {flavor_name} not found"
    if cq is not None and snapshot.tas is not None and snapshot.options.gates.enabled("TopologyAwareScheduling"):
        cq_flavors = [f for rg in cq.resource_groups for f in rg.flavors]
        mismatch = flavor_mismatch(snapshot.tas, pod_set, flavor_name, flavor.topology_name,
                                   is_tas_only(snapshot.tas, cq_flavors), covered)
        if mismatch is not None:
            return mismatch
    taint = untolerated_taint(flavor, pod_set.pod)
    if taint is not None:
        return f"untolerated taint {format_taint(taint)} in flavor {flavor_name}"
    if not matches_flavor_labels(flavor, pod_set.pod):
        return f"flavor {flavor_name} doesn't match node affinity"
    return None


# ------------------------------------------------------------------------------ assigner ---

OracleFn = Callable[[ClusterQueueNode, tuple, int], OracleResult]


class _GroupStatus:
    """The status of one resource group's flavor scan (two per nomination: a plain class)."""

    __slots__ = ("reasons", "error", "no_fit_reason")

    def __init__(self, reasons: list[str] | None = None, error: str | None = None, no_fit_reason: str = ""):
        self.reasons: list[str] = [] if reasons is None else reasons
        self.error = error
        self.no_fit_reason = no_fit_reason


class FlavorAssigner:
    """``flavorassigner.FlavorAssigner`` for one pending workload in one ClusterQueue."""

    def __init__(self, snapshot: Snapshot, cq: ClusterQueueNode, preemptor: Preemptor,
                 pod_sets: tuple[PodSet, ...], requests: tuple[PodSetRequest, ...],
                 oracle: OracleFn | None = None, preset: dict[str, dict[str, str]] | None = None,
                 scan_start: dict[tuple[str, int], int] | None = None):
        self.snapshot = snapshot
        self.cq = cq
        self.preemptor = preemptor
        self.pod_sets = pod_sets
        self.requests = requests
        self.options = snapshot.options
        self.oracle = oracle or (lambda cq_, fr, q: simulate_preemption(snapshot, cq_, preemptor, fr, q))
        # (fr, amount) -> the victims the default oracle's searches found during the last ``assign``
        # (``targets_for`` may reuse them; a custom oracle's answers are not such searches)
        self.searches: dict[tuple, tuple[Target, ...]] = {}
        self._record_searches = oracle is None
        # What-if only (``quotactl preempt --flavor``): (pod set or None, resource) -> the one flavor
        # to consider for the resource group covering that resource.  Empty = Kueue's own scan.
        self.pinned: dict[tuple[str | None, str], str] = {}
        # pod set -> {resource: flavor} already on the workload (``workload.nomination_requests``): taken
        # as they are, with mode Fit, no quota check and no borrowing.
        self.preset = preset or {}
        # (pod set, resource group index) -> the flavor index its scan resumes at (Kueue's scan
        # progress across cycles, ``NextFlavorToTryForPodSetResource``).  Empty = scan from the first.
        self.scan_start = scan_start or {}

    def on_snapshot(self, snapshot: Snapshot) -> FlavorAssigner:
        """The same nomination against another view of the cluster (a what-if snapshot), with
        Kueue's own preemption oracle on that view."""
        twin = FlavorAssigner(snapshot, snapshot.cluster_queues[self.cq.name], self.preemptor, self.pod_sets,
                              self.requests, preset=self.preset, scan_start=self.scan_start)
        twin.pinned = dict(self.pinned)
        return twin

    def _pinned_flavor(self, rg: ResourceGroupView, pod_set: PodSet) -> str | None:
        for r in rg.covered_resources:
            f = self.pinned.get((pod_set.name, r)) or self.pinned.get((None, r))
            if f is not None:
                return f
        return None

    # -- one resource in one flavor ------------------------------------------------------
    def fits_resource_quota(self, fr: tuple, assumed: int, request: int) -> QuotaCheck:
        cq = self.cq
        flavor, res = fr
        q = cq.quotas.get(fr) or ZERO_QUOTA
        avail = cq_available(cq, fr)
        max_cap = potential_available(cq, fr)
        val = assumed + request
        nominal = q.nominal
        usage = cq.usage.get(fr, 0)
        if val > max_cap:
            reason = (f"insufficient quota for {res} in flavor {flavor}, previously considered podsets requests "
                      f"({format_amount(res, assumed)}) + current podset request ({format_amount(res, request)}) "
                      f"> maximum capacity ({format_amount(res, max_cap)})")
            return QuotaCheck(flavor, res, assumed, request, nominal, q.borrowing_limit, q.lending_limit, usage,
                              avail, max_cap, PreemptionMode.NO_FIT, 0, False, reason, EXCEEDS_MAX_QUOTA)
        borrow, may_reclaim = find_height_of_lowest_subtree_that_fits(cq, fr, val)
        if val <= avail:
            return QuotaCheck(flavor, res, assumed, request, nominal, q.borrowing_limit, q.lending_limit, usage,
                              avail, max_cap, PreemptionMode.FIT, borrow, may_reclaim, None, "")
        reason = f"insufficient unused quota for {res} in flavor {flavor}, {format_amount(res, val - avail)} more needed"
        if nominal >= val or may_reclaim or can_preempt_while_borrowing(cq.preemption, self.options.fair_sharing):
            result = self.oracle(cq, fr, val)
            if self._record_searches:
                self.searches[(fr, val)] = result.targets
            return QuotaCheck(flavor, res, assumed, request, nominal, q.borrowing_limit, q.lending_limit, usage,
                              avail, max_cap, PreemptionMode.from_possibility(result.possibility), result.borrow,
                              may_reclaim, reason, "", result)
        return QuotaCheck(flavor, res, assumed, request, nominal, q.borrowing_limit, q.lending_limit, usage,
                          avail, max_cap, PreemptionMode.NO_FIT, borrow, may_reclaim, reason, WAITING_FOR_QUOTA)

    # -- one resource group of a pod set -------------------------------------------------
    def find_flavor(self, rg_index: int, rg: ResourceGroupView, pod_set: PodSet, requests: dict[str, int],
                    assigned: dict) -> tuple[dict[str, FlavorAssignment], _GroupStatus | None, list[FlavorAttempt]]:
        """``findFlavorForPodSets``: scan the group's flavors from where the last scan stopped
        (``scan_start``); returns (assignments, status, attempts), tried indices absolute."""
        start = self.scan_start.get((pod_set.name, rg_index), 0) if self.scan_start else 0
        if start <= 0 or start >= len(rg.flavors):
            return self._scan_flavors(rg_index, rg, pod_set, requests, assigned)
        rest = ResourceGroupView(rg.covered_resources, tuple(rg.flavors[start:]))
        flavors, status, attempts = self._scan_flavors(rg_index, rest, pod_set, requests, assigned)
        flavors = {r: (fa._replace(tried_flavor_idx=fa.tried_flavor_idx + start) if fa.tried_flavor_idx != -1 else fa)
                   for r, fa in flavors.items()}
        return flavors, status, attempts

    def _scan_flavors(self, rg_index: int, rg: ResourceGroupView, pod_set: PodSet, requests: dict[str, int],
                      assigned: dict) -> tuple[dict[str, FlavorAssignment], _GroupStatus | None, list[FlavorAttempt]]:
        """Scan ``rg``'s flavors in order (the whole of ``findFlavorForPodSets`` but the resume point)."""
        ff = self.cq.flavor_fungibility
        fungibility = self.options.gates.enabled("FlavorFungibility")
        status = _GroupStatus()
        reqs = [(r, requests[r]) for r in rg.covered_resources if r in requests]
        best: dict[str, QuotaCheck] | None = None  # resource -> its check in the best flavor so far
        best_mode = WORST
        attempts: list[FlavorAttempt] = []
        attempted_idx = -1
        pinned = self._pinned_flavor(rg, pod_set) if self.pinned else None
        for idx, fname in enumerate(rg.flavors):
            if pinned is not None and fname != pinned:
                continue
            attempted_idx = idx
            problem = check_flavor(self.snapshot, fname, pod_set, self.cq, rg.covered_resources)
            if problem is not None:
                status.reasons.append(problem)
                attempts.append(FlavorAttempt(fname, rg_index, Mode.NoFit, PreemptionMode.NO_FIT, 0, (problem,),
                                              NO_MATCHING_FLAVOR, eligibility=problem))
                continue
            fitting: dict[str, QuotaCheck] = {}  # the resources assigned to this flavor
            rep = BEST
            max_borrow = 0
            flavor_reasons: list[str] = []
            flavor_no_fit = ""
            checks = []
            for res, val in reqs:
                fr = (fname, res)
                check = self.fits_resource_quota(fr, assigned.get(fr, 0), val)
                checks.append(check)
                if check.reason is not None:
                    flavor_reasons.append(check.reason)
                    status.reasons.append(check.reason)
                    flavor_no_fit = most_severe_reason(flavor_no_fit, check.no_fit_reason)
                if check.borrow > max_borrow:
                    max_borrow = check.borrow
                mode = granular_mode(check.mode, check.borrow)
                if is_preferred(rep, mode, ff):
                    rep = mode
                if rep.preemption_mode == PreemptionMode.NO_FIT:
                    continue  # this flavor does not fit; the other resources are still checked
                fitting[res] = check
            attempts.append(FlavorAttempt(fname, rg_index, rep.preemption_mode.public, rep.preemption_mode, max_borrow,
                                          tuple(sorted(flavor_reasons)), flavor_no_fit, checks=tuple(checks)))
            if fungibility:
                if not should_try_next_flavor(rep, ff):
                    best, best_mode = fitting, rep
                    break
                if is_preferred(rep, best_mode, ff):
                    best, best_mode = fitting, rep
            elif rep.preemption_mode > best_mode.preemption_mode:
                best, best_mode = fitting, rep
                if best_mode.preemption_mode == PreemptionMode.FIT:
                    return _flavor_assignments(best, -1), None, attempts
        tried = -1
        if fungibility:
            tried = -1 if attempted_idx == len(rg.flavors) - 1 else attempted_idx
            if best_mode.preemption_mode == PreemptionMode.FIT:
                return _flavor_assignments(best or {}, tried), None, attempts
        return _flavor_assignments(best or {}, tried), status, attempts

    # -- the whole workload --------------------------------------------------------------
    def _ordered_resources(self, requests: dict[str, int]) -> list[str]:
        """Kueue walks a Go map (unspecified order); we take resources no group covers first,
        then the CQ's resource groups in order (the spec's recommendation)."""
        uncovered = sorted(r for r in requests if self.cq.rg_by_resource(r) is None)
        covered = [r for rg in self.cq.resource_groups for r in rg.covered_resources if r in requests]
        seen = set()
        out = []
        for r in uncovered + covered:
            if r not in seen:
                seen.add(r)
                out.append(r)
        return out

    def assign(self, counts: tuple[int, ...] | None = None) -> Assignment:
        """``assignFlavors``."""
        cq = self.cq
        options = self.options
        assigned: dict = {}
        borrowing = 0
        results: list[PodSetAssignment] = []
        self.searches = {}
        covers_pods = cq.rg_by_resource(PODS) is not None
        for i, (pod_set, req) in enumerate(zip(self.pod_sets, self.requests, strict=False)):
            count = req.count if counts is None else counts[i]
            requests = dict(req.total) if counts is None else {r: v * count for r, v in req.per_pod.items()}
            if covers_pods:
                requests[PODS] = count
            group_flavors: dict[str, FlavorAssignment] | None = {
                r: FlavorAssignment(f, Mode.Fit, 0, PreemptionMode.FIT, 0)
                for r, f in self.preset.get(pod_set.name, {}).items()}
            status = _GroupStatus()
            attempts: list[FlavorAttempt] = []
            uncovered = []
            failed = False
            for res in self._ordered_resources(requests):
                rg_index, rg = self._group(res)
                if rg is None:
                    if requests[res] == 0:
                        continue  # zero requests for resources the CQ does not know are ignored
                    if options.ignore_undeclared:
                        continue
                    uncovered.append(res)
                    status = _GroupStatus(reasons=[f"resource {res} unavailable in ClusterQueue"],
                                          no_fit_reason=NO_MATCHING_FLAVOR)
                    group_flavors = None
                    failed = True
                    break
                if res in group_flavors:
                    continue
                flavors, st, tried = self.find_flavor(rg_index, rg, pod_set, requests, assigned)
                attempts.extend(tried)
                if (st is not None and st.error is not None) or (not flavors and requests):
                    group_flavors = None
                    status = st or _GroupStatus()
                    failed = True
                    break
                group_flavors.update(flavors)
                if st is not None:
                    status.reasons.extend(st.reasons)
            chosen = {r: fa for r, fa in (group_flavors or {}).items() if r in requests}
            psa = PodSetAssignment(pod_set.name, count, requests, chosen, tuple(status.reasons), status.error,
                                   status.no_fit_reason, tuple(attempts), tuple(uncovered),
                                   {r: self._group(r)[0] for r in requests})
            results.append(psa)
            for res, fa in chosen.items():
                borrowing = max(borrowing, fa.borrow)
                fr = (fa.flavor, res)
                assigned[fr] = assigned.get(fr, 0) + requests.get(res, 0)
            if failed or psa.error is not None or (requests and not chosen):
                rest = tuple(ps.name for ps in self.pod_sets[i + 1:])
                return self._finish(results, borrowing, assigned, rest, counts)
        return self._finish(results, borrowing, assigned, (), counts)

    def _group(self, res: str) -> tuple[int, ResourceGroupView | None]:
        for i, rg in enumerate(self.cq.resource_groups):
            if res in rg.covered_resources:
                return i, rg
        return -1, None

    def _finish(self, results, borrowing, assigned, not_evaluated, counts) -> Assignment:
        a = self._place_topology(Assignment(tuple(results), borrowing, dict(assigned), "", not_evaluated, counts))
        if self.options.gates.enabled("UnadmittedWorkloadsObservability") and a.representative_mode == Mode.NoFit:
            a = Assignment(a.pod_sets, a.borrowing, a.usage, resolve_no_fit_reason(a, self.cq), a.not_evaluated,
                           a.counts, a.topology, a.mode_override)
        return a

    def _cq_flavors(self) -> list[str]:
        return [f for rg in self.cq.resource_groups for f in rg.flavors]

    def _topologies(self) -> dict[str, str | None]:
        return {name: rf.topology_name for name, rf in self.snapshot.resource_flavors.items()}

    def _delayed_topology_flavors(self) -> frozenset[str]:
        """The TAS flavors whose placement Kueue delays for a workload without quota reservation
        (``podSetTopologyRequest``): all of them under a MultiKueue admission check, those a
        ProvisioningRequest check applies to (its onFlavors, or every flavor)."""
        cluster = self.snapshot.cluster
        if cluster is None or not self.cq.spec.admission_checks:
            return frozenset()
        out: set[str] = set()
        for rule in self.cq.spec.admission_checks:
            check = cluster.admission_checks.get(rule.name or "")
            controller = check.controller_name if check is not None else None
            if controller == MULTIKUEUE_CONTROLLER:
                return frozenset(self._cq_flavors())
            if controller == PROVISIONING_CONTROLLER:
                out.update(rule.on_flavors or self._cq_flavors())
        return frozenset(out)

    def _topology_inputs(self, a: Assignment) -> list[PodSetInput]:
        return [PodSetInput(spec, ps.count, {r: fa.flavor for r, fa in ps.flavors.items()}, ps.error is not None)
                for spec, ps in zip(self.pod_sets, a.pod_sets, strict=False)]

    def topology_fits(self, a: Assignment) -> Callable[[], bool] | None:
        """For a victim search: whether ``a``'s TAS pod sets can be placed on the snapshot's nodes
        as they are at the time of asking (Kueue's ``workloadFits`` places them after each
        simulated eviction); None when ``a`` places nothing on a topology."""
        state = self.snapshot.tas
        requests = self.topology_requests(a)
        if state is None or not requests:
            return None
        return lambda: placement_fits(state, requests)

    def topology_requests(self, a: Assignment) -> dict[str, list[PodSetTASRequest]]:
        """``a``'s TAS pod sets as the placement engine takes them: flavor -> its requests."""
        state = self.snapshot.tas
        if state is None or not a.topology:
            return {}
        requests, _topo, _errors = placement_requests(state, self._cq_flavors(), self._topology_inputs(a),
                                                      self._topologies(), self._delayed_topology_flavors())
        return requests

    def topology_now(self, a: Assignment) -> dict[str, PodSetTopology]:
        """``a``'s TAS pod sets placed on the snapshot's nodes as they are at the time of asking, on
        ``a``'s flavors (``preempt``: once the victims are gone, where the workload lands, as the
        TAS step places a Fit assignment)."""
        state = self.snapshot.tas
        if state is None or not a.topology:
            return dict(a.topology)
        d = decide(state, self._cq_flavors(), self._topology_inputs(a), Mode.Fit.name, self._topologies(),
                   self._delayed_topology_flavors())
        return dict(a.topology) if d is None else d.pod_sets

    def _place_topology(self, a: Assignment) -> Assignment:
        """The TAS step after the quota scan (``tas.assigner.decide``), applied to the records:
        errors and reasons on the pod sets, the modes it sets, the placements."""
        gates = self.options.gates
        state = self.snapshot.tas
        mode = a.representative_mode
        if state is None or not gates.enabled("TopologyAwareScheduling"):
            return a
        if mode == Mode.NoFit:  # no TAS step; explain still says why a TAS pod set has no flavor
            unplaced = unplaced_reasons(state, self._cq_flavors(), self._topology_inputs(a), self._topologies())
            return dataclasses.replace(a, topology=unplaced) if unplaced else a
        d = decide(state, self._cq_flavors(), self._topology_inputs(a), mode.name, self._topologies(),
                   self._delayed_topology_flavors())
        if d is None:
            return a
        pod_sets = []
        for ps in a.pod_sets:
            if ps.name in d.errors:
                ps = ps._replace(error=d.errors[ps.name])
            if ps.name in d.reasons:
                ps = ps._replace(reasons=ps.reasons + (d.reasons[ps.name],))
            if ps.name in d.modes:
                new_mode = Mode[d.modes[ps.name]]
                ps = ps._replace(flavors={r: fa._replace(mode=new_mode) for r, fa in ps.flavors.items()})
            if d.failed_flavor is not None and d.failed_flavor[0] == ps.name and gates.enabled(
                    "UnadmittedWorkloadsObservability"):
                ps = ps._replace(attempts=tuple(
                    att._replace(mode=Mode.NoFit, no_fit_reason=TOPOLOGY_PLACEMENT_FAILED)
                    if att.flavor == d.failed_flavor[1] else att for att in ps.attempts))
            pod_sets.append(ps)
        return Assignment(tuple(pod_sets), a.borrowing, a.usage, a.no_fit_reason, a.not_evaluated, a.counts,
                          d.pod_sets, Mode[d.mode])


def _flavor_assignments(checks: dict[str, QuotaCheck], tried: int) -> dict[str, FlavorAssignment]:
    """The chosen flavor's assignments, built only once the scan chose it (``tried``: the
    scan position Kueue records, -1 when the scan reached the last flavor)."""
    return {r: FlavorAssignment(c.flavor, c.mode.public, c.borrow, c.mode, tried) for r, c in checks.items()}


def resolve_no_fit_reason(a: Assignment, cq: ClusterQueueNode) -> str:
    """``resolveNoFitReason``: per NoFit pod set and resource group the least severe cause among
    the NoFit flavor attempts, then the most severe across groups and pod sets."""
    overall = ""
    for ps in a.pod_sets:
        if ps.representative_mode != Mode.NoFit:
            continue
        if not ps.attempts:
            overall = most_severe_reason(overall, NO_MATCHING_FLAVOR)
            continue
        merged: dict[str, tuple[Mode, str]] = {}
        for att in ps.attempts:  # Kueue merges attempts per flavor: worst mode, most severe reason
            if att.flavor in merged:
                m, r = merged[att.flavor]
                merged[att.flavor] = (min(m, att.mode), most_severe_reason(r, att.no_fit_reason))
            else:
                merged[att.flavor] = (att.mode, att.no_fit_reason)
        rg_min: dict[int, str] = {}
        for i, (flavor, (mode, reason)) in enumerate(sorted(merged.items())):
            if mode != Mode.NoFit:
                continue
            groups = [j for j, rg in enumerate(cq.resource_groups) if flavor in rg.flavors] or [-1 - i]
            for g in groups:
                if g not in rg_min or _SEVERITY.get(reason, 0) < _SEVERITY.get(rg_min[g], 0):
                    rg_min[g] = reason
        ps_reason = ps.no_fit_reason
        for reason in rg_min.values():
            ps_reason = most_severe_reason(ps_reason, reason)
        overall = most_severe_reason(overall, ps_reason)
    return overall


# -------------------------------------------------------------------- scheduler entry point ---

class InitialAssignment(NamedTuple):
    """``getInitialAssignments``: the assignment the scheduler works with, its victims, and the
    full-size assignment when partial admission reduced the counts."""

    assignment: Assignment
    targets: tuple[Target, ...]
    full: Assignment
    partial: bool = False


def can_be_partially_admitted(pod_sets: tuple[PodSet, ...]) -> bool:
    return any(ps.min_count is not None and ps.min_count < ps.count for ps in pod_sets)


def _search(n: int, f: Callable[[int], bool]) -> int:
    """Go's ``sort.Search``."""
    lo, hi = 0, n
    while lo < hi:
        h = (lo + hi) // 2
        if not f(h):
            lo = h + 1
        else:
            hi = h
    return lo


def targets_for(assigner: FlavorAssigner, assignment: Assignment) -> list[Target]:
    """``Preemptor.GetTargets`` for a whole assignment, made by the last ``assigner.assign`` on
    the snapshot as it still is (so its oracle's searches still hold)."""
    usage = {fr: v for fr, v in assignment.usage.items() if v != 0}  # zero requests are irrelevant (#8079)
    frs = assignment.frs_need_preemption()
    tas_fits = assigner.topology_fits(assignment)
    if tas_fits is None:  # the oracle's searches looked at quota only
        found = searched_targets(assigner.snapshot, assigner.cq, frs, usage, assigner.searches)
        if found is not None:
            return found
    return get_targets(assigner.snapshot, assigner.cq, assigner.preemptor, frs, usage, tas_fits=tas_fits)


def initial_assignment(assigner: FlavorAssigner) -> InitialAssignment:
    full = assigner.assign()
    mode = full.representative_mode
    if mode == Mode.Fit:
        return InitialAssignment(full, (), full)
    if mode == Mode.Preempt:
        targets = targets_for(assigner, full)
        if targets:
            return InitialAssignment(full, tuple(targets), full)
    gates = assigner.options.gates
    if gates.enabled("PartialAdmission") and can_be_partially_admitted(assigner.pod_sets):
        full_counts = [ps.count for ps in assigner.pod_sets]
        deltas = [ps.count - ps.min_count if ps.min_count is not None else 0 for ps in assigner.pod_sets]
        total = sum(deltas)
        found: dict = {}
        last_good = [0]

        def fits(idx: int) -> bool:
            counts = tuple(full_counts[i] - (deltas[i] * idx) // total for i in range(len(full_counts)))
            a = assigner.assign(counts)
            m = a.representative_mode
            if m == Mode.Fit:
                found["r"], last_good[0] = (a, ()), idx
                return True
            if m == Mode.Preempt:
                t = targets_for(assigner, a)
                if t:
                    found["r"], last_good[0] = (a, tuple(t)), idx
                    return True
            return False

        if total > 0:
            idx = _search(total + 1, fits)
            if idx == last_good[0] and "r" in found:
                a, t = found["r"]
                return InitialAssignment(a, t, full, partial=True)
    return InitialAssignment(full, (), full)
