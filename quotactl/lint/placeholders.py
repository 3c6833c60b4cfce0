"""Findings about a documentation snippet's placeholder values, set aside.

A ``<placeholder>`` (or an elided ``...`` value) is unknown, not wrong: a finding about that value
alone (``name: <your-queue>`` is not an RFC 1123 name, ``nominalQuota: <cpu>`` is not a quantity)
is kept aside like a suppressed one (counted, listed with --show-suppressed, marked in SARIF),
while everything else in the file is reported. A finding is about the value when it is placed on
the value itself, or on the key holding it with that key as its field's last part; a finding on
an item that starts with such a key (``- name: <flavor>``) names the item, and stays.
"""

from __future__ import annotations

import re

from quotactl.diagnostics import Diagnostic
from quotactl.lint.suppress import IN_SOURCE, Suppression
from quotactl.load.objects import LoadResult
from quotactl.load.snippets import Placeholder, read_snippet

_FIELD_PARTS = re.compile(r"[^.\[\]]+")


class Placeholders:
    """The placeholders of every snippet of a run, by the places a finding about them sits."""

    def __init__(self, loaded: LoadResult):
        self.values: dict[tuple[str, int, int], Placeholder] = {}
        self.keys: dict[tuple[str, int, int], Placeholder] = {}
        for src in loaded.sources:
            snippet = read_snippet(src.text) if src.text else None
            for p in snippet.placeholders if snippet else ():
                self.values[(src.name, p.line, p.column)] = p
                if p.key is not None:
                    self.keys[(src.name, p.key_line, p.key_column)] = p

    def suppression(self, d: Diagnostic) -> Suppression | None:
        """Why ``d`` is set aside, when it is about a placeholder's value."""
        if not self.values:
            return None
        p = self.values.get((d.file, d.line, d.column))
        if p is None:
            p = self.keys.get((d.file, d.line, d.column))
            if p is None or _last_part(d.field) != p.key:
                return None
        what = "an elided value ('...')" if p.text == "..." else f"the placeholder {p.text}"
        return Suppression(IN_SOURCE, f"{what}: unknown until it is filled in", d.file, p.line, p.column)


def _last_part(field: str | None) -> str | None:
    """``spec.resources[cpu]`` -> ``cpu``; ``queues[0].name`` -> ``name``."""
    parts = _FIELD_PARTS.findall(field or "")
    return parts[-1].strip("\"'") if parts else None
