"""One file's text -> its converted text: YAML documents that hold nothing to convert are copied
byte for byte; the others are rewritten by ruamel.yaml's round-trip mode (comments, key order,
quotes and the author's indentation kept).  JSON stays JSON."""

from __future__ import annotations

import copy
import dataclasses
import difflib
import io
import re
from collections.abc import MutableMapping
from dataclasses import dataclass, field

from ruamel.yaml import YAML

from quotactl.convert.kinds import Loss, convert_object, converter_for, is_not_converted
from quotactl.convert.layout import detect_indent
from quotactl.convert.scalars import (
    TextKeepingConstructor,
    TextKeepingRepresenter,
    dump_json_keeping_numbers,
    load_json_keeping_numbers,
)
from quotactl.diagnostics import Diagnostic, Severity
from quotactl.load.document import Document, format_path
from quotactl.load.yamlparse import DEFAULT_LIMITS, Limits, parse_documents

# A line that starts a new YAML document: "---" alone, or followed by a comment.
_DOCUMENT_START = re.compile(r"^---[ \t]*(#.*)?$")


@dataclass(frozen=True)
class ObjectLoss:
    """A Loss, placed: file:line:column of the field, and the object it is in."""

    loss: Loss
    file: str
    line: int
    column: int
    object: str

    @property
    def field(self) -> str:
        return format_path(self.loss.path)


@dataclass
class ConvertedFile:
    name: str
    original: str
    text: str
    objects: int = 0  # objects converted
    losses: list[ObjectLoss] = field(default_factory=list)
    input_errors: list[Diagnostic] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return self.text != self.original

    @property
    def blocked(self) -> bool:
        """Converting would lose what the user wrote: nothing is written unless forced."""
        return any(loss.loss.severity == "error" for loss in self.losses)


def convert_text(text: str, name: str, limits: Limits = DEFAULT_LIMITS) -> ConvertedFile:
    """The converted text of the file ``name`` (its input errors when it cannot be parsed)."""
    result = ConvertedFile(name, text, text)
    if text.lstrip()[:1] in ("{", "["):
        _convert_json(result, limits)
    else:
        _convert_yaml(result, limits)
    if result.input_errors:
        result.text = text
    return result


def _convert_json(result: ConvertedFile, limits: Limits) -> None:
    docs = _parsed(result, result.original, 0, limits)
    if not docs or not _needs_conversion(docs[0].data):
        return
    data = load_json_keeping_numbers(result.original)
    _convert_tree(data, docs[0], result)
    indent = _json_indent(result.original)
    ending = "\n" if result.original.endswith("\n") else ""
    result.text = dump_json_keeping_numbers(data, indent) + ending


def _json_indent(text: str) -> int | None:
    match = re.search(r"\n([ \t]+)\S", text)
    return len(match.group(1)) if match else None


def _convert_yaml(result: ConvertedFile, limits: Limits) -> None:
    out = []
    done: dict[str, _Converted] = {}  # chunk text -> how it converted
    for start, chunk in _chunks(result.original):
        known = done.get(chunk)
        if known is not None:
            out.append(known.replay(result, start))
            continue
        objects, losses = result.objects, len(result.losses)
        docs = _parsed(result, chunk, start, limits)
        if result.input_errors:
            return
        if not any(_needs_conversion(d.data) for d in docs):
            converted = chunk
        else:
            edited = _edit_in_text(chunk, start, docs[0], result) if len(docs) == 1 else None
            converted = edited if edited is not None else _rewrite_chunk(chunk, docs, result)
        done[chunk] = _Converted(converted, result.objects - objects, result.losses[losses:], start)
        out.append(converted)
    result.text = "".join(out)


@dataclass(frozen=True)
class _Converted:
    """A document's conversion, replayed for the same text again further down the file: its
    ruamel.yaml round trip (pure Python, about 8 s per MB) would give the same text, the same
    objects and the same losses, lower by the lines between them (a List repeated 400 times took
    84 s; found by the fuzzer)."""

    text: str
    objects: int
    losses: list[ObjectLoss]
    start: int  # the first line of the chunk converted

    def replay(self, result: ConvertedFile, start: int) -> str:
        result.objects += self.objects
        result.losses.extend(dataclasses.replace(loss, line=loss.line + start - self.start) for loss in self.losses)
        return self.text


def _edit_in_text(chunk: str, start: int, doc: Document, result: ConvertedFile) -> str | None:
    """The chunk with the conversion applied as edits of the text, when every change is a renamed
    key or a replaced string (apiVersion, cohort -> cohortName, Borrow -> MayStopSearch, ...);
    None when the structure changes (then ruamel.yaml rewrites the document).  Byte-identical
    outside the edited words by construction, and much faster than a round trip."""
    trial = ConvertedFile(result.name, "", "")
    converted = copy.deepcopy(doc.data)
    _convert_tree(converted, doc, trial)
    edits = _word_edits(doc.data, converted, ())
    if edits is None:
        return None
    lines = chunk.splitlines(keepends=True)
    for path, is_key, old, new in edits:
        pos = doc.pos(path, value=not is_key)
        index, column = pos.line - 1 - start, pos.column - 1
        at = lines[index].find(old, column) if 0 <= index < len(lines) else -1
        if at < 0 or at > column + 1:  # column + 1: after an opening quote
            return None
        lines[index] = lines[index][:at] + new + lines[index][at + len(old):]
    result.objects += trial.objects
    result.losses.extend(trial.losses)
    return "".join(lines)


