"""``quotactl convert --to v1beta2``: rewrite Kueue manifests the way Kueue's conversion webhook
converts them, to stdout, as a diff, or in place."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import typer

from quotactl.cli.common import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, MaxFileSizeOption, fail_usage, write
from quotactl.convert.files import ConvertedFile, convert_text, unified_diff
from quotactl.load.sources import UsageError, collect_sources, limits_from_env

TARGETS = ("v1beta2",)
STDIN = "<stdin>"


def convert_command(
    paths: list[str] = typer.Argument(None, metavar="PATH", help="Files or directories ('-' = stdin)."),
    to: str = typer.Option(None, "--to", metavar="VERSION", help="The version to convert to: v1beta2 (required)."),
    in_place: bool = typer.Option(False, "--in-place", "-i", help="Rewrite the files instead of printing them."),
    check: bool = typer.Option(False, "--check", help="Write nothing; exit 1 if any file would change (for CI)."),
    show_diff: bool = typer.Option(False, "--diff", help="Print a unified diff instead of the converted files."),
    force: bool = typer.Option(False, "--force",
                               help="Write a file even when converting drops a field v1beta2 has no place for."),
    max_file_size: str = MaxFileSizeOption,
) -> None:
    """Convert Kueue objects from kueue.x-k8s.io/v1beta1 (and the v1alpha1 Cohort, and the
    config.kueue.x-k8s.io/v1beta1 Configuration) to v1beta2, as Kueue's conversion does
    (cohort -> cohortName, priorityClassName/Source -> priorityClassRef, ...). Comments, key order,
    quoting and every other document of the file stay as they are; JSON stays JSON.

    \b
      quotactl convert --to v1beta2 manifests/ --diff        # review
      quotactl convert --to v1beta2 manifests/ --in-place    # apply

    Exit status: 0 done, 1 a file would change (--check) or would lose a field (see --force), 2 bad input.
    """
    if to is None:
        fail_usage("give the version to convert to: --to v1beta2")
    if to not in TARGETS:
        fail_usage(f"--to {to}: quotactl converts to {', '.join(TARGETS)} only")
    if not paths:
        fail_usage("no input: give the files or directories to convert (or '-' for stdin)")
    if in_place and check:
        fail_usage("give either --in-place or --check, not both")
    if in_place and "-" in paths:
        fail_usage("--in-place cannot rewrite stdin; drop '-' or --in-place")
    results = _convert_all(list(paths), max_file_size)
    blocked = _report_losses(results, force)
    written = [r for r in results if r.changed and (force or not r.blocked)]
    if check:
        _report_pending(results)
    if show_diff:
        write("".join(unified_diff(r) for r in written))
    elif in_place:
        for r in written:
            _rewrite(r)
    elif not check:
        write(_joined(results, force))
    would_change = any(r.changed for r in results)
    raise typer.Exit(EXIT_FINDINGS if (check and would_change) or blocked else EXIT_OK)


def _convert_all(paths: list[str], max_file_size: str | None) -> list[ConvertedFile]:
    """Every input converted; exit 2 (file:line) when one cannot be read or parsed."""
    limits = limits_from_env(max_file_size)
    try:
        sources, diags = collect_sources(paths, limits=limits)
    except (UsageError, ValueError) as exc:
        fail_usage(str(exc))
        raise  # unreachable: fail_usage exits
    results = [convert_text(s.text, s.name, limits) for s in sources if s.text is not None]
    errors = [d for d in diags if d.input_error] + [d for r in results for d in r.input_errors]
    if errors:
        for d in errors[:20]:
            typer.echo(f"{d.location()}: error {d.code} {d.message}", err=True)
        raise typer.Exit(EXIT_USAGE)
    return results


def _report_losses(results: list[ConvertedFile], force: bool) -> bool:
    """One stderr line per dropped field; True when a file was left unconverted because of one."""
    blocked = False
    for r in results:
        for lost in r.losses:
            severity = "warning" if force or lost.loss.severity != "error" else "error"
            typer.echo(f"{lost.file}:{lost.line}:{lost.column}: {severity}: {lost.object} {lost.field}: "
                       f"{lost.loss.message}", err=True)
        if r.blocked and not force:
            blocked = True
            typer.echo(f"quotactl: {r.name}: not converted (a field would be lost; fix it, or use --force)", err=True)
    return blocked


def _report_pending(results: list[ConvertedFile]) -> None:
    for r in results:
        if r.changed:
            typer.echo(f"{r.name}: would convert {r.objects} object{'s' if r.objects != 1 else ''} to v1beta2",
                       err=True)


def _joined(results: list[ConvertedFile], force: bool) -> str:
    """Every file's (converted) text, YAML files separated by "---" as one stream."""
    parts = []
    for r in results:
        text = r.original if r.blocked and not force else r.text
        if parts and not text.lstrip().startswith(("---", "{", "[")) and not parts[-1].lstrip().startswith(("{", "[")):
            parts.append("---\n")
        parts.append(text if text.endswith("\n") or not text else text + "\n")
    return "".join(parts)


def _rewrite(result: ConvertedFile) -> None:
    """Replace the file atomically (a crash leaves the old file or the new one, never half of one)."""
    path = Path(result.name)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(result.text)
        os.chmod(tmp, path.stat().st_mode & 0o7777)
        os.replace(tmp, path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        fail_usage(f"{result.name}: cannot write: {exc.strerror or exc}")
