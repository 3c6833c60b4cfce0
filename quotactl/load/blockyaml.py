"""A fast path for block-style YAML: what ``kubectl get -o yaml`` prints and most manifests are.

libyaml composes a node per value and the builder walks them again in Python; a line-based
reader of the common subset is several times faster. It reads, one line at a time: block
mappings and sequences (kubectl's sequences at the column of their parent key, compact
``- key: value`` items), plain and one-line quoted scalars, ``{}`` and ``[]``, comments and
``---`` separators. Plain scalars are resolved by the composer's own resolver
(``yamlbuild.plain``), so the data is identical to the libyaml path's.

Anything else (anchors, aliases, tags, flow collections with content, block or multi-line
scalars, complex or duplicate keys, tabs, odd indentation, control characters...) makes
``parse_block`` return None, and the caller hands the whole text to libyaml, whose diagnostics
are therefore unchanged. Positions are not computed here: the caller gets each document's span
and the spans of a top-level ``items:`` list, for the lazy position machinery.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from quotactl.load.yamlbuild import _shared, key_of_plain, plain


class Decline(Exception):
    """The text leaves the subset: libyaml reads it."""


@dataclass(slots=True)
class BlockDocument:
    data: dict | list
    start: tuple[int, int]  # (line, column), 1-based, of the root collection
    span: tuple[int, int, int]  # text offsets (start of its first line, end) and 0-based first line
    item_spans: list[tuple[int, int]] | None  # (start, end) of each item of a top-level ``items:`` list


# Characters libyaml refuses, reads as line breaks (NEL, LS, PS) or as a byte-order mark; tabs
# and carriage returns change what indentation means. Any of them: libyaml reads the text.
_OUTSIDE = re.compile("[^\n\x20-\x7e\xa0-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]|[\u2028\u2029]")
_ASCII_INSIDE = b"\n" + bytes(range(0x20, 0x7F))
# First characters a plain scalar cannot start with ('-' is handled on its own).
_INDICATORS = frozenset("?:,[]{}#&*!|>'\"%@`")
# unrolled ("normal* (special normal*)*"): one alternation per character made a 500,000-character
# scalar cost 20 s over 400 documents (fuzz seed 1625)
_SINGLE = re.compile(r"'([^']*(?:''[^']*)*)'")
_DOUBLE = re.compile(r'"([^"\\]*(?:\\.[^"\\]*)*)"')
_ESCAPE = re.compile(r"\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)")
_SIMPLE_ESCAPES = {
    "0": "\0", "a": "\a", "b": "\b", "t": "\t", "\t": "\t", "n": "\n", "v": "\v", "f": "\f", "r": "\r",
    "e": "\x1b", " ": " ", '"': '"', "/": "/", "\\": "\\", "N": "\x85", "_": "\xa0", "L": "\u2028", "P": "\u2029",
}
_MAX_KEY = 1024  # libyaml refuses longer implicit keys
_CACHE_SIZE = 100_000  # distinct key and value texts remembered per input
_MISSING = object()


def parse_block(text: str, max_depth: int) -> list[BlockDocument] | None:
    """The documents of ``text``, or None when it leaves the subset."""
    if _has_outside(text):
        return None
    try:
        return _Reader(text, max_depth).read()
    except Decline:
        return None


def _has_outside(text: str) -> bool:
    """Whether ``text`` holds a character of ``_OUTSIDE``.  An ASCII text is checked by deleting
    every allowed byte in C: the regex took 5 s over a 190 MB input (fuzz seed 1625)."""
    if text.isascii():
        return bool(text.encode("ascii").translate(None, _ASCII_INSIDE))
    return _OUTSIDE.search(text) is not None


def _double_quoted(body: str) -> str:
    if "\\" not in body:
        return body
    return _ESCAPE.sub(_unescape, body)


def _unescape(match: re.Match) -> str:
    code = match.group(1)
    if len(code) == 1:
        if code not in _SIMPLE_ESCAPES:
            raise Decline
        return _SIMPLE_ESCAPES[code]
    point = int(code[1:], 16)
    if 0xD800 <= point <= 0xDFFF or point > 0x10FFFF:
        raise Decline
    return chr(point)


def _quoted(content: str) -> tuple[str, str]:
    """(value, what follows the closing quote) of a one-line quoted scalar at ``content[0]``."""
    quote = content[0]
    end = content.find(quote, 1)  # the common case, no escape before the closing quote, found in C:
    if end > 0 and content[end + 1:end + 2] != quote and content.find("\\", 1, end) < 0:  # the regexes
        return _shared(content[1:end]), content[end + 1:]  # took 2.5 s for 382 quoted 500,000-character names
    if quote == "'":
        m = _SINGLE.match(content)
        if m is None:
            raise Decline
        return _shared(m.group(1).replace("''", "'")), content[m.end():]
    m = _DOUBLE.match(content)
    if m is None:
        raise Decline
    return _shared(_double_quoted(m.group(1))), content[m.end():]


def _only_comment(rest: str) -> None:
    """What follows a quoted scalar or a flow indicator must be nothing or a comment."""
    if rest and (rest[0] != " " or rest.lstrip(" ")[:1] not in ("", "#")):
        raise Decline


def _plain_text(content: str) -> str:
    """A plain scalar's text without its comment; declines what is not a one-line plain scalar."""
    cut = content.find(" #")
    if cut >= 0:
        content = content[:cut]
    content = content.rstrip(" ")
    first = content[:1]
    if first in _INDICATORS or (first == "-" and content[1:2] in ("", " ")):
        raise Decline
    if ": " in content or content.endswith(":") or content in ("---", "..."):
        raise Decline
    return content


