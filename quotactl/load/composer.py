"""YAML text -> one node tree per document, through libyaml (ruamel.yaml.clib) when available.

ruamel's own C-backed loader resolves every plain scalar through ``VersionedResolver``, which looks
the YAML version up again for each scalar: two thirds of a large file's compose time. A C parser
loaded this way never sees a ``%YAML`` directive (ruamel resolves with YAML 1.2 whatever the
document says), so the 1.2 implicit resolvers are looked up once here, and the tags handed to the
composer are shared ``Tag`` objects the builder recognises by identity.

The C composer recurses once per nesting level without a depth check (30,000 ``[`` crash the
process), so ``nesting_exceeds`` bounds the depth cheaply from the text first and, only when the
bound is too high, measures it exactly from libyaml's event stream, which does not recurse.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from ruamel.yaml.composer import Composer
from ruamel.yaml.nodes import ScalarNode, SequenceNode
from ruamel.yaml.resolver import implicit_resolvers
from ruamel.yaml.tag import Tag

try:
    from _ruamel_yaml import CParser
except ImportError:  # pragma: no cover - no C extension: ruamel's pure-Python composer
    CParser = None

YAML_VERSION = (1, 2)  # what ruamel's resolver uses for the C parser
STR = Tag(suffix="tag:yaml.org,2002:str")
SEQ = Tag(suffix="tag:yaml.org,2002:seq")
MAP = Tag(suffix="tag:yaml.org,2002:map")


def _resolver_table() -> dict[str, list[tuple[Tag, re.Pattern]]]:
    """First character of a plain scalar -> the (tag, regexp) pairs to try, in ruamel's order."""
    table: dict[str, list[tuple[Tag, re.Pattern]]] = {}
    for versions, tag, regexp, first in implicit_resolvers:
        if YAML_VERSION not in versions:
            continue
        shared = Tag(suffix=tag)
        for ch in first or [None]:
            table.setdefault(ch, []).append((shared, regexp))
    return table


_TABLE = _resolver_table()
_ANY_FIRST = _TABLE.get(None, [])
RESOLVED_TAGS = {id(tag): tag.suffix for pairs in _TABLE.values() for tag, _ in pairs}
RESOLVED_TAGS.update({id(STR): STR.suffix, id(SEQ): SEQ.suffix, id(MAP): MAP.suffix})


def resolve_plain(value: str) -> Tag:
    for tag, regexp in _TABLE.get(value[:1] if value else "", ()) or _ANY_FIRST:
        if regexp.match(value):
            return tag
    for tag, regexp in _ANY_FIRST:
        if regexp.match(value):
            return tag
    return STR


class _Resolver:
    """The resolver libyaml's and ruamel's composers ask (``resolve`` and its two hooks)."""

    def resolve(self, kind, value, implicit):
        if kind is ScalarNode:
            return resolve_plain(value) if implicit[0] else STR
        return SEQ if kind is SequenceNode else MAP

    def descend_resolver(self, current_node, current_index):
        pass

    def ascend_resolver(self):
        pass


if CParser is not None:

    class _Parser(_Resolver, CParser):
        """libyaml's parser and composer with a resolver that does not re-read the version."""


# libyaml's composer recurses per nesting level in C: tens of thousands of ``[`` crash the process
# (SIGSEGV). Every caller checks its own, smaller limit; this one guards those that compose text
# found inside another document (a ConfigMap's queues.yaml: found by the fuzzer).
COMPOSER_MAX_DEPTH = 1000


class NestingTooDeep(ValueError):
    """Refused before composing; shaped like ruamel's MarkedYAMLError (``problem``, ``problem_mark``)."""

    def __init__(self, line: int, column: int, limit: int):
        self.problem = f"nesting deeper than {limit} levels"
        self.problem_mark = _Mark(line, column)
        super().__init__(self.problem)


@dataclass(frozen=True)
class _Mark:
    line: int
    column: int


def compose_all(text: str, max_depth: int = COMPOSER_MAX_DEPTH, cleared_for: int | None = None) -> Iterator[object]:
    """The root node of each document in turn (None for an empty document); one tree at a time.
    Raises NestingTooDeep, before composing anything, for a text nested deeper than ``max_depth``.
    ``cleared_for``: the caller already found the text nested no deeper than this (``nesting_exceeds``);
    when that is within ``max_depth`` the text is not read again (190 MB of quoted brackets took
    4 s a check; fuzz seed 1625)."""
    if (cleared_for is None or cleared_for > max_depth) and _may_exceed(text, max_depth):
        yield from _compose_measured(text, max_depth)
        return
    yield from _compose_c(text)


