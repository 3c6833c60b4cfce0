"""ClusterQueue settings Kueue accepts but that do nothing or stop the queue (kueue
``pkg/cache/scheduler/clusterqueue.go``, ``snapshot.go``; ``pkg/scheduler/preemption``).  Warnings and infos, never errors."""

from __future__ import annotations

from quotactl.diagnostics import Fix
from quotactl.lint.rule import Finding, RuleDoc, rule
from quotactl.lint.rules.kueue.common import raw
from quotactl.model.kueue import ClusterQueue, KueueCluster

KINDS = ("ClusterQueue",)


def _policy(cq, *path) -> str | None:
    """A preemption policy as given, if it is a valid non-Never value."""
    value = raw(cq, ("spec", "preemption") + path)
    valid = ("LowerPriority", "Any") if path == ("reclaimWithinCohort",) else ("LowerPriority",)
    return value if value in valid else None


# ------------------------------------------------------------------------------- KQ211 --------

@rule(
    code="KQ211", name="no-namespace-selector", severity="warning", layer="runtime", kinds=KINDS,
    summary="namespaceSelector missing: no namespace can submit to this ClusterQueue",
    doc=RuleDoc(
        what="Reports a ClusterQueue without spec.namespaceSelector (or with namespaceSelector: null).",
        why="A null selector selects no namespace: every workload sent to it through a LocalQueue stays "
            "pending (\"workload namespace doesn't match ClusterQueue selector\"). `{}` selects all namespaces.",
        fix="Add namespaceSelector: {} to accept every namespace, or a selector for the namespaces that may "
            "use the queue.",
        bad="spec:\n  resourceGroups: [...]\n",
        good="spec:\n  namespaceSelector: {}\n  resourceGroups: [...]\n",
        source=("kueue pkg/workload/resources.go ValidateAdmissibility (a nil namespaceSelector matches no "
                "namespace)"),
    ),
)
def check_namespace_selector_missing(cq, ctx):
    value = raw(cq, ("spec", "namespaceSelector"))
    if value is not None:
        return  # {} or a selector (a wrong type is a schema error)
    yield Finding(
        ("spec", "namespaceSelector"),
        f"ClusterQueue {cq.name} has no namespaceSelector: a null selector matches no namespace, so no "
        "workload can be admitted through it ({} selects every namespace)",
        type=None,
        hint="Add `namespaceSelector: {}` to allow all namespaces, or a matchLabels/matchExpressions selector.",
        fix=Fix("select every namespace", "{}"),
    )


# ------------------------------------------------------------------------------- KQ212 --------

@rule(
    code="KQ212", name="cluster-queue-stopped", severity="info", layer="runtime", kinds=KINDS,
    summary="stopPolicy Hold / HoldAndDrain: the ClusterQueue is inactive",
    doc=RuleDoc(
        what="Reports a ClusterQueue whose spec.stopPolicy is Hold or HoldAndDrain.",
        why="Any stopPolicy other than None makes the ClusterQueue inactive (condition Active=False, reason "
            "Stopped): it admits nothing; HoldAndDrain also evicts its admitted workloads. Its quota still "
            "counts in its cohort.",
        fix="Set stopPolicy: None (or remove it) when the queue should admit workloads again.",
        bad="stopPolicy: Hold\n",
        good="stopPolicy: None\n",
        source=("kueue pkg/cache/scheduler/clusterqueue.go inactiveReason (stopPolicy); kueue "
                "pkg/cache/scheduler/snapshot.go skipInactiveCQReason"),
    ),
)
def check_stopped(cq, ctx):
    policy = raw(cq, ("spec", "stopPolicy"))
    if policy not in ("Hold", "HoldAndDrain"):
        return
    effect = ("admits no new workloads; admitted ones keep running" if policy == "Hold"
              else "admits no new workloads and evicts the admitted ones")
    yield Finding(
        ("spec", "stopPolicy"),
        f"stopPolicy is {policy}: ClusterQueue {cq.name} is inactive (Active=False, reason Stopped) and {effect}",
        type=None,
        hint="Set stopPolicy: None to resume admission.",
        fix=Fix("resume admission", "None"),
    )