def _word_edits(old, new, path: tuple) -> list[tuple] | None:
    """(path, is_key, old text, new text) turning ``old`` into ``new``; None if that takes more than
    renaming keys in place and replacing string values."""
    if isinstance(old, MutableMapping) and isinstance(new, MutableMapping):
        if len(old) != len(new):
            return None
        edits: list[tuple] = []
        for (k_old, v_old), (k_new, v_new) in zip(old.items(), new.items(), strict=True):
            if k_old != k_new:
                if v_old != v_new or not isinstance(k_old, str):
                    return None
                edits.append((path + (k_old,), True, k_old, k_new))
                continue
            inner = _word_edits(v_old, v_new, path + (k_old,))
            if inner is None:
                return None
            edits.extend(inner)
        return edits
    if isinstance(old, list) and isinstance(new, list):
        if len(old) != len(new):
            return None
        edits = []
        for i, (a, b) in enumerate(zip(old, new, strict=True)):
            inner = _word_edits(a, b, path + (i,))
            if inner is None:
                return None
            edits.extend(inner)
        return edits
    if old == new and type(old) is type(new):
        return []
    if isinstance(old, str) and isinstance(new, str) and old and "\n" not in old:
        return [(path, False, old, new)]
    return None


def _chunks(text: str) -> list[tuple[int, str]]:
    """(0-based first line, text) of each document, its "---" line included."""
    lines = text.splitlines(keepends=True)
    starts = [0] + [i for i, line in enumerate(lines) if i and _DOCUMENT_START.match(line.rstrip("\r\n"))]
    bounds = zip(starts, starts[1:] + [len(lines)], strict=True)
    return [(a, "".join(lines[a:b])) for a, b in bounds]


def _parsed(result: ConvertedFile, text: str, line_offset: int, limits: Limits) -> list[Document]:
    """The documents of ``text`` by the loader's checked parser (size, depth, alias limits)."""
    docs, diags = parse_documents(text, result.name, limits=limits, line_offset=line_offset)
    result.input_errors.extend(d for d in diags if d.severity == Severity.ERROR)
    return docs


def _rewrite_chunk(chunk: str, docs: list[Document], result: ConvertedFile) -> str:
    """Round-trip the chunk's documents through ruamel.yaml with the conversion applied."""
    marker, body = _split_marker(chunk)
    yaml = _round_trip_yaml(body)
    loaded = list(yaml.load_all(body))
    for data, doc in zip(loaded, docs, strict=False):
        _convert_tree(data, doc, result)
    stream = io.StringIO()
    yaml.dump_all(loaded, stream)
    return marker + stream.getvalue()


def _split_marker(chunk: str) -> tuple[str, str]:
    first, _, rest = chunk.partition("\n")
    if _DOCUMENT_START.match(first.rstrip("\r")):
        return first + "\n", rest
    return "", chunk


def _round_trip_yaml(body: str) -> YAML:
    yaml = YAML(typ="rt")
    yaml.Constructor, yaml.Representer = TextKeepingConstructor, TextKeepingRepresenter  # numbers kept as written
    yaml.preserve_quotes = True
    yaml.width = 1 << 16  # never re-wrap a long line
    indent = detect_indent(body)
    yaml.indent(mapping=indent.mapping, sequence=indent.sequence, offset=indent.offset)
    return yaml


def _objects(data) -> list[tuple[tuple, MutableMapping]]:
    """(path in the document, object) for the document itself or the items of a List."""
    if not isinstance(data, MutableMapping):
        return []
    items = data.get("items")
    if isinstance(data.get("kind"), str) and data["kind"].endswith("List") and isinstance(items, list):
        return [(("items", i), item) for i, item in enumerate(items) if isinstance(item, MutableMapping)]
    return [((), data)]


def _needs_conversion(data) -> bool:
    return any(converter_for(o.get("apiVersion"), o.get("kind")) or is_not_converted(o) for _, o in _objects(data))


def _convert_tree(data, doc: Document, result: ConvertedFile) -> None:
    for base, obj in _objects(data):
        losses = convert_object(obj)
        if losses is None:
            continue
        if obj.get("apiVersion", "").endswith("/v1beta2"):
            result.objects += 1
        display = _display(obj)
        for loss in losses:
            pos = doc.pos(base + tuple(loss.path))
            result.losses.append(ObjectLoss(loss, result.name, pos.line, pos.column, display))
    if isinstance(data, MutableMapping) and data.get("apiVersion") == "kueue.x-k8s.io/v1beta1" \
            and str(data.get("kind", "")).endswith("List"):
        data["apiVersion"] = "kueue.x-k8s.io/v1beta2"


def _display(obj: MutableMapping) -> str:
    meta = obj.get("metadata") if isinstance(obj.get("metadata"), MutableMapping) else {}
    name = meta.get("name") or "<unnamed>"
    namespace = meta.get("namespace")
    return f"{obj.get('kind')}/{f'{namespace}/' if namespace else ''}{name}"  # any type (fuzzer: an int namespace)


def unified_diff(result: ConvertedFile) -> str:
    """The change as a unified diff (a/FILE, b/FILE), empty when nothing changes."""
    old, new = (result.name, result.name) if result.name.startswith(("/", "<")) else \
        (f"a/{result.name}", f"b/{result.name}")
    lines = difflib.unified_diff(result.original.splitlines(keepends=True), result.text.splitlines(keepends=True),
                                 old, new)
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)
