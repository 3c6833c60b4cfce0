"""YAML/JSON text -> Documents with positions, defensively.

We compose YAML nodes with ruamel.yaml (libyaml-backed when available) and build plain Python
data ourselves, so we control what hostile input can do: nesting depth, alias expansion
(billion laughs), duplicate keys, recursive aliases.  Every problem is a Diagnostic with a
position; nothing here raises on bad input.
"""

from __future__ import annotations

from dataclasses import dataclass

from ruamel.yaml import YAML
from ruamel.yaml.nodes import MappingNode, ScalarNode, SequenceNode

from quotactl.diagnostics import Diagnostic, Severity
from quotactl.load.document import Document, Pos, YamlFloat


@dataclass(frozen=True)
class Limits:
    max_bytes: int = 16 * 1024 * 1024
    # JSON snapshots parsed by the json module (explain, preempt, schedule) may be larger.
    max_json_bytes: int = 512 * 1024 * 1024
    max_depth: int = 200
    max_nodes: int = 3_000_000  # after alias expansion, per document


DEFAULT_LIMITS = Limits()

_MERGE = "tag:yaml.org,2002:merge"


class _Abort(Exception):
    def __init__(self, diag: Diagnostic):
        self.diag = diag


def _tag(node) -> str:
    tag = node.tag
    return str(getattr(tag, "value", tag) or "")


def _make_yaml() -> YAML:
    try:
        return YAML(typ="safe", pure=False)
    except Exception:  # pragma: no cover - no C extension
        return YAML(typ="safe", pure=True)


def parse_documents(
    text: str,
    file: str,
    *,
    limits: Limits = DEFAULT_LIMITS,
    line_offset: int = 0,
    column_offset: int = 0,
    fast_json: bool = False,
) -> tuple[list[Document], list[Diagnostic]]:
    """Parse all documents of ``text``. ``*_offset`` shift positions (YAML embedded in YAML).

    With ``fast_json``, a JSON text is parsed by the json module and its positions are computed
    only if something asks for one (big ``kubectl get -o json`` snapshots load in a fraction of
    the time). Lint leaves it off: it wants duplicate-key checks and every position anyway.
    """
    if fast_json and not line_offset and text.lstrip()[:1] in ("{", "["):
        doc = _fast_json(text, file, limits)
        if doc is not None:
            return [doc], []
    docs: list[Document] = []
    diags: list[Diagnostic] = []

    def pos(mark) -> Pos:
        return Pos(mark.line + 1 + line_offset, mark.column + 1 + (column_offset if column_offset else 0))

    def error(code: str, message: str, at: Pos, hint: str | None = None) -> Diagnostic:
        return Diagnostic(code, Severity.ERROR, message, file, at.line, at.column, hint=hint, input_error=True)

    if "\x00" in text:
        first = text.index("\x00")
        line = text.count("\n", 0, first) + 1 + line_offset
        diags.append(error("IN005", "binary content (NUL byte): not a YAML or JSON file", Pos(line, 1)))
        return docs, diags

    yaml = _make_yaml()
    index = 0
    try:
        for node in yaml.compose_all(text):
            if node is None:
                index += 1
                continue
            try:
                _check_shape(node, limits, pos, error)
                builder = _Builder(file, index, pos, limits)
                data = builder.build(node)
                doc = Document(file, index, data, builder.positions, builder.value_positions, pos(node.start_mark),
                               source_text=text if not line_offset else None)
                diags.extend(builder.diags)
                docs.append(doc)
            except _Abort as abort:
                diags.append(abort.diag)
            index += 1
    except RecursionError:
        diags.append(error("IN006", f"nesting too deep to parse (more than {limits.max_depth} levels)", Pos(1 + line_offset, 1)))
    except Exception as exc:  # ruamel raises many error classes; all are syntax errors to us
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        at = pos(mark) if mark is not None else Pos(1 + line_offset, 1)
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        context = getattr(exc, "context", None)
        msg = f"YAML syntax error: {problem}"
        if context and context not in (problem or ""):
            msg += f" ({context})"
        diags.append(error("IN001", msg, at))
    return docs, diags


def _fast_json(text: str, file: str, limits: Limits) -> Document | None:
    import json

    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None  # let the YAML path report the problem with a position

    def positions() -> tuple[dict, dict]:
        docs, _ = parse_documents(text, file, limits=limits)
        return (docs[0].positions, docs[0].value_positions) if docs else ({}, {})

    return Document(file, 0, data, lazy_positions=positions, source_text=text)


