"""YuniKorn objects of a run -> the scheduler configs YuniKorn would load, with exact positions.

Two input forms (yunikorn-core ``configs/config.go``, yunikorn-k8shim ``pkg/conf/schedulerconf.go``):

* a bare ``queues.yaml`` (the loader's ``SchedulerConfig`` object);
* the ``yunikorn-defaults`` / ``yunikorn-configs`` ConfigMaps, merged in that order per namespace
  (their ``data`` may also come alone: a ``queues.yaml: |`` mapping is yunikorn-configs' data, the Helm
  chart's ``yunikornDefaults`` values are yunikorn-defaults' data, as its template renders them)
  (``FlattenConfigMaps``: ``data`` as-is, ``binaryData`` ``*.gz`` gunzipped), the queue document
  taken from ``<service.policyGroup>.yaml`` (default ``queues.yaml``).  A ConfigMap with another
  name that carries a queue document is linted on its own (with a note).

A partition fragment (a document with a partition's queues or placement rules but no ``partitions``)
is linted as partition ``default``.  As a queues.yaml YuniKorn rejects it, which YK011 says unless
the fragments option says the rest of the partition lives elsewhere (lint's --no-cross-refs); in that
mode a partition without queues is not an error either.

Positions: every document path of the queues document maps back to ``file:line:column``.  For a
ConfigMap whose value is a literal block scalar (``queues.yaml: |``) that is exact: embedded line
*n* is the file line after the indicator plus *n*, columns shift by the block's indentation.  For a
quoted, folded or gzipped value lines cannot be mapped, and every position falls back to the key.
"""

from __future__ import annotations

import base64
import gzip
import os
import zlib
from dataclasses import dataclass, field

from quotactl.load.composer import compose_all
from quotactl.load.document import Pos, get_in
from quotactl.load.embedded import literal_block_offsets
from quotactl.load.objects import HELM_DEFAULTS_KEY, PARTITION_PARTS, KubeObject
from quotactl.load.yunikorn_yaml import (
    SCALAR,
    Decoded,
    DecodeError,
    NodeLimitError,
    YNode,
    decode_document,
    from_data,
    from_ruamel,
)
from quotactl.model.yunikorn import SchedulerConfig
from quotactl.model.yunikorn_build import build_config

# The kinds of the objects a scheduler config is read from (load.objects names the envelope-less ones).
CONFIG_KINDS = ("SchedulerConfig", "ConfigMap", "ConfigMapData", "PartitionFragment")
CONFIGS_NAME = "yunikorn-configs"
DEFAULTS_NAME = "yunikorn-defaults"
POLICY_GROUP_KEY = "service.policyGroup"
DEFAULT_POLICY_GROUP = "queues"

DEFAULT_CONFIG_TEXT = """partitions:
  - name: default
    placementrules:
      - name: tag
        value: namespace
        create: true
    queues:
      - name: root
        submitacl: '*'
"""


# ------------------------------------------------------------------------------ results -------

@dataclass
class PosMap:
    """Embedded (0-based line, column) -> file position."""

    file: str
    line_base: int = 0  # file line (0-based) of embedded line 0
    col_base: int = 0  # columns added to every embedded column
    exact: bool = True
    fallback: Pos = Pos(1, 1)

    def pos(self, line: int, column: int) -> Pos:
        if not self.exact:
            return self.fallback
        return Pos(self.line_base + line + 1, self.col_base + column + 1)


@dataclass(frozen=True)
class LoadNote:
    """Something about how YuniKorn reads the input (not a validation problem)."""

    kind: str  # "syntax" | "missing-key" | "ignored-key" | "binary-data" | "empty" | "extra-documents" | "other-name"
    message: str
    file: str
    line: int
    column: int
    severity: str | None = None  # overrides the rule's default
    hint: str | None = None


