"""KQ504: the same object twice in the input."""

from __future__ import annotations

from quotactl.lint.rule import Finding, RuleDoc, rule
from quotactl.lint.rules.kueue.crossref_helpers import NAMESPACED, loc


@rule(
    code="KQ504", name="duplicate-object", severity="error", layer="reference", scope="cluster",
    summary="Two objects of the same kind, namespace and name",
    doc=RuleDoc(
        what="Objects of one kind with the same name (and namespace, for LocalQueues and Workloads) appear more "
             "than once in the input, in any apiVersion; also more than one Kueue Configuration.",
        why="Only one can exist in the cluster: `kubectl apply` makes the later document silently overwrite the "
            "earlier one, so what runs is not what the first definition says. quotactl, like kubectl, uses the later "
            "one.",
        fix="Delete or rename one of them (the diagnostic points at the first).",
        bad="kind: ClusterQueue\nmetadata: {name: team-a}\n...\n---\nkind: ClusterQueue\nmetadata: {name: team-a}\n",
        good="kind: ClusterQueue\nmetadata: {name: team-a}\n...\n---\nkind: ClusterQueue\nmetadata: {name: team-b}\n",
        source="Kubernetes object identity (kind, namespace, name)",
    ),
)
def check_duplicates(ctx):
    first: dict[tuple, object] = {}
    for o in ctx.cluster.all_objects:
        kind = o.source.kind
        if kind == "Configuration":
            key: tuple = (kind,)
        else:
            name = getattr(o, "name", None)
            if not name:
                continue
            key = (kind, getattr(o, "namespace", None) if kind in NAMESPACED else None, name)
        if key not in first:
            first[key] = o
            continue
        orig = first[key]
        if kind == "Configuration":
            yield Finding(
                (), f"more than one Kueue Configuration in the input; this later one replaces the one at {loc(orig)}",
                subject=o, related=(loc(orig),), type="Duplicate",
                hint="Keep a single Configuration.",
            )
            continue
        what = f"{kind} {key[1]}/{key[2]}" if key[1] else f"{kind} {key[2]}"
        yield Finding(
            ("metadata", "name"),
            f"duplicate {what}: already defined at {loc(orig)}; only one can exist in the cluster and applying both "
            "makes this one overwrite the first",
            type="Duplicate", subject=o, related=(loc(orig),),
            hint="Delete or rename one of the two.",
        )
