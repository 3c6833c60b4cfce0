"""Documentation snippets: manifests with ``<placeholder>`` values and ``...`` elisions, linted anyway.

A snippet (a README's example, a template to fill in) is still a manifest: everything it says is
checked. What it leaves open is not judged, the way linters treat a value they cannot know:

* a placeholder value (``name: <your-queue>``, ``- "<flavor>"``) or an elided one (``key: ...``,
  ``- ...``) is unknown: a finding about that value only is set aside (``lint/placeholders.py``);
* an elided line (an indented ``...`` among a mapping's keys, a ``- ...`` beside other items) is
  left out of the text that is parsed (blanked, so every other line and column stays where it
  is); when the ``...`` is all there is under its key, it stays, as that key's unknown value;
* a ``...`` at column 1 is YAML's document end marker and a comment is a comment: neither counts.

JSON is never a snippet: a JSON file is generated.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from quotactl.load.lazypos import newline_offsets

# The cheap hits: a line ending in a whole-value placeholder or in '...'. A big manifest is scanned
# once by these; only the lines they hit are read as lines.
PLACEHOLDER_HIT = re.compile(r"<[A-Za-z][\w .-]*>[\"']?[ \t]*(?:#[^\n]*)?$", re.M)
ELISION_HIT = re.compile(r"\.\.\.[ \t]*$", re.M)
# A line whose value is a placeholder or an elision: ``key: <x>``, ``- <x>``, ``- key: '<x>'``,
# ``key: ...``, ``- ...``, or a bare indented ``...``.
VALUE_LINE = re.compile(
    r"(?P<indent>[ \t]*)(?P<dashes>(?:-[ \t]+)*)(?:(?P<key>(?!-[ \t])[^#\s][^#]*?):[ \t]+)?"
    r"(?P<value>(?P<q>[\"']?)<[A-Za-z][\w .-]*>(?P=q)|\.\.\.)[ \t]*(?P<comment>#.*)?"
)
# A placeholder that is a whole value in a flow collection: ``{memory: <mem>}``, ``[<a>, "<b>"]``;
# what precedes it (``key:``, or ``[`` / ``,``) is read back from it.
FLOW_HIT = re.compile(r"<[A-Za-z][\w .-]*>[\"']?[ \t]*[,}\]]")
FLOW_VALUE = re.compile(r"(?P<q>[\"']?)<[A-Za-z][\w .-]*>(?P=q)(?=[ \t]*[,}\]])")
FLOW_KEY = re.compile(r"(?:^|[{,])[ \t]*(?P<key>[\w./-]+|\"[^\"]*\"|'[^']*')[ \t]*:[ \t]+$")
# A documentation line is short: longer lines are not read as a snippet's (nor fed to the
# patterns above, which are linear per line but not free).
MAX_LINE = 1_000
ELISION = "..."
_CONTENT = re.compile(r"[ \t]*(?:#.*)?")  # a blank or comment-only line


@dataclass(frozen=True)
class Placeholder:
    """One unknown value: where it starts and, when a mapping key holds it, the key and its place
    (1-based lines and columns, as findings are positioned)."""

    text: str  # "<your-queue>" or "..."
    line: int
    column: int
    key: str | None = None
    key_line: int | None = None
    key_column: int | None = None


@dataclass(frozen=True)
class Snippet:
    placeholders: tuple[Placeholder, ...]
    elided_lines: tuple[int, ...]  # 1-based lines left out of the parsed text
    text: str  # the text to parse: the elided lines blanked

    @property
    def first_line(self) -> int:
        return min([p.key_line or p.line for p in self.placeholders] + list(self.elided_lines))


def read_snippet(text: str) -> Snippet | None:
    """The placeholders and elisions of ``text``, or None when it has none (not a snippet)."""
    if text.lstrip().startswith(("{", "[")):
        return None
    hits = ((PLACEHOLDER_HIT, "<"), (FLOW_HIT, "<"), (ELISION_HIT, ELISION))
    hit_lines = sorted({n for hit, needle in hits if needle in text for n in _lines_hit(text, hit)})
    if not hit_lines:
        return None
    lines = text.split("\n")
    placeholders: list[Placeholder] = []
    elided: list[int] = []
    for n in hit_lines:
        if len(lines[n]) > MAX_LINE:
            continue
        m = VALUE_LINE.fullmatch(lines[n].rstrip("\r"))
        if m is None:
            placeholders.extend(_in_flow(lines[n], n))
            continue
        if m.group("value") == ELISION and not (m.group("indent") or m.group("dashes") or m.group("key")):
            continue  # '...' at column 1: YAML's document end
        found = _placeholder(lines, n, m)
        if found is None:
            elided.append(n + 1)
        else:
            placeholders.append(found)
    if not placeholders and not elided:
        return None
    return Snippet(tuple(placeholders), tuple(elided), _blanked(lines, elided))


def _in_flow(line: str, n: int) -> list[Placeholder]:
    """The placeholders that are whole values of a flow collection on line ``n``: each read back
    to the previous one at most (a line of many is read once)."""
    out = []
    done = 0
    for m in FLOW_VALUE.finditer(line):
        before = line[done:m.start()]
        done = m.end()
        key = FLOW_KEY.search(before)
        if key is not None:
            name = key.group("key")
            out.append(Placeholder(m.group(), n + 1, m.start() + 1, name.strip("\"'"), n + 1,
                                   done - len(m.group()) - len(before) + key.start("key") + 1))
        elif before.rstrip(" \t").endswith(("[", ",")):
            out.append(Placeholder(m.group(), n + 1, m.start() + 1))
    return out


def _placeholder(lines: list[str], n: int, m: re.Match) -> Placeholder | None:
    """The unknown value on line ``n``, or None when the line is an elision left out of the text."""
    value = m.group("value")
    column = m.start("value") + 1
    if m.group("key") is not None:
        key = m.group("key").strip()
        return Placeholder(value, n + 1, column, key.strip("\"'"), n + 1, m.start("key") + 1)
    if value != ELISION:
        return Placeholder(value, n + 1, column)
    parent = _whole_value_of(lines, n, m)
    if parent is None:
        return None
    key_line, key_match = parent
    return Placeholder(value, n + 1, column, key_match.group(2).strip("\"'"), key_line + 1, key_match.start(2) + 1)


# ``key:`` (or ``- key:``) with nothing after it but a comment: a key whose value is below it.
_OPEN_KEY = re.compile(r"([ \t]*(?:-[ \t]+)*)([^#\s][^#]*?):[ \t]*(?:#.*)?")


def _whole_value_of(lines: list[str], n: int, m: re.Match) -> tuple[int, re.Match] | None:
    """(line, match) of the key whose whole value the ``...`` (or ``- ...``) on line ``n`` is, or
    None when something else sits under that key too (then the line is an elision among others)."""
    indent = len(m.group("indent")) + (len(m.group("dashes")) if m.group("dashes") else 0)
    dashed = bool(m.group("dashes"))
    before = _content_line(lines, range(n - 1, -1, -1))
    if before is None:
        return None
    key = _OPEN_KEY.fullmatch(lines[before].rstrip("\r"))
    if key is None:
        return None
    key_indent = len(key.group(1))
    if indent < key_indent or (indent == key_indent and not dashed):
        return None
    after = _content_line(lines, range(n + 1, len(lines)))
    if after is not None:
        next_line = lines[after]
        next_indent = len(next_line) - len(next_line.lstrip(" \t"))
        sibling = next_indent > key_indent or (next_indent == key_indent and next_line.lstrip().startswith("-")
                                                and dashed)
        if sibling:
            return None
    return before, key


def _content_line(lines: list[str], order: range) -> int | None:
    for i in order:
        if not _CONTENT.fullmatch(lines[i].rstrip("\r")):
            return i
    return None


def _blanked(lines: list[str], elided: list[int]) -> str:
    """The text with the ``elided`` lines (1-based) emptied: their line breaks stay."""
    out = list(lines)
    for line in elided:
        out[line - 1] = "\r" if out[line - 1].endswith("\r") else ""
    return "\n".join(out)


def _lines_hit(text: str, hit: re.Pattern):
    """The 0-based lines where ``hit`` matches, each searched once (a line of many hits is one)."""
    at = 0
    while (m := hit.search(text, at)) is not None:
        yield _line_of(text, m.start())
        at = text.find("\n", m.end()) + 1
        if at == 0:
            return


def _line_of(text: str, offset: int) -> int:
    """The 0-based line of ``offset`` (one newline index per text: a file of many placeholders
    is not counted from its start for each)."""
    return bisect.bisect_left(newline_offsets(text), offset)


class PlaceholderIndex:
    """The placeholders of every snippet among ``sources``, by the places a finding about one sits:
    on the value itself, or on the key holding it with that key as its field's last part (a
    finding on an item that starts with such a key, ``- name: <flavor>``, names the item)."""

    def __init__(self, sources):
        self.values: dict[tuple[str, int, int], Placeholder] = {}
        self.keys: dict[tuple[str, int, int], Placeholder] = {}
        for src in sources:
            snippet = read_snippet(src.text) if src.text else None
            for p in snippet.placeholders if snippet else ():
                self.values[(src.name, p.line, p.column)] = p
                if p.key is not None:
                    self.keys[(src.name, p.key_line, p.key_column)] = p

    def __bool__(self) -> bool:
        return bool(self.values)

    @property
    def files(self) -> set[str]:
        return {file for file, _, _ in self.values}

    def about(self, file: str, line: int, column: int, field: str | None) -> Placeholder | None:
        """The placeholder a finding at ``file:line:column`` on ``field`` is about, or None."""
        p = self.values.get((file, line, column))
        if p is None:
            p = self.keys.get((file, line, column))
            if p is None or _last_part(field) != p.key:
                return None
        return p


_FIELD_PARTS = re.compile(r"[^.\[\]]+")


def _last_part(field: str | None) -> str | None:
    """``spec.resources[cpu]`` -> ``cpu``; ``queues[0].name`` -> ``name``."""
    parts = _FIELD_PARTS.findall(field or "")
    return parts[-1].strip("\"'") if parts else None