@dataclass
class YuniKornInput:
    """One scheduler config as YuniKorn would load it, and where each part of it came from."""

    config: SchedulerConfig
    decoded: Decoded
    posmap: PosMap
    origin: str  # "queues.yaml file", "ConfigMap/yunikorn-configs", "built-in default config"
    file: str
    kind: str  # "SchedulerConfig" | "ConfigMap" | "default"
    key: str = "queues.yaml"  # the ConfigMap key holding the document
    notes: list[LoadNote] = field(default_factory=list)
    text: str | None = None  # the queues document, when known
    fragment: bool = False  # one part of a configuration whose other parts live elsewhere

    @property
    def decode_errors(self) -> list[DecodeError]:
        return self.decoded.errors

    def pos(self, path: tuple, value: bool = False) -> Pos:
        """File position of a document path (its nearest ancestor that has one)."""
        table = self.decoded.value_pos if value else self.decoded.key_pos
        p = tuple(path)
        while p:
            hit = table.get(p) or self.decoded.key_pos.get(p) or self.decoded.value_pos.get(p)
            if hit is not None:
                return self.posmap.pos(*hit)
            p = p[:-1]
        return self.posmap.pos(0, 0) if self.posmap.exact else self.posmap.fallback


# --------------------------------------------------------------------------- source text ------

def source_text(obj: KubeObject) -> str | None:
    """The full text of the file an object came from (for exact scalars and block positions)."""
    doc = obj.ref.doc
    text = getattr(doc, "text", None) or getattr(doc, "source_text", None)
    if isinstance(text, str):
        return text
    name = obj.ref.file
    if not name or name.startswith("<") or not os.path.isfile(name):
        return None
    try:
        with open(name, "rb") as fh:
            raw = fh.read()
    except OSError:
        return None
    for bom, enc in ((b"\xef\xbb\xbf", "utf-8-sig"), (b"\xff\xfe", "utf-16"), (b"\xfe\xff", "utf-16")):
        if raw.startswith(bom):
            try:
                return raw.decode(enc)
            except UnicodeDecodeError:
                return None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return None


class _ComposedText:
    """The document nodes of one text, composed once and only as far as asked: every queues
    document of a multi-document file asks for its own, and composing from the start each time
    was quadratic (400 documents: over 20 s; found by the fuzzer)."""

    def __init__(self, text: str):
        self.text = text
        self.nodes: list = []
        self._rest = compose_all(text)

    def document(self, index: int):
        while self._rest is not None and len(self.nodes) <= index:
            try:
                self.nodes.append(next(self._rest))
            except Exception:  # the end, or a syntax error: no document from there on
                self._rest = None
        return self.nodes[index] if index < len(self.nodes) else None


_LAST_COMPOSED: list[_ComposedText] = []  # the text asked about last (objects come file by file)


def _composed(text: str) -> _ComposedText:
    if not _LAST_COMPOSED or _LAST_COMPOSED[0].text != text:
        _LAST_COMPOSED[:] = [_ComposedText(text)]
    return _LAST_COMPOSED[0]


def _document_node(obj: KubeObject, text: str):
    """The ruamel node of the object (document ``doc.index``, then ``ref.base``), or None."""
    found = _composed(text).document(obj.ref.doc.index)
    if found is None:
        return None
    cur = found
    for part in obj.ref.base:
        if isinstance(part, int):
            if not hasattr(cur, "value") or not isinstance(cur.value, list) or part >= len(cur.value):
                return None
            cur = cur.value[part]
        else:
            cur = _child(cur, part)
            if cur is None:
                return None
    start = obj.ref.pos()
    if (cur.start_mark.line + 1, cur.start_mark.column + 1) != (start.line, start.column) and obj.ref.base:
        return None
    return cur


def _child(node, key: str):
    value = getattr(node, "value", None)
    if not isinstance(value, list):
        return None
    for item in value:
        if isinstance(item, tuple) and getattr(item[0], "value", None) == key:
            return item[1]
    return None


def _key_node(node, key: str):
    value = getattr(node, "value", None)
    if not isinstance(value, list):
        return None
    for item in value:
        if isinstance(item, tuple) and getattr(item[0], "value", None) == key:
            return item[0]
    return None


# ------------------------------------------------------------------------------ loading -------

