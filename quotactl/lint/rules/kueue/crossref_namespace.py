"""KQ510: a LocalQueue whose ClusterQueue does not admit the LocalQueue's namespace."""

from __future__ import annotations

from quotactl.lint.rule import Finding, RuleDoc, rule
from quotactl.lint.rules.kueue.crossref_helpers import loc, objects_of


@rule(
    code="KQ510", name="namespace-not-selected", severity="warning", layer="runtime", scope="cluster",
    summary="LocalQueue's namespace is not selected by its ClusterQueue's namespaceSelector",
    doc=RuleDoc(
        what="For each LocalQueue whose ClusterQueue is in the input: a ClusterQueue without namespaceSelector "
             "selects no namespace at all; otherwise, when the input has the Namespace object, its labels "
             "(plus kubernetes.io/metadata.name, which every namespace carries) must match the selector.",
        why="Kueue checks the selector per workload at admission time: every workload from this LocalQueue stays "
            "pending with \"workload namespace doesn't match ClusterQueue selector\" (reason Misconfigured). "
            "It is a warning rather than an error because the LocalQueue itself is accepted and active, and "
            "namespace labels are usually managed elsewhere, so the Namespace in the input may be out of date.",
        fix="Label the namespace to match the selector, widen the ClusterQueue's namespaceSelector ({} selects "
            "all namespaces), or point the LocalQueue at a ClusterQueue meant for this namespace.",
        bad="kind: Namespace\nmetadata: {name: sales}\n---\nkind: ClusterQueue\nmetadata: {name: eng}\nspec:\n"
            "  namespaceSelector: {matchLabels: {dep: eng}}\n---\nkind: LocalQueue\n"
            "metadata: {name: main, namespace: sales}\nspec: {clusterQueue: eng}\n",
        good="kind: Namespace\nmetadata: {name: sales, labels: {dep: eng}}\n...\n",
        source="kueue pkg/workload/resources.go ValidateAdmissibility (ErrNamespaceMismatch)",
    ),
)
def check_namespace_selector(ctx):
    cluster = ctx.cluster
    for lq in objects_of(cluster, "LocalQueue"):
        cq = cluster.cluster_queues.get(lq.cluster_queue or "")
        if cq is None:
            continue
        if cq.namespace_selector is None:
            yield Finding(
                ("spec", "clusterQueue"),
                f"ClusterQueue {cq.name} has no namespaceSelector, so it admits workloads from no namespace: "
                f"nothing submitted to LocalQueue {lq.namespace}/{lq.name} can be admitted",
                type=None, subject=lq, related=(loc(cq),),
                hint=f"Add spec.namespaceSelector to ClusterQueue {cq.name} ({{}} selects every namespace).",
            )
            continue
        ns = cluster.namespaces.get(lq.namespace)
        if ns is None or cq.namespace_selector.matches(ns.labels):
            continue
        labels = ", ".join(f"{k}={v}" for k, v in sorted(ns.labels.items()))
        yield Finding(
            ("spec", "clusterQueue"),
            f"namespace {lq.namespace} (labels: {labels}) is not selected by ClusterQueue {cq.name}'s "
            f"namespaceSelector: workloads from LocalQueue {lq.namespace}/{lq.name} stay pending with "
            "\"workload namespace doesn't match ClusterQueue selector\"",
            type=None, subject=lq, related=(loc(cq), loc(ns)),
            hint="Label the namespace to match, or widen the ClusterQueue's namespaceSelector.",
        )
