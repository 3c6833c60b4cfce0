"""How every engine report shows its caveats (``quotactl.caveat``): the ``caveats`` list of the JSON
documents, and the lines the text reports print right under their verdict or title."""

from __future__ import annotations

from quotactl.caveat import Caveat


def caveat_dicts(caveats: tuple[Caveat, ...]) -> list[dict]:
    return [{"feature": c.feature, "objects": list(c.objects), "message": c.message} for c in caveats]


def caveat_lines(caveats: tuple[Caveat, ...]) -> list[str]:
    return [f"caveat: {c.feature} — {c.message} ({', '.join(c.objects)})" for c in caveats]


def under_first_line(text: str, caveats: tuple[Caveat, ...]) -> str:
    """``text`` with the caveat lines after its first line (the verdict or title)."""
    if not caveats:
        return text
    first, newline, rest = text.partition("\n")
    return "\n".join([first, *caveat_lines(caveats)]) + newline + rest


def above(text: str, caveats: tuple[Caveat, ...]) -> str:
    """``text`` (a report that opens with a table or a cycle log) with the caveat lines first."""
    if not caveats:
        return text
    return "\n".join(caveat_lines(caveats)) + "\n" + text


def with_caveats(doc: dict, caveats: tuple[Caveat, ...]) -> dict:
    """An engine's JSON document with its ``caveats`` list, right after ``version``."""
    out = {"version": doc["version"], "caveats": caveat_dicts(caveats)} if "version" in doc else {}
    out.update(doc)
    out.setdefault("caveats", caveat_dicts(caveats))
    return out