# ------------------------------------------------------------------------------- KQ213 --------

@rule(
    code="KQ213", name="borrow-within-cohort-ignored-with-fair-sharing", severity="warning", layer="runtime",
    kinds=KINDS,
    summary="borrowWithinCohort is ignored when fair sharing is enabled",
    doc=RuleDoc(
        what="Reports preemption.borrowWithinCohort with a policy other than Never while fair sharing is "
             "enabled (Kueue Configuration fairSharing, or --fair-sharing).",
        why="Fair-sharing preemption replaces classic cohort preemption: borrowWithinCohort (and its "
            "maxPriorityThreshold) is not consulted; whether a borrowing workload may preempt is decided by the "
            "fair-sharing strategies and reclaimWithinCohort.",
        fix="Remove borrowWithinCohort, or disable fair sharing if classic priority-based borrowing preemption "
            "is what you want.",
        bad="preemption:\n  reclaimWithinCohort: Any\n  borrowWithinCohort: {policy: LowerPriority}\n",
        good="preemption:\n  reclaimWithinCohort: Any\n",
        source=("kueue pkg/scheduler/preemption/preemption.go GetTargets (fair sharing uses "
                "fairPreemptions, which ignore borrowWithinCohort)"),
    ),
)
def check_borrow_within_cohort_fair_sharing(cq, ctx):
    policy = _policy(cq, "borrowWithinCohort", "policy")
    if policy is None or not ctx.fair_sharing:
        return
    yield Finding(
        ("spec", "preemption", "borrowWithinCohort"),
        f"borrowWithinCohort.policy {policy} is ignored because fair sharing is enabled: fair-sharing "
        "preemption decides which workloads a borrowing ClusterQueue may preempt",
        type=None,
        hint="Remove borrowWithinCohort (fair-sharing strategies apply), or disable fair sharing.",
    )


# ------------------------------------------------------------------------------- KQ214 --------

@rule(
    code="KQ214", name="cohort-policy-without-cohort", severity="warning", layer="runtime", kinds=KINDS,
    summary="Cohort preemption policy on a ClusterQueue without a cohort",
    doc=RuleDoc(
        what="Reports preemption.reclaimWithinCohort or preemption.borrowWithinCohort.policy other than Never on "
             "a ClusterQueue that has no cohort. (borrowingLimit / lendingLimit without a cohort are rejected "
             "outright: KQ104 / KQ105.)",
        why="These policies only select victims in other ClusterQueues of the same cohort; without a cohort "
            "there are none, so the setting has no effect and suggests a forgotten cohortName.",
        fix="Set spec.cohortName (v1beta1: spec.cohort) if the queue should share quota, or remove the policies.",
        bad="spec:\n  preemption:\n    reclaimWithinCohort: Any\n",
        good="spec:\n  cohortName: research\n  preemption:\n    reclaimWithinCohort: Any\n",
        source=("kueue pkg/scheduler/preemption/classical/hierarchical_preemption.go (reclaim and "
                "borrowWithinCohort act only inside a cohort)"),
    ),
)
def check_cohort_policy_without_cohort(cq, ctx):
    if cq.cohort:
        return
    field = cq.cohort_path[-1]
    for path, policy in (
        (("spec", "preemption", "reclaimWithinCohort"), _policy(cq, "reclaimWithinCohort")),
        (("spec", "preemption", "borrowWithinCohort", "policy"), _policy(cq, "borrowWithinCohort", "policy")),
    ):
        if policy is None:
            continue
        yield Finding(
            path,
            f"{path[-1] if path[-1] != 'policy' else 'borrowWithinCohort.policy'} is {policy} but ClusterQueue "
            f"{cq.name} has no cohort (spec.{field}): there are no other ClusterQueues to preempt, so this has "
            "no effect",
            type=None,
            hint=f"Set spec.{field} to the cohort this queue shares quota with, or remove the policy.",
        )


