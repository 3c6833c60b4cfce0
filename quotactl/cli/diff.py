"""``quotactl diff``: what a Kueue configuration change does to every workload (CI gate)."""

from __future__ import annotations

import typer

from quotactl.cli.caveats import StrictOption, merged_caveats, strict_code
from quotactl.cli.common import (
    EXIT_FINDINGS,
    EXIT_OK,
    ClusterArgs,
    KueueVersionOption,
    MaxFileSizeOption,
    WideOption,
    cluster_options,
    fail_usage,
    split_codes,
)
from quotactl.cli.filters import selected, selection_of
from quotactl.cli.inputs import check_cluster_args, finish, kueue_input
from quotactl.cli.output import output_option
from quotactl.kueue.diff import diff
from quotactl.kueue.selection import restrict_diff
from quotactl.model.kueue import BuildMemo
from quotactl.report.renderers import Outcome

FAIL_ON = {"EVICTIONS", "STARVATION", "LIVELOCK", "ANY"}


@cluster_options
def diff_command(
    base: list[str] = typer.Option(None, "--base", metavar="PATH", help="The current configuration (repeatable); with --from-cluster, the cluster."),
    head: list[str] = typer.Option(None, "--head", metavar="PATH", help="The proposed configuration (repeatable)."),
    files: list[str] = typer.Option(None, "-f", "--file", metavar="PATH",
                                    help="Workloads (and anything else shared by both sides); repeatable."),
    fail_on: list[str] = typer.Option(None, "--fail-on", metavar="evictions,starvation,livelock,any",
                                      help="Exit 1 when the change preempts workloads the base would not "
                                           "(evictions), leaves workloads pending that the base admits "
                                           "(starvation), livelocks (head only), or changes anything (any)."),
    max_cycles: int = typer.Option(10_000, "--max-cycles", min=1, metavar="N", help="Give up a run after this many cycles."),
    output: str = output_option("diff"),
    wide: bool = WideOption,
    fair_sharing: bool = typer.Option(None, "--fair-sharing/--no-fair-sharing", help="Override fair sharing."),
    feature_gates: str = typer.Option(None, "--feature-gates", metavar="A=true,B=false", help="Kueue feature gates."),
    kueue_version: str = KueueVersionOption,
    strict: bool = StrictOption,
    max_file_size: str = MaxFileSizeOption,
    cluster: ClusterArgs = ClusterArgs(),
) -> None:
    """Schedule the same workloads to the fixpoint under two configurations (e.g. the main
    branch's and a pull request's config directories) and report what changes: workloads that
    would lose admission or be preempted, workloads that would newly fit, capacity changes, and
    usage per ClusterQueue and cohort before/after.

    \b
      quotactl diff --base main/kueue/ --head pr/kueue/ -f workloads.yaml \\
          --fail-on evictions,starvation

    Against the cluster, as `kubectl diff -f` does: the cluster as it is, and the cluster with
    the --head files applied (an object in them replaces the cluster's object of the same kind
    and name; every other object, the Workloads too, stays):

    \b
      quotactl diff --from-cluster --head pr/kueue/ --fail-on evictions

    -n NS reports (and --fail-on gates on) the changes to one namespace's workloads.

    Exit status: 0, 1 when a --fail-on condition is hit or, with --strict, when either side holds a
    feature quotactl does not model (a caveat), 2 unusable input.
    """
    check_cluster_args(cluster, filters=True)
    selection = selection_of(cluster)
    if cluster.from_cluster and base:
        fail_usage("--base is the cluster itself with --from-cluster; give only --head PATH")
    if not head or not (base or cluster.from_cluster):
        fail_usage("give both --base PATH and --head PATH (or --from-cluster and --head PATH)")
    codes = set(split_codes(fail_on))
    unknown = codes - FAIL_ON
    if unknown:
        fail_usage(f"unknown --fail-on value(s): {', '.join(sorted(unknown)).lower()} "
                   "(use evictions, starvation, livelock, any)")
    shared = list(files or [])
    memo = BuildMemo()  # an object both sides read (the shared files, the cluster) is built once
    cb, ob, base_caveats = kueue_input(list(base or []) + shared, max_file_size, fair_sharing, feature_gates,
                                       "--base", cluster, release=kueue_version, memo=memo)
    ch, oh, head_caveats = kueue_input(list(head) + shared, max_file_size, fair_sharing, feature_gates, "--head",
                                       cluster, overlay=True, release=kueue_version, memo=memo)
    caveats = merged_caveats(base_caveats, head_caveats)
    d = diff(cb, ob, ch, oh, max_cycles=max_cycles)
    if selection:  # the namespace's changes; --fail-on gates on them
        d = restrict_diff(d, selection, selected(cb, selection) | selected(ch, selection))
    failed = []
    if ("EVICTIONS" in codes or "ANY" in codes) and d.evictions:
        failed.append("evictions")
    if ("STARVATION" in codes or "ANY" in codes) and d.starvation:
        failed.append("starvation")
    if ("LIVELOCK" in codes or "ANY" in codes) and d.head.livelock is not None:
        failed.append("livelock")
    if "ANY" in codes and (d.workloads or d.capacity) and not failed:
        failed.append("any")
    code = strict_code(EXIT_FINDINGS if failed else EXIT_OK, strict, caveats)
    finish("diff", Outcome(d, tuple(failed), caveats), output, code, wide)
