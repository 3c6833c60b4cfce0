"""Deterministic structural and byte-level mutations of quotactl's own fixtures.

The corpus is every YAML/JSON file the repository ships (fixtures/, tests' data). A mutation
parses a file into plain data, changes it where a schema or an engine has to cope (types, sizes,
nesting, unicode, duplicate keys, aliases, cohort graphs, missing fields, kinds, gzipped
ConfigMaps), and writes it back as block YAML or JSON; byte mutations (truncate, splice, flip)
then hit the loaders. Everything is drawn from one ``random.Random``: the same seed gives the
same inputs, byte for byte.
"""

from __future__ import annotations

import base64
import functools
import gzip
import json
import random
import re
import sys
import zlib
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CORPUS_DIRS = ("fixtures", "tests")
CORPUS_SUFFIXES = (".yaml", ".yml", ".json")
MAX_CORPUS_FILE = 256 * 1024  # a seed is copied into every input made from it


# -- the tree a mutation edits: plain data plus what plain data cannot say ---------------------
@dataclass
class Raw:
    """Text written verbatim where a scalar goes (a flow collection, a huge number, ``*a``)."""

    text: str


@dataclass
class Pairs:
    """A mapping that may repeat a key."""

    items: list


@dataclass
class Anchored:
    """``&name`` before a node."""

    name: str
    node: object


@dataclass
class Input:
    """One generated input: its file name, its bytes, the seed file and what was done to it."""

    name: str
    data: bytes
    origin: str
    mutations: list[str] = field(default_factory=list)
    dialect: str = "kueue"
    workloads: list[str] = field(default_factory=list)
    base: bytes | None = None  # the unmutated text, the other side of a `diff`


@functools.lru_cache(maxsize=1)
def corpus(root: Path = REPO) -> tuple[tuple[str, bytes], ...]:
    """(relative path, bytes) of every seed file, sorted: the order is part of determinism."""
    out = []
    for top in CORPUS_DIRS:
        for p in sorted((root / top).rglob("*")):
            rel = p.relative_to(root).as_posix()
            if ("__snapshots__" in rel or "/fuzz/" in rel or p.suffix.lower() not in CORPUS_SUFFIXES
                    or not p.is_file() or p.stat().st_size > MAX_CORPUS_FILE):
                continue
            out.append((rel, p.read_bytes()))
    return tuple(out)


def parse_documents(text: str, is_json: bool) -> list | None:
    """The documents as plain data, or None when the seed does not parse (byte mutations only)."""
    try:
        if is_json:
            return [json.loads(text)]
        from ruamel.yaml import YAML

        docs = list(YAML(typ="safe").load_all(text))
    except Exception:
        return None
    return [d for d in docs if d is not None] or None


# -- emitting: block YAML (the kubectl subset and beyond) or JSON --------------------------------
_PLAIN = re.compile(r"^[A-Za-z_/][A-Za-z0-9_./-]*$")
_RESERVED = {"true", "false", "yes", "no", "on", "off", "null", "y", "n", "~"}


def scalar(value) -> str:
    if isinstance(value, Raw):
        return value.text
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value) if isinstance(value, float) else str(value)
    text = str(value)
    if _PLAIN.match(text) and text.lower() not in _RESERVED:
        return text
    return json.dumps(text)  # a YAML double-quoted scalar; keeps lone surrogates as \ud800


def _is_block(node) -> bool:
    inner = node.node if isinstance(node, Anchored) else node
    return isinstance(inner, (dict, list, Pairs)) and bool(inner.items if isinstance(inner, Pairs) else inner)


def _items(node):
    return node.items if isinstance(node, Pairs) else list(node.items())


def emit_block(node, indent: int = 0) -> list[str]:
    """``node`` as block YAML lines (a non-empty collection)."""
    pad = " " * indent
    lines: list[str] = []
    if isinstance(node, (dict, Pairs)):
        for key, value in _items(node):
            lines.extend(_entry(f"{pad}{scalar(key)}:", value, indent + 2, is_list=False))
    else:
        for value in node:
            lines.extend(_entry(f"{pad}-", value, indent + 2, is_list=True))
    return lines


