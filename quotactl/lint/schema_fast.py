"""A yes/no validity check compiled once per schema: the fast path in front of jsonschema.

jsonschema builds a new validator per subschema and per object (``evolve``/``descend``), which
made it most of ``lint``'s time on a big file. Almost every object is valid, and proving that
needs no error messages, so each schema of ``schemas/`` is compiled into nested closures that
answer "valid?" only. An object they accept has no schema error; anything else (an invalid
object, or a schema keyword this compiler does not know) goes to jsonschema, whose errors are
the diagnostics. The check is conservative: when unsure it says "not proven valid".

The keyword semantics follow JSON Schema 2020-12 as jsonschema applies them (``integer`` accepts
an integral float, booleans are not numbers, keywords ignore instances of other types), plus
quotactl's two Kubernetes list keywords.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from functools import lru_cache
from pathlib import Path
from urllib.parse import urldefrag, urljoin

from quotactl.lint.schema_formats import CHECKS, FormatProblem

SCHEMA_BASE_URI = "https://quotactl.dev/schemas/"

Check = Callable[[object], bool]

# Keywords that never make an instance invalid.
_ANNOTATIONS = frozenset({"$schema", "$id", "$defs", "$comment", "title", "description", "default", "examples",
                          "deprecated", "readOnly", "writeOnly"})


def schemas_root() -> Path:
    """The schemas directory: the source checkout's, or the copy installed with the package."""
    return Path(__file__).resolve().parents[1] / "schemas"


@lru_cache(maxsize=1)
def schema_documents() -> dict[str, dict]:
    """Every schema file by its URI (its ``$id``, or its path under the base URI)."""
    root = schemas_root()
    out = {}
    for path in sorted(Path(str(root)).rglob("*.json")):
        contents = json.loads(path.read_text(encoding="utf-8"))
        out[contents.get("$id") or SCHEMA_BASE_URI + path.relative_to(root).as_posix()] = contents
    return out


def resolve_ref(ref: str, base: str) -> tuple[object, str]:
    """The subschema ``ref`` points at from a schema whose document is ``base``, and its document."""
    uri, fragment = urldefrag(urljoin(base, ref))
    target: object = schema_documents()[uri]
    for part in fragment.lstrip("/").split("/") if fragment else ():
        part = part.replace("~1", "/").replace("~0", "~")
        target = target[int(part)] if isinstance(target, list) else target[part]
    return target, uri


@lru_cache(maxsize=64)
def valid_check(rel_path: str) -> Check | None:
    """The compiled check of the schema at ``rel_path`` under ``schemas/``, or None if absent."""
    uri = SCHEMA_BASE_URI + rel_path
    schema = schema_documents().get(uri)
    if schema is None:
        return None
    return _Compiler().compile(schema, uri)


# ----------------------------------------------------------------- Kubernetes list rules --------

def list_map_duplicates(keys: list, items: list, item_schema: object) -> Iterator[tuple[int, tuple, int]]:
    """(index, identity, first index) of each item whose ``keys`` repeat an earlier item's; a
    missing key takes the item schema's default, as the API server's list-map check does."""
    props = item_schema.get("properties", {}) if isinstance(item_schema, dict) else {}
    defaults = {k: props[k]["default"] for k in keys if isinstance(props.get(k), dict) and "default" in props[k]}
    seen: dict[tuple, int] = {}
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            continue
        ident = tuple(item.get(k, defaults.get(k)) for k in keys)
        if any(v is None or isinstance(v, (dict, list)) for v in ident):
            continue
        if ident in seen:
            yield i, ident, seen[ident]
        else:
            seen[ident] = i


def set_duplicates(items: list) -> Iterator[int]:
    """Indices of items equal to an earlier one (``x-kubernetes-list-type: set``)."""
    seen: list = []
    for i, item in enumerate(items):
        if item in seen:
            yield i
        else:
            seen.append(item)


# ------------------------------------------------------------------------------ types --------

def _is_integer(v) -> bool:
    if isinstance(v, bool):
        return False
    return isinstance(v, int) or (isinstance(v, float) and v.is_integer())


def _is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


_TYPES: dict[str, Check] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    "integer": _is_integer,
    "number": _is_number,
}


def _never(_value) -> bool:
    return False


class _Unsupported(Exception):
    """A keyword (or keyword value) the compiler leaves to jsonschema."""


