"""One composed YAML document -> plain Python data (and, when asked, a position for every path).

The first pass over a document builds data only: it checks nesting depth as it descends (so it
never recurses further than the limit), reports duplicate keys, and applies merge keys. The
positions of a document are built by a second pass over that document alone, only when
something asks for one (most objects of a big file never have a finding).
"""

from __future__ import annotations

from sys import intern

from ruamel.yaml.nodes import MappingNode, ScalarNode, SequenceNode

from quotactl.diagnostics import Diagnostic, Severity
from quotactl.load.composer import RESOLVED_TAGS, resolve_plain
from quotactl.load.document import Pos, YamlFloat

_MERGE = "tag:yaml.org,2002:merge"


class Abort(Exception):
    """The document cannot be used (too deep, alias bomb); its diagnostic says why."""

    def __init__(self, diag: Diagnostic):
        self.diag = diag


def node_tag(node) -> str:
    known = RESOLVED_TAGS.get(id(node.ctag))
    return known if known is not None else str(node.ctag or "")


class Builder:
    """Builds one document. ``record`` keeps positions (``positions``: where a mapping key or a
    list item starts; ``value_positions``: where the value starts)."""

    def __init__(self, file: str, pos, max_depth: int, record: bool):
        self.file = file
        self.pos = pos
        self.max_depth = max_depth
        self.positions: dict[tuple, Pos] | None = {} if record else None
        self.value_positions: dict[tuple, Pos] | None = {} if record else None
        self.diags: list[Diagnostic] = []

    def build(self, node, path: tuple = (), depth: int = 1):
        if depth > self.max_depth:
            raise Abort(Diagnostic(
                "IN006", Severity.ERROR,
                f"nesting deeper than {self.max_depth} levels; Kubernetes objects are never this deep",
                self.file, *_lc(self.pos(node.start_mark)), input_error=True))
        if isinstance(node, ScalarNode):
            return scalar(node)
        if isinstance(node, SequenceNode):
            out = []
            record = self.positions is not None
            for i, child in enumerate(node.value):
                p = path + (i,)
                if record:
                    self.positions[p] = self.value_positions[p] = self.pos(child.start_mark)
                out.append(self.build(child, p, depth + 1))
            return out
        if isinstance(node, MappingNode):
            return self._mapping(node, path, depth)
        return None

    def _mapping(self, node, path: tuple, depth: int) -> dict:
        out: dict = {}
        merges = []
        record = self.positions is not None
        for knode, vnode in node.value:
            if isinstance(knode, ScalarNode) and (node_tag(knode) == _MERGE or (knode.value == "<<" and not knode.style)):
                merges.append(vnode)
                continue
            if not isinstance(knode, ScalarNode):
                self.diags.append(
                    Diagnostic("IN008", Severity.ERROR, "mapping keys must be plain strings, not collections",
                               self.file, *_lc(self.pos(knode.start_mark)), input_error=True)
                )
                continue
            key = _key_of(knode)
            p = path + (key,)
            if key in out:
                self._duplicate(key, knode, node)
            if record:
                self.positions[p] = self.pos(knode.start_mark)
                self.value_positions[p] = self.pos(vnode.start_mark)
            out[key] = self.build(vnode, p, depth + 1)
        # YAML merge keys (<<): explicit keys win, earlier merges win over later ones.
        for mnode in merges:
            sources = mnode.value if isinstance(mnode, SequenceNode) else [mnode]
            for src in sources:
                if not isinstance(src, MappingNode):
                    continue
                merged = self._mapping(src, path, depth)
                for k, v in merged.items():
                    out.setdefault(k, v)
        return out

    def _duplicate(self, key: str, knode, mapping) -> None:
        """``key`` again in ``mapping`` at ``knode``; the message names the previous occurrence."""
        first = None
        for earlier, _ in mapping.value:
            if earlier is knode:
                break
            if isinstance(earlier, ScalarNode) and _key_of(earlier) == key:
                first = self.pos(earlier.start_mark)
        self.diags.append(
            Diagnostic(
                "IN008", Severity.ERROR,
                f"duplicate key {key!r} in the same mapping"
                + (f" (first at line {first.line}); the API server rejects it and YAML tools keep only one" if first else ""),
                self.file, *_lc(self.pos(knode.start_mark)),
                hint="remove one of the two entries",
            )
        )


def _lc(p: Pos) -> tuple[int, int]:
    return p.line, p.column


def _key_of(knode) -> str:
    raw_key = scalar(knode)
    return raw_key if isinstance(raw_key, str) else _key_text(raw_key, knode.value)


def _key_text(value, raw: str) -> str:
    if value is None:
        return "null" if raw in ("", "~", "null", "Null", "NULL") else raw
    if isinstance(value, bool):
        return "true" if value else "false"
    return raw


def scalar(node: ScalarNode):
    if node.style:  # quoted or block scalar: always a string
        return _shared(node.value)
    return typed(node.value, node_tag(node))


def plain(text: str):
    """The value of a plain (unquoted) scalar, tagged by the same resolver the composer uses."""
    return typed(text, RESOLVED_TAGS[id(resolve_plain(text))])


def key_of_plain(text: str) -> str:
    """A plain mapping key as the builder names it (``_key_of``)."""
    value = plain(text)
    return value if isinstance(value, str) else _key_text(value, text)


def typed(text: str, tag: str):
    """A plain scalar's Python value for its resolved ``tag``."""
    if tag.endswith(":str") or not tag.startswith("tag:yaml.org,2002:"):
        return _shared(text)
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
        return _float(text)
    return text  # timestamps, binary, custom tags: JSON sees them as strings


def _shared(text: str) -> str:
    """One string object per distinct short text: a big input repeats its keys and most values
    (apiVersion, kind, label keys) once per object, and each copy costs about 60 bytes."""
    return intern(text) if len(text) <= 64 else text


def _float(text: str):
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
