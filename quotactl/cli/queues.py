"""``quotactl queues``: the YuniKorn queue tree as YuniKorn runs it — guaranteed / max, effective
properties after inheritance, priority offsets and fences."""

from __future__ import annotations

import typer

from quotactl.cli.common import (
    EXIT_USAGE,
    ClusterArgs,
    FileOption,
    MaxFileSizeOption,
    WideOption,
    cluster_options,
    fail_usage,
)
from quotactl.cli.inputs import check_cluster_args, config_input, finish
from quotactl.cli.output import output_option
from quotactl.diagnostics import Severity
from quotactl.load.objects import Dialect
from quotactl.load.yunikorn import CONFIG_KINDS, load_inputs
from quotactl.yunikorn.tree import ConfigView, build_views


@cluster_options
def queues_command(
    paths: list[str] = typer.Argument(None, metavar="PATH", help="queues.yaml or ConfigMap files ('-' = stdin)."),
    files: list[str] = FileOption,
    output: str = output_option("queues"),
    wide: bool = WideOption,
    partition: str = typer.Option(None, "--partition", "-p", metavar="NAME", help="Show only this partition."),
    max_file_size: str = MaxFileSizeOption,
    cluster: ClusterArgs = ClusterArgs(),
) -> None:
    """Show the YuniKorn queue tree: guaranteed / max per queue, the properties YuniKorn really applies
    after inheritance, each queue's priority offset and fences.

    Input: a queues.yaml, or the yunikorn-configs / yunikorn-defaults ConfigMaps. An invalid config is
    still shown (with YuniKorn's own error); exit 2 only when the input holds no YuniKorn config.
    Add the cluster state (kubectl get nodes,pods -A -o yaml) to see live usage, pending asks and
    each queue's current priority and place in the scheduling order.
    """
    inputs = list(paths or []) + list(files or [])
    check_cluster_args(cluster)
    if not inputs and not cluster.from_cluster:
        fail_usage("no input: give a queues.yaml or the yunikorn-configs ConfigMap (-f FILE, or '-' for stdin), "
                   "or --from-cluster")
    loaded, _gates = config_input(inputs, max_file_size, cluster=cluster)
    fatal = [d for d in loaded.diagnostics if d.input_error and d.severity == Severity.ERROR]
    if fatal:
        d = fatal[0]
        fail_usage(f"{d.location()}: {d.message}")
    dialects = loaded.dialects
    if Dialect.KUEUE in dialects and Dialect.YUNIKORN in dialects:
        fail_usage("input mixes Kueue and YuniKorn objects; 'quotactl queues' shows YuniKorn queue trees: "
                   "pass only the YuniKorn config")
    configs = [o for o in loaded.objects if o.dialect == Dialect.YUNIKORN and o.kind in CONFIG_KINDS]
    if not configs:
        what = "Kueue objects" if Dialect.KUEUE in dialects else "no YuniKorn queue configuration"
        fail_usage(f"input holds {what}; 'quotactl queues' needs a YuniKorn queues.yaml or the "
                   "yunikorn-configs ConfigMap")
    inputs = load_inputs(configs)
    reports = build_reports(inputs, partition)
    attach_live(reports, loaded, inputs)
    if partition and not any(r.partitions for r in reports):
        fail_usage(f"no partition named {partition!r} in the input")
    finish("queues", reports, output, wide=wide)


def build_reports(inputs, partition: str | None = None) -> list[ConfigView]:
    from quotactl.lint.rules.yunikorn.validator import rejection
    from quotactl.lint.yunikorn import lint_inputs

    reports = []
    for inp in inputs:
        diags = lint_inputs([inp])
        errors = [d for d in diags if d.severity == Severity.ERROR]
        warnings = [d for d in diags if d.severity == Severity.WARNING]
        first = rejection(inp)
        verdict = first.message if first is not None else None
        notes = [d.message for d in diags if d.code in ("YK005", "YK008", "YK010")]
        views = [v for v in build_views(inp.config) if partition is None or v.name == partition]
        reports.append(ConfigView(inp.file, inp.origin, inp.kind, views, len(errors), len(warnings),
                                  verdict if errors else None, notes))
    return reports


def attach_live(reports: list[ConfigView], loaded, inputs) -> None:
    """With Nodes / Pods in the input (``-f queues.yaml -f state.yaml``): the live usage and
    priorities of each config's default partition."""
    from quotactl.cli.yunikorn_cmds import live_states

    for report, live in zip(reports, live_states(loaded, inputs), strict=True):
        report.live = live


__all__ = ["queues_command", "EXIT_USAGE"]
