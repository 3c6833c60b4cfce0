"""JSON text -> one Document, through the json module, with positions found only when asked.

``kubectl get -o json`` prints a ``kind: List`` whose items are the objects; a finding on one
of them needs the positions of that item only. The item's span is found by skipping the items
before it with the json module's own decoder (C speed; the offsets are kept for later asks), and
only that slice is composed as YAML (JSON is YAML) for its positions.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from quotactl.diagnostics import Diagnostic
from quotactl.load.document import Document, Pos, YamlFloat

_DECODER = json.JSONDecoder()
_SPACE = " \t\n\r"


class _NotYamlAlike(Exception):
    """A duplicate key or a NaN/Infinity literal: the YAML path reads it as YAML would."""


def _no_duplicates(pairs: list) -> dict:
    out = dict(pairs)
    if len(out) != len(pairs):
        raise _NotYamlAlike
    return out


def _constant(name: str):
    raise _NotYamlAlike


def _float(text: str) -> YamlFloat:
    return YamlFloat(float(text), text)  # as the YAML builder keeps it: judged as written


def load_json(text: str, file: str, limits, parse_yaml: Callable) -> tuple[list[Document], list[Diagnostic]] | None:
    """The document, or None when the text is not JSON the json module reads (the YAML path
    reports the problem with a position). Duplicate keys go the YAML path too: it names both."""
    try:
        data = json.loads(text, object_pairs_hook=_no_duplicates, parse_float=_float, parse_constant=_constant)
    except (ValueError, RecursionError, _NotYamlAlike):
        return None
    if _too_deep(data, limits.max_depth):
        return None  # the YAML path reports where
    whole = _WholePositions(text, file, limits, parse_yaml)
    if isinstance(data, dict) and isinstance(data.get("items"), list):
        lazy = _ItemPositions(text, file, limits, parse_yaml, whole)
        return [Document(file, 0, data, lazy_positions=lazy.tables, source_text=text)], []
    return [Document(file, 0, data, lazy_positions=whole, source_text=text)], []


def _too_deep(data, limit: int) -> bool:
    """Nesting deeper than ``limit``, counted as the YAML builder counts (keys and scalars are
    one level below their collection)."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        children = list(value.values()) if isinstance(value, dict) else value
        if children and depth >= limit:
            return True
        stack.extend((c, depth + 1) for c in children if isinstance(c, (dict, list)))
    return False


class _WholePositions:
    """Every position of the text, composed as YAML once."""

    def __init__(self, text: str, file: str, limits, parse_yaml: Callable):
        self.text, self.file, self.limits, self.parse_yaml = text, file, limits, parse_yaml
        self.found: tuple[dict, dict] | None = None

    def __call__(self) -> tuple[dict, dict]:
        if self.found is None:
            docs, _ = self.parse_yaml(self.text, self.file, self.limits, 0, 0)
            self.found = docs[0].tables() if docs else ({}, {})
        return self.found


class _ItemPositions:
    """Positions of a List's items, one item at a time."""

    def __init__(self, text: str, file: str, limits, parse_yaml: Callable, whole: _WholePositions):
        self.text, self.file, self.limits, self.parse_yaml, self.whole = text, file, limits, parse_yaml, whole
        self.starts: list[tuple[int, int]] | None = None  # (start, end) of every item
        self.items: dict[int, tuple[dict, dict]] = {}

    def tables(self) -> tuple[_Table, _Table]:
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
        line = self.text.count("\n", 0, start)
        column = start - (self.text.rfind("\n", 0, start) + 1)
        docs, _ = self.parse_yaml(" " * column + self.text[start:end], self.file, self.limits, line, 0)
        if not docs:
            return {}, {}
        positions, value_positions = docs[0].tables()
        root = docs[0].start
        return {(): root, **positions}, {(): root, **value_positions}

    def _spans(self) -> list[tuple[int, int]] | None:
        if self.starts is None:
            self.starts = _item_spans(self.text)
        return self.starts


class _Table:
    """A positions table (``get(path)``) answered by ``_ItemPositions``."""

    def __init__(self, owner: _ItemPositions, value: bool):
        self.owner, self.value = owner, value

    def get(self, path: tuple, default=None):
        found = self.owner.lookup(tuple(path), self.value)
        return default if found is None else found


def _skip(text: str, i: int) -> int:
    while i < len(text) and text[i] in _SPACE:
        i += 1
    return i


def _item_spans(text: str) -> list[tuple[int, int]] | None:
    """(start, end) of each element of the top-level object's ``items`` array."""
    i = _skip(text, 0)
    if text[i:i + 1] != "{":
        return None
    i = _skip(text, i + 1)
    while i < len(text) and text[i] != "}":
        key, i = _DECODER.raw_decode(text, i)
        i = _skip(text, i)
        i = _skip(text, i + 1)  # the ':'
        if key == "items" and text[i:i + 1] == "[":
            return _array_spans(text, i)
        _, i = _DECODER.raw_decode(text, i)
        i = _skip(text, i)
        if text[i:i + 1] == ",":
            i = _skip(text, i + 1)
    return None


def _array_spans(text: str, i: int) -> list[tuple[int, int]]:
    spans = []
    i = _skip(text, i + 1)
    while i < len(text) and text[i] != "]":
        _, end = _DECODER.raw_decode(text, i)
        spans.append((i, end))
        i = _skip(text, end)
        if text[i:i + 1] == ",":
            i = _skip(text, i + 1)
    return spans
