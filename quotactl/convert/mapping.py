"""Edits of one mapping that keep its key order and, for ruamel's round-trip maps, the comments
attached to the edited key: the rest of the document is emitted as it was written."""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Any


def replace_key(m: MutableMapping, old: str, new: str, value: Any) -> None:
    """Put ``new: value`` where ``old`` is (``old`` and any existing ``new`` removed); the comments
    on ``old`` move to ``new``."""
    if new != old and new in m:
        drop_key(m, new)
    at = list(m.keys()).index(old)
    comments = getattr(m, "ca", None)
    moved = comments.items.pop(old, None) if comments is not None else None
    del m[old]
    _insert(m, at, new, value)
    if moved is not None:
        comments.items[new] = moved


def rename_key(m: MutableMapping, old: str, new: str) -> None:
    """``old: v`` becomes ``new: v`` in place."""
    replace_key(m, old, new, m[old])


def drop_key(m: MutableMapping, key: str) -> None:
    """Remove ``key`` and the comments attached to it."""
    comments = getattr(m, "ca", None)
    if comments is not None:
        comments.items.pop(key, None)
    del m[key]


def _insert(m: MutableMapping, at: int, key: str, value: Any) -> None:
    if hasattr(m, "insert"):  # ruamel CommentedMap
        m.insert(at, key, value)
        return
    items = list(m.items())
    items.insert(at, (key, value))
    m.clear()
    m.update(items)