def _check_shape(node, limits: Limits, pos, error) -> None:
    """Iteratively measure depth and alias-expanded size before building anything."""
    sizes: dict[int, int] = {}
    depths: dict[int, int] = {}
    on_stack: set[int] = set()
    stack: list[tuple[object, int, bool]] = [(node, 1, False)]
    while stack:
        cur, depth, done = stack.pop()
        key = id(cur)
        if done:
            on_stack.discard(key)
            kids = _children(cur)
            sizes[key] = 1 + sum(sizes[id(k)] for k in kids)
            depths[key] = 1 + max((depths[id(k)] for k in kids), default=0)
            if sizes[key] > limits.max_nodes:
                raise _Abort(
                    error(
                        "IN007",
                        f"document expands to more than {limits.max_nodes:,} values through YAML aliases "
                        "(an alias bomb?); refusing to expand it",
                        pos(node.start_mark),
                    )
                )
            continue
        if key in sizes:
            continue
        if key in on_stack:
            raise _Abort(error("IN007", "recursive YAML alias (a value contains itself)", pos(cur.start_mark)))
        if depth > limits.max_depth:
            raise _Abort(
                error(
                    "IN006",
                    f"nesting deeper than {limits.max_depth} levels; Kubernetes objects are never this deep",
                    pos(cur.start_mark),
                )
            )
        on_stack.add(key)
        stack.append((cur, depth, True))
        for child in _children(cur):
            stack.append((child, depth + 1, False))


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


class _Builder:
    def __init__(self, file: str, index: int, pos, limits: Limits):
        self.file = file
        self.index = index
        self.pos = pos
        self.positions: dict[tuple, Pos] = {}
        self.value_positions: dict[tuple, Pos] = {}
        self.diags: list[Diagnostic] = []

    def build(self, node, path: tuple = ()):
        if isinstance(node, ScalarNode):
            return _scalar(node)
        if isinstance(node, SequenceNode):
            out = []
            for i, child in enumerate(node.value):
                p = path + (i,)
                self.positions[p] = self.value_positions[p] = self.pos(child.start_mark)
                out.append(self.build(child, p))
            return out
        if isinstance(node, MappingNode):
            return self._mapping(node, path)
        return None

    def _mapping(self, node, path: tuple) -> dict:
        out: dict = {}
        explicit: set = set()
        merges = []
        for knode, vnode in node.value:
            if isinstance(knode, ScalarNode) and (_tag(knode) == _MERGE or (knode.value == "<<" and not knode.style)):
                merges.append(vnode)
                continue
            if not isinstance(knode, ScalarNode):
                self.diags.append(
                    Diagnostic("IN008", Severity.ERROR, "mapping keys must be plain strings, not collections",
                               self.file, *_lc(self.pos(knode.start_mark)), input_error=True)
                )
                continue
            raw_key = _scalar(knode)
            key = raw_key if isinstance(raw_key, str) else _key_text(raw_key, knode.value)
            p = path + (key,)
            if key in explicit:
                first = self.positions.get(p)
                self.diags.append(
                    Diagnostic(
                        "IN008", Severity.ERROR,
                        f"duplicate key {key!r} in the same mapping"
                        + (f" (first at line {first.line}); the API server rejects it and YAML tools keep only one" if first else ""),
                        self.file, *_lc(self.pos(knode.start_mark)),
                        hint="remove one of the two entries",
                    )
                )
            explicit.add(key)
            self.positions[p] = self.pos(knode.start_mark)
            self.value_positions[p] = self.pos(vnode.start_mark)
            out[key] = self.build(vnode, p)
        # YAML merge keys (<<): explicit keys win, earlier merges win over later ones.
        for mnode in merges:
            sources = mnode.value if isinstance(mnode, SequenceNode) else [mnode]
            for src in sources:
                if not isinstance(src, MappingNode):
                    continue
                merged = self._mapping(src, path)
                for k, v in merged.items():
                    out.setdefault(k, v)
        return out


def _lc(p: Pos) -> tuple[int, int]:
    return p.line, p.column


def _key_text(value, raw: str) -> str:
    if value is None:
        return "null" if raw in ("", "~", "null", "Null", "NULL") else raw
    if isinstance(value, bool):
        return "true" if value else "false"
    return raw


def _scalar(node: ScalarNode):
    tag = _tag(node)
    text = node.value
    if node.style:  # quoted or block scalar: always a string
        return text
    if tag.endswith(":str") or not tag.startswith("tag:yaml.org,2002:"):
        return text
    if tag.endswith(":null"):
        return None
    if tag.endswith(":bool"):
        return text.lower() == "true"
    if tag.endswith(":int"):
        clean = text.replace("_", "")
        for base in (0, 10):
            try:
                return int(clean, base)
            except ValueError:
                continue
        return text
    if tag.endswith(":float"):
        clean = text.replace("_", "").lower()
        try:
            if clean in (".inf", "+.inf"):
                return YamlFloat(float("inf"), text)
            if clean == "-.inf":
                return YamlFloat(float("-inf"), text)
            if clean == ".nan":
                return YamlFloat(float("nan"), text)
            return YamlFloat(float(clean), text)
        except ValueError:
            return text
    return text  # timestamps, binary, custom tags: JSON sees them as strings
