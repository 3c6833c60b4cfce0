"""Cross-object reference rules: names that must resolve to another object of the input
(kueue ``pkg/cache/scheduler/clusterqueue.go``, ``pkg/cache/queue/manager.go``,
``pkg/controller/core/workload_controller.go``).

Partial-input policy (LintContext.check_refs_to): a dangling reference to kind X is reported only
when the input holds at least one X (or --cross-refs); otherwise KQ500 says, once, what was not
checked."""

from __future__ import annotations

from collections import Counter

from quotactl.diagnostics import Severity
from quotactl.lint.rule import Finding, RuleDoc, rule
from quotactl.lint.rules.kueue.crossref_helpers import (
    covered,
    dangling,
    did_you_mean,
    has_kind,
    loc,
    objects_of,
    references,
)
from quotactl.load.document import get_in

PLURAL = {
    "ResourceFlavor": "flavors", "ClusterQueue": "ClusterQueues", "LocalQueue": "LocalQueues",
    "WorkloadPriorityClass": "WorkloadPriorityClasses", "PriorityClass": "PriorityClasses",
    "AdmissionCheck": "AdmissionChecks", "Topology": "Topologies", "MultiKueueCluster": "MultiKueueClusters",
    "MultiKueueConfig": "MultiKueueConfigs", "ProvisioningRequestConfig": "ProvisioningRequestConfigs",
}


@rule(
    code="KQ500", name="references-not-checked", severity="info", layer="reference", scope="cluster",
    summary="References to a kind the input does not contain were not checked",
    doc=RuleDoc(
        what="When the input contains no object of a kind that other objects reference (say, ClusterQueues "
             "naming flavors but no ResourceFlavor at all), those references are not reported one by one: the "
             "input is taken to be a partial view. This single note says how many references were skipped.",
        why="Linting one file of a larger configuration should not drown real problems in \"flavor not found\" "
            "errors; but you should know the references were not verified.",
        fix="Lint the whole configuration directory, or pass --cross-refs to check references anyway "
            "(--no-cross-refs silences this note).",
        bad="# cq.yaml alone: names flavor default, no ResourceFlavor in the input\n",
        good="quotactl lint config/    # the directory with the ResourceFlavors too\n",
        source="quotactl partial-input policy (lint/context.py: check_refs_to)",
    ),
)
def check_partial_input(ctx):
    if ctx.options.cross_refs is not None:
        return
    refs = references(ctx.cluster)
    skipped = [r for r in refs if not has_kind(ctx.cluster, r.target)]
    if not skipped:
        return
    counts = Counter(r.target for r in skipped)
    kinds = list(dict.fromkeys(r.target for r in skipped))
    what = " or ".join(kinds)
    parts = ", ".join(f"{counts[k]} reference{'s' if counts[k] != 1 else ''} to {PLURAL[k]}" for k in kinds)
    first = skipped[0]
    yield Finding(
        first.path,
        f"input has no {what} objects; {parts} not checked "
        "(lint the whole config directory, or pass --cross-refs)",
        type=None,
        subject=first.subject,
    )


@rule(
    code="KQ501", name="flavor-not-found", severity="error", layer="reference", scope="cluster",
    summary="ClusterQueue (or Cohort) names a ResourceFlavor that does not exist",
    doc=RuleDoc(
        what="Every flavor named in spec.resourceGroups[].flavors[] must be a ResourceFlavor of the input "
             "(checked when the input has ResourceFlavors, or with --cross-refs).",
        why="Kueue accepts the ClusterQueue but keeps it inactive (condition Active=False, reason FlavorNotFound): "
            "it admits nothing and its workloads wait with \"ClusterQueue <name> is inactive\" until the flavor "
            "is created. A Cohort's quota for a missing flavor is simply unusable (warning).",
        fix="Create the ResourceFlavor, or correct the name (the message suggests close matches).",
        bad="kind: ResourceFlavor\nmetadata: {name: on-demand}\n---\nkind: ClusterQueue\n...\n"
            "    flavors:\n    - name: ondemand\n",
        good="kind: ResourceFlavor\nmetadata: {name: on-demand}\n---\nkind: ClusterQueue\n...\n"
             "    flavors:\n    - name: on-demand\n",
        source="kueue pkg/cache/scheduler/clusterqueue.go inactiveReason (FlavorNotFound)",
    ),
)
def check_flavor_refs(ctx):
    known = list(ctx.cluster.resource_flavors)
    for r in dangling(ctx, "ResourceFlavor"):
        hint = did_you_mean(r.name, known).strip() or "Create the ResourceFlavor or fix the name."
        if r.subject.source.kind == "ClusterQueue":
            yield Finding(
                r.path,
                f"ResourceFlavor {r.name!r} does not exist: Kueue keeps ClusterQueue {r.subject.name} inactive "
                "(Active=False, reason FlavorNotFound) and admits nothing through it until the flavor is created",
                type="NotFound", subject=r.subject, hint=hint,
            )
        else:
            yield Finding(
                r.path,
                f"ResourceFlavor {r.name!r} does not exist: the quota Cohort {r.subject.name} offers for it can "
                "never be used",
                type="NotFound", subject=r.subject, hint=hint, severity=Severity.WARNING,
            )