def _entry(head: str, value, indent: int, is_list: bool) -> list[str]:
    anchor = ""
    if isinstance(value, Anchored):
        anchor, value = f" &{value.name}", value.node
    if not _is_block(value):
        return [f"{head}{anchor} {_flow(value)}"]
    body = emit_block(value, indent)
    if is_list and not anchor and isinstance(value, (dict, Pairs)):
        return [f"{head} {body[0].lstrip()}", *body[1:]]  # kubectl's "- key: value"
    if not is_list and isinstance(value, list) and not anchor:
        body = emit_block(value, indent - 2)  # kubectl does not indent a list under its key
    return [f"{head}{anchor}", *body]


def _flow(value) -> str:
    if isinstance(value, (dict, Pairs)):
        return "{" + ", ".join(f"{scalar(k)}: {_flow(v)}" for k, v in _items(value)) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    if isinstance(value, Anchored):
        return f"&{value.name} {_flow(value.node)}"
    return scalar(value)


def emit_yaml(docs: list) -> str:
    parts = []
    for doc in docs:
        parts.append("\n".join(emit_block(doc)) if _is_block(doc) else _flow(doc))
    return "---\n" + "\n---\n".join(parts) + "\n"


def emit_json(doc) -> str | None:
    """JSON text, or None when the tree holds what JSON cannot say (anchors, duplicate keys, raw)."""
    try:
        return json.dumps(doc, indent=2, default=_no_json)
    except (TypeError, ValueError):
        return None


def _no_json(obj):
    raise TypeError


# -- walking the tree --------------------------------------------------------------------------
def paths(node, prefix=(), out=None, limit=4000) -> list[tuple]:
    """Every path (keys and indices) to a node, the root included, at most ``limit``."""
    out = [] if out is None else out
    stack = [(node, prefix)]
    while stack and len(out) < limit:
        here, path = stack.pop()
        out.append(path)
        if isinstance(here, dict):
            stack.extend((v, path + (k,)) for k, v in reversed(list(here.items())))
        elif isinstance(here, list):
            stack.extend((v, path + (i,)) for i, v in reversed(list(enumerate(here))))
    return out


def get(node, path):
    for step in path:
        node = node[step]
    return node


def put(root, path, value):
    if not path:
        return value
    get(root, path[:-1])[path[-1]] = value
    return root


# -- structural mutations: each takes (rng, docs, doc index) and returns a label ---------------
_NAME_KEYS = {"name", "namespace", "queueName", "cohort", "cohortName", "parentName", "clusterQueue",
              "parent", "priorityClassName", "applicationId", "queue"}
KINDS = ("ClusterQueue", "LocalQueue", "Workload", "Cohort", "ResourceFlavor", "WorkloadPriorityClass",
         "AdmissionCheck", "Topology", "MultiKueueCluster", "MultiKueueConfig", "ProvisioningRequestConfig",
         "Job", "JobSet", "RayJob", "RayCluster", "PyTorchJob", "MPIJob", "TrainJob", "AppWrapper",
         "LeaderWorkerSet", "Deployment", "StatefulSet", "Pod", "Node", "Namespace", "ConfigMap",
         "PriorityClass", "Configuration", "List", "Clusterqueue", "")
API_VERSIONS = ("kueue.x-k8s.io/v1beta1", "kueue.x-k8s.io/v1beta2", "kueue.x-k8s.io/v1alpha1", "v1",
                "batch/v1", "config.kueue.x-k8s.io/v1beta1", "kueue.k8s.io/v1beta1", "scheduling.k8s.io/v1",
                "jobset.x-k8s.io/v1alpha2", "ray.io/v1", "apps/v1", "", "v9")