class _Compiler:
    def __init__(self):
        self.done: dict[tuple[int, str], Check] = {}

    def compile(self, schema: object, base: str) -> Check:
        key = (id(schema), base)
        if key in self.done:
            return self.done[key]
        slot: list[Check] = []
        self.done[key] = lambda v: slot[0](v)  # a recursive $ref reaches the finished check
        try:
            check = self._compile(schema, base)
        except _Unsupported:
            check = _never
        slot.append(check)
        self.done[key] = check
        return check

    def _compile(self, schema: object, base: str) -> Check:
        if schema is True:
            return lambda v: True
        if not isinstance(schema, dict):
            raise _Unsupported
        checks = []
        for keyword, value in schema.items():
            if keyword in _ANNOTATIONS or keyword == "properties" and "additionalProperties" in schema:
                continue
            build = getattr(self, "_k_" + keyword.replace("-", "_").replace("$", ""), None)
            if build is None:
                raise _Unsupported
            checks.append(build(value, schema, base))
        checks = [c for c in checks if c is not None]
        if len(checks) == 1:
            return checks[0]
        return lambda v: all(c(v) for c in checks)

    # One builder per keyword; each returns a check (None when it can never fail).

    def _k_type(self, value, schema, base) -> Check:
        names = value if isinstance(value, list) else [value]
        if any(n not in _TYPES for n in names):
            raise _Unsupported
        tests = [_TYPES[n] for n in names]
        return tests[0] if len(tests) == 1 else (lambda v: any(t(v) for t in tests))

    def _k_ref(self, value, schema, base) -> Check:
        target, uri = resolve_ref(value, base)
        compiled = self.compile(target, uri)
        return lambda v: compiled(v)

    def _k_properties(self, value, schema, base) -> Check:
        props = [(name, self.compile(sub, base)) for name, sub in value.items()]
        return lambda v: not isinstance(v, dict) or all(c(v[n]) for n, c in props if n in v)

    def _k_additionalProperties(self, value, schema, base) -> Check:
        if "patternProperties" in schema:
            raise _Unsupported
        props = {name: self.compile(sub, base) for name, sub in schema.get("properties", {}).items()}
        extra = self.compile(value, base) if value is not False else None

        def check(v) -> bool:
            if not isinstance(v, dict):
                return True
            for k, item in v.items():
                known = props.get(k)
                if known is not None:
                    if not known(item):
                        return False
                elif extra is None or not extra(item):
                    return False
            return True
        return check

    def _k_required(self, value, schema, base) -> Check:
        return lambda v: not isinstance(v, dict) or all(k in v for k in value)

    def _k_items(self, value, schema, base) -> Check:
        if "prefixItems" in schema or not isinstance(value, (dict, bool)):
            raise _Unsupported
        item = self.compile(value, base)
        return lambda v: not isinstance(v, list) or all(item(x) for x in v)

    def _k_enum(self, value, schema, base) -> Check:
        strings = frozenset(x for x in value if isinstance(x, str))
        return lambda v: isinstance(v, str) and v in strings  # other types: jsonschema decides

    def _k_const(self, value, schema, base) -> Check:
        if not isinstance(value, str):
            raise _Unsupported
        return lambda v: isinstance(v, str) and v == value

    def _k_minimum(self, value, schema, base) -> Check:
        return lambda v: not _is_number(v) or v >= value

    def _k_maximum(self, value, schema, base) -> Check:
        return lambda v: not _is_number(v) or v <= value

    def _k_exclusiveMinimum(self, value, schema, base) -> Check:
        return lambda v: not _is_number(v) or v > value

    def _k_exclusiveMaximum(self, value, schema, base) -> Check:
        return lambda v: not _is_number(v) or v < value

    def _k_minLength(self, value, schema, base) -> Check:
        return lambda v: not isinstance(v, str) or len(v) >= value

    def _k_maxLength(self, value, schema, base) -> Check:
        return lambda v: not isinstance(v, str) or len(v) <= value

    def _k_minItems(self, value, schema, base) -> Check:
        return lambda v: not isinstance(v, list) or len(v) >= value

    def _k_maxItems(self, value, schema, base) -> Check:
        return lambda v: not isinstance(v, list) or len(v) <= value

    def _k_minProperties(self, value, schema, base) -> Check:
        return lambda v: not isinstance(v, dict) or len(v) >= value

    def _k_maxProperties(self, value, schema, base) -> Check:
        return lambda v: not isinstance(v, dict) or len(v) <= value

    def _k_pattern(self, value, schema, base) -> Check:
        regex = re.compile(value)
        return lambda v: not isinstance(v, str) or regex.search(v) is not None

    def _k_format(self, value, schema, base) -> Check | None:
        check = CHECKS.get(value)
        if check is None:
            return None  # an unknown format asserts nothing

        def conforms(v) -> bool:
            try:
                return bool(check(v))
            except FormatProblem:
                return False
        return conforms

    def _k_anyOf(self, value, schema, base) -> Check:
        branches = [self.compile(sub, base) for sub in value]
        return lambda v: any(b(v) for b in branches)

    def _k_allOf(self, value, schema, base) -> Check:
        branches = [self.compile(sub, base) for sub in value]
        return lambda v: all(b(v) for b in branches)

    def _k_x_kubernetes_list_map_keys(self, value, schema, base) -> Check:
        item_schema = schema.get("items") if isinstance(schema.get("items"), dict) else {}
        if "$ref" in item_schema:
            item_schema, _ = resolve_ref(item_schema["$ref"], base)
        return lambda v: not isinstance(v, list) or next(list_map_duplicates(value, v, item_schema), None) is None

    def _k_x_kubernetes_list_type(self, value, schema, base) -> Check | None:
        if value != "set":
            return None
        return lambda v: not isinstance(v, list) or next(set_duplicates(v), None) is None