def load_inputs(objects: list[KubeObject], fragments: bool = False) -> list[YuniKornInput]:
    """Every scheduler config in the objects, in input order: bare configs one by one, the
    yunikorn-defaults / yunikorn-configs ConfigMaps merged per namespace.  ``fragments``: partition
    fragments are parts of a partition that lives elsewhere (no YK011, no YK102)."""
    found: list[tuple[int, YuniKornInput]] = []
    groups: dict[str | None, dict[str, list[tuple[int, KubeObject]]]] = {}
    for i, obj in enumerate(objects):
        if obj.kind in ("SchedulerConfig", "PartitionFragment"):
            found.append((i, _from_scheduler_config(obj, fragments)))
        elif obj.kind in ("ConfigMap", "ConfigMapData"):
            slot = _configmap_name(obj)
            groups.setdefault(obj.namespace, {}).setdefault(slot, []).append((i, obj))
    for _ns, slots in groups.items():
        defaults = slots.get(DEFAULTS_NAME, [])
        configs = slots.get(CONFIGS_NAME, [])
        if configs:
            for i, cm in configs:
                first = min([i] + [j for j, _ in defaults[-1:]])
                found.append((first, _from_configmaps([d for _, d in defaults[-1:]] + [cm])))
        elif defaults:
            for i, cm in defaults:
                found.append((i, _from_configmaps([cm])))
        for i, cm in slots.get("other", []):
            found.append((i, _from_configmaps([cm], other_name=True)))
    inputs = [inp for _, inp in sorted(found, key=lambda t: t[0])]
    for inp in inputs:
        inp.fragment = fragments
    return inputs


def _configmap_name(obj: KubeObject) -> str:
    """Which of the shim's two ConfigMaps this is ("other" for a ConfigMap of another name)."""
    if obj.kind == "ConfigMapData":  # envelope-less data: the Helm values feed yunikorn-defaults
        return DEFAULTS_NAME if obj.ref.base[-1:] == (HELM_DEFAULTS_KEY,) else CONFIGS_NAME
    return obj.name if obj.name in (CONFIGS_NAME, DEFAULTS_NAME) else "other"


def _shown(cm: KubeObject) -> str:
    """How messages name a ConfigMap (its data alone is named after the ConfigMap it feeds)."""
    if cm.kind != "ConfigMapData":
        return cm.display
    helm = cm.ref.base[-1:] == (HELM_DEFAULTS_KEY,)
    return f"ConfigMap/{_configmap_name(cm)} data" + (f" (Helm values {HELM_DEFAULTS_KEY})" if helm else "")


def _data_section(cm: KubeObject) -> tuple:
    """The path of the key/value data inside the object (the object itself for ConfigMapData)."""
    return () if cm.kind == "ConfigMapData" else ("data",)


def _as_partition(root: YNode) -> YNode:
    """A partition fragment as the one partition of a config: ``partitions: [{name: default, ...}]``
    (its own name when it has one)
    (every node keeps its own position, so findings point into the fragment)."""
    at = {"line": root.line, "column": root.column}
    named = any(key.value == "name" for key, _ in root.items)
    name = [] if named else [(YNode("scalar", "!!str", "name", **at), YNode("scalar", "!!str", "default", **at))]
    partition = YNode("map", "!!map", items=[*name, *root.items], **at)
    return YNode("map", "!!map", items=[(YNode("scalar", "!!str", "partitions", **at),
                                         YNode("seq", "!!seq", items=[partition], **at))], **at)


def _fragment_note(obj: KubeObject) -> LoadNote:
    at = obj.ref.pos()
    parts = ", ".join(sorted(k for k in obj.data if k in PARTITION_PARTS))
    return LoadNote(
        "fragment",
        f"this document is part of a partition ({parts}) without 'partitions': as a queues.yaml YuniKorn rejects "
        "it (yaml: unmarshal errors: field not found in type configs.SchedulerConfig); linted as partition "
        "'default'",
        obj.ref.file, at.line, at.column,
        hint="if the rest of the partition is elsewhere, lint with --no-cross-refs; otherwise put it under "
             "partitions: [{name: default, ...}]",
    )


