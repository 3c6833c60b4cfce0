"""The TAS step of Kueue's flavor assignment (``pkg/scheduler/flavorassigner/tas_flavorassigner.go``
and the end of ``assignFlavors`` in ``flavorassigner.go``), kept apart from the quota scan.

After the quota scan, each pod set that asks for TAS (explicitly, or implied in a ClusterQueue whose
flavors all have a topology) is placed on its one TAS flavor.  A placement that fails on the
current usage makes the assignment Preempt; Kueue then tries again as if every TAS workload were
gone (simulateEmpty): if that fails too the assignment is NoFit (TopologyPlacementFailed), else the
TAS pod sets stay Preempt.  ``decide`` returns what ``assign.FlavorAssigner`` applies to its
records."""

from __future__ import annotations

from typing import NamedTuple

from quotactl.kueue.tas.resources import amounts
from quotactl.kueue.tas.snapshot import PodSetTASRequest
from quotactl.kueue.tas.state import TASState
from quotactl.model.kueue import PodSet
from quotactl.model.kueue_tas import TopologyAssignment

FIT, PREEMPT, NO_FIT = "Fit", "Preempt", "NoFit"
TOPOLOGY_PLACEMENT_FAILED = "TopologyPlacementFailed"


class PodSetTopology(NamedTuple):
    """One TAS pod set: its flavor, the placement found (None when none), and why not."""

    flavor: str | None
    topology_name: str | None
    assignment: TopologyAssignment | None
    reason: str | None


class PodSetInput(NamedTuple):
    """What the quota scan gave a pod set: its count, flavors (resource -> flavor), and whether
    its status is an error."""

    pod_set: PodSet
    count: int
    flavors: dict[str, str]
    error: bool


class TopologyDecision(NamedTuple):
    pod_sets: dict[str, PodSetTopology]  # every pod set TAS applies to
    errors: dict[str, str]  # pod set -> its status error (psError)
    reasons: dict[str, str]  # pod set -> a status reason to add
    modes: dict[str, str]  # pod set -> the mode its flavors take
    mode: str  # the assignment's representative mode from now on
    failed_flavor: tuple[str, str] | None  # (pod set, flavor) whose attempt becomes NoFit/TopologyPlacementFailed


def is_tas_only(state: TASState, cq_flavors: list[str]) -> bool:
    """``clusterQueue.isTASOnly``: every flavor of the ClusterQueue is a TAS flavor."""
    return all(map(state.flavors.__contains__, cq_flavors))  # one C pass: asked on every nomination


def is_tas_requested(pod_set: PodSet, tas_only: bool) -> bool:
    request = pod_set.topology_request
    return (request is not None and request.is_explicit) or tas_only


def flavor_mismatch(state: TASState | None, pod_set: PodSet, flavor_name: str, flavor_topology: str | None,
                    tas_only: bool, covered: tuple[str, ...]) -> str | None:
    """``checkPodSetAndFlavorMatchForTAS``: why a flavor cannot serve the pod set, or None."""
    if is_tas_requested(pod_set, tas_only):
        if tas_only and not (pod_set.topology_request is not None and pod_set.topology_request.is_explicit):
            return None
        if flavor_topology is None:
            if not any(r in covered for r in pod_set.pod.requests):
                return None
            return f'Flavor "{flavor_name}" does not support TopologyAwareScheduling'
        if state is None or not state.is_tas_flavor(flavor_name):
            return f'Flavor "{flavor_name}" information missing in TAS cache'
        if not state.flavors[flavor_name].has_level(pod_set.topology_request):
            return f'Flavor "{flavor_name}" does not contain the requested level'
        return None
    if flavor_topology is not None:
        return f'Flavor "{flavor_name}" supports only TopologyAwareScheduling'
    return None


def _only_tas_flavor(state: TASState, flavors: dict[str, str]) -> tuple[str | None, str | None]:
    tas = state.flavors
    found = {f for f in flavors.values() if f in tas}
    if len(found) == 1:  # the usual case, no sort
        return found.pop(), None
    if not found:
        return None, "no TAS flavor assigned"
    return None, f"more than one TAS flavor assigned: {', '.join(sorted(found))}"


