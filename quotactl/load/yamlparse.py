"""YAML/JSON text -> Documents with positions, defensively.

Documents are composed one at a time by libyaml (``composer``) and turned into plain Python data
by our own builder (``yamlbuild``), so we control what hostile input can do: nesting depth (checked
on the text before the C composer, which recurses, sees it), alias expansion (billion laughs),
duplicate keys, recursive aliases. Positions are computed per document on first use. Every
problem is a Diagnostic with a position; nothing here raises on bad input.

No limit depends on the size of an honest input: the byte cap applies only when given, and the
alias limit counts only the values aliases add.
"""

from __future__ import annotations

from dataclasses import dataclass

from ruamel.yaml.nodes import MappingNode, SequenceNode

from quotactl.diagnostics import Diagnostic, Severity
from quotactl.load.composer import NestingTooDeep, compose_all
from quotactl.load.document import Document, Pos
from quotactl.load.lazypos import ItemPositions
from quotactl.load.yamlbuild import Abort, Builder


@dataclass(frozen=True)
class Limits:
    max_bytes: int | None = None  # per input file; no cap unless given (--max-file-size)
    max_depth: int = 200
    max_alias_values: int = 3_000_000  # values YAML aliases add to one document when expanded


DEFAULT_LIMITS = Limits()


def parse_documents(
    text: str,
    file: str,
    *,
    limits: Limits = DEFAULT_LIMITS,
    line_offset: int = 0,
    column_offset: int = 0,
    fast_json: bool = True,
) -> tuple[list[Document], list[Diagnostic]]:
    """Parse all documents of ``text``. ``*_offset`` shift positions (YAML embedded in YAML).

    With ``fast_json``, a JSON text is parsed by the json module (duplicate keys are still
    reported); its positions are computed only if something asks for one.
    """
    if fast_json and not line_offset and text.lstrip()[:1] in ("{", "["):
        parsed = _fast_json(text, file, limits)
        if parsed is not None:
            return parsed
    if not line_offset and not column_offset:
        block = _fast_block(text, file, limits)
        if block is not None:
            return block
    return _parse_yaml(text, file, limits, line_offset, column_offset, lists_by_item=not line_offset and not column_offset)


def _parse_yaml(text: str, file: str, limits: Limits, line_offset: int, column_offset: int,
                lists_by_item: bool = False) -> tuple[list[Document], list[Diagnostic]]:
    """``lists_by_item``: ``text`` is a whole file, and a List's positions are found one item at a
    time (``lazypos``). Off for an embedded text and for the texts ``lazypos`` itself composes for
    their positions: an item that is itself a List (a List nested in a PodList) needs plain tables."""
    docs: list[Document] = []
    diags: list[Diagnostic] = []

    def pos(mark) -> Pos:
        return Pos(mark.line + 1 + line_offset, mark.column + 1 + column_offset)

    def error(code: str, message: str, at: Pos) -> Diagnostic:
        return Diagnostic(code, Severity.ERROR, message, file, at.line, at.column, input_error=True)

    if "\x00" in text:
        first = text.index("\x00")
        line = text.count("\n", 0, first) + 1 + line_offset
        diags.append(error("IN005", "binary content (NUL byte): not a YAML or JSON file", Pos(line, 1)))
        return docs, diags
    may_alias = "*" in text
    index = 0
    try:
        for node in compose_all(text, limits.max_depth):  # raises NestingTooDeep before any document
            if node is None:
                index += 1
                continue
            try:
                if may_alias:
                    _check_aliases(node, limits, pos, error)
                builder = Builder(file, pos, limits.max_depth, record=False)
                data = builder.build(node)
                mark = node.start_mark
                lazy = _LazyPositions(text, file, index, (mark.index - mark.column, node.end_mark.index, mark.line),
                                      limits, line_offset, column_offset)
                spans = _item_spans(node) if lists_by_item else None
                if spans is not None:  # a List: each item's positions on its own
                    lazy = ItemPositions(text, file, limits, _parse_yaml, lambda spans=spans: spans, lazy).tables
                docs.append(Document(file, index, data, start=pos(node.start_mark), lazy_positions=lazy,
                                     source_text=text if not line_offset else None))
                diags.extend(builder.diags)
            except Abort as abort:
                diags.append(abort.diag)
            index += 1
    except NestingTooDeep as deep:
        at = Pos(deep.problem_mark.line + 1 + line_offset, deep.problem_mark.column + 1 + column_offset)
        diags.append(error("IN006", f"nesting deeper than {limits.max_depth} levels; Kubernetes objects are never "
                                    "this deep", at))
    except RecursionError:
        diags.append(error("IN006", f"nesting too deep to parse (more than {limits.max_depth} levels)",
                           Pos(1 + line_offset, 1)))
    except Exception as exc:  # ruamel raises many error classes; all are syntax errors to us
        diags.append(_syntax_error(exc, pos, error, line_offset))
    return docs, diags


def _item_spans(node) -> list[tuple[int, int]] | None:
    """(start, end) text offsets of the items of a top-level ``items:`` sequence, or None."""
    if not isinstance(node, MappingNode):
        return None
    for knode, vnode in node.value:
        if getattr(knode, "value", None) == "items" and isinstance(vnode, SequenceNode):
            return [(item.start_mark.index, item.end_mark.index) for item in vnode.value]
    return None