@rule(
    code="KQ502", name="cluster-queue-not-found", severity="error", layer="reference", scope="cluster",
    summary="LocalQueue points to a ClusterQueue that does not exist",
    doc=RuleDoc(
        what="A LocalQueue's spec.clusterQueue must name a ClusterQueue of the input (checked when the input has "
             "ClusterQueues, or with --cross-refs). A LocalQueue without spec.clusterQueue is reported as a "
             "warning.",
        why="The LocalQueue is accepted but inactive: every workload submitted to it stays pending (\"ClusterQueue "
            "<name> doesn't exist\") and can never be admitted. spec.clusterQueue is immutable, so the fix is to "
            "create the ClusterQueue or recreate the LocalQueue.",
        fix="Create the ClusterQueue, or recreate the LocalQueue with the right name (the message suggests close "
            "matches).",
        bad="kind: LocalQueue\nmetadata: {name: main, namespace: team-a}\nspec:\n  clusterQueue: team-a-cq\n",
        good="kind: LocalQueue\nmetadata: {name: main, namespace: team-a}\nspec:\n  clusterQueue: team-a\n",
        source=("kueue pkg/controller/core/workload_controller.go getQueueBlocker; "
                "pkg/cache/queue/manager.go (ErrClusterQueueDoesNotExist)"),
    ),
)
def check_cluster_queue_refs(ctx):
    known = list(ctx.cluster.cluster_queues)
    for r in dangling(ctx, "ClusterQueue"):
        if r.subject.source.kind != "LocalQueue":
            continue
        lq = r.subject
        yield Finding(
            r.path,
            f"ClusterQueue {r.name!r} does not exist: LocalQueue {lq.namespace}/{lq.name} is inactive and every "
            "workload submitted to it stays pending",
            type="NotFound", subject=lq,
            hint=did_you_mean(r.name, known).strip() or "Create the ClusterQueue (spec.clusterQueue is immutable).",
        )
    for lq in objects_of(ctx.cluster, "LocalQueue"):
        if get_in(lq.source.data, ("spec", "clusterQueue")) is None:
            yield Finding(
                ("spec",),
                f"LocalQueue {lq.namespace}/{lq.name} has no spec.clusterQueue: it is inactive and nothing "
                "submitted to it can be admitted",
                type=None, subject=lq, severity=Severity.WARNING,
                hint="Set spec.clusterQueue (it cannot be changed afterwards).",
            )


@rule(
    code="KQ505", name="priority-class-not-found", severity="warning", layer="reference", scope="cluster",
    summary="Workload names a WorkloadPriorityClass or PriorityClass that does not exist",
    doc=RuleDoc(
        what="spec.priorityClassRef (v1beta1 priorityClassName) and the pod templates' priorityClassName must name "
             "classes of the input (checked when the input has classes of that kind, or with --cross-refs). "
             "The built-in system-cluster-critical and system-node-critical always exist.",
        why="The Workload keeps the priority copied into spec.priority, so it still schedules; but jobs that name "
            "a missing WorkloadPriorityClass cannot get a Workload, and pods naming a missing PriorityClass are "
            "rejected by Kubernetes when Kueue starts them.",
        fix="Create the class, or correct the name.",
        bad="priorityClassRef: {group: kueue.x-k8s.io, kind: WorkloadPriorityClass, name: hihg}\n",
        good="priorityClassRef: {group: kueue.x-k8s.io, kind: WorkloadPriorityClass, name: high}\n",
        source=("kueue pkg/controller/jobframework/reconciler.go ExtractPriority "
                "(WorkloadPriorityClassNotFound); kueue pkg/util/priority/priority.go "
                "GetPriorityFromPriorityClass"),
    ),
)
def check_priority_class_refs(ctx):
    refs = references(ctx.cluster)
    for kind, known in (("WorkloadPriorityClass", ctx.cluster.workload_priority_classes),
                        ("PriorityClass", ctx.cluster.priority_classes)):
        for r in dangling(ctx, kind, refs):
            wl = r.subject
            if r.path[-1] == "priorityClassName" and "template" in r.path:
                consequence = "the pods Kueue starts for it will be rejected by Kubernetes"
            elif kind == "WorkloadPriorityClass":
                consequence = (f"it keeps spec.priority ({wl.priority}), but jobs labelled with this class cannot "
                               "get a Workload until the class exists")
            else:
                consequence = f"it keeps spec.priority ({wl.priority}) and its pods will be rejected by Kubernetes"
            yield Finding(
                r.path,
                f"{kind} {r.name!r} does not exist; {consequence}",
                type="NotFound", subject=wl,
                hint=did_you_mean(r.name, known).strip() or f"Create the {kind}, or fix the name.",
            )


