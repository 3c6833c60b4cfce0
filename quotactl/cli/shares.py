"""``quotactl shares``: Kueue's fair-share tree — per cohort and ClusterQueue the weight, quota,
usage, what it borrows, its share per resource and its dominant share — and the order in which
the fair-sharing tournament would take the current queue heads."""

from __future__ import annotations

from dataclasses import replace

import typer

from quotactl.cli.caveats import StrictOption, kueue_caveats_of, strict_code
from quotactl.cli.common import (
    EXIT_OK,
    ClusterArgs,
    FairSharingOption,
    FeatureGatesOption,
    FileOption,
    KueueVersionOption,
    MaxFileSizeOption,
    WideOption,
    cluster_options,
    fail_usage,
)
from quotactl.cli.filters import selected, selection_of
from quotactl.cli.inputs import check_cluster_args, engine_input, finish
from quotactl.cli.output import output_option
from quotactl.kueue.fairshare import ShareTree, ranked_heads, share_tree
from quotactl.kueue.quota import build_snapshot
from quotactl.kueue.selection import restrict_heads
from quotactl.load.objects import Dialect
from quotactl.report.renderers import Outcome


def _only(tree: ShareTree, name: str) -> ShareTree | None:
    """The subtree rooted at the root of the tree that holds node ``name``."""
    idx = next((i for i, n in enumerate(tree.nodes) if n.name == name), None)
    if idx is None:
        return None
    start = idx
    while tree.nodes[start].depth > 0:
        start -= 1
    end = start + 1
    while end < len(tree.nodes) and tree.nodes[end].depth > 0:
        end += 1
    return ShareTree(tree.nodes[start:end], tree.fair_sharing)


@cluster_options
def shares_command(
    files: list[str] = FileOption,
    output: str = output_option("shares"),
    wide: bool = WideOption,
    cohort: str = typer.Option(None, "--cohort", "-c", metavar="NAME",
                               help="Show only the tree holding this cohort (or ClusterQueue)."),
    fair_sharing: bool = FairSharingOption,
    feature_gates: str = FeatureGatesOption,
    kueue_version: str = KueueVersionOption,
    heads: bool = typer.Option(True, "--heads/--no-heads",
                               help="Also rank the pending queue heads by the fair-sharing tournament."),
    strict: bool = StrictOption,
    max_file_size: str = MaxFileSizeOption,
    cluster: ClusterArgs = ClusterArgs(),
) -> None:
    """Show Kueue's fair-share tree: per cohort and ClusterQueue the fair-sharing weight, quota,
    usage, borrowed amount, share per resource and dominant share, and each node's rank among
    its siblings (who the tournament admits first and preemption takes from last).

    \b
      kubectl get resourceflavors,clusterqueues,cohorts,localqueues,workloads \\
          -A -o yaml | quotactl shares -f -

    -n NS lists the queue heads of one namespace, in the places the whole tournament gives them.

    Exit status: 0, 1 with --strict when the input holds a feature quotactl does not model (a
    caveat), or 2 for unusable input.
    """
    check_cluster_args(cluster, filters=True)
    selection = selection_of(cluster)
    inp = engine_input(files, max_file_size, feature_gates, cluster=cluster, release=kueue_version)
    if Dialect.YUNIKORN in inp.dialects:
        fail_usage("'quotactl shares' shows Kueue's fair-share tree; for YuniKorn queues use 'quotactl queues'")
    cluster = inp.model.cluster()
    if not cluster.cluster_queues:
        fail_usage("the input holds no Kueue ClusterQueue objects")
    options = inp.kueue_options(cluster, fair_sharing)
    snapshot = build_snapshot(cluster, options)
    caveats = kueue_caveats_of(inp.loaded, cluster, options)
    tree = share_tree(snapshot)
    if cohort:
        sub = _only(tree, cohort)
        if sub is None:
            fail_usage(f"no cohort or ClusterQueue named {cohort!r} in the input")
        tree = sub
    ranked = ranked_heads(cluster, snapshot) if heads else ()
    if cohort:
        names = {n.name for n in tree.nodes if n.kind == "ClusterQueue"}
        ranked = tuple(replace(h, order=i) for i, h in enumerate((h for h in ranked if h.cluster_queue in names), 1))
    if selection:  # the heads of the namespace, in the places the whole tournament gives them
        ranked, tree = restrict_heads(ranked, tree, selection, selected(cluster, selection))
    finish("shares", Outcome(tree, ranked, caveats), output, strict_code(EXIT_OK, strict, caveats), wide=wide)