def _compose_c(text: str) -> Iterator[object]:
    if CParser is None:  # pragma: no cover
        from ruamel.yaml import YAML

        yield from YAML(typ="safe", pure=True).compose_all(text)
        return
    parser = _Parser(text)
    parser._parser = parser._composer = parser
    try:
        while parser.check_node():
            yield parser.get_node()
    finally:
        parser.dispose()


def events(text: str) -> Iterator[object]:
    """libyaml's event stream (iterative: safe at any nesting depth)."""
    if CParser is None:  # pragma: no cover
        from ruamel.yaml import YAML

        yield from YAML(typ="safe", pure=True).parse(text)
        return
    parser = _Parser(text)
    try:
        while parser.check_event():
            yield parser.get_event()
    finally:
        parser.dispose()


# ----------------------------------------------------------------------------- nesting --------

_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")


def _brackets(text: str) -> str:
    """The text's brackets, in order: every other byte of its UTF-8 dropped (a multi-byte
    character has no byte below 0x80, so none is taken for a bracket), in C."""
    return text.encode("utf-8", "surrogatepass").translate(None, _NOT_BRACKETS).decode("ascii")


def _without_innermost_pairs(brackets: str) -> str:
    """Every "[]" and "{}" of ``brackets`` removed, one level: "{[]}" keeps its "{}" for the next
    pass (the "[]" become NULs first).  str.replace, not a regex: a regex tried every position
    of a 190-million-bracket text for seconds (fuzz seed 1625)."""
    return brackets.replace("[]", "\0").replace("{}", "").replace("\0", "")


_QUICK_PASSES = 8  # pair-removal passes (C-speed, one level each) before the one-pass scan


def _flow_depth_bound(text: str, limit: int) -> int:
    """An upper bound of the flow ([ ] { }) nesting, or ``limit + 1`` when it may exceed ``limit``.

    Innermost pairs are removed one level per pass (C-speed string operations); brackets that
    never pair up (inside quoted scalars, or unbalanced) each count as a possible level.  A text
    still nested after a few passes is finished by one scan (``_scanned_bound``): each pass reads
    the whole text, and 400 documents nested 30,000 deep took 200 passes over 24 million
    brackets (found by the fuzzer, seed 1623).
    """
    brackets = _brackets(text)  # counted there: four passes over the brackets, not over the text
    counts = {ch: brackets.count(ch) for ch in "[]{}"}
    if counts["["] + counts["{"] <= limit:
        return counts["["] + counts["{"]
    # Pair removal leaves at least the surplus of opening brackets, each counted as a level: a
    # text with more than ``limit`` of them (quoted scalars full of "[", fuzz seed 1625) needs no pass
    surplus = max(0, counts["["] - counts["]"]) + max(0, counts["{"] - counts["}"])
    if surplus > limit:
        return limit + 1
    for level in range(min(limit + 1, _QUICK_PASSES)):
        reduced = _without_innermost_pairs(brackets)
        if reduced == brackets:
            # every bracket left counts, closing ones too: a quoted "]" pairs with a real "["
            # and leaves that one's real "]" unpaired ('[ "]", [ "]", ... ]]': 30,000 deep
            # collections under a bound of 1 reached libyaml's recursive composer, which crashed)
            unpaired = len(reduced)
            return level + unpaired
        brackets = reduced
    if limit < _QUICK_PASSES:
        return limit + 1
    return _QUICK_PASSES + _scanned_bound(brackets, limit - _QUICK_PASSES)


_OPENER = {"]": "[", "}": "{"}


def _scanned_bound(brackets: str, limit: int) -> int:
    """The pair removal's count in one pass, or ``limit + 1`` as soon as it may exceed ``limit``:
    the tallest stack of matched pairs, plus every bracket that never pairs (a closing bracket
    that pairs with nothing stays, so nothing open before it can pair past it)."""
    stack: list[list] = []  # [opening bracket, the tallest matched pair inside it]
    tallest = unpaired = 0
    for ch in brackets:
        if ch == "[" or ch == "{":
            stack.append([ch, 0])
        elif stack and stack[-1][0] == _OPENER[ch]:
            height = stack.pop()[1] + 1
            if stack and stack[-1][1] < height:
                stack[-1][1] = height
            if height > tallest:
                tallest = height
        else:
            unpaired += len(stack) + 1
            stack.clear()
        if tallest + unpaired > limit:
            return limit + 1
    return min(limit + 1, tallest + unpaired + len(stack))