ODD_STRINGS = ("\ud800", "a\udfffb", "\x00", "\u202eevil", "\ufeffbom", "\U0001d518\U0001d518", "e\u0301\u0301\u0301",
               "\u0085next", "line\u2028sep", "\t\r\n", "[bold]x[/bold]", "[", "]", "\\", "'\"", "%s%n",
               "{{ .Values.x }}", "*alias", "&anchor", "!!binary", "- item", "key: value", "#", "0x1F", "1e3",
               "1_000", "0o17", "NaN", ".inf", "-.inf", "~", "null", "yes", "no", "on", "y", " ", "",
               "\u00a0", "ı", "İ", "ß", "ǅ", "\U0010ffff")
HUGE_NUMBERS = ("1" * 5000, "9" * 4301, "1" * 5000 + "Ki", "1" * 5000 + "m", "0." + "0" * 5000 + "1",
                "1e5000", "1e4301", "1e999999999", "1E-5000", "-" + "9" * 5000, "1" * 5000 + "e3",
                "1." + "1" * 5000 + "Gi", "9223372036854775808", "18446744073709551616", "1e308", "1e309",
                "99999999999999999999Ei", "0.000000001n", "1" * 4299, "1" * 4300 + "0")


def mut_change_type(rng, docs, i):
    path = _pick(rng, docs[i])
    kinds = [rng.choice(["x", "", "a b"]), rng.randint(-3, 10**6), rng.choice([0.5, -1.5, 1e300, float("nan")]),
             [rng.choice([1, "x", None])], {"k": rng.choice([1, "v", None])}, None, rng.choice([True, False])]
    value = rng.choice(kinds)
    docs[i] = put(docs[i], path, value)
    return f"type {_show(path)} -> {type(value).__name__}"


def mut_huge_number(rng, docs, i):
    path = _pick(rng, docs[i], prefer=lambda v: isinstance(v, (int, float, str)) and _numberish(v))
    text = rng.choice(HUGE_NUMBERS)
    quoted = rng.random() < 0.5
    docs[i] = put(docs[i], path, text if quoted else Raw(text))
    return f"huge {_show(path)} ({len(text)} chars, {'str' if quoted else 'raw'})"


def mut_deep_nesting(rng, docs, i):
    path = _pick(rng, docs[i])
    depth = rng.choice([50, 200, 1000, 5000, 30000])
    form = rng.choice(["flow-list", "flow-map", "block"])
    if form == "flow-list":
        value = Raw("[" * depth + "]" * depth)
    elif form == "flow-map":
        value = Raw("{a: " * depth + "1" + "}" * depth)
    else:
        depth = min(depth, 300)
        value = "leaf"
        for _ in range(depth):
            value = {"x": value}
    docs[i] = put(docs[i], path, value)
    return f"nest {_show(path)} {form} {depth}"


