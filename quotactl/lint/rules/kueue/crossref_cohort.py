"""Cohort-tree rules: parent cycles, and borrowing/lending limits that can have no effect
(kueue ``pkg/cache/scheduler/resource_node.go``, ``cohort_snapshot.go``)."""

from __future__ import annotations

from quotactl.kueue.amounts import format_amount
from quotactl.kueue.quota import local_quota, potential_available
from quotactl.lint.rule import Finding, RuleDoc, rule
from quotactl.lint.rules.kueue.crossref_helpers import engine_view, in_cohort_cycle


@rule(
    code="KQ503", name="cohort-cycle", severity="error", layer="runtime", scope="cluster",
    summary="Cohort parentName chain forms a cycle",
    doc=RuleDoc(
        what="Follows Cohort spec.parentName (v1alpha1 spec.parent) links and reports every Cohort that is part of "
             "a cycle (a -> b -> a, or a Cohort that is its own parent).",
        why="The API accepts each Cohort, but Kueue cannot build the quota tree: it marks every member inactive, "
            "ClusterQueues included (Active=False, reason CohortCycleDetected), and admits nothing in that tree "
            "until the cycle is broken.",
        fix="Remove the parentName of one Cohort in the cycle (usually the one meant to be the root).",
        bad="kind: Cohort\nmetadata: {name: a}\nspec: {parentName: b}\n---\nkind: Cohort\nmetadata: {name: b}\n"
            "spec: {parentName: a}\n",
        good="kind: Cohort\nmetadata: {name: a}\nspec: {parentName: b}\n---\nkind: Cohort\nmetadata: {name: b}\n",
        source=("kueue pkg/cache/hierarchy/cycle.go HasCycle; kueue pkg/cache/scheduler/clusterqueue.go "
                "inactiveReason (CohortCycleDetected, kubernetes-sigs/kueue#13774)"),
    ),
)
def check_cohort_cycles(ctx):
    cluster = ctx.cluster
    found = cluster.cohort_cycles()
    for cycle in found.cycles:
        cycle = list(cycle)
        affected = sorted(cq.name for cq in cluster.cluster_queues.values() if cq.cohort in found.doomed)
        tail = (f"; inactive ClusterQueues: {_some(affected)}" if affected
                else "; any ClusterQueue joining this tree will be inactive")
        for i, name in enumerate(cycle):
            co = cluster.cohorts[name]
            shown = _cycle_from(cycle, i)
            yield Finding(
                co.parent_path,
                f"cohort cycle {shown}: Kueue deactivates every member of the cycle, including the "
                f"ClusterQueues below them (Active=False, reason CohortCycleDetected), and admits nothing "
                f"there{tail}",
                subject=co,
                hint="Remove parentName from one Cohort of the cycle.",
            )


# One finding per member of a cycle, each naming the cycle: with thousands of members the whole
# cycle in every message made the report quadratic (78 MB for 3,000 cohorts: found by the fuzzer).
_SHOWN = 8  # names shown in full; a longer list is shortened in the middle


