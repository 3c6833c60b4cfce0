"""A caveat: a feature present in the input that can change the answer and that quotactl does not
model (yet).  Engines detect them (``kueue/caveats.py``, ``yunikorn/caveats.py``), reports print
them (``report/caveats.py``); one detector per feature, deleted when the feature is modelled."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

MAX_OBJECTS = 5  # objects named per caveat; the rest are counted ("+N more")


@dataclass(frozen=True)
class Caveat:
    feature: str  # Kueue's / YuniKorn's name of the feature
    objects: tuple[str, ...]  # Kind/[namespace/]name of the objects carrying it, sorted, bounded
    message: str  # how the answer may differ


def named_objects(names: Iterable[str], hidden: int = 0) -> tuple[str, ...]:
    """The distinct names, sorted, at most MAX_OBJECTS of them and then "+N more" (``hidden``: names
    left out already)."""
    unique = sorted(set(names))
    more = hidden + max(0, len(unique) - MAX_OBJECTS)
    return (*unique[:MAX_OBJECTS], f"+{more} more") if more else tuple(unique)


def hidden_count(objects: tuple[str, ...]) -> int:
    """N of the "+N more" entry of ``named_objects``' result, else 0."""
    last = objects[-1] if objects else ""
    return int(last[1:].split()[0]) if last.startswith("+") and last.endswith(" more") else 0


def caveat(feature: str, names: Iterable[str], message: str) -> Caveat | None:
    """A caveat naming ``names``; None when no object carries the feature."""
    objects = named_objects(names)
    return Caveat(feature, objects, message) if objects else None


def run_detectors(detectors: Iterable[Callable[..., Caveat | None]], *args) -> tuple[Caveat, ...]:
    """Every detector's caveat for ``args``, sorted by feature (the same input gives the same list)."""
    found = [c for c in (d(*args) for d in detectors) if c is not None]
    return tuple(sorted(found, key=lambda c: c.feature))