def _from_scheduler_config(obj: KubeObject, fragments: bool = False) -> YuniKornInput:
    text = source_text(obj)
    node = _document_node(obj, text) if text is not None else None
    file = obj.ref.file
    notes: list[LoadNote] = []
    if node is not None:
        try:
            root = from_ruamel(node)
        except NodeLimitError as exc:
            at = obj.ref.pos()
            notes.append(LoadNote("syntax", f"queues document refused: {exc}", file, at.line, at.column))
            root = None
    else:
        doc = obj.ref.doc
        root = from_data(obj.data, *doc.tables(), tuple(obj.ref.base),
                         at=(obj.ref.pos().line - 1, obj.ref.pos().column - 1))
    posmap = PosMap(file)
    if obj.kind == "PartitionFragment" and root is not None:
        root = _as_partition(root)
        if not fragments:
            notes.append(_fragment_note(obj))
    return _build(root, posmap, "queues.yaml file", file, "SchedulerConfig", notes=notes)


@dataclass
class _Entry:
    """One key of the flattened ConfigMap data: its text and where it is written."""

    key: str
    text: str | None
    obj: KubeObject
    node: object | None  # ruamel value node (when the source text is available)
    key_node: object | None
    binary: bool = False
    problem: str | None = None


def _entries(cm: KubeObject) -> list[_Entry]:
    text = source_text(cm)
    node = _document_node(cm, text) if text is not None else None
    out: list[_Entry] = []
    section = _data_section(cm)
    data = get_in(cm.data, section) if section else cm.data
    data = data if isinstance(data, dict) else {}
    data_node = (_child(node, "data") if section else node) if node is not None else None
    for key, value in data.items():
        if not isinstance(key, str):
            continue
        vnode = _child(data_node, key) if data_node is not None else None
        knode = _key_node(data_node, key) if data_node is not None else None
        entry = _Entry(key, value if isinstance(value, str) else (None if value is None else str(value)),
                       cm, vnode, knode)
        if isinstance(value, (dict, list)):
            entry.text = None
            entry.problem = (f"data[{key}] is a YAML {'mapping' if isinstance(value, dict) else 'list'}, not a string: "
                             f"ConfigMap values are text; write '{key}: |' and indent the document below it")
        out.append(entry)
    binary = cm.data.get("binaryData") if isinstance(cm.data.get("binaryData"), dict) else {}
    bin_node = _child(node, "binaryData") if node is not None else None
    for key, value in binary.items():
        if not isinstance(key, str) or not key.lower().endswith(".gz"):
            continue
        knode = _key_node(bin_node, key) if bin_node is not None else None
        entry = _Entry(key[:-3], None, cm, None, knode, binary=True)
        try:
            entry.text = gunzip_bounded(base64.b64decode(str(value), validate=False)).decode("utf-8")
        except InflationLimit:
            entry.problem = (f"binaryData[{key}] inflates to more than {MAX_INFLATED // 2**20} MiB "
                             "(a gzip bomb?); not decoded")
        except Exception as exc:  # bad base64, not gzip, not UTF-8
            entry.problem = f"binaryData[{key}] cannot be gunzipped ({type(exc).__name__}); YuniKorn skips it"
        out.append(entry)
    return out


MAX_INFLATED = 256 * 2**20  # a ConfigMap holds at most 1 MiB; its gunzipped config is far below this


class InflationLimit(ValueError):
    pass


def gunzip_bounded(raw: bytes, limit: int = MAX_INFLATED) -> bytes:
    """``gzip.decompress`` (its result and its errors), refused when the output would pass ``limit``
    bytes: the members are first inflated in bounded steps, so a bomb is never expanded."""
    if _inflates_past(raw, limit):
        raise InflationLimit(limit)
    return gzip.decompress(raw)


def _inflates_past(raw: bytes, limit: int) -> bool:
    """Whether the gzip members of ``raw`` inflate to more than ``limit`` bytes, inflating at most
    ``limit + 1``. Not (valid) gzip: False, and ``gzip.decompress`` reports what is wrong."""
    rest, total = raw, 0
    try:
        while rest:
            inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)  # gzip framing
            total += len(inflater.decompress(rest, limit + 1 - total))
            if total > limit or inflater.unconsumed_tail:
                return True
            rest = inflater.unused_data
    except zlib.error:
        return False
    return False


