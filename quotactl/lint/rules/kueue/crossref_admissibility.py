"""Pending Workloads that Kueue can never admit through their ClusterQueue (kueue-api.md §16;
kueue-scheduling.md §2.2, §3.5, §4.2, §5.3)."""

from __future__ import annotations

from quotactl.lint.k8s_checks import scalar_text
from quotactl.lint.rule import Finding, RuleDoc, rule
from quotactl.lint.rules.kueue.common import find_request_path, fmt_amount, raw_podsets
from quotactl.lint.rules.kueue.crossref_helpers import (
    QuotaTree,
    covered,
    loc,
    objects_of,
    pending,
    podset_requests,
    smallest_count,
)
from quotactl.model.coerce import as_dict, as_list, as_quantity


def _routed(ctx):
    """(Workload, ClusterQueue) for every pending Workload whose queue chain resolves in the input."""
    for wl in objects_of(ctx.cluster, "Workload"):
        if not pending(wl):
            continue
        cq = ctx.cluster.cluster_queue_for(wl)
        if cq is not None:
            yield wl, cq


def _ignore_undeclared(ctx) -> bool:
    cfg = ctx.cluster.configuration
    return bool(cfg and cfg.quota_check_strategy == "IgnoreUndeclared" and ctx.gates.enabled("QuotaCheckStrategy"))


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
    if _ignore_undeclared(ctx):
        return
    for wl, cq in _routed(ctx):
        cov = covered(cq)
        raws = raw_podsets(wl)
        for i, ps, direct, derived in podset_requests(ctx.cluster, wl):
            for res in sorted(set(direct) | derived):
                if res in cov:
                    continue
                path = find_request_path(raws[i] if i < len(raws) else {}, ps.path, res)
                yield Finding(
                    path,
                    f"couldn't assign flavors to pod set {ps.name}: resource {res} unavailable in ClusterQueue "
                    f"{cq.name} (covered: {', '.join(sorted(cov)) or 'nothing'}); Workload {wl.key} stays pending "
                    "(NoMatchingFlavor)",
                    type=None, subject=wl, related=(loc(cq),),
                    hint=f"Cover {res} in ClusterQueue {cq.name}, or list it in the Configuration's "
                         "resources.excludeResourcePrefixes.",
                )


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
    tree = QuotaTree(ctx.cluster)
    for wl, cq in _routed(ctx):
        node = ("cq", cq.name)
        if tree.in_cycle(node):
            continue
        raws = raw_podsets(wl)
        for i, ps, direct, _derived in podset_requests(ctx.cluster, wl):
            n = smallest_count(ctx, wl, ps)
            if n <= 0:
                continue
            for rg in cq.resource_groups:
                wanted = {r: direct[r] * n for r in rg.covered_resources if r in direct}
                if not wanted or not rg.flavors:
                    continue
                best: list[str] = []
                fits = False
                for f in rg.flavors:
                    if not f.name:
                        continue
                    caps = {r: tree.potential_available(node, (f.name, r)) for r in wanted}
                    if all(c is not None and wanted[r] <= c for r, c in caps.items()):
                        fits = True
                        break
                    over = [r for r, c in caps.items() if c is not None and wanted[r] > c]
                    best.extend(f"{r} in flavor {f.name}: {fmt_amount(r, wanted[r])} > maximum capacity "
                                f"({fmt_amount(r, caps[r])})" for r in over)
                if fits or not best:
                    continue
                res = next(iter(wanted))
                path = find_request_path(raws[i] if i < len(raws) else {}, ps.path, res)
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
            "check rejects it (\"requests must be less than or equal to limits\", reason Misconfigured) and it "
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
        for i, ps in enumerate(raw_podsets(wl)):
            spec = as_dict(as_dict(as_dict(ps).get("template")).get("spec"))
            base = ("spec", "podSets", i, "template", "spec")
            holders = [((f, k), as_dict(c)) for f in ("initContainers", "containers")
                       for k, c in enumerate(as_list(spec.get(f)))]
            holders.append(((), {"resources": spec.get("resources")}))
            for where, holder in holders:
                res = as_dict(holder.get("resources"))
                limits = as_dict(res.get("limits"))
                for rname, rv in as_dict(res.get("requests")).items():
                    req, lim = as_quantity(rv), as_quantity(limits.get(rname))
                    if req is None or lim is None or req <= lim:
                        continue
                    label = f"{where[0]}[{where[1]}]" if where else "pod-level resources"
                    yield Finding(
                        base + where + ("resources", "requests", str(rname)),
                        f"{label} of pod set {i} requests {scalar_text(rv)} {rname} but limits it to "
                        f"{scalar_text(limits.get(rname))}: requests must be less than or equal to limits, "
                        f"so Kueue will not admit Workload {wl.key} (Misconfigured)",
                        type=None, subject=wl,
                        hint="Raise the limit or lower the request.",
                    )