def mut_long_string(rng, docs, i):
    path = _pick(rng, docs[i], prefer=lambda v: isinstance(v, str), keys=_NAME_KEYS)
    size = rng.choice([300, 70000, 1_000_000])
    value = rng.choice(["x", "é", "[", "a-"]) * (size // 2)
    docs[i] = put(docs[i], path, value[:size])
    return f"long {_show(path)} {size}"


def mut_odd_unicode(rng, docs, i):
    path = _pick(rng, docs[i], prefer=lambda v: isinstance(v, str), keys=_NAME_KEYS)
    odd = rng.choice(ODD_STRINGS)
    old = get(docs[i], path) if path else ""
    value = rng.choice([odd, f"{old}{odd}" if isinstance(old, str) else odd])
    docs[i] = put(docs[i], path, value)
    return f"unicode {_show(path)} {odd!r}"


def mut_duplicate_key(rng, docs, i):
    maps = [p for p in paths(docs[i]) if isinstance(get(docs[i], p), dict) and get(docs[i], p)]
    if not maps:
        return None
    path = rng.choice(maps)
    node = get(docs[i], path)
    items = list(node.items())
    key = rng.choice(items)[0]
    items.insert(rng.randrange(len(items) + 1), (key, rng.choice(["dup", 7, None, {"a": 1}, [1]])))
    docs[i] = put(docs[i], path, Pairs(items))
    return f"dupkey {_show(path)}.{key}"


def mut_alias(rng, docs, i):
    form = rng.choice(["share", "recursive", "laughs", "undefined"])
    candidates = [p for p in paths(docs[i]) if p and isinstance(get(docs[i], p), (dict, list))]
    if not candidates:
        return None
    path = rng.choice(candidates)
    node = get(docs[i], path)
    if form == "recursive":
        inner = dict(node) if isinstance(node, dict) else {"items": list(node)}
        inner["self"] = Raw("*r")
        docs[i] = put(docs[i], path, Anchored("r", inner))
    elif form == "share":
        other = rng.choice(candidates)
        if other[: len(path)] == path or path[: len(other)] == other:
            return None
        docs[i] = put(docs[i], path, Anchored("s", node))
        docs[i] = put(docs[i], other, Raw("*s"))
    elif form == "laughs":
        levels = [Anchored("l0", ["lol"] * 9)]
        for n in range(1, rng.choice([4, 8, 10])):
            levels.append(Anchored(f"l{n}", [Raw(f"*l{n - 1}")] * 9))
        docs[i] = put(docs[i], path, {f"k{n}": lv for n, lv in enumerate(levels)})
    else:
        docs[i] = put(docs[i], path, Raw("*nowhere"))
    return f"alias {form} {_show(path)}"


def mut_cohorts(rng, docs, i):
    n = rng.choice([3, 50, 1000, 3000])
    cyclic = rng.random() < 0.5
    version = rng.choice(["v1beta2", "v1alpha1", "v1beta1"])
    key = "parent" if version == "v1alpha1" else "parentName"
    for k in range(n):
        spec: dict = {}
        if k + 1 < n or cyclic:
            spec[key] = f"c{(k + 1) % n}"
        docs.append({"apiVersion": f"kueue.x-k8s.io/{version}", "kind": "Cohort",
                     "metadata": {"name": f"c{k}"}, "spec": spec})
    for doc in docs[:-n]:  # the ClusterQueues of the seed join the chain's far end
        if isinstance(doc, dict) and doc.get("kind") == "ClusterQueue" and isinstance(doc.get("spec"), dict):
            doc["spec"]["cohort" if "cohort" in doc["spec"] else "cohortName"] = "c0"
    return f"cohorts {n} {'cycle' if cyclic else 'chain'} {version}"


def mut_remove(rng, docs, i):
    wanted = {"spec", "kind", "apiVersion", "metadata", "name", "resourceGroups", "queues", "partitions",
              "podSets", "template", "containers", "resources", "requests", "flavors", "nominalQuota",
              "coveredResources", "queueName", "clusterQueue", "admission", "status", "data", "items"}
    path = _pick(rng, docs[i], keys=wanted)
    if not path:
        return None
    parent = get(docs[i], path[:-1])
    del parent[path[-1]]
    return f"remove {_show(path)}"


def mut_swap_kind(rng, docs, i):
    doc = docs[i]
    if not isinstance(doc, dict):
        return None
    if rng.random() < 0.7:
        doc["kind"] = rng.choice(KINDS)
        return f"kind -> {doc['kind']}"
    doc["apiVersion"] = rng.choice(API_VERSIONS)
    return f"apiVersion -> {doc['apiVersion']}"


def mut_list_wrap(rng, docs, i):
    items = [d for d in docs if isinstance(d, dict)]
    docs[:] = [{"apiVersion": "v1", "kind": rng.choice(["List", "ClusterQueueList", "List"]), "items": items}]
    return "list-wrap"


def mut_repeat(rng, docs, i):
    n = rng.choice([2, 50, 400])
    doc = docs[i]
    for k in range(n):
        copy = json.loads(json.dumps(doc, default=str)) if isinstance(doc, dict) else doc
        if isinstance(copy, dict) and isinstance(copy.get("metadata"), dict):
            copy["metadata"]["name"] = f"{copy['metadata'].get('name')}-{k}"
        docs.append(copy)
    return f"repeat {n}"


STRUCTURAL = (
    (mut_change_type, 6), (mut_huge_number, 4), (mut_deep_nesting, 2), (mut_long_string, 2),
    (mut_odd_unicode, 4), (mut_duplicate_key, 2), (mut_alias, 3), (mut_cohorts, 2), (mut_remove, 5),
    (mut_swap_kind, 3), (mut_list_wrap, 1), (mut_repeat, 1),
)


def _numberish(v) -> bool:
    return not isinstance(v, bool) and (isinstance(v, (int, float)) or bool(re.match(r"^[0-9.+-]", v)))


def _pick(rng, doc, prefer=None, keys=None) -> tuple:
    """A path in ``doc``: one whose value passes ``prefer`` or whose key is in ``keys`` when there
    is such a path (most of the time), else any."""
    every = paths(doc)
    good = [p for p in every if p and ((prefer and prefer(get(doc, p))) or (keys and p[-1] in keys))]
    if good and rng.random() < 0.85:
        return rng.choice(good)
    return rng.choice(every[1:] or every)


def _show(path) -> str:
    return ".".join(str(p) for p in path) or "<root>"


# -- YuniKorn ConfigMaps with gzipped queues -----------------------------------------------------
@functools.cache
def _zeros_gzip(size: int) -> bytes:
    """A gzip member of ``size`` zero bytes, built in chunks (a few MB for a few GB)."""
    comp = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    chunk = bytes(1 << 20)
    out = []
    for _ in range(size >> 20):
        out.append(comp.compress(chunk))
    out.append(comp.flush())
    return b"".join(out)


def gzip_configmap(rng, text: str) -> tuple[bytes, str]:
    form = rng.choice(["text", "gzip", "gzip", "bomb", "badgzip", "both"])
    data: dict = {}
    binary: dict = {}
    if form in ("text", "both"):
        data["queues.yaml"] = text
    if form in ("gzip", "both"):
        binary["queues.yaml.gz"] = base64.b64encode(gzip.compress(text.encode("utf-8", "surrogatepass"))).decode()
    if form == "bomb":
        size = rng.choice([1 << 20, 64 << 20, 300 << 20, 1 << 30])
        binary["queues.yaml.gz"] = base64.b64encode(_zeros_gzip(size)).decode()
        form = f"bomb {size >> 20} MiB"
    if form == "badgzip":
        binary["queues.yaml.gz"] = rng.choice(["!!!", base64.b64encode(b"\x1f\x8b" + bytes(20)).decode(), ""])
    cm = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "yunikorn-configs", "namespace": "yunikorn"}}
    if data:
        cm["data"] = data
    if binary:
        cm["binaryData"] = binary
    return emit_yaml([cm]).encode("utf-8", "surrogatepass"), f"configmap {form}"


