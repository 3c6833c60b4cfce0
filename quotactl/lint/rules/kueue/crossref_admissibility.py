"""Pending Workloads that Kueue can never admit through their ClusterQueue.  Every verdict is the
engine's: the requests of a pod set (``workload.pod_set_requests``), the maximum capacity
(``quota.potential_available`` on a usage-free snapshot) and the resource validation
(``admissibility.requests_over_limits``) are the ones ``schedule`` and ``explain`` use."""

from __future__ import annotations

from quotactl.kueue.admissibility import requests_over_limits
from quotactl.kueue.amounts import format_amount, saturate
from quotactl.kueue.quota import potential_available
from quotactl.kueue.workload import pod_set_requests
from quotactl.lint.rule import Finding, RuleDoc, rule
from quotactl.lint.rules.kueue.crossref_helpers import (
    covered,
    engine_view,
    in_cohort_cycle,
    loc,
    objects_of,
    pending,
    request_path,
    smallest_count,
)


def _routed(ctx):
    """(Workload, ClusterQueue) for every pending Workload whose queue chain resolves in the input."""
    for wl in objects_of(ctx.cluster, "Workload"):
        if not pending(wl):
            continue
        cq = ctx.cluster.cluster_queue_for(wl)
        if cq is not None:
            yield wl, cq


@rule(
    code="KQ511", name="resource-not-covered", severity="warning", layer="runtime", scope="cluster",
    summary="Pending Workload requests a resource its ClusterQueue does not cover",
    doc=RuleDoc(
        what="For each pending Workload whose LocalQueue and ClusterQueue are in the input: every resource it "
             "requests with a non-zero quantity (after the Configuration's excludeResourcePrefixes and resource "
             "transformations) must be covered by one of the ClusterQueue's resource groups.",
        why="Under resources.quotaCheckStrategy BlockUndeclared (the default) Kueue cannot assign a flavor: the "
            "workload stays pending forever with \"resource <name> unavailable in ClusterQueue\" (reason "
            "NoMatchingFlavor).",
        fix="Add the resource to the ClusterQueue's coveredResources (with quota in every flavor of that group), "
            "exclude it with resources.excludeResourcePrefixes, or stop requesting it.",
        bad="# ClusterQueue covers [cpu, memory]\nrequests:\n  cpu: \"1\"\n  nvidia.com/gpu: \"1\"\n",
        good="# ClusterQueue covers [cpu, memory, nvidia.com/gpu]\nrequests:\n  cpu: \"1\"\n  nvidia.com/gpu: \"1\"\n",
        source=("kueue pkg/scheduler/flavorassigner/flavorassigner.go findFlavorForPodSets (resource "
                "unavailable in ClusterQueue); kueue pkg/workload/resources.go"),
    ),
)
def check_uncovered(ctx):
    options, _snapshot = engine_view(ctx)
    for wl, cq in _routed(ctx):
        for ps, res, message in uncovered_requests(wl, cq, options):
            yield Finding(
                request_path(ps, res), f"{message}; Workload {wl.key} stays pending (NoMatchingFlavor)",
                type=None, subject=wl, related=(loc(cq),), hint=uncovered_hint(res, cq),
            )


def uncovered_requests(wl, cq, options):
    """(pod set, resource, Kueue's message) for every non-zero request ``cq`` covers in no resource
    group (the flavor assigner ignores a zero request for a resource the ClusterQueue does not know)."""
    if options.ignore_undeclared:
        return
    cov = covered(cq)
    for ps, req in zip(wl.pod_sets, pod_set_requests(wl, options), strict=True):
        for res in sorted(r for r, v in req.total.items() if v != 0 and r not in cov):
            yield ps, res, (f"couldn't assign flavors to pod set {ps.name}: resource {res} unavailable in "
                            f"ClusterQueue {cq.name} (covered: {', '.join(sorted(cov)) or 'nothing'})")


def uncovered_hint(res: str, cq) -> str:
    return (f"Cover {res} in ClusterQueue {cq.name}, or list it in the Configuration's "
            "resources.excludeResourcePrefixes.")