def placement_requests(state: TASState | None, cq_flavors: list[str], inputs: list[PodSetInput],
                       topology_of: dict[str, str | None], delayed: frozenset[str] = frozenset()):
    """``WorkloadsTopologyRequests``: (flavor -> its pod sets' TAS requests, pod set -> its entry,
    pod set -> its status error). A pod set on a flavor in ``delayed`` gets its entry but no
    request: Kueue places it later (``DelayedTopologyRequest``, MultiKueue or ProvisioningRequest)."""
    tas_only = state is not None and is_tas_only(state, cq_flavors)
    requests: dict[str, list[PodSetTASRequest]] = {}
    topo: dict[str, PodSetTopology] = {}
    errors: dict[str, str] = {}
    for ps_in in inputs:
        ps = ps_in.pod_set
        if not is_tas_requested(ps, tas_only) or ps_in.error or ps_in.count == 0:
            continue
        if state is None:
            errors[ps.name] = "workload requires Topology, but there is no TAS cache information"
            continue
        flavor, err = _only_tas_flavor(state, ps_in.flavors)
        if err is not None:
            errors[ps.name] = err
            continue
        topo[ps.name] = PodSetTopology(flavor, topology_of.get(flavor), None, None)
        if flavor in delayed:
            continue
        implied = tas_only and not (ps.topology_request is not None and ps.topology_request.is_explicit)
        requests.setdefault(flavor, []).append(PodSetTASRequest(ps.name, ps_in.count, amounts(ps.pod.requests),
                                                                ps.topology_request, ps.pod, implied))
    return requests, topo, errors


def placement_fits(state: TASState, requests: dict[str, list[PodSetTASRequest]]) -> bool:
    """Whether every TAS pod set can be placed on the nodes as they are now (preemption's
    ``workloadFits`` asks this after each simulated eviction)."""
    return all(not res.reason for _flavor, res in state.find_for_workload(requests).values())


def decide(state: TASState | None, cq_flavors: list[str], inputs: list[PodSetInput], mode: str,
           topology_of: dict[str, str | None], delayed: frozenset[str] = frozenset()) -> TopologyDecision | None:
    """The TAS step for an assignment whose quota mode is ``mode`` (Fit or Preempt); None when no
    pod set asks for TAS. ``topology_of``: flavor -> its topologyName; ``delayed``: see
    ``placement_requests``."""
    requests, topo, errors = placement_requests(state, cq_flavors, inputs, topology_of, delayed)
    if not topo and not errors:
        return None
    reasons: dict[str, str] = {}
    modes: dict[str, str] = {}
    failed_flavor = None
    if requests and mode == FIT:
        found = state.find_for_workload(requests)
        failure = _first_failure(found, inputs)
        if failure is not None:
            ps_name, (flavor, res) = failure
            reasons[ps_name] = res.reason
            topo[ps_name] = topo[ps_name]._replace(reason=res.reason)
            modes[ps_name] = mode = PREEMPT
        else:
            for ps_name, (_flavor, res) in found.items():
                topo[ps_name] = topo[ps_name]._replace(assignment=res.assignment)
    if requests and mode == PREEMPT:
        found = state.find_for_workload(requests, simulate_empty=True)
        failure = _first_failure(found, inputs)
        if failure is not None:
            ps_name, (flavor, res) = failure
            failed_flavor = (ps_name, flavor)
            if topo[ps_name].reason is None:
                topo[ps_name] = topo[ps_name]._replace(reason=res.reason)
            modes[ps_name] = mode = NO_FIT
        else:
            for reqs in requests.values():
                for tr in reqs:
                    modes[tr.name] = PREEMPT
    return TopologyDecision(topo, errors, reasons, modes, mode, failed_flavor)


def unplaced_reasons(state: TASState, cq_flavors: list[str], inputs: list[PodSetInput],
                     topology_of: dict[str, str | None]) -> dict[str, PodSetTopology]:
    """For ``explain``: the pod sets that ask for TAS but got no flavor (every TAS flavor lacks the
    requested level, say), with the placement engine's text for the ClusterQueue's first TAS
    flavor (``no requested topology level: ...``)."""
    tas_flavors = [f for f in cq_flavors if state.is_tas_flavor(f)]
    out: dict[str, PodSetTopology] = {}
    if not tas_flavors:
        return out
    flavor = tas_flavors[0]
    for ps_in in inputs:
        ps = ps_in.pod_set
        request = ps.topology_request
        if ps_in.flavors or ps_in.count == 0 or request is None or not request.is_explicit:
            continue
        tr = PodSetTASRequest(ps.name, ps_in.count, amounts(ps.pod.requests), request, ps.pod, False)
        res = state.flavors[flavor].find_assignments([tr])[ps.name]
        if res.reason:
            out[ps.name] = PodSetTopology(flavor, topology_of.get(flavor), None, res.reason)
    return out


def _first_failure(found: dict, inputs: list[PodSetInput]):
    """``TASAssignmentsResult.Failure``: a failed pod set (Kueue takes any; the first here)."""
    for ps_in in inputs:
        hit = found.get(ps_in.pod_set.name)
        if hit is not None and hit[1].reason:
            return ps_in.pod_set.name, hit
    return None
