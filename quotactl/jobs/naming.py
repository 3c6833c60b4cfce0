"""Workload names as Kueue gives them (``jobframework.GetWorkloadNameForOwnerWithGVK``)."""

from __future__ import annotations

import hashlib

HASH_LENGTH = 5
MAX_PREFIX_LENGTH = 252 - HASH_LENGTH  # 253 for a name, minus the '-' before the hash


def workload_name(owner_name: str, owner_uid, kind: str, group: str) -> str:
    """``<kind lower>-<name>-<5 hex>``: a sha1 of kind, group, name and uid (empty without one)."""
    prefix = f"{kind.lower()}-{owner_name}"[:MAX_PREFIX_LENGTH]
    uid = owner_uid if isinstance(owner_uid, str) else ""
    digest = hashlib.sha1("\n".join((kind, group, owner_name, uid)).encode()).hexdigest()
    return f"{prefix}-{digest[:HASH_LENGTH]}"
