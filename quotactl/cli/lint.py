"""``quotactl lint``: check queue configs against schemas and Kueue's/YuniKorn's rules."""

from __future__ import annotations

from pathlib import Path

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
    KueueVersionLintOption,
    MaxFileSizeOption,
    MinSeverity,
    WideOption,
    cluster_options,
    fail_usage,
    rule_codes,
)
from quotactl.cli.inputs import check_cluster_args, config_input, finish
from quotactl.cli.output import output_option
from quotactl.diagnostics import Severity
from quotactl.lint.config import ConfigError, LintConfig, discover, load_config, selection
from quotactl.lint.context import LintOptions
from quotactl.lint.runner import LintReport, lint
from quotactl.model.kueue_versions import DEFAULT_RELEASE

CONFIG_PANEL = "Configuration and suppressions"


@cluster_options
def lint_command(
    paths: list[str] = typer.Argument(None, metavar="PATH", help="Files or directories to check ('-' = stdin)."),
    files: list[str] = FileOption,
    output: str = output_option("lint", default=None,
                                lead="Output format (default: the config file's output, else table)"),
    wide: bool = WideOption,
    select: list[str] = typer.Option(None, "--select", metavar="CODES",
                                     help="Only report these codes or prefixes (e.g. KQ1,KQ501); repeatable. "
                                          "Replaces the config file's select and ignore."),
    ignore: list[str] = typer.Option(None, "--ignore", metavar="CODES",
                                     help="Do not report these codes or prefixes (added to the config file's)."),
    strict: bool = typer.Option(None, "--strict/--no-strict", show_default=False,
                                help="Exit 1 on warnings too (default: the config file's strict, else off)."),
    cross_refs: bool = typer.Option(None, "--cross-refs/--no-cross-refs",
                                    help="Check references between objects. Default: only to kinds present in the input. "
                                         "--no-cross-refs: the input is one part of a config (other cohort "
                                         "members, the rest of a YuniKorn partition live elsewhere)."),
    feature_gates: str = FeatureGatesOption,
    kueue_version: str = KueueVersionLintOption,
    fair_sharing: bool = FairSharingOption,
    max_file_size: str = MaxFileSizeOption,
    config: Path = typer.Option(None, "--config", metavar="FILE", rich_help_panel=CONFIG_PANEL,
                                help="Read this config file (pyproject.toml or .quotactl.yaml) instead of "
                                     "looking for one from the current directory upward."),
    isolated: bool = typer.Option(False, "--isolated", rich_help_panel=CONFIG_PANEL,
                                  help="Ignore every config file."),
    exclude: list[str] = typer.Option(None, "--exclude", metavar="GLOB", rich_help_panel=CONFIG_PANEL,
                                      help="Leave out files found in directories that match (added to the config "
                                           "file's exclude); repeatable."),
    force_exclude: bool = typer.Option(None, "--force-exclude/--no-force-exclude", show_default=False,
                                       rich_help_panel=CONFIG_PANEL,
                                       help="Apply exclude to files named on the command line too "
                                            "(for pre-commit)."),
    min_severity: MinSeverity = typer.Option(None, "--min-severity", rich_help_panel=CONFIG_PANEL,
                                             show_default=False,
                                             help="Leave out findings below this severity (default: info)."),
    show_suppressed: bool = typer.Option(False, "--show-suppressed", rich_help_panel=CONFIG_PANEL,
                                         help="List suppressed findings too, marked (they are always counted)."),
    cluster: ClusterArgs = ClusterArgs(),
) -> None:
    """Check Kueue objects or a YuniKorn queues.yaml: schemas, admission rules, cross-object references.

    Settings come from the command line, then the config file ([tool.quotactl] in pyproject.toml or
    .quotactl.yaml; see docs/configuration.md).

    Exit status: 0 clean, 1 errors found (or warnings with --strict), 2 unusable input or usage error.
    """
    inputs = list(paths or []) + list(files or [])
    check_cluster_args(cluster)
    if config is not None and isolated:
        fail_usage("give either --config or --isolated, not both")
    select_codes, ignore_codes = rule_codes(select, "--select"), rule_codes(ignore, "--ignore")
    if not inputs and not cluster.from_cluster:
        fail_usage("no input: give files or directories to check (or '-' for stdin), or --from-cluster")
    cfg = lint_config(config, isolated)
    skip = cfg.excluded(tuple(exclude or ()))
    if (force_exclude if force_exclude is not None else cfg.force_exclude) and skip:
        inputs = [p for p in inputs if p == "-" or not skip.matches(p)]
    release = kueue_version or cfg.kueue_version or DEFAULT_RELEASE
    strict = strict if strict is not None else bool(cfg.strict)
    loaded, gates = config_input(inputs, max_file_size, feature_gates, cluster, release,
                                 skip=skip.matches if skip else None)
    chosen, ignored = selection(cfg, select_codes, ignore_codes)
    threshold = min_severity.value if min_severity else cfg.min_severity or "info"
    options = LintOptions(
        select=chosen, ignore=ignored, strict=strict, cross_refs=cross_refs, feature_gates=gates,
        fair_sharing=fair_sharing, kueue_version=release, severity=cfg.severity,
        per_file_ignores=cfg.per_file_rules(), min_severity=Severity(threshold),
        show_suppressed=show_suppressed, config_file=cfg.path,
    )
    report = lint(loaded, options)
    for crash in report.rule_crashes:
        typer.echo(f"quotactl: {crash.file}:{crash.line}:{crash.column}: {crash.message}", err=True)
    fmt = output or cfg.output or "table"
    finish("lint", report, fmt, exit_code(report, strict), wide)


def lint_config(path: Path | None, isolated: bool) -> LintConfig:
    """The config file named with --config, else the nearest one; none with --isolated. Exits 2 on
    a mistake in it."""
    if isolated:
        return LintConfig()
    try:
        found = path or discover()
        return load_config(found) if found is not None else LintConfig()
    except ConfigError as exc:
        fail_usage(str(exc))
        raise  # unreachable: fail_usage exits


def exit_code(report: LintReport, strict: bool) -> int:
    if report.rule_crashes:  # a bug in quotactl: the findings are shown, the exit status says "bug"
        return EXIT_INTERNAL
    if report.has_input_errors:
        return EXIT_USAGE
    if report.count(Severity.ERROR) or (strict and report.count(Severity.WARNING)):
        return EXIT_FINDINGS
    return EXIT_OK
