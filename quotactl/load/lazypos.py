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
        self.newlines: list[int] | None = None  # offset of every "\n", found once
        self.items: dict[int, tuple[dict, dict]] = {}

    def tables(self) -> tuple[_Table, _Table]:
        """The two tables a Document reads (``positions``, ``value_positions``)."""
        return _Table(self, False), _Table(self, True)

    def lookup(self, path: tuple, value: bool) -> Pos | None:
        if len(path) >= 2 and path[0] == "items" and isinstance(path[1], int):
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
        asking for every item of a big List quadratic (found by the fuzzer: 400 copies of a state)."""
        if self.newlines is None:
            self.newlines = [m.start() for m in re.finditer("\n", self.text)]
        return bisect.bisect_left(self.newlines, offset)

    def _spans(self) -> list[tuple[int, int]] | None:
        if self.starts is None:
            self.starts = self.find_spans()
        return self.starts


class _Table:
    """A positions table (``get(path)``) answered by ``_ItemPositions``."""

    def __init__(self, owner: ItemPositions, value: bool):
        self.owner, self.value = owner, value

    def get(self, path: tuple, default=None):
        found = self.owner.lookup(tuple(path), self.value)
        return default if found is None else found