def _cycle_from(cycle: list[str], start: int) -> str:
    """The cycle read from member ``start`` back to it, shortened when long."""
    rotated = cycle[start:] + cycle[:start]
    if len(rotated) <= _SHOWN:
        return " -> ".join(rotated + [rotated[0]])
    return (" -> ".join(rotated[:_SHOWN // 2]) + f" -> ... ({len(rotated) - _SHOWN + 2} more) -> "
            + " -> ".join(rotated[-(_SHOWN // 2 - 2):] + [rotated[0]]) + f" ({len(rotated)} cohorts)")


def _some(names: list[str]) -> str:
    if len(names) <= _SHOWN:
        return ", ".join(names)
    return ", ".join(names[:_SHOWN]) + f" and {len(names) - _SHOWN} more"


def _limits(cq, attr):
    for rg in cq.resource_groups:
        for f in rg.flavors:
            for r in f.resources:
                if getattr(r, attr) is not None and f.name and r.name:
                    yield f.name, r.name, r


@rule(
    code="KQ506", name="borrowing-limit-without-lender", severity="warning", layer="runtime", scope="cluster",
    summary="borrowingLimit set but nothing in the cohort can be borrowed",
    doc=RuleDoc(
        what="A ClusterQueue borrowingLimit for a (flavor, resource) when no other ClusterQueue or Cohort in its "
             "cohort tree provides quota for that flavor and resource (computed like Kueue's "
             "PotentialAvailable: nominal quotas, lending limits and cohort borrowing limits up the tree).",
        why="The limit caps borrowing that can never happen, so it has no effect; it often means the flavor or "
            "resource name differs between the queues that were meant to share (e.g. on-demand vs ondemand).",
        fix="Give another member of the cohort quota for that flavor/resource, fix the name mismatch, or drop "
            "the borrowingLimit. When the other members are in files not linted, --no-cross-refs skips this "
            "check.",
        bad="kind: ClusterQueue\nmetadata: {name: a}\nspec:\n  cohortName: c\n  resourceGroups:\n"
            "  - coveredResources: [cpu]\n    flavors:\n    - name: spot\n      resources:\n"
            "      - {name: cpu, nominalQuota: 4, borrowingLimit: 4}\n# no other queue in cohort c has spot/cpu\n",
        good="# another ClusterQueue in cohort c with quota for spot/cpu to lend\n",
        source=("kueue pkg/cache/scheduler/resource_node.go (borrowing needs unused quota elsewhere in the "
                "cohort)"),
    ),
)
def check_borrowing_limits(ctx):
    if ctx.partial_input:  # the lenders may be the cohort members in the files not given
        return
    _options, snapshot = engine_view(ctx)
    for cq in ctx.cluster.cluster_queues.values():
        if not cq.cohort or in_cohort_cycle(snapshot, cq):
            continue
        node = snapshot.cluster_queues[cq.name]
        for flavor, res, rq in _limits(cq, "borrowing_limit"):
            fr = (flavor, res)
            extra = local_quota(node, fr) + potential_available(node.parent, fr) - node.nominal(fr)
            if extra <= 0:
                yield Finding(
                    rq.path + ("borrowingLimit",),
                    f"borrowingLimit has no effect: nothing in cohort {cq.cohort}'s tree can lend {res} in flavor "
                    f"{flavor} to ClusterQueue {cq.name} (no other member has quota for it)",
                    type=None, subject=cq,
                    hint=f"Give another member of the cohort quota for {flavor}/{res}, or check the flavor and "
                         "resource names match across the queues.",
                )


@rule(
    code="KQ507", name="lending-limit-without-borrower", severity="info", layer="runtime", scope="cluster",
    summary="lendingLimit set but no other ClusterQueue in the tree can borrow it",
    doc=RuleDoc(
        what="A ClusterQueue lendingLimit for a (flavor, resource) when no other ClusterQueue in the same cohort "
             "tree covers that flavor and resource with borrowing allowed (borrowingLimit absent or > 0).",
        why="Nobody can borrow the lent quota, so the limit changes nothing today.",
        fix="Nothing, if it is preparation for future members; otherwise add the flavor/resource to the queues "
            "meant to borrow, or drop the lendingLimit.",
        bad="kind: ClusterQueue\nmetadata: {name: a}\nspec:\n  cohortName: c\n  resourceGroups:\n"
            "  - coveredResources: [cpu]\n    flavors:\n    - name: spot\n      resources:\n"
            "      - {name: cpu, nominalQuota: 4, lendingLimit: 2}\n# no other queue in cohort c covers spot/cpu\n",
        good="# another ClusterQueue in cohort c covering spot/cpu\n",
        source=("kueue pkg/cache/scheduler/resource_node.go (lending needs a borrower elsewhere in the "
                "cohort)"),
    ),
)
def check_lending_limits(ctx):
    if ctx.partial_input:  # the borrowers may be the cohort members in the files not given
        return
    _options, snapshot = engine_view(ctx)
    nodes = snapshot.cluster_queues
    for cq in ctx.cluster.cluster_queues.values():
        if not cq.cohort or in_cohort_cycle(snapshot, cq):
            continue
        node = nodes[cq.name]
        root = node.root()
        for flavor, res, rq in _limits(cq, "lending_limit"):
            fr = (flavor, res)
            borrowers = [
                o for o in nodes.values()
                if o is not node and o.root() is root and o.spec.quota(flavor, res) is not None
                and o.quota_for(fr).borrowing_limit != 0
            ]
            if not borrowers:
                lent = format_amount(res, max(0, node.nominal(fr) - local_quota(node, fr)))
                yield Finding(
                    rq.path + ("lendingLimit",),
                    f"no other ClusterQueue in cohort {cq.cohort}'s tree can borrow {res} in flavor {flavor}: the "
                    f"{lent} lent by ClusterQueue {cq.name} is never used",
                    type=None, subject=cq,
                )