def _value(content: str):
    """The value of a scalar or an empty flow collection written on one line (content non-empty)."""
    first = content[0]
    if first == "'" or first == '"':
        value, rest = _quoted(content)
        _only_comment(rest)
        return value
    if first == "{" or first == "[":
        if content[1:2] != ("}" if first == "{" else "]"):
            raise Decline
        _only_comment(content[2:])
        return {} if first == "{" else []
    return plain(_plain_text(content))


def _split_entry(content: str) -> tuple[str, str] | None:
    """(key, value text) of ``key: value`` (value text "" for ``key:``), or None for a scalar."""
    first = content[0]
    if first == "'" or first == '"':
        key, rest = _quoted(content)
        if rest[:1] != ":":
            return None
        if rest[1:2] not in ("", " ") or len(key) > _MAX_KEY:
            raise Decline
        return key, rest[1:].lstrip(" ")
    at = content.find(": ")
    if at < 0:
        if not content.endswith(":") or " #" in content:
            return None
        at = len(content) - 1
    raw = content[:at].rstrip(" ")
    if (not raw or raw[0] in _INDICATORS or raw[0] == "-" or " #" in raw or len(raw) > _MAX_KEY
            or raw == "<<"):
        raise Decline
    return key_of_plain(raw), content[at + 1:].lstrip(" ")


def _lines(text: str):
    """(offset, line) of each line, without holding a list of them all."""
    start, find = 0, text.find
    while True:
        end = find("\n", start)
        if end < 0:
            yield start, text[start:]
            return
        yield start, text[start:end]
        start = end + 1


