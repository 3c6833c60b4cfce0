"""How every engine report shows its caveats (``quotactl.caveat``): the ``caveats`` list of the JSON
documents, and the lines the text reports print right under their verdict or title."""

from __future__ import annotations

import re

from quotactl.caveat import Caveat
from quotactl.report.console import Hanging, View, render_to_text

LABEL = "caveat: "
_ANSI = re.compile(r"\x1b\[[0-9;]*m")  # colour codes take no room on the terminal


def caveat_dicts(caveats: tuple[Caveat, ...]) -> list[dict]:
    return [{"feature": c.feature, "objects": list(c.objects), "message": c.message} for c in caveats]


def with_caveats(doc: dict, caveats: tuple[Caveat, ...]) -> dict:
    """An engine's JSON document with its ``caveats`` list, right after ``version``."""
    out = {"version": doc["version"], "caveats": caveat_dicts(caveats)} if "version" in doc else {}
    out.update(doc)
    out.setdefault("caveats", caveat_dicts(caveats))
    return out


def _said(c: Caveat) -> str:
    return f"{c.feature} — {c.message} ({', '.join(c.objects)})"


def caveat_block(caveats: tuple[Caveat, ...], view: View | None = None) -> str:
    """One line per caveat; ``view`` (a table report): wrapped at its width, continuation lines
    under the text; None (plain): never wrapped."""
    if view is None:
        return "".join(f"{LABEL}{_said(c)}\n" for c in caveats)
    return render_to_text([Hanging(LABEL, _said(c), style="yellow") for c in caveats], view=view)


def under_first_line(text: str, caveats: tuple[Caveat, ...], view: View | None = None) -> str:
    """``text`` with the caveat lines after its first line (the verdict or title) and that line's
    continuation lines on a narrow terminal."""
    if not caveats:
        return text
    lines = text.split("\n")
    end = 1 + _continuation_lines(lines)
    return "\n".join(lines[:end]) + "\n" + caveat_block(caveats, view) + "\n".join(lines[end:])


def _continuation_lines(lines: list[str]) -> int:
    """How many lines after the first continue it: a verdict ``ns/name: text`` wraps under its
    text, each continuation line indented by exactly the width of ``ns/name: `` (console.Hanging)."""
    label, sep, _ = _ANSI.sub("", lines[0]).partition(": ")
    if not sep:
        return 0
    indent = " " * len(label + sep)
    n = 0
    for line in (_ANSI.sub("", line) for line in lines[1:]):
        if not (line.startswith(indent) and line[len(indent):len(indent) + 1].strip()):
            break
        n += 1
    return n


def above(text: str, caveats: tuple[Caveat, ...], view: View | None = None) -> str:
    """``text`` (a report that opens with a table or a cycle log) with the caveat lines first."""
    if not caveats:
        return text
    return caveat_block(caveats, view) + text