@rule(
    code="KQ508", name="local-queue-not-found", severity="warning", layer="reference", scope="cluster",
    summary="Workload's queueName names no LocalQueue in its namespace",
    doc=RuleDoc(
        what="spec.queueName must name a LocalQueue in the Workload's own namespace (checked when the input has "
             "LocalQueues, or with --cross-refs).",
        why="Kueue accepts the Workload but it just waits: pending with \"LocalQueue <name> doesn't exist\" until "
            "such a LocalQueue is created. LocalQueues are namespaced; one of the same name elsewhere does not "
            "count.",
        fix="Create the LocalQueue in this namespace, or use an existing queue's name (queueName cannot change "
            "while quota is reserved).",
        bad="kind: Workload\nmetadata: {name: job-1, namespace: team-a}\nspec:\n  queueName: team-a-queue\n",
        good="kind: LocalQueue\nmetadata: {name: team-a-queue, namespace: team-a}\n...\n",
        source="kueue pkg/controller/core/workload_controller.go getQueueBlocker (LocalQueue doesn't exist)",
    ),
)
def check_local_queue_refs(ctx):
    lqs = ctx.cluster.local_queues
    for r in dangling(ctx, "LocalQueue"):
        wl = r.subject
        same_ns = [n for (ns, n) in lqs if ns == wl.namespace]
        elsewhere = sorted(ns for (ns, n) in lqs if n == r.name)
        hint = did_you_mean(r.name, same_ns).strip()
        if elsewhere:
            hint = (hint + " " if hint else "") + (
                f"A LocalQueue {r.name!r} exists in namespace {', '.join(elsewhere)}, but queues are per namespace.")
        yield Finding(
            r.path,
            f"LocalQueue {r.name!r} does not exist in namespace {wl.namespace}: the Workload stays pending "
            f"(\"LocalQueue {r.name} doesn't exist\")",
            type="NotFound", subject=wl,
            hint=hint or f"Create LocalQueue {r.name} in namespace {wl.namespace}.",
        )


@rule(
    code="KQ509", name="implicit-cohort", severity="info", layer="reference", scope="cluster",
    summary="A cohort is named but has no Cohort object",
    doc=RuleDoc(
        what="A ClusterQueue's cohortName (v1beta1 cohort) or a Cohort's parentName that names no Cohort object, "
             "when the input has Cohort objects (or with --cross-refs). Reported once per cohort name.",
        why="This is legal: Kueue creates an implicit root cohort with no quota, no limits and no parent. But in a "
            "configuration that does declare Cohorts, an undeclared one is often a typo that splits the tree and "
            "silently stops borrowing between the queues you meant to group.",
        fix="Declare the Cohort (to give it quota, limits or a parent), or correct the name.",
        bad="kind: Cohort\nmetadata: {name: research}\n---\nkind: ClusterQueue\nspec:\n  cohortName: reserch\n",
        good="kind: Cohort\nmetadata: {name: research}\n---\nkind: ClusterQueue\nspec:\n  cohortName: research\n",
        source=("kueue pkg/cache/hierarchy/manager.go UpdateClusterQueueEdge (a cohort named by a "
                "ClusterQueue exists implicitly)"),
    ),
)
def check_implicit_cohorts(ctx):
    cluster = ctx.cluster
    if not ctx.check_refs_to("Cohort", has_kind(cluster, "Cohort")):
        return
    users: dict[str, list] = {}
    for o in cluster.all_objects:
        if o.source.kind == "ClusterQueue" and o.cohort:
            users.setdefault(o.cohort, []).append((o, o.cohort_path))
        elif o.source.kind == "Cohort" and o.parent:
            users.setdefault(o.parent, []).append((o, o.parent_path))
    for name, uses in users.items():
        if name in cluster.cohorts:
            continue
        subject, path = uses[0]
        others = f" (named by {len(uses)} objects)" if len(uses) > 1 else ""
        yield Finding(
            path,
            f"cohort {name!r} has no Cohort object{others}: Kueue treats it as an implicit root cohort with no "
            "quota of its own and no parent",
            type=None, subject=subject,
            hint=did_you_mean(name, cluster.cohorts).strip() or "Declare the Cohort if it needs quota or a parent.",
        )