@rule(
    code="KQ512", name="request-exceeds-max-quota", severity="warning", layer="runtime", scope="cluster",
    summary="Pending Workload needs more than its ClusterQueue could ever provide",
    doc=RuleDoc(
        what="For each pending Workload whose queues are in the input, each pod set at its smallest admissible "
             "size (count minus reclaimable pods, or minCount with partial admission) is compared, per resource "
             "group, with the maximum capacity of every flavor: nominal quota plus everything the cohort tree "
             "could lend within borrowing limits (Kueue's PotentialAvailable), ignoring current usage.",
        why="If no flavor can ever hold the pod set, Kueue leaves the workload pending forever with \"insufficient "
            "quota for <res> in flavor <f>, ... > maximum capacity (<q>)\" (reason ExceedsMaxQuota); no amount of "
            "waiting or preemption helps.",
        fix="Reduce the request (or count), raise the ClusterQueue's nominalQuota/borrowingLimit, or give the "
            "cohort more quota; with partial admission set minCount to a size that fits.",
        bad="# ClusterQueue: cpu nominalQuota 8, no cohort\npodSets:\n- count: 10\n  ... requests: {cpu: \"1\"}\n",
        good="podSets:\n- count: 8\n  ... requests: {cpu: \"1\"}\n",
        source=("kueue pkg/scheduler/flavorassigner/flavorassigner.go fitsResourceQuota (request above the "
                "maximum capacity, ExceedsMaxQuota)"),
    ),
)
def check_exceeds_max_quota(ctx):
    options, snapshot = engine_view(ctx)
    for wl, cq in _routed(ctx):
        node = snapshot.cluster_queues.get(cq.name)
        if node is None or in_cohort_cycle(snapshot, cq):
            continue
        for ps, req in zip(wl.pod_sets, pod_set_requests(wl, options), strict=True):
            n = smallest_count(ctx, ps, req)
            if n <= 0:
                continue
            for rg in cq.resource_groups:
                wanted = {r: saturate(req.per_pod[r] * n) for r in rg.covered_resources if req.per_pod.get(r, 0) > 0}
                if not wanted or not rg.flavors:
                    continue
                best: list[str] = []
                fits = False
                for f in rg.flavors:
                    if not f.name:
                        continue
                    # the flavor assigner's ExceedsMaxQuota test: request > potential_available
                    caps = {r: potential_available(node, (f.name, r)) for r in wanted}
                    over = [r for r, c in caps.items() if wanted[r] > c]
                    if not over:
                        fits = True
                        break
                    best.extend(f"{r} in flavor {f.name}: {format_amount(r, wanted[r])} > maximum capacity "
                                f"({format_amount(r, caps[r])})" for r in over)
                if fits or not best:
                    continue
                res = next(iter(wanted))
                path = request_path(ps, res)
                size = f"minCount {n}" if ps.min_count is not None and n == ps.min_count else f"{n} pod(s)"
                yield Finding(
                    path,
                    f"pod set {ps.name} of Workload {wl.key} ({size}) can never fit in ClusterQueue {cq.name}: "
                    f"insufficient quota for {'; '.join(best)}; Kueue keeps it pending (ExceedsMaxQuota)",
                    type=None, subject=wl, related=(loc(cq),),
                    hint="Lower the request or count, or raise nominalQuota/borrowingLimit in the ClusterQueue "
                         "or its cohort.",
                )


@rule(
    code="KQ516", name="requests-exceed-limits", severity="warning", layer="runtime", scope="cluster",
    summary="A container of a Workload requests more than its limit",
    doc=RuleDoc(
        what="A container or init container in a Workload pod-set template whose request for a resource is larger "
             "than its limit (pod-level resources too).",
        why="The Workload API does not validate pod templates, so the Workload is accepted; but Kueue's admission "
            "check rejects it (\"resources validation failed: ... requests must not exceed its limits\", reason Misconfigured) and it "
            "stays pending. Kubernetes would also refuse such pods.",
        fix="Raise the limit or lower the request.",
        bad="resources:\n  requests: {cpu: 200m}\n  limits: {cpu: 100m}\n",
        good="resources:\n  requests: {cpu: 100m}\n  limits: {cpu: 200m}\n",
        source=("kueue pkg/workload/resources.go ValidateAdmissibility (ValidateResources, "
                "ValidateLimitRange)"),
    ),
)
def check_requests_above_limits(ctx):
    for wl in objects_of(ctx.cluster, "Workload"):
        if wl.is_finished:
            continue
        for v in requests_over_limits(wl):
            h = v.holder
            label = f"{h.field}[{h.index}]" if h.field is not None else "pod-level resources"
            for rname in v.resources:
                yield Finding(
                    v.request_path(rname),
                    f"{label} of pod set {v.pod_set} requests {h.requests[rname]} {rname} but limits it to "
                    f"{h.limits[rname]}: requests must be less than or equal to limits, "
                    f"so Kueue will not admit Workload {wl.key} (Misconfigured)",
                    type=None, subject=wl,
                    hint="Raise the limit or lower the request.",
                )