# ------------------------------------------------------------------------------- KQ215 --------

def _tree(cluster: KueueCluster, cohort: str) -> set[str]:
    """All cohort names in the tree that contains ``cohort`` (explicit and implicit cohorts)."""
    root, seen = cohort, {cohort}
    while True:
        node = cluster.cohorts.get(root)
        if node is None or not node.parent or node.parent in seen:
            break
        root = node.parent
        seen.add(root)
    tree, todo = {root}, [root]
    while todo:
        name = todo.pop()
        for child in cluster.child_cohorts(name):
            if child.name and child.name not in tree:
                tree.add(child.name)
                todo.append(child.name)
    return tree | seen


def _cohort_has_quota(cluster: KueueCluster, names: set[str]) -> bool:
    for name in names:
        co = cluster.cohorts.get(name)
        if co is None:
            continue
        for rg in co.resource_groups:
            for fq in rg.flavors:
                if any(rq.nominal is not None and rq.nominal.nanos > 0 for rq in fq.resources):
                    return True
    return False


@rule(
    code="KQ215", name="lonely-cohort-member", severity="warning", layer="runtime", kinds=KINDS,
    summary="Borrowing/lending settings on the only member of a cohort",
    doc=RuleDoc(
        what="Reports borrowingLimit, lendingLimit, reclaimWithinCohort or borrowWithinCohort on a ClusterQueue "
             "whose cohort tree has no other ClusterQueue and no Cohort with quota of its own. Only checked "
             "when the input looks complete (more than one ClusterQueue, or --cross-refs).",
        why="Borrowing and lending happen between members of a cohort tree. Alone in its tree the queue has "
            "nobody to borrow from or lend to, so the limits and cohort preemption policies have no effect; "
            "often the cohort name is misspelt in one of the queues.",
        fix="Check the cohort name against the other ClusterQueues, add the queues that should share quota, "
            "or remove the settings.",
        bad="# team-a: cohortName: reserch   (team-b: cohortName: research)\n"
            "resources:\n- {name: cpu, nominalQuota: 8, borrowingLimit: 4}\n",
        good="# team-a and team-b: cohortName: research\n",
        source=("kueue pkg/cache/scheduler/resource_node.go (a cohort with one member has no one to borrow "
                "from or lend to)"),
    ),
)
def check_lonely_cohort_member(cq: ClusterQueue, ctx):
    if not cq.cohort:
        return
    cluster = ctx.cluster
    if not ctx.check_refs_to("ClusterQueue", len(cluster.cluster_queues) > 1):
        return
    settings = []
    for rg in cq.resource_groups:
        for fq in rg.flavors:
            for rq in fq.resources:
                for key in ("borrowingLimit", "lendingLimit"):
                    if raw(cq, rq.path + (key,)) is not None and key not in settings:
                        settings.append(key)
    if _policy(cq, "reclaimWithinCohort"):
        settings.append("reclaimWithinCohort")
    if _policy(cq, "borrowWithinCohort", "policy"):
        settings.append("borrowWithinCohort")
    if not settings:
        return
    tree = _tree(cluster, cq.cohort)
    others = [o for c in tree for o in cluster.all_cohort_members(c) if o is not cq]
    if others or _cohort_has_quota(cluster, tree):
        return
    yield Finding(
        cq.cohort_path,
        f"ClusterQueue {cq.name} is the only member of cohort {cq.cohort} (no other ClusterQueue and no Cohort "
        f"quota in its tree): {', '.join(settings)} have no effect",
        type=None,
        hint="Check the cohort name for a typo against the other ClusterQueues, or remove the borrowing/lending "
             "settings.",
    )

