"""The report filters of the engine commands: ``-n/--namespace`` (every one that lists workloads),
``--cluster-queue`` and ``-l/--selector`` (``explain --all``). The engines compute with the whole
input; ``kueue.selection`` cuts the report."""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer

from quotactl.cli.common import ClusterArgs, fail_usage

if TYPE_CHECKING:
    from quotactl.kueue.selection import Selection
    from quotactl.model.kueue import KueueCluster

ClusterQueueOption = typer.Option(
    None, "--cluster-queue", metavar="CQ",
    help="With --all: only workloads of this ClusterQueue (repeatable); the rest still count for quota.")
SelectorOption = typer.Option(
    None, "--selector", "-l", metavar="SELECTOR",
    help="With --all: only workloads whose labels (or their job's labels) match, in kubectl's syntax: "
         "a=b,c!=d,e in (x,y),!f,g.")


def selection_of(cluster: ClusterArgs, cluster_queues: list[str] | None = None,
                 selector: str | None = None) -> Selection:
    """The command line's filters; exits 2 on a selector kubectl would refuse."""
    from quotactl.kueue.selection import Selection
    from quotactl.model.label_selector import SelectorError, parse_selector

    parsed = None
    if selector is not None:
        try:
            parsed = parse_selector(selector)
        except SelectorError as exc:
            fail_usage(f"-l/--selector: {exc}")
    return Selection(cluster.namespace, tuple(dict.fromkeys(cluster_queues or ())), parsed,
                     selector.strip() if selector is not None else None)


def selected(model: KueueCluster, selection: Selection, jobs=None) -> frozenset[str]:
    """The keys of the workloads ``selection`` takes (``jobs``: the input's resolved jobs, whose
    labels count for their Workloads); warns on stderr when a namespace or ClusterQueue it names
    is not in the input at all (a typo looks like an idle namespace otherwise)."""
    from quotactl.jobs.resolve import owner_labels
    from quotactl.kueue.selection import selected_keys

    namespaces = {wl.namespace for wl in model.workloads.values()}
    if selection.namespace and selection.namespace not in namespaces:
        typer.echo(f"quotactl: warning: no workload of the input is in namespace {selection.namespace!r}"
                   + (f" (workloads are in: {', '.join(sorted(namespaces))})" if namespaces else ""), err=True)
    for cq in selection.cluster_queues:
        if cq not in model.cluster_queues:
            typer.echo(f"quotactl: warning: no ClusterQueue {cq!r} in the input", err=True)
    return selected_keys(model, selection, owner_labels(jobs) if jobs is not None else None)
