"""Input paths -> source texts: files, directories (recursive), and ``-`` for stdin."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from quotactl.diagnostics import Diagnostic, Severity
from quotactl.load.yamlparse import DEFAULT_LIMITS, Limits

INPUT_SUFFIXES = (".yaml", ".yml", ".json")


@dataclass(frozen=True)
class Source:
    name: str  # as shown in diagnostics (the path as given, or "<stdin>")
    text: str | None  # None when unreadable; see the diagnostic


class UsageError(Exception):
    """A problem with the command line itself (exit code 2)."""


def collect_sources(
    paths: list[str], *, limits: Limits = DEFAULT_LIMITS, stdin=None, skip: Callable[[Path], bool] | None = None
) -> tuple[list[Source], list[Diagnostic]]:
    """Read the inputs; a file larger than ``limits.max_bytes`` (when set) is refused unread.
    ``skip``: files found in a directory that are left out (lint's --exclude)."""
    sources: list[Source] = []
    diags: list[Diagnostic] = []
    seen: set[str] = set()
    for given in paths:
        if given == "-":
            if "<stdin>" in seen:
                continue
            seen.add("<stdin>")
            stream = stdin if stdin is not None else sys.stdin
            raw = stream.buffer.read() if hasattr(stream, "buffer") else stream.read()
            src, diag = _decode("<stdin>", raw, limits)
            sources.append(src)
            if diag:
                diags.append(diag)
            continue
        p = Path(given)
        if not p.exists():
            diags.append(missing_path(given))
            continue
        if p.is_dir():
            files = sorted(
                f for f in p.rglob("*") if f.is_file() and f.suffix.lower() in INPUT_SUFFIXES
                and not any(part.startswith(".") for part in f.relative_to(p).parts)
                and not (skip and skip(f))
            )
            if not files:
                diags.append(
                    Diagnostic("IN011", Severity.WARNING, "directory holds no *.yaml, *.yml or *.json files", str(p), 1, 1)
                )
            targets = files
        else:
            targets = [p]
        for f in targets:
            name = str(f)
            if name in seen:
                continue
            seen.add(name)
            src, diag = _read(f, name, limits)
            sources.append(src)
            if diag:
                diags.append(diag)
    return sources, diags


def missing_path(given: str) -> Diagnostic:
    """A path that does not exist: one error for it, and the other inputs are still read (CI
    sees every finding; the run exits 2 at the end)."""
    return Diagnostic("IN012", Severity.ERROR, "no such file or directory", given, 1, 1, input_error=True,
                      hint="check the path (relative to the current directory)")


def _read(path: Path, name: str, limits: Limits) -> tuple[Source, Diagnostic | None]:
    try:
        size = path.stat().st_size
        if limits.max_bytes is not None and size > limits.max_bytes:
            return Source(name, None), _too_big(name, size, limits)
        with open(path, "rb") as fh:
            raw = fh.read() if limits.max_bytes is None else fh.read(limits.max_bytes + 1)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        return Source(name, None), Diagnostic("IN002", Severity.ERROR, f"cannot read file: {reason}", name, 1, 1, input_error=True)
    return _decode(name, raw, limits)


def _too_big(name: str, size: int, limits: Limits) -> Diagnostic:
    return Diagnostic(
        "IN004", Severity.ERROR,
        f"file is {_size_text(size)}, over the --max-file-size limit of {_size_text(limits.max_bytes)}; not parsed",
        name, 1, 1, input_error=True,
        hint="split the file, or raise or drop --max-file-size (or QUOTACTL_MAX_FILE_SIZE)",
    )


def _size_text(size: int) -> str:
    return f"{size / 1048576:.1f} MiB" if size >= 1048576 else f"{size:,} bytes"


def _decode(name: str, raw: bytes | str, limits: Limits) -> tuple[Source, Diagnostic | None]:
    if isinstance(raw, str):
        raw = raw.encode("utf-8", "surrogateescape")
    if limits.max_bytes is not None and len(raw) > limits.max_bytes:
        return Source(name, None), _too_big(name, len(raw), limits)
    if b"\x00" in raw[:8192] and not raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        return Source(name, None), Diagnostic(
            "IN005", Severity.ERROR, "binary file (contains NUL bytes): not YAML or JSON", name, 1, 1, input_error=True
        )
    for bom, enc in ((b"\xef\xbb\xbf", "utf-8-sig"), (b"\xff\xfe", "utf-16"), (b"\xfe\xff", "utf-16")):
        if raw.startswith(bom):
            try:
                return Source(name, raw.decode(enc)), None
            except UnicodeDecodeError:
                break
    try:
        return Source(name, raw.decode("utf-8")), None
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        return Source(name, None), Diagnostic(
            "IN005", Severity.ERROR, f"not UTF-8 text (byte 0x{raw[exc.start]:02x}): binary or wrongly encoded file",
            name, line, col, input_error=True,
        )


def limits_from_env(max_file_size: str | None = None) -> Limits:
    """Limits with an optional file-size cap ("64MiB", "100M", "1000000"); none by default."""
    value = max_file_size or os.environ.get("QUOTACTL_MAX_FILE_SIZE")
    if not value:
        return DEFAULT_LIMITS
    text = value.strip().upper().rstrip("B").rstrip("I")
    mult = 1
    for suffix, m in (("K", 1024), ("M", 1024**2), ("G", 1024**3)):
        if text.endswith(suffix):
            text, mult = text[:-1], m
            break
    try:
        size = int(float(text) * mult)
    except ValueError as exc:
        raise UsageError(f"--max-file-size: cannot parse {value!r} (use e.g. 64MiB)") from exc
    return replace(DEFAULT_LIMITS, max_bytes=size)
