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
            if path[1] not in self.items and (quick := self.read_key_path(path[1], path[2:], value)):
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
        line, column = self._line_and_column(start)
        flow = self.text[start:start + 1] in ("{", "[")
        # A block item is padded to its column (its other lines are indented as far). A flow item
        # (JSON) is composed as it is and its first line shifted after: in a one-line JSON List the
        # columns grow with the text, and padding each item to its column was quadratic (fuzzer: a
        # 2 MB one-line List of 2,000 Workloads without kind, one finding per item, never ended).
        pad = 0 if flow else column
        docs, _ = self.parse_yaml(" " * pad + self.text[start:end], self.file, self.limits,
                                  line + self.line_offset, 0)
        if not docs:
            return {}, {}
        positions, value_positions = docs[0].tables()
        root = docs[0].start
        if column != pad:
            first = line + self.line_offset + 1
            positions, value_positions = (_shift_line(positions, first, column),
                                          _shift_line(value_positions, first, column))
            root = _shifted(root, first, column)
        return {(): root, **positions}, {(): root, **value_positions}

    def _line_and_column(self, offset: int) -> tuple[int, int]:
        """The line and column (0-based) of ``offset``: counting the newlines before each item
        afresh made asking for every item of a big List quadratic (found by the fuzzer: 400 copies
        of a state), and so did looking back for the line's start on a one-line List; the index is
        one per text, shared by every List document of it."""
        newlines = newline_offsets(self.text)
        line = bisect.bisect_left(newlines, offset)
        return line, offset - (newlines[line - 1] + 1 if line else 0)

    def read_key_path(self, i: int, keys: tuple, value: bool) -> Pos | None:
        """The position of item ``i`` itself (no ``keys``), or of ``keys`` in it (mapping keys only,
        e.g. ``metadata.name``), found by reading the item's lines without composing it: a finding
        on every object of a big List (KQ013 on each v1beta1 object, KQ504 on each duplicate's
        ``metadata.name``) composed every item (libyaml plus the position builder: 20 s for 12,000
        items). None (compose the item) for anything else: flow style, a key not on its own line or
        there twice, merge or complex keys, a value asked for that is not a plain one-line scalar."""
        spans = self._spans()
        if not all(isinstance(key, str) for key in keys) or spans is None or i >= len(spans):
            return None
        start, end = spans[i]
        line, column = self._line_and_column(start)
        if not keys:  # the item itself: where its span starts (the composed slice's root)
            return Pos(line + self.line_offset + 1, column + 1)
        if self.text[start:start + 1] in ("{", "[", '"', "'", "&", "!", "*", "?"):
            return None  # flow style, or a node the composer must read
        found = _BlockLines(self.text, start, end, column).find(keys, value)
        if found is None:
            return None
        offset, found_column = found
        return Pos(self._line_and_column(offset)[0] + self.line_offset + 1, found_column + 1)

    def _spans(self) -> list[tuple[int, int]] | None:
        if self.starts is None:
            self.starts = self.find_spans()
        return self.starts


# A plain scalar on one line that needs no composing to place: no quotes, flow, anchors, tags,
# block scalars or comments (the composer would be asked for those).
_PLAIN_ONE_LINE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._/\-]*")


class _BlockLines:
    """The lines of one block item (its first line starts at ``start``, at column ``column``),
    searched with regular expressions: a big List asks for a key of every item."""

    def __init__(self, text: str, start: int, end: int, column: int):
        self.text, self.start, self.end, self.column = text, start, end, column

    def find(self, keys: tuple, value: bool) -> tuple[int, int] | None:
        """(text offset, column) of the last of ``keys`` (of its value when ``value``), each a key
        of the block mapping the previous one's value is, or None."""
        at, indent = self.start, self.column
        for depth, key in enumerate(keys):
            found = self._key_in_block(at, indent, key)
            if found is None:
                return None
            key_at, rest = found
            if depth == len(keys) - 1:
                if not value:
                    return key_at, indent  # the key's place, whatever its value
                gap = len(rest) - len(rest.lstrip(" "))
                if rest[:1] != " " or not _PLAIN_ONE_LINE.fullmatch(rest.strip()):
                    return None
                return key_at, indent + len(key) + 1 + gap
            if rest.strip() and not rest.lstrip(" ").startswith("#"):
                return None  # a value on the key's line: a scalar or a flow collection
            child = _CONTENT_LINE.search(self.text, key_at, self.end)
            if child is None or len(child.group(1)) <= indent or child.group(2) == "-":
                return None  # null, a sequence, or not a nested block mapping
            at, indent = child.start(1), len(child.group(1))
        return None

    def _key_in_block(self, at: int, indent: int, key: str) -> tuple[int, str] | None:
        """(offset, what follows ``key:`` on its line) of ``key`` in the block mapping at ``indent``
        whose first line starts at ``at``; None when absent, there twice, or beside a merge or
        complex key."""
        text = self.text
        stop = self.end
        if indent > 0 and (dedent := _dedent(indent).search(text, at, self.end)) is not None:
            stop = dedent.start()  # the first line indented less: the mapping ends
        if _odd_key(indent).search(text, at, stop):
            return None  # merge keys and complex keys: the composer places those
        head = f"{key}:"
        found = [at] if at == self.start and _key_head(key).match(text, at, stop) else []
        # (from ``at + 1`` on the item's first line: it follows ``- ``, it is not a line start)
        found += [m.end() - len(head) for m in _key_line(indent, key).finditer(text, at + (at == self.start), stop)]
        if len(found) != 1:
            return None  # absent, or a duplicate key (the builder keeps the last one's place)
        after = found[0] + len(head)
        line_end = text.find("\n", after, self.end)
        return found[0], text[after:self.end if line_end < 0 else line_end]


# The next line that is neither blank nor a comment: its indent and first character.
_CONTENT_LINE = re.compile(r"\n( *)([^ \r\n#])")


@lru_cache(maxsize=64)
def _dedent(indent: int) -> re.Pattern:
    """A line indented less than ``indent`` that is neither blank nor a comment."""
    return re.compile(rf"\n {{0,{indent - 1}}}(?=[^ \r\n#])")


@lru_cache(maxsize=64)
def _odd_key(indent: int) -> re.Pattern:
    return re.compile(rf"^ {{{indent}}}(?:<<|\? )", re.MULTILINE)


@lru_cache(maxsize=256)
def _key_head(key: str) -> re.Pattern:
    return re.compile(rf"{re.escape(key)}:(?=[ \r\n]|\Z)")


@lru_cache(maxsize=256)
def _key_line(indent: int, key: str) -> re.Pattern:
    return re.compile(rf"^ {{{indent}}}{_key_head(key).pattern}", re.MULTILINE)


@lru_cache(maxsize=4)
def newline_offsets(text: str) -> list[int]:
    """The offset of every newline of ``text``, found once per text (str caches its hash, and
    the cache compares by identity first, so a hit costs nothing)."""
    return [m.start() for m in re.finditer("\n", text)]


def _shifted(pos: Pos, line: int, columns: int) -> Pos:
    return Pos(pos.line, pos.column + columns) if pos.line == line else pos


def _shift_line(table, line: int, columns: int) -> dict:
    """``table`` with the positions on ``line`` (1-based) moved right by ``columns``."""
    return {path: _shifted(pos, line, columns) for path, pos in table.items()}


class _Table:
    """A positions table (``get(path)``) answered by ``_ItemPositions``."""

    def __init__(self, owner: ItemPositions, value: bool):
        self.owner, self.value = owner, value

    def get(self, path: tuple, default=None):
        found = self.owner.lookup(tuple(path), self.value)
        return default if found is None else found