def _entry_pos(entry: _Entry, value: bool = False) -> Pos:
    cm = entry.obj
    section = "binaryData" if entry.binary else _data_section(cm)
    section = (section,) if isinstance(section, str) else section
    key = entry.key + (".gz" if entry.binary and not entry.key.lower().endswith(".gz") else "")
    if entry.binary:
        for k in (cm.data.get("binaryData") or {}):
            if isinstance(k, str) and k.lower().endswith(".gz") and k[:-3] == entry.key:
                key = k
    return cm.ref.pos((*section, key), value=value)


def _from_configmaps(cms: list[KubeObject], other_name: bool = False) -> YuniKornInput:
    flat: dict[str, _Entry] = {}
    shadowed: list[_Entry] = []
    notes: list[LoadNote] = []
    broken: set[str] = set()
    for cm in cms:
        for entry in _entries(cm):
            if entry.problem:
                at = _entry_pos(entry)
                kind = "binary-data" if entry.binary else "syntax"
                notes.append(LoadNote(kind, entry.problem, cm.ref.file, at.line, at.column))
                broken.add(entry.key)
                continue
            if entry.key in flat:
                shadowed.append(flat[entry.key])
            flat[entry.key] = entry
    main = cms[-1]
    display = _shown(main)
    if other_name:
        at = main.ref.pos()
        notes.append(LoadNote(
            "other-name",
            f"{display} is not named {CONFIGS_NAME} or {DEFAULTS_NAME}: the YuniKorn shim reads only those two "
            "ConfigMaps (in its own namespace); linting its queue document anyway",
            main.ref.file, at.line, at.column,
        ))
    group_entry = flat.get(POLICY_GROUP_KEY)
    policy_group = (group_entry.text or "").strip() if group_entry and group_entry.text else ""
    policy_group = policy_group or DEFAULT_POLICY_GROUP
    key = f"{policy_group}.yaml"
    for old in shadowed:
        if old.key == key:
            at = _entry_pos(old)
            notes.append(LoadNote(
                "ignored-key",
                f"{_shown(old.obj)} {('binaryData' if old.binary else 'data')}[{old.key}] is overridden by "
                f"{_shown(flat[key].obj)}: YuniKorn merges {DEFAULTS_NAME} then {CONFIGS_NAME}, the later key wins",
                old.obj.ref.file, at.line, at.column,
            ))
    for other_key, entry in sorted(flat.items()):
        if other_key.endswith(".yaml") and other_key != key:
            at = _entry_pos(entry)
            looks_like = entry.text is not None and "partitions" in entry.text
            notes.append(LoadNote(
                "ignored-key",
                f"{_shown(entry.obj)} key {other_key!r} is ignored: the active policy group is {policy_group!r}, "
                f"so YuniKorn reads only {key!r}"
                + (" (this key holds a queue configuration)" if looks_like else ""),
                entry.obj.ref.file, at.line, at.column,
                severity="warning" if looks_like else None,
                hint=(f"rename the key to {key!r}" if looks_like and key not in flat
                      else f"set {POLICY_GROUP_KEY}: {other_key[:-5]} to use it") if looks_like else None,
            ))
    entry = flat.get(key)
    if entry is None or entry.text is None:
        at = main.ref.pos(("data",)) if isinstance(main.data.get("data"), dict) else main.ref.pos()
        names = " / ".join(_shown(cm) for cm in cms)
        if key in broken:
            return _build(None, PosMap(main.ref.file, exact=False, fallback=at), f"{names} data[{key}]",
                          main.ref.file, "ConfigMap", key, notes)
        other = ""
        if len(cms) == 1 and main.name in (CONFIGS_NAME, DEFAULTS_NAME):
            counterpart = DEFAULTS_NAME if main.name == CONFIGS_NAME else CONFIGS_NAME
            other = f" unless {counterpart} (not in this input) has it"
        notes.append(LoadNote(
            "missing-key",
            f"{names} has no {key!r} key: YuniKorn uses its built-in default config{other} (one partition "
            "'default', placement rule tag=namespace with create, root queue with submitacl '*')",
            main.ref.file, at.line, at.column,
            hint=f"add the queue configuration under data[{key}]",
        ))
        inp = _build_text(DEFAULT_CONFIG_TEXT, PosMap(main.ref.file, exact=False, fallback=at),
                          "built-in default config", main.ref.file, "default", key, notes)
        return inp
    posmap = _posmap_for(entry)
    origin = f"{_shown(entry.obj)} {('binaryData' if entry.binary else 'data')}[{entry.key}]"
    return _build_text(entry.text, posmap, origin, entry.obj.ref.file, "ConfigMap", key, notes)


