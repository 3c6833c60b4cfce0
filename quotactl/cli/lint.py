"""``quotactl lint``: check queue configs against schemas and Kueue's/YuniKorn's rules."""

from __future__ import annotations

import typer

from quotactl.cli.common import (
    EXIT_FINDINGS,
    EXIT_INTERNAL,
    EXIT_OK,
    EXIT_USAGE,
    ClusterArgs,
    FairSharingOption,
    FeatureGatesOption,
    FileOption,
    KueueVersionOption,
    LintFormat,
    MaxFileSizeOption,
    cluster_options,
    fail_usage,
    split_codes,
)
from quotactl.cli.inputs import check_cluster_args, config_input, finish
from quotactl.diagnostics import Severity
from quotactl.lint.context import LintOptions
from quotactl.lint.runner import LintReport, lint


@cluster_options
def lint_command(
    paths: list[str] = typer.Argument(None, metavar="[PATH]...", help="Files or directories to check ('-' = stdin)."),
    files: list[str] = FileOption,
    output: LintFormat = typer.Option(LintFormat.table, "--output", "-o", help="Output format."),
    select: list[str] = typer.Option(None, "--select", metavar="CODES",
                                     help="Only report these codes or prefixes (e.g. KQ1,KQ501); repeatable."),
    ignore: list[str] = typer.Option(None, "--ignore", metavar="CODES", help="Do not report these codes or prefixes."),
    strict: bool = typer.Option(False, "--strict", help="Exit 1 on warnings too."),
    cross_refs: bool = typer.Option(None, "--cross-refs/--no-cross-refs",
                                    help="Check references between objects. Default: only to kinds present in the input. "
                                         "--no-cross-refs: the input is one part of a config (other cohort "
                                         "members, the rest of a YuniKorn partition live elsewhere)."),
    feature_gates: str = FeatureGatesOption,
    kueue_version: str = KueueVersionOption,
    fair_sharing: bool = FairSharingOption,
    max_file_size: str = MaxFileSizeOption,
    cluster: ClusterArgs = ClusterArgs(),
) -> None:
    """Check Kueue objects or a YuniKorn queues.yaml: schemas, admission rules, cross-object references.

    Exit status: 0 clean, 1 errors found (or warnings with --strict), 2 unusable input or usage error.
    """
    inputs = list(paths or []) + list(files or [])
    check_cluster_args(cluster)
    if not inputs and not cluster.from_cluster:
        fail_usage("no input: give files or directories to check (or '-' for stdin), or --from-cluster")
    loaded, gates = config_input(inputs, max_file_size, feature_gates, cluster, kueue_version)
    options = LintOptions(
        select=split_codes(select), ignore=split_codes(ignore), strict=strict, cross_refs=cross_refs,
        feature_gates=gates, fair_sharing=fair_sharing, kueue_version=kueue_version,
    )
    report = lint(loaded, options)
    for crash in report.rule_crashes:
        typer.echo(f"quotactl: {crash.file}:{crash.line}:{crash.column}: {crash.message}", err=True)
    finish("lint", report, output, exit_code(report, strict))


def exit_code(report: LintReport, strict: bool) -> int:
    if report.rule_crashes:  # a bug in quotactl: the findings are shown, the exit status says "bug"
        return EXIT_INTERNAL
    if report.has_input_errors:
        return EXIT_USAGE
    if report.count(Severity.ERROR) or (strict and report.count(Severity.WARNING)):
        return EXIT_FINDINGS
    return EXIT_OK