# -- byte-level mutations ---------------------------------------------------------------------
def byte_mutation(rng, data: bytes, other: bytes) -> tuple[bytes, str]:
    kind = rng.choice(["truncate", "splice", "flip", "insert", "dupline", "dropline", "indent", "crlf", "bom"])
    if not data:
        return other, "replace-empty"
    at = rng.randrange(len(data) + 1)
    if kind == "truncate":
        return data[:at], f"truncate {at}"
    if kind == "splice":
        cut = rng.randrange(len(other) + 1)
        return data[:at] + other[cut:], f"splice {at}+{cut}"
    if kind == "flip":
        out = bytearray(data)
        for _ in range(rng.randint(1, 8)):
            j = rng.randrange(len(out))
            out[j] = rng.randrange(256)
        return bytes(out), "flip"
    if kind == "insert":
        junk = rng.choice([b"\xff\xfe", b"\x00", b"\t", b"{", b"[", b"&a ", b"*a", b"!!python/object ", b"? ",
                           b"%YAML 1.1\n", b"\n---\n", b"<<: *a\n", b"\xed\xa0\x80", b": ", b"- "])
        return data[:at] + junk + data[at:], f"insert {junk!r}@{at}"
    lines = data.split(b"\n")
    j = rng.randrange(len(lines))
    if kind == "dupline":
        lines.insert(j, lines[j])
    elif kind == "dropline":
        del lines[j]
    elif kind == "indent":
        lines[j] = rng.choice([b" ", b"  ", b"\t", b""]) + lines[j].lstrip(b" ")
    elif kind == "crlf":
        return data.replace(b"\n", b"\r\n"), "crlf"
    else:
        return b"\xef\xbb\xbf" + data, "bom"
    return b"\n".join(lines), f"{kind} line {j}"


