"""Diagnostics: one finding, with a rule code, a severity and an exact source position.

Shared by the loader (input problems), the linters and every renderer.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        return {"error": 0, "warning": 1, "info": 2}[self.value]


@dataclass(frozen=True)
class Fix:
    """A suggested edit: replace the value at the diagnostic's field with ``replacement``."""

    description: str
    replacement: str | None = None


# A message or hint quotes the input (names, values): one quoting a megabyte-long name would be as
# long, and hundreds of them make gigabytes of report.  Past this length the middle is left out.
TEXT_LIMIT = 2_000
_KEPT = TEXT_LIMIT // 2 - 40


def bounded_text(text: str | None) -> str | None:
    """``text`` when it is at most ``TEXT_LIMIT`` characters, else its start and end around a note
    of how much was left out."""
    if text is None or len(text) <= TEXT_LIMIT:
        return text
    return f"{text[:_KEPT]}... [{len(text) - 2 * _KEPT:,} characters left out] ...{text[-_KEPT:]}"


@dataclass(frozen=True)
class Diagnostic:
    code: str
    severity: Severity
    message: str
    file: str = "<input>"
    line: int = 1
    column: int = 1
    object: str | None = None  # "ClusterQueue/team-a", "queue/root.a"
    field: str | None = None  # "spec.resourceGroups[0].flavors[1].name"
    type: str | None = None  # Kubernetes field.ErrorType where one applies (Invalid, Required, ...)
    hint: str | None = None  # how to fix, one sentence
    fix: Fix | None = None
    input_error: bool = False  # the input itself is unusable (exit code 2)
    related: tuple[str, ...] = ()  # "file:line" of related places (e.g. the first duplicate)

    def __post_init__(self):
        # every text a finding repeats from the input (an object's name, too) is bounded: a
        # 500,000-character name in each of 400 findings made a 380 MB report
        for name in ("message", "hint", "object", "field"):
            text = getattr(self, name)
            if text is not None and len(text) > TEXT_LIMIT:
                object.__setattr__(self, name, bounded_text(text))

    def sort_key(self) -> tuple:
        return (self.file, self.line, self.column, self.code, self.field or "", self.message)

    def with_severity(self, severity: Severity) -> Diagnostic:
        return replace(self, severity=severity)

    def location(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


def sort_diagnostics(diags: list[Diagnostic]) -> list[Diagnostic]:
    """Deterministic order: by file, position, code; exact duplicates dropped."""
    seen: set[tuple] = set()
    out: list[Diagnostic] = []
    for d in sorted(diags, key=Diagnostic.sort_key):
        key = (d.code, d.file, d.line, d.column, d.field, d.message, d.severity)
        if key in seen:
            continue
        seen.add(key)
        out.append(d)
    return out