def _block_depth_bound(text: str, budget: int) -> bool:
    """Whether block nesting may exceed ``budget``: every two block levels need at least one more
    column of indentation or indicators (``- ``, ``? ``, ``: ``) than their parent, so a shallow
    document has no line starting with ``budget // 2`` such characters."""
    run = max(1, budget // 2)
    return re.search(rf"^[ \t?:-]{{{run}}}", text, re.MULTILINE) is not None


def _may_exceed(text: str, limit: int) -> bool:
    """Whether the cheap bounds leave it possible that ``text`` nests deeper than ``limit``."""
    flow = _flow_depth_bound(text, limit)
    return flow > limit or _block_depth_bound(text, limit - flow)


def nesting_exceeds(text: str, limit: int) -> tuple[int, int] | None:
    """(line, column), 0-based, of the first collection nested deeper than ``limit``, or None."""
    if not _may_exceed(text, limit):
        return None
    return _measured_events(text, limit).too_deep


@dataclass
class _MeasuredEvents:
    events: list
    too_deep: tuple[int, int] | None  # (line, column), 0-based, of the first collection too deep
    error: Exception | None  # the syntax error that ended the stream early


def _measured_events(text: str, limit: int) -> _MeasuredEvents:
    """libyaml's events up to the first collection nested deeper than ``limit`` or the first
    syntax error (nothing before it was too deep, and the composer stops there too; found by
    the fuzzer)."""
    kept: list = []
    depth = 0
    try:
        for event in events(text):
            kept.append(event)
            name = type(event).__name__
            if name in ("SequenceStartEvent", "MappingStartEvent"):
                depth += 1
                if depth > limit:
                    return _MeasuredEvents(kept, (event.start_mark.line, event.start_mark.column), None)
            elif name in ("SequenceEndEvent", "MappingEndEvent"):
                depth -= 1
    except Exception as exc:  # ruamel raises many error classes; all are syntax errors to the caller
        return _MeasuredEvents(kept, None, exc)
    return _MeasuredEvents(kept, None, None)


def _compose_measured(text: str, limit: int) -> Iterator[object]:
    """``compose_all`` for a text the bounds could not clear: libyaml reads it once, its events
    are measured, and ruamel's Python composer (which recurses in Python, at most ``limit``
    deep) builds the nodes from them.  Measuring, then composing in C, read the text twice:
    190 MB of quoted brackets took 2.7 s a pass (fuzz seed 1625)."""
    measured = _measured_events(text, limit)
    if measured.too_deep is not None:
        raise NestingTooDeep(*measured.too_deep, limit)
    if limit > _PYTHON_COMPOSER_MAX_DEPTH:
        yield from _compose_c(text)
        return
    composer = Composer(_EventLoader(measured.events, measured.error))
    composer.warn_double_anchors = False  # libyaml's composer lets a later anchor replace one, silently
    while composer.check_node():
        yield composer.get_node()


# ruamel's Python composer takes two frames per level (three under Python's default limit of
# 1,000 frames at 200 levels with the command's own stack); deeper limits compose in C
_PYTHON_COMPOSER_MAX_DEPTH = 250


class _EventLoader(_Resolver):
    """What ruamel's ``Composer`` asks of its loader: a parser over the measured events (raising
    the syntax error that ended them once they run out) and ``_Resolver``."""

    max_depth = None  # measured already, and counted per collection rather than per node

    def __init__(self, measured: list, error: Exception | None):
        self._parser = self
        self._resolver = self
        self._events = measured
        self._next = 0
        self._error = error

    def _peek(self):
        if self._next < len(self._events):
            return self._events[self._next]
        if self._error is not None:
            raise self._error
        raise ValueError("the YAML event stream ended early")  # pragma: no cover - libyaml ends each stream

    def check_event(self, *choices) -> bool:
        event = self._peek()
        return not choices or isinstance(event, choices)

    def peek_event(self):
        return self._peek()

    def get_event(self):
        event = self._peek()
        self._next += 1
        return event
