"""Positions computed when first asked for, as little at a time as possible.

A ``kind: List`` (what ``kubectl get -o yaml|json`` prints) holds every object of a snapshot in one
document; a warning about one object needs the positions of that item only. ``ItemPositions``
composes just the item's slice of the text as YAML (JSON is YAML), padded to its column and
shifted to its line, so positions are exact; paths outside the items use the whole document's
table, composed once.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable
from functools import lru_cache

from quotactl.load.document import Pos


class WholePositions:
    """Every position of the text, composed as YAML once."""

    def __init__(self, text: str, file: str, limits, parse_yaml: Callable):
        self.text, self.file, self.limits, self.parse_yaml = text, file, limits, parse_yaml
        self.found: tuple[dict, dict] | None = None

    def __call__(self) -> tuple[dict, dict]:
        if self.found is None:
            docs, _ = self.parse_yaml(self.text, self.file, self.limits, 0, 0)
            self.found = docs[0].tables() if docs else ({}, {})
        return self.found


class ItemPositions:
    """Positions of a List's items, one item at a time."""

    def __init__(self, text: str, file: str, limits, parse_yaml: Callable,
                 find_spans: Callable[[], list[tuple[int, int]] | None], whole: Callable[[], tuple[dict, dict]],
                 line_offset: int = 0):
        self.text, self.file, self.limits, self.parse_yaml, self.whole = text, file, limits, parse_yaml, whole
        self.find_spans, self.line_offset = find_spans, line_offset
        self.starts: list[tuple[int, int]] | None = None  # (start, end) of every item
        self.items: dict[int, tuple[dict, dict]] = {}

    def tables(self) -> tuple[_Table, _Table]:
        """The two tables a Document reads (``positions``, ``value_positions``)."""
        return _Table(self, False), _Table(self, True)

    def lookup(self, path: tuple, value: bool) -> Pos | None:
        if len(path) >= 2 and path[0] == "items" and isinstance(path[1], int):
            if len(path) == 3 and path[1] not in self.items and (quick := self._top_key(path[1], path[2], value)):
                return quick
            found = self._item(path[1])
            if found is not None:
                return (found[1] if value else found[0]).get(path[2:])
        positions, value_positions = self.whole()
        return (value_positions if value else positions).get(path)

    def _item(self, i: int) -> tuple[dict, dict] | None:
        if i not in self.items:
            spans = self._spans()
            if spans is None or i >= len(spans):
                return None
            self.items[i] = self._parse_slice(*spans[i])
        return self.items[i]

    def _parse_slice(self, start: int, end: int) -> tuple[dict, dict]:
        line = self._newlines_before(start)
        column = start - (self.text.rfind("\n", 0, start) + 1)
        docs, _ = self.parse_yaml(" " * column + self.text[start:end], self.file, self.limits,
                                  line + self.line_offset, 0)
        if not docs:
            return {}, {}
        positions, value_positions = docs[0].tables()
        root = docs[0].start
        return {(): root, **positions}, {(): root, **value_positions}

    def _newlines_before(self, offset: int) -> int:
        """The line (0-based) of ``offset``: counting the newlines before each item afresh made
        asking for every item of a big List quadratic (found by the fuzzer: 400 copies of a state);
        the index is one per text, shared by every List document of it."""
        return bisect.bisect_left(newline_offsets(self.text), offset)

    def _top_key(self, i: int, key, value: bool) -> Pos | None:
        """The position of a block item's top-level ``key: scalar`` line (apiVersion, kind), found by
        reading the item's lines, without composing it: a note on every object of a big List
        (KQ013 on each v1beta1 object) composed every item once. None (compose the item) for
        anything else: flow style, a key not on its own line, a value that is not a plain one-line
        scalar."""
        spans = self._spans()
        if not isinstance(key, str) or spans is None or i >= len(spans):
            return None
        start, end = spans[i]
        line0 = self._newlines_before(start)
        column = start - (self.text.rfind("\n", 0, start) + 1)
        head = f"{key}:"
        at, n = start, 0
        while at < end:
            stop = self.text.find("\n", at, end)
            stop = end if stop < 0 else stop
            indent = column if n == 0 else _indent(self.text, at, stop)
            body = self.text[at + (0 if n == 0 else indent):stop]
            if indent == column and body.startswith(head):
                rest = body[len(head):]
                gap = len(rest) - len(rest.lstrip(" "))
                scalar = rest.strip()
                if not rest[:1] == " " or not _PLAIN_ONE_LINE.fullmatch(scalar):
                    return None
                line = line0 + n + self.line_offset + 1
                return Pos(line, column + (len(head) + gap if value else 0) + 1)
            if n > 0 and indent < column and body.strip() and not body.lstrip().startswith("#"):
                return None  # left the item
            at, n = stop + 1, n + 1
        return None

    def _spans(self) -> list[tuple[int, int]] | None:
        if self.starts is None:
            self.starts = self.find_spans()
        return self.starts


# A plain scalar on one line that needs no composing to place: no quotes, flow, anchors, tags,
# block scalars or comments (the composer would be asked for those).
_PLAIN_ONE_LINE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._/\-]*")


def _indent(text: str, start: int, stop: int) -> int:
    at = start
    while at < stop and text[at] == " ":
        at += 1
    return at - start


@lru_cache(maxsize=4)
def newline_offsets(text: str) -> list[int]:
    """The offset of every newline of ``text``, found once per text (str caches its hash, and
    the cache compares by identity first, so a hit costs nothing)."""
    return [m.start() for m in re.finditer("\n", text)]


class _Table:
    """A positions table (``get(path)``) answered by ``_ItemPositions``."""

    def __init__(self, owner: ItemPositions, value: bool):
        self.owner, self.value = owner, value

    def get(self, path: tuple, default=None):
        found = self.owner.lookup(tuple(path), self.value)
        return default if found is None else found
