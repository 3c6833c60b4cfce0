"""YAML as YuniKorn reads it: Go's yaml.v3 decoder in strict mode (yunikorn-core
``pkg/common/configs/config.go``: ``ParseAndValidateConfig``).

ruamel.yaml gives us the node tree (same grammar as yaml.v3 for everything a queue config uses);
this module re-creates what ``decoder.KnownFields(true); decoder.Decode(&SchedulerConfig{})`` does
with it, error for error:

* scalars resolve with yaml.v3's rules (``resolve.go``), not YAML 1.2's: ``0x10`` is an int,
  ``yes`` is a string that a ``bool`` field still accepts, a quoted ``"5"`` is a string that a
  ``uint64`` field rejects, and a string field takes the scalar's text verbatim (``memory: 1.50``
  stays ``"1.50"``);
* ``line <n>: field <key> not found in type configs.<Type>``, ``line <n>: cannot unmarshal !!str
  `bogus` into bool``, ``line <n>: mapping key "x" already defined at line <m>``: the texts of
  ``decode.go``, with yaml.v3's line numbers (1-based, counted in the queues.yaml text);
* ``null`` leaves Go's zero value (a nil map / slice / pointer), and a null *item* of a list is
  dropped; a null map value becomes ``""``.

Decoding never stops at the first error (YuniKorn's does): every problem is recorded and the
decoded value keeps whatever could be read, so the validator can still run.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.nodes import MappingNode, ScalarNode, SequenceNode

# ----------------------------------------------------------------------------- nodes ----------

SEQ, MAP, SCALAR = "seq", "map", "scalar"
STR, INT, FLOAT, BOOL, NULL, TIMESTAMP, MERGE = "!!str", "!!int", "!!float", "!!bool", "!!null", "!!timestamp", "!!merge"
_LONG = "tag:yaml.org,2002:"


@dataclass(eq=False)
class YNode:
    """A YAML node as yaml.v3 sees it: kind, short tag, raw text, style, 0-based position."""

    kind: str
    tag: str
    value: str = ""
    quoted: bool = False  # any non-plain scalar style (quoted, literal, folded)
    line: int = 0
    column: int = 0
    items: list = field(default_factory=list)  # seq: [YNode]; map: [(YNode, YNode)]


class NodeLimitError(Exception):
    pass


def short_tag(tag: str | None) -> str:
    tag = str(tag or "")
    if tag.startswith(_LONG):
        return "!!" + tag[len(_LONG):]
    return tag


def make_yaml() -> YAML:
    try:
        return YAML(typ="safe", pure=False)
    except Exception:  # pragma: no cover - no C extension
        return YAML(typ="safe", pure=True)


def from_ruamel(node, *, max_depth: int = 200, max_nodes: int = 3_000_000) -> YNode:
    """Convert a composed ruamel node (aliases share nodes: converted once, shared again)."""
    memo: dict[int, YNode] = {}
    count = [0]
    resolver = make_yaml().resolver
    implicit_tags: dict[str, str] = {}

    def implicit_tag(value: str) -> str:
        tag = implicit_tags.get(value)
        if tag is None:
            tag = resolver.resolve(ScalarNode, value, (True, False))
            tag = implicit_tags[value] = str(getattr(tag, "value", tag))
        return tag

    def conv(n, depth: int) -> YNode:
        key = id(n)
        if key in memo:
            return memo[key]
        if depth > max_depth:
            raise NodeLimitError(f"nesting deeper than {max_depth} levels")
        count[0] += 1
        if count[0] > max_nodes:
            raise NodeLimitError(f"more than {max_nodes:,} YAML nodes")
        line, col = n.start_mark.line, n.start_mark.column
        tag = getattr(n.tag, "value", n.tag)
        if isinstance(n, ScalarNode):
            quoted = bool(n.style)
            if quoted:
                t = short_tag(tag) if short_tag(tag) != STR else STR
            else:
                explicit = str(tag) != implicit_tag(n.value)
                if explicit:
                    t = short_tag(tag)
                else:
                    t = go_resolve(n.value)[0]
            out = YNode(SCALAR, t, n.value, quoted, line, col)
            memo[key] = out
            return out
        if isinstance(n, SequenceNode):
            out = YNode(SEQ, "!!seq", "", False, line, col)
            memo[key] = out
            out.items = [conv(c, depth + 1) for c in n.value]
            return out
        if isinstance(n, MappingNode):
            out = YNode(MAP, "!!map", "", False, line, col)
            memo[key] = out
            out.items = [(conv(k, depth + 1), conv(v, depth + 1)) for k, v in n.value]
            return out
        out = YNode(SCALAR, NULL, "", False, line, col)  # pragma: no cover
        memo[key] = out
        return out

    return conv(node, 0)


def from_data(data: Any, positions: dict, value_positions: dict, path: tuple = (), at=(0, 0)) -> YNode:
    """A YNode tree rebuilt from already-parsed data (when the source text is not available, e.g.
    stdin): raw texts are approximated from the Python values; positions come from the loader."""

    def pos(p: tuple, value: bool) -> tuple[int, int]:
        hit = (value_positions if value else positions).get(p) or positions.get(p)
        return (hit.line - 1, hit.column - 1) if hit is not None else at

    line, col = pos(path, True) if path else at
    if isinstance(data, dict):
        out = YNode(MAP, "!!map", "", False, line, col)
        for k, v in data.items():
            kp = path + (k,)
            kl, kc = pos(kp, False)
            out.items.append((YNode(SCALAR, STR, str(k), False, kl, kc), from_data(v, positions, value_positions, kp)))
        return out
    if isinstance(data, list):
        out = YNode(SEQ, "!!seq", "", False, line, col)
        out.items = [from_data(v, positions, value_positions, path + (i,)) for i, v in enumerate(data)]
        return out
    if data is None:
        return YNode(SCALAR, NULL, "", False, line, col)
    if isinstance(data, bool):
        return YNode(SCALAR, BOOL, "true" if data else "false", False, line, col)
    if isinstance(data, int):
        return YNode(SCALAR, INT, str(data), False, line, col)
    if isinstance(data, float):
        return YNode(SCALAR, FLOAT, getattr(data, "raw", repr(data)), False, line, col)
    text = str(data)
    # a string the loader produced from a plain scalar that yaml.v3 would resolve differently is
    # unusual; treat it as quoted (the loader turns plain ints/bools/nulls into Python values)
    return YNode(SCALAR, STR, text, True, line, col)


# --------------------------------------------------------------------------- resolve.go -------

_FLOAT_RE = re.compile(r"^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$")
_TIMESTAMP_RE = re.compile(
    r"^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}"
    r"([Tt ][0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}(\.[0-9]{1,9})?(Z|[-+][0-9]{2}:[0-9]{2})?)?$"
)
_RESOLVE_MAP = {
    "true": (BOOL, True), "True": (BOOL, True), "TRUE": (BOOL, True),
    "false": (BOOL, False), "False": (BOOL, False), "FALSE": (BOOL, False),
    "": (NULL, None), "~": (NULL, None), "null": (NULL, None), "Null": (NULL, None), "NULL": (NULL, None),
    ".nan": (FLOAT, math.nan), ".NaN": (FLOAT, math.nan), ".NAN": (FLOAT, math.nan),
    ".inf": (FLOAT, math.inf), ".Inf": (FLOAT, math.inf), ".INF": (FLOAT, math.inf),
    "+.inf": (FLOAT, math.inf), "+.Inf": (FLOAT, math.inf), "+.INF": (FLOAT, math.inf),
    "-.inf": (FLOAT, -math.inf), "-.Inf": (FLOAT, -math.inf), "-.INF": (FLOAT, -math.inf),
    "<<": (MERGE, "<<"),
}
INT64_MAX, INT64_MIN, UINT64_MAX = 2**63 - 1, -(2**63), 2**64 - 1


def _go_parse_int(s: str, signed: bool) -> int | None:
    """``strconv.ParseInt(s, 0, 64)`` / ``ParseUint``: sign (signed only), 0x / 0o / 0b / leading-0 octal."""
    if not s:
        return None
    neg = False
    body = s
    if body[0] in "+-":
        if not signed:
            return None
        neg = body[0] == "-"
        body = body[1:]
    base = 10
    low = body.lower()
    if low.startswith("0x"):
        base, body = 16, body[2:]
    elif low.startswith("0o"):
        base, body = 8, body[2:]
    elif low.startswith("0b"):
        base, body = 2, body[2:]
    elif len(body) > 1 and body[0] == "0":
        base, body = 8, body[1:]
    if not body or not all(c in "0123456789abcdefABCDEF"[: base if base <= 10 else 22] for c in body):
        return None
    try:
        value = int(body, base)
    except ValueError:
        return None
    value = -value if neg else value
    if signed and not INT64_MIN <= value <= INT64_MAX:
        return None
    if not signed and not 0 <= value <= UINT64_MAX:
        return None
    return value


def go_resolve(text: str) -> tuple[str, Any]:
    """yaml.v3 ``resolve("", text)`` for a plain scalar: (short tag, value)."""
    if text in _RESOLVE_MAP:
        return _RESOLVE_MAP[text]
    first = text[0] if text else ""
    if first == ".":
        try:
            return FLOAT, float(text)
        except ValueError:
            return STR, text
    if first and (first.isdigit() and first.isascii() or first in "+-"):
        if _TIMESTAMP_RE.match(text):
            return TIMESTAMP, text
        plain = text.replace("_", "")
        v = _go_parse_int(plain, True)
        if v is not None:
            return INT, v
        v = _go_parse_int(plain, False)
        if v is not None:
            return INT, v
        if _FLOAT_RE.match(plain):
            try:
                return FLOAT, float(plain)
            except ValueError:  # pragma: no cover
                pass
        for prefix, base in (("0b", 2), ("-0b", 2), ("0o", 8), ("-0o", 8)):
            if plain.startswith(prefix):
                digits = plain[len(prefix):]
                try:
                    v = int(digits, base)
                except ValueError:
                    break
                return INT, -v if prefix.startswith("-") else v
    return STR, text


def resolved(n: YNode) -> tuple[str, Any]:
    """(tag, value) of a scalar as ``decoder.scalar`` sees it."""
    if n.quoted or n.tag == STR:
        return STR, n.value
    if n.tag in (INT, FLOAT, BOOL, NULL, TIMESTAMP, MERGE, ""):
        return go_resolve(n.value)
    return n.tag, n.value  # custom tags: not resolvable, the text is the value


# ------------------------------------------------------------------------------ types ---------
# Go types of the config structs (pkg/common/configs/config.go at yunikorn-core be3bb48).

T_STR, T_BOOL, T_PBOOL, T_UINT, T_FLOAT = ("string",), ("bool",), ("*bool",), ("uint64",), ("float64",)


def T_STRUCT(name):  # noqa: N802
    return ("struct", name)


def T_PSTRUCT(name):  # noqa: N802
    return ("*struct", name)


def T_LIST(elem):  # noqa: N802
    return ("list", elem)


def T_MAP(elem):  # noqa: N802
    return ("map", elem)


STRUCTS: dict[str, dict[str, tuple]] = {
    "SchedulerConfig": {"partitions": T_LIST(T_STRUCT("PartitionConfig")), "checksum": T_STR},
    "PartitionConfig": {
        "name": T_STR, "queues": T_LIST(T_STRUCT("QueueConfig")),
        "placementrules": T_LIST(T_STRUCT("PlacementRule")), "limits": T_LIST(T_STRUCT("Limit")),
        "preemption": T_STRUCT("PartitionPreemptionConfig"), "nodesortpolicy": T_STRUCT("NodeSortingPolicy"),
        "usergroupresolver": T_STRUCT("UserGroupResolver"),
    },
    "UserGroupResolver": {"type": T_STR},
    "PartitionPreemptionConfig": {"enabled": T_PBOOL, "quotapreemptionenabled": T_PBOOL},
    "QueueConfig": {
        "name": T_STR, "parent": T_BOOL, "resources": T_STRUCT("Resources"), "maxapplications": T_UINT,
        "properties": T_MAP(T_STR), "adminacl": T_STR, "submitacl": T_STR,
        "childtemplate": T_STRUCT("ChildTemplate"), "queues": T_LIST(T_STRUCT("QueueConfig")),
        "limits": T_LIST(T_STRUCT("Limit")),
    },
    "ChildTemplate": {"maxapplications": T_UINT, "properties": T_MAP(T_STR), "resources": T_STRUCT("Resources")},
    "Resources": {"guaranteed": T_MAP(T_STR), "max": T_MAP(T_STR)},
    "PlacementRule": {
        "name": T_STR, "create": T_BOOL, "filter": T_STRUCT("Filter"), "parent": T_PSTRUCT("PlacementRule"),
        "value": T_STR,
    },
    "Filter": {"type": T_STR, "users": T_LIST(T_STR), "groups": T_LIST(T_STR)},
    "Limit": {
        "limit": T_STR, "users": T_LIST(T_STR), "groups": T_LIST(T_STR), "maxresources": T_MAP(T_STR),
        "maxapplications": T_UINT,
    },
    "NodeSortingPolicy": {"type": T_STR, "resourceweights": T_MAP(T_FLOAT)},
}


def go_type(t: tuple) -> str:
    kind = t[0]
    if kind in ("struct", "*struct"):
        return f"configs.{t[1]}"
    if kind == "list":
        return "[]" + go_type(t[1])
    if kind == "map":
        return "map[string]" + go_type(t[1])
    if kind == "*bool":
        return "bool"
    return kind


# ----------------------------------------------------------------------------- decoding -------

@dataclass(frozen=True)
class DecodeError:
    kind: str  # "unknown-field" | "type" | "duplicate-key"
    path: tuple  # document path of the offending key / value
    line: int  # yaml.v3's line (1-based, in the queues.yaml text)
    column: int  # 0-based column of that node, for positioning
    message: str  # yaml.v3's text for this error, e.g. "line 5: field x not found in type configs.Queue"
    key: str = ""  # the unknown key / the type's field names (for did-you-mean)
    struct: str = ""  # Go struct the key was looked up in


@dataclass
class Decoded:
    """The decoded document: plain data shaped like the Go structs, plus where every part came from."""

    data: dict
    errors: list[DecodeError]
    key_pos: dict[tuple, tuple[int, int]]  # path -> 0-based (line, column) of the key / list item
    value_pos: dict[tuple, tuple[int, int]]  # path -> 0-based (line, column) of the value


class _Decoder:
    def __init__(self, max_steps: int = 2_000_000):
        self.errors: list[DecodeError] = []
        self.key_pos: dict[tuple, tuple[int, int]] = {}
        self.value_pos: dict[tuple, tuple[int, int]] = {}
        self.steps = 0
        self.max_steps = max_steps

    def _tick(self):
        self.steps += 1
        if self.steps > self.max_steps:
            raise NodeLimitError("document expands to too many values through YAML aliases")

    def terror(self, n: YNode, out: tuple, path: tuple) -> None:
        tag = n.tag if n.kind == SCALAR else ("!!seq" if n.kind == SEQ else "!!map")
        if n.kind == SCALAR:
            tag = resolved(n)[0] if not n.quoted else STR
        value = ""
        if n.kind == SCALAR:
            v = n.value
            value = f" `{v[:7]}...`" if len(v) > 10 else f" `{v}`"
        self.errors.append(DecodeError(
            "type", path, n.line + 1, n.column,
            f"line {n.line + 1}: cannot unmarshal {tag}{value} into {go_type(out)}",
        ))

    def decode(self, n: YNode, t: tuple, path: tuple) -> tuple[bool, Any]:
        """(ok, value); not ok = Go's ``unmarshal`` returned false (the value keeps its zero)."""
        self._tick()
        self.value_pos.setdefault(path, (n.line, n.column))
        if n.kind == SCALAR and resolved(n)[0] == NULL:
            return False, None  # zero value; nil for maps, slices, pointers
        kind = t[0]
        if kind in ("struct", "*struct"):
            if n.kind == MAP:
                return True, self.struct(n, t[1], path)
            self.terror(n, t, path)
            return False, None
        if kind == "list":
            if n.kind != SEQ:
                self.terror(n, t, path)
                return False, None
            out = []
            for item in n.items:
                p = path + (len(out),)
                self.key_pos.setdefault(p, (item.line, item.column))
                ok, v = self.decode(item, t[1], p)
                if ok:
                    out.append(v)
            return True, out
        if kind == "map":
            if n.kind != MAP:
                self.terror(n, t, path)
                return False, None
            self.unique_keys(n, path)
            out: dict = {}
            merges = []
            for k, v in n.items:
                if k.kind == SCALAR and k.value == "<<" and not k.quoted:
                    merges.append(v)
                    continue
                ok, key = self.decode(k, T_STR, path + ("<key>",))
                if not ok:
                    continue
                p = path + (key,)
                self.key_pos.setdefault(p, (k.line, k.column))
                self.value_pos.setdefault(p, (v.line, v.column))
                ok, value = self.decode(v, t[1], p)
                if ok:
                    out[key] = value
                elif v.kind == SCALAR and resolved(v)[0] == NULL and key not in out:
                    out[key] = "" if t[1] == T_STR else 0.0 if t[1] == T_FLOAT else None
            for m in merges:
                for src in (m.items if m.kind == SEQ else [m]):
                    if src.kind != MAP:
                        continue
                    ok, extra = self.decode(src, t, path)
                    if ok:
                        for key, value in extra.items():
                            out.setdefault(key, value)
            return True, out
        # scalars
        if n.kind != SCALAR:
            self.terror(n, t, path)
            return False, None
        tag, value = resolved(n)
        if kind == "string":
            return True, n.value
        if kind in ("bool", "*bool"):
            if tag == BOOL:
                return True, value
            if tag == STR:
                if value in ("y", "Y", "yes", "Yes", "YES", "on", "On", "ON"):
                    return True, True
                if value in ("n", "N", "no", "No", "NO", "off", "Off", "OFF"):
                    return True, False
            self.terror(n, t, path)
            return False, None
        if kind == "uint64":
            if tag == INT and 0 <= value <= UINT64_MAX:
                return True, value
            if tag == FLOAT and not math.isnan(value) and 0 <= value < 2**64:
                return True, int(value)
            self.terror(n, t, path)
            return False, None
        if kind == "float64":
            if tag in (INT, FLOAT):
                return True, float(value)
            self.terror(n, t, path)
            return False, None
        self.terror(n, t, path)  # pragma: no cover
        return False, None

    def unique_keys(self, n: YNode, path: tuple) -> None:
        seen: dict[tuple, YNode] = {}
        for k, _v in n.items:
            ident = (k.kind, k.value)
            if k.kind != SCALAR:
                continue
            if ident in seen:
                first = seen[ident]
                self.errors.append(DecodeError(
                    "duplicate-key", path + (k.value,), k.line + 1, k.column,
                    f"line {k.line + 1}: mapping key {json.dumps(k.value, ensure_ascii=False)} already defined "
                    f"at line {first.line + 1}",
                    key=k.value,
                ))
            else:
                seen[ident] = k

    def struct(self, n: YNode, name: str, path: tuple) -> dict:
        fields = STRUCTS[name]
        self.unique_keys(n, path)
        out: dict = {}
        merges = []
        for k, v in n.items:
            if k.kind == SCALAR and k.value == "<<" and not k.quoted and k.tag in (MERGE, STR, ""):
                merges.append(v)
                continue
            if k.kind != SCALAR:
                self.terror(k, T_STR, path)
                continue
            if resolved(k)[0] == NULL:
                continue
            key = k.value
            p = path + (key,)
            if key not in fields:
                self.errors.append(DecodeError(
                    "unknown-field", p, k.line + 1, k.column,
                    f"line {k.line + 1}: field {key} not found in type configs.{name}", key=key, struct=name,
                ))
                self.key_pos.setdefault(p, (k.line, k.column))
                continue
            self.key_pos[p] = (k.line, k.column)
            self.value_pos[p] = (v.line, v.column)
            ok, value = self.decode(v, fields[key], p)
            out[key] = value if ok else out.get(key) if key in out else _zero(fields[key])
        for m in merges:
            for src in (m.items if m.kind == SEQ else [m]):
                if src.kind != MAP:
                    continue
                extra = self.struct(src, name, path)
                for key, value in extra.items():
                    out.setdefault(key, value)
        return out