class _Reader:
    """One pass over the lines; ``stack`` holds the open collections as (indent, collection)."""

    def __init__(self, text: str, max_depth: int):
        self.text = text
        self.max_depth = max_depth
        self.docs: list[BlockDocument] = []
        self.stack: list[tuple[int, dict | list]] = []
        # A key or item whose value is on the next lines: (container, key or index, indent a
        # child sequence may start at, indent a child mapping must exceed)
        self.pending: tuple[dict | list, object, int, int] | None = None
        self.root_items: list | None = None  # the root mapping's ``items`` list, for spans
        self.item_starts: list[int] | None = []  # None: an item starts on a later line
        self.items_end: int | None = None
        self.doc_start: tuple[int, int, int] | None = None  # (offset, line, column) of the root
        # A big input repeats its keys and most of its values: each distinct text is checked and
        # resolved once (empty flow collections are not kept: each is a new object).
        self.keys: dict[str, tuple[str, str] | None] = {}
        self.values: dict[str, object] = {}

    def read(self) -> list[BlockDocument]:
        explicit = False  # a '---' opened the current document
        for number, (offset, line) in enumerate(_lines(self.text)):
            stripped = line.lstrip(" ")
            if not stripped or stripped[0] == "#":
                continue
            if line.startswith(("---", "...")) and line[3:4] in ("", " "):
                if line[:3] == "..." or line[3:].strip(" ")[:1] not in ("", "#"):
                    raise Decline
                if explicit and not self.docs_open():
                    raise Decline  # an empty document: libyaml says what it is
                self._end_document(offset)
                explicit = True
                continue
            self._line(len(line) - len(stripped), stripped, offset, number)
        if explicit and not self.docs_open():
            raise Decline
        self._end_document(len(self.text))
        return self.docs

    def docs_open(self) -> bool:
        return self.doc_start is not None

    def _end_document(self, end: int) -> None:
        if self.doc_start is None:
            return
        root = self.stack[0][1]
        offset, line, column = self.doc_start
        spans = None
        if self.root_items is not None and self.item_starts is not None:
            starts = self.item_starts
            spans = [(starts[i], starts[i + 1] if i + 1 < len(starts) else self.items_end or end)
                     for i in range(len(starts))]
        self.docs.append(BlockDocument(root, (line + 1, column + 1), (offset, end, line), spans))
        self.stack, self.pending, self.doc_start = [], None, None
        self.root_items, self.item_starts, self.items_end = None, [], None

    def _line(self, indent: int, content: str, offset: int, number: int) -> None:
        entry = content[0] == "-" and content[1:2] in ("", " ")
        if self.doc_start is None:
            self.doc_start = (offset, number, indent)
            self.stack.append((indent, [] if entry else {}))
        elif self.pending is not None:
            self._open_pending(indent, entry)
        stack = self.stack
        while stack and (stack[-1][0] > indent or (stack[-1][0] == indent and not entry
                                                   and isinstance(stack[-1][1], list))):
            stack.pop()
            if len(stack) == 1 and self.root_items is not None and self.items_end is None:
                self.items_end = offset
        if not stack or stack[-1][0] != indent:
            raise Decline
        container = stack[-1][1]
        if isinstance(container, list):
            if not entry:
                raise Decline
            self._item(container, indent, content, offset)
        else:
            if entry:
                raise Decline
            self._entry(container, indent, content)

    def _open_pending(self, indent: int, entry: bool) -> None:
        """The line after ``key:`` or ``-``: a nested collection starts, or the value was null."""
        container, key, seq_from, map_above = self.pending
        self.pending = None
        if entry and indent >= seq_from:
            child: dict | list = []
        elif not entry and indent > map_above:
            child = {}
        else:
            return
        if len(self.stack) + 2 >= self.max_depth:
            raise Decline  # the libyaml path reports IN006 where
        container[key] = child
        self.stack.append((indent, child))
        if (len(self.stack) == 2 and key == "items" and isinstance(child, list)
                and isinstance(self.stack[0][1], dict) and self.root_items is None):
            self.root_items = child

    def _item(self, seq: list, indent: int, content: str, offset: int) -> None:
        rest = content[1:].lstrip(" ")
        if seq is self.root_items and self.item_starts is not None:
            self.item_starts.append(offset + indent + len(content) - len(rest))
        if not rest or rest[0] == "#":
            if seq is self.root_items:
                self.item_starts = None  # positions come from the whole document instead
            seq.append(None)
            self.pending = (seq, len(seq) - 1, indent + 1, indent)
            return
        if rest[0] == "-" and rest[1:2] in ("", " "):
            raise Decline  # ``- - x``: a compact nested sequence
        column = indent + len(content) - len(rest)
        split = self._split(rest)
        if split is None:
            seq.append(_value(rest))
            return
        if len(self.stack) + 2 >= self.max_depth:
            raise Decline
        mapping: dict = {}
        seq.append(mapping)
        self.stack.append((column, mapping))
        self._store(mapping, column, *split)

    def _split(self, content: str) -> tuple[str, str] | None:
        """``_split_entry`` with the key text looked up once per distinct key."""
        at = content.find(": ")
        raw = content[:at + 1] if at > 0 else content
        known = self.keys.get(raw)
        if known is not None:
            return known[0], content[at + 2:].lstrip(" ") if at > 0 else ""
        split = _split_entry(content)
        if split is not None and content[0] not in "'\"" and len(self.keys) < _CACHE_SIZE:
            self.keys[raw] = (split[0], "")
        return split

    def _entry(self, mapping: dict, indent: int, content: str) -> None:
        split = self._split(content)
        if split is None:
            raise Decline  # a scalar where a key belongs
        self._store(mapping, indent, *split)

    def _store(self, mapping: dict, indent: int, key: str, rest: str) -> None:
        if key in mapping:
            raise Decline  # a duplicate key: the libyaml path names both
        if not rest or rest[0] == "#":
            mapping[key] = None
            self.pending = (mapping, key, indent, indent)
            return
        value = self.values.get(rest, _MISSING)
        if value is _MISSING:
            value = _value(rest)
            if rest[0] not in "{[" and len(rest) <= 64 and len(self.values) < _CACHE_SIZE:
                self.values[rest] = value
        mapping[key] = value