# -- one input ----------------------------------------------------------------------------------
def dialect_of(text: str) -> str:
    if "kueue.x-k8s.io" in text:
        return "kueue"
    if re.search(r"^\s*partitions:", text, re.M) or "queues.yaml" in text:
        return "yunikorn"
    if re.search(r"kind:\s*(Pod|Node)\b", text):
        return "yunikorn"
    return "jobs"


def workload_names(docs) -> list[str]:
    names = []
    for doc in docs or ():
        for obj in (doc.get("items") if isinstance(doc, dict) and isinstance(doc.get("items"), list) else [doc]):
            if isinstance(obj, dict) and obj.get("kind") in ("Workload", "Pod", "Job") and isinstance(
                    obj.get("metadata"), dict):
                meta = obj["metadata"]
                name = meta.get("name")
                if isinstance(name, str):
                    ns = meta.get("namespace")
                    names.append(f"{ns}/{name}" if isinstance(ns, str) else name)
    return names


def make_input(rng: random.Random, index: int) -> Input:
    """Input number ``index`` of a run: a seed file, one to three mutations. The emitter recurses
    per nesting level and nested mutations stack up: it runs with a higher recursion limit (in
    the parent only; every forked run starts from Python's default)."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20000))
    try:
        return _make_input(rng, index)
    finally:
        sys.setrecursionlimit(limit)


def _make_input(rng: random.Random, index: int) -> Input:
    seeds = corpus()
    rel, raw = seeds[rng.randrange(len(seeds))]
    text = raw.decode("utf-8", "replace")
    is_json = rel.endswith(".json")
    docs = parse_documents(text, is_json)
    inp = Input(name="input.json" if is_json else "input.yaml", data=raw, origin=rel, base=raw,
                dialect=dialect_of(text), workloads=workload_names(docs))
    if docs is not None and rng.random() < 0.85:
        for _ in range(rng.choice([1, 1, 1, 2, 3])):
            fn = _weighted(rng, STRUCTURAL)
            label = fn(rng, docs, rng.randrange(len(docs)))
            if label:
                inp.mutations.append(label)
        out_json = is_json and len(docs) == 1 and rng.random() < 0.8
        body = emit_json(docs[0]) if out_json else None
        if body is None:
            body = emit_yaml(docs)
            inp.name = "input.yaml"
        else:
            inp.name = "input.json"
        inp.data = body.encode("utf-8", "surrogatepass")
        if inp.dialect == "yunikorn" and "partitions" in text and rng.random() < 0.3:
            inp.data, label = gzip_configmap(rng, body)
            inp.name = "input.yaml"
            inp.mutations.append(label)
    if not inp.mutations or rng.random() < 0.3:
        other = seeds[rng.randrange(len(seeds))][1]
        inp.data, label = byte_mutation(rng, inp.data, other)
        inp.mutations.append(label)
    return inp


def _weighted(rng, table):
    total = sum(w for _, w in table)
    pick = rng.uniform(0, total)
    for fn, weight in table:
        pick -= weight
        if pick <= 0:
            return fn
    return table[-1][0]


def input_rng(seed: int, index: int) -> random.Random:
    """The generator of input ``index``: inputs are independent, so a run can be split or resumed."""
    return random.Random(f"quotactl-fuzz/{seed}/{index}")