@rule(
    code="KQ513", name="unused-resource-flavor", severity="info", layer="reference", scope="cluster",
    summary="ResourceFlavor used by no ClusterQueue or Cohort",
    doc=RuleDoc(
        what="A ResourceFlavor that no ClusterQueue or Cohort resource group names (checked when the input has "
             "ClusterQueues, or with --cross-refs).",
        why="Harmless, but no quota exists for it: nothing can be admitted on those nodes through Kueue. Often a "
            "leftover, or a flavor someone forgot to add to a ClusterQueue.",
        fix="Add the flavor to a ClusterQueue's resource group, or delete it.",
        bad="kind: ResourceFlavor\nmetadata: {name: spot}\n# no ClusterQueue lists spot\n",
        good="kind: ClusterQueue\n...\n    flavors:\n    - name: spot\n      resources: [...]\n",
        source=("kueue pkg/cache/scheduler/clusterqueue.go (a flavor only counts when a ClusterQueue names "
                "it)"),
    ),
)
def check_unused_flavors(ctx):
    cluster = ctx.cluster
    if not ctx.check_refs_to("ClusterQueue", has_kind(cluster, "ClusterQueue")):
        return
    used = {r.name for r in references(cluster) if r.target == "ResourceFlavor"}
    for rf in objects_of(cluster, "ResourceFlavor"):
        if rf.name and rf.name not in used:
            yield Finding(
                ("metadata", "name"),
                f"ResourceFlavor {rf.name} is not used by any ClusterQueue or Cohort: no quota exists for it",
                type=None, subject=rf,
                hint="Add it to a ClusterQueue's resourceGroups, or delete it.",
            )


@rule(
    code="KQ514", name="admission-inconsistent-with-queues", severity="warning", layer="reference", scope="cluster",
    summary="Workload admitted to a ClusterQueue or flavor that does not match the configuration",
    doc=RuleDoc(
        what="For a Workload with status.admission: the ClusterQueue must exist (when the input has ClusterQueues), "
             "must be the one its LocalQueue points to, and every assigned flavor must be a flavor of that "
             "ClusterQueue covering the assigned resource.",
        why="Kueue charges the admitted usage to status.admission as written. Usage recorded against a missing "
            "ClusterQueue or an unknown flavor is invisible to quota accounting elsewhere, so the cluster can "
            "be over-committed; a snapshot like this usually means the configuration changed after admission.",
        fix="Check whether the ClusterQueue or flavor was renamed or removed; the workload keeps its quota until "
            "it finishes or is evicted.",
        bad="status:\n  admission:\n    clusterQueue: team-a\n    podSetAssignments:\n"
            "    - {name: main, flavors: {cpu: old-flavor}, ...}\n",
        good="status:\n  admission:\n    clusterQueue: team-a\n    podSetAssignments:\n"
             "    - {name: main, flavors: {cpu: on-demand}, ...}\n",
        source=("kueue pkg/workload/workload.go totalRequestsFromAdmission (usage is read from "
                "status.admission)"),
    ),
)
def check_admissions(ctx):
    cluster = ctx.cluster
    check_cq = ctx.check_refs_to("ClusterQueue", has_kind(cluster, "ClusterQueue"))
    for wl in objects_of(cluster, "Workload"):
        adm = wl.admission
        if adm is None or not adm.cluster_queue:
            continue
        cq = cluster.cluster_queues.get(adm.cluster_queue)
        if cq is None:
            if check_cq:
                yield Finding(
                    ("status", "admission", "clusterQueue"),
                    f"Workload {wl.key} is admitted to ClusterQueue {adm.cluster_queue!r}, which does not exist; "
                    "its usage is not counted against any quota",
                    type="NotFound", subject=wl,
                    hint=did_you_mean(adm.cluster_queue, cluster.cluster_queues).strip() or None,
                )
            continue
        via = cluster.cluster_queue_for(wl)
        if via is not None and via.name != cq.name:
            yield Finding(
                ("status", "admission", "clusterQueue"),
                f"Workload {wl.key} is admitted to ClusterQueue {cq.name} but its LocalQueue {wl.queue_name} points "
                f"to ClusterQueue {via.name}",
                type=None, subject=wl, related=(loc(via),),
            )
        cov = covered(cq)
        for psa in adm.pod_set_assignments:
            for res, flavor in psa.flavors.items():
                path = psa.path + ("flavors", res)
                if flavor not in cq.flavor_names:
                    yield Finding(
                        path,
                        f"pod set {psa.name} is assigned flavor {flavor!r} for {res}, but ClusterQueue {cq.name} has "
                        f"no such flavor (flavors: {', '.join(cq.flavor_names) or 'none'})",
                        type=None, subject=wl, related=(loc(cq),),
                    )
                elif res not in cov or flavor not in [f.name for f in cov[res]]:
                    yield Finding(
                        path,
                        f"pod set {psa.name} is assigned flavor {flavor!r} for {res}, but ClusterQueue {cq.name} does "
                        f"not cover {res} in flavor {flavor}",
                        type=None, subject=wl, related=(loc(cq),),
                    )
