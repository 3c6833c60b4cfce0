"""Parsed documents that remember where every value came from.

A ``Document`` is plain Python data (dict / list / scalars) plus a map from each value's path
(a tuple of keys and indices) to its source position.  Paths are absolute within the
document; ``ObjectRef`` views one object inside it (a document, or an item of a ``kind: List``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

Path = tuple  # tuple[str | int, ...]


@dataclass(frozen=True, slots=True)
class Pos:
    line: int  # 1-based
    column: int  # 1-based


class YamlFloat(float):
    """A float that remembers its source text, so ``1e3`` can be judged as written."""

    raw: str

    def __new__(cls, value: float, raw: str):
        obj = super().__new__(cls, value)
        obj.raw = raw
        return obj

    def __getnewargs__(self) -> tuple[float, str]:
        # copy/deepcopy/pickle rebuild it through __new__: without this they called it with the
        # value only (convert deep-copies documents: a float anywhere crashed it; found by the fuzzer)
        return float(self), self.raw


NO_POSITIONS: Mapping[Path, Pos] = MappingProxyType({})


@dataclass(slots=True)  # one per document: a big input has a hundred thousand
class Document:
    file: str
    index: int  # 0-based position of the document in its file
    data: Any
    # Key position for mapping entries, and where each value itself starts. Shared and empty
    # until computed: two empty dicts per document cost 15 MB on a 120,000-document file.
    positions: Mapping[Path, Pos] = field(default_factory=lambda: NO_POSITIONS)
    value_positions: Mapping[Path, Pos] = field(default_factory=lambda: NO_POSITIONS)
    start: Pos = Pos(1, 1)
    # Computes (positions, value_positions) on first use: documents are parsed for their data
    # first, and most objects of a big input never need a position.
    lazy_positions: Callable[[], tuple[dict, dict]] | None = field(default=None, repr=False)
    source_text: str | None = field(default=None, repr=False)  # the whole file's text (shared by its documents)

    def tables(self) -> tuple[Mapping[Path, Pos], Mapping[Path, Pos]]:
        """(positions, value_positions), computed now if they were left for later."""
        if self.lazy_positions is not None:
            loader, self.lazy_positions = self.lazy_positions, None
            self.positions, self.value_positions = loader()
        return self.positions, self.value_positions

    def pos(self, path: Path, value: bool = False) -> Pos:
        """Position of ``path``, or of its nearest ancestor that exists in the source."""
        p = tuple(path)
        if not p:
            return self.start
        positions, value_positions = self.tables()
        table = value_positions if value else positions
        while p:
            hit = table.get(p) or positions.get(p)
            if hit is not None:
                return hit
            p = p[:-1]
        return self.start


@dataclass(frozen=True, slots=True)
class ObjectRef:
    """Where one Kubernetes object lives: its document and the path of the object inside it."""

    doc: Document
    base: Path = ()

    @property
    def file(self) -> str:
        return self.doc.file

    def pos(self, rel: Path = (), value: bool = False) -> Pos:
        return self.doc.pos(tuple(self.base) + tuple(rel), value=value)


# Fields whose values are maps keyed by user data (printed as field[key], like Kubernetes does).
MAP_FIELDS = frozenset(
    {
        "labels", "annotations", "nodeLabels", "nodeSelector", "requests", "limits", "resourceUsage",
        "matchLabels", "featureGates", "resourceWeights", "data", "binaryData", "flavors",
        "capacity", "allocatable", "overhead", "reclaimablePods", "flavorsByResource",
    }
)


def format_path(path: Path, map_fields: frozenset[str] = MAP_FIELDS) -> str:
    """Kubernetes-style field path: ``spec.resourceGroups[0].flavors[1].name``, ``requests[cpu]``."""
    out = ""
    parent: object = None
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        elif isinstance(parent, str) and parent in map_fields:
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
        parent = part
    return out


def get_in(data: Any, path: Path, default: Any = None) -> Any:
    cur = data
    for part in path:
        if isinstance(part, int):
            if not isinstance(cur, list) or part >= len(cur):
                return default
            cur = cur[part]
        else:
            if not isinstance(cur, dict) or part not in cur:
                return default
            cur = cur[part]
    return cur
