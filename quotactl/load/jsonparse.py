"""JSON text -> one Document, through the json module, with positions found only when asked.

``kubectl get -o json`` prints a ``kind: List`` whose items are the objects; a finding on one
of them needs the positions of that item only (``lazypos``). The items' spans are found by
skipping over them with the json module's own decoder (C speed), once, on the first ask.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from itertools import compress

from quotactl.diagnostics import Diagnostic
from quotactl.load.composer import _flow_depth_bound
from quotactl.load.document import Document, YamlFloat
from quotactl.load.lazypos import ItemPositions, WholePositions

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
    if _flow_depth_bound(text, limits.max_depth) >= limits.max_depth and _too_deep(data, limits.max_depth):
        return None  # the YAML path reports where
    if _SURROGATE_ESCAPE.search(text):
        data = _without_lone_surrogates(data)
    whole = WholePositions(text, file, limits, parse_yaml)
    if isinstance(data, dict) and isinstance(data.get("items"), list):
        lazy = ItemPositions(text, file, limits, parse_yaml, lambda: _item_spans(text), whole)
        return [Document(file, 0, data, lazy_positions=lazy.tables, source_text=text)], []
    return [Document(file, 0, data, lazy_positions=whole, source_text=text)], []


# A \ud800-\udfff escape: json.loads pairs the valid ones into one character and leaves a lone
# one as a surrogate that no UTF-8 writer accepts (the JSON report crashed on it: found by the
# fuzzer). Go's encoding/json, which the API server and kubectl decode with, replaces a lone
# surrogate with U+FFFD; so does this loader.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _without_lone_surrogates(value):
    """``value`` with every lone surrogate replaced by U+FFFD (depth already bounded)."""
    if isinstance(value, str):
        return _LONE_SURROGATE.sub("\ufffd", value)
    if isinstance(value, list):
        return [_without_lone_surrogates(v) for v in value]
    if isinstance(value, dict):
        return {_without_lone_surrogates(k): _without_lone_surrogates(v) for k, v in value.items()}
    return value


_IS_CONTAINER = frozenset({dict, list}).__contains__


def _too_deep(data, limit: int) -> bool:
    """Nesting deeper than ``limit``, counted as the YAML builder counts (keys and scalars are
    one level below their collection): a non-empty collection at level ``limit`` or below.
    Asked only when the text's brackets (``_flow_depth_bound``, an upper bound of the
    collections' nesting, C-speed) allow a collection that deep: a walk of a snapshot's
    tree costs about as much as parsing it.  Level by level, the containers picked out by C
    iterators: a snapshot holds millions of scalars (3x faster than a stack of every value)."""
    level = [data] if _IS_CONTAINER(type(data)) else []
    depth = 1
    while level:
        below: list = []
        for value in level:
            if type(value) is dict:
                value = value.values()
            if depth >= limit and value:
                return True
            below.extend(compress(value, map(_IS_CONTAINER, map(type, value))))
        level = below
        depth += 1
    return False


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