def _zero(t: tuple):
    return {"string": "", "bool": False, "uint64": 0, "float64": 0.0}.get(t[0])


MAX_EXPANDED = 1_000_000  # values YAML aliases may add to a document


def expanded_size(root: YNode) -> tuple[int, int]:
    """(values once every alias is expanded, distinct nodes), computed without expanding.

    Raises NodeLimitError for a recursive alias (yaml.v3: "anchor ... value contains itself"):
    the walk would otherwise never end (found by the fuzzer, in a ConfigMap's queues.yaml)."""
    sizes: dict[int, int] = {}
    on_path: set[int] = set()
    stack = [(root, False)]
    while stack:
        n, done = stack.pop()
        if id(n) in sizes:
            continue
        kids = n.items if n.kind == SEQ else [x for kv in n.items for x in kv] if n.kind == MAP else []
        if done:
            on_path.discard(id(n))
            sizes[id(n)] = min(1 + sum(sizes.get(id(k), 0) for k in kids), 10**12)
            continue
        if id(n) in on_path:
            raise NodeLimitError("recursive YAML alias: an anchor's value contains itself")
        on_path.add(id(n))
        stack.append((n, True))
        stack.extend((k, False) for k in kids if id(k) not in sizes)
    return sizes.get(id(root), 1), max(1, len(sizes))


def decode_document(root: YNode | None) -> Decoded:
    """Decode a document node into ``SchedulerConfig``-shaped data (``{}`` for an empty document).

    Raises NodeLimitError for a document that expands beyond ``MAX_EXPANDED`` values (an alias bomb)."""
    expanded, distinct = expanded_size(root) if root is not None else (1, 1)
    if expanded - distinct > MAX_EXPANDED:  # only what aliases add: a big config without them is fine
        raise NodeLimitError(f"document expands to more than {MAX_EXPANDED:,} extra values through YAML aliases "
                             "(an alias bomb?)")
    dec = _Decoder(max_steps=4 * (MAX_EXPANDED + distinct))
    if root is None or (root.kind == SCALAR and resolved(root)[0] == NULL):
        return Decoded({}, [], {}, {})
    if root.kind != MAP:
        dec.terror(root, T_STRUCT("SchedulerConfig"), ())
        return Decoded({}, dec.errors, dec.key_pos, dec.value_pos)
    data = dec.struct(root, "SchedulerConfig", ())
    return Decoded(data, dec.errors, dec.key_pos, dec.value_pos)


def struct_fields(name: str) -> list[str]:
    return list(STRUCTS.get(name, {}))