def _posmap_for(entry: _Entry) -> PosMap:
    file = entry.obj.ref.file
    key_at = _entry_pos(entry)
    if entry.binary:
        return PosMap(file, exact=False, fallback=key_at)
    node = entry.node
    if node is not None and getattr(node, "style", None) == "|":
        indicator = Pos(node.start_mark.line + 1, node.start_mark.column + 1)
        offsets = literal_block_offsets(source_text(entry.obj) or "", indicator)
        if offsets is not None:
            return PosMap(file, line_base=offsets[0], col_base=offsets[1], exact=True)
    if node is None and entry.text is not None and "\n" in entry.text:
        # no source text (stdin): assume the usual literal block, content two columns right of the key
        return PosMap(file, line_base=key_at.line, col_base=key_at.column + 1, exact=True)
    return PosMap(file, exact=False, fallback=key_at)


def _build_text(text: str, posmap: PosMap, origin: str, file: str, kind: str, key: str,
                notes: list[LoadNote]) -> YuniKornInput:
    nodes = []
    try:
        for node in compose_all(text):  # libyaml without ruamel's per-scalar version lookup
            nodes.append(node)
    except Exception as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        at = posmap.pos(mark.line, mark.column) if mark is not None else posmap.pos(0, 0)
        problem = getattr(exc, "problem", None) or (str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
        line = (mark.line + 1) if mark is not None else 1
        notes.append(LoadNote(
            "syntax", f"yaml: line {line}: {problem} (YuniKorn rejects the whole {key})", file, at.line, at.column,
        ))
        return YuniKornInput(SchedulerConfig(), Decoded({}, [], {}, {}), posmap, origin, file, kind, key, notes,
                             text)
    first = nodes[0] if nodes else None
    if len([n for n in nodes if n is not None]) > 1:
        second = nodes[1]
        at = posmap.pos(second.start_mark.line, 0) if second is not None else posmap.pos(0, 0)
        notes.append(LoadNote(
            "extra-documents",
            f"{key} holds {len(nodes)} YAML documents: YuniKorn decodes only the first one and ignores the rest",
            file, at.line, at.column,
        ))
    try:
        root = from_ruamel(first) if first is not None else None
    except NodeLimitError as exc:
        at = posmap.pos(0, 0)
        notes.append(LoadNote("syntax", f"{key} refused: {exc}", file, at.line, at.column))
        root = None
    if root is None and not text.strip("\n\t \r"):
        at = posmap.pos(0, 0)
        notes.append(LoadNote(
            "empty", f"{key} is empty: YuniKorn accepts it and runs with its built-in default config", file,
            at.line, at.column,
        ))
    return _build(root, posmap, origin, file, kind, key, notes, text)


def _build(root: YNode | None, posmap: PosMap, origin: str, file: str, kind: str, key: str = "queues.yaml",
           notes: list[LoadNote] | None = None, text: str | None = None) -> YuniKornInput:
    try:
        decoded = decode_document(root)
    except NodeLimitError as exc:
        at = posmap.pos(0, 0) if posmap.exact else posmap.fallback
        notes = list(notes or []) + [LoadNote("syntax", f"{key} refused: {exc}", file, at.line, at.column)]
        decoded = Decoded({}, [], {}, {})
    config = build_config(decoded)
    return YuniKornInput(config, decoded, posmap, origin, file, kind, key, list(notes or []), text)


def load_text(text: str, file: str = "queues.yaml") -> YuniKornInput:
    """Decode a queues.yaml text directly (tests, the ``queues`` command's stdin)."""
    return _build_text(text, PosMap(file), "queues.yaml file", file, "SchedulerConfig", "queues.yaml", [])


__all__ = ["YuniKornInput", "LoadNote", "PosMap", "load_inputs", "load_text", "SCALAR", "build_config"]