def _syntax_error(exc: Exception, pos, error, line_offset: int) -> Diagnostic:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    at = pos(mark) if mark is not None else Pos(1 + line_offset, 1)
    problem = getattr(exc, "problem", None) or str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    context = getattr(exc, "context", None)
    msg = f"YAML syntax error: {problem}"
    if context and context not in (problem or ""):
        msg += f" ({context})"
    return error("IN001", msg, at)


class _LazyPositions:
    """Positions of one document, computed from its own lines only (anchors and aliases never
    cross documents); the whole text is composed again only if the slice alone does not parse
    (e.g. a %TAG directive above it)."""

    __slots__ = ("text", "file", "index", "start", "end", "line", "limits", "line_offset", "column_offset")

    def __init__(self, text: str, file: str, index: int, span: tuple[int, int, int], limits: Limits,
                 line_offset: int, column_offset: int):
        """``span``: offsets of the start of the document's first line and of its end, and that line (0-based)."""
        self.text, self.file, self.index, self.limits = text, file, index, limits
        self.start, self.end, self.line = span
        self.line_offset, self.column_offset = line_offset, column_offset

    def __call__(self) -> tuple[dict, dict]:
        found = self._tables(self.text[self.start:self.end], self.line_offset + self.line, 0)
        if found is None:
            found = self._tables(self.text, self.line_offset, self.index)
        return found if found is not None else ({}, {})

    def _tables(self, text: str, line_offset: int, index: int) -> tuple[dict, dict] | None:
        def pos(mark) -> Pos:
            return Pos(mark.line + 1 + line_offset, mark.column + 1 + self.column_offset)

        try:
            # every text handed here was checked at this depth when the documents were read
            for i, node in enumerate(compose_all(text, cleared_for=self.limits.max_depth)):
                if i == index and node is not None:
                    builder = Builder(self.file, pos, self.limits.max_depth, record=True)
                    builder.build(node)
                    return builder.positions, builder.value_positions
        except Exception:
            return None
        return None


def _fast_json(text: str, file: str, limits: Limits) -> tuple[list[Document], list[Diagnostic]] | None:
    from quotactl.load.jsonparse import load_json

    return load_json(text, file, limits, _parse_yaml)


def _fast_block(text: str, file: str, limits: Limits) -> tuple[list[Document], list[Diagnostic]] | None:
    """Documents read by the block-YAML fast path, or None when the text leaves its subset."""
    from quotactl.load.blockyaml import parse_block

    read = _crlf_as_lf(text)
    blocks = parse_block(read, limits.max_depth)
    if blocks is None:
        return None
    docs = []
    for index, block in enumerate(blocks):
        lazy = _LazyPositions(read, file, index, block.span, limits, 0, 0)
        if block.item_spans is not None:
            lazy = ItemPositions(read, file, limits, _parse_yaml, lambda spans=block.item_spans: spans, lazy).tables
        docs.append(Document(file, index, block.data, start=Pos(*block.start), lazy_positions=lazy,
                             source_text=text))
    return docs, []


def _crlf_as_lf(text: str) -> str:
    """``text`` with its CRLF line breaks as LF when every CR is part of one (a file saved on
    Windows): YAML reads a CRLF as one line break and never keeps it in a value, so the data and
    every line and column are the same, and the block fast path reads it (libyaml took 5 s for
    an 11 MB CRLF List; found by the fuzzer). Otherwise ``text`` itself."""
    if "\r" not in text or text.count("\r") != text.count("\r\n"):
        return text
    return text.replace("\r\n", "\n")


def _check_aliases(node, limits: Limits, pos, error) -> None:
    """Before anything is built: refuse recursive aliases and documents whose aliases would add
    more than ``limits.max_alias_values`` values. Sizes are memoised per node, so a billion-laughs
    document is measured in time proportional to its text, and a document without aliases (each
    node reached once) never trips the limit."""
    sizes: dict[int, int] = {}
    on_stack: set[int] = set()
    stack: list[tuple[object, bool]] = [(node, False)]
    while stack:
        cur, done = stack.pop()
        key = id(cur)
        if done:
            on_stack.discard(key)
            sizes[key] = 1 + sum(sizes[id(k)] for k in _children(cur))
            if sizes[key] - len(sizes) > limits.max_alias_values:
                raise Abort(error(
                    "IN007",
                    f"document expands to more than {limits.max_alias_values:,} extra values through YAML "
                    "aliases (an alias bomb?); refusing to expand it",
                    pos(node.start_mark),
                ))
            continue
        if key in sizes:
            continue
        if key in on_stack:
            raise Abort(error("IN007", "recursive YAML alias (a value contains itself)", pos(cur.start_mark)))
        on_stack.add(key)
        stack.append((cur, True))
        for child in _children(cur):
            stack.append((child, False))


def _children(node) -> list:
    if isinstance(node, SequenceNode):
        return list(node.value)
    if isinstance(node, MappingNode):
        out = []
        for k, v in node.value:
            out.append(k)
            out.append(v)
        return out
    return []
