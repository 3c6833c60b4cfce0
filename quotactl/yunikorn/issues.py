"""What the YuniKorn engine reports: an ``Issue`` about one queue / partition / placement rule."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Issue:
    kind: str  # which check found it (the rule modules map kinds to codes)
    message: str
    object: str  # "queue/root.a", "partition/default", "placementrule/0", "config"
    field: tuple  # document path of the offending field ("partitions", 0, "queues", 0, "adminacl")
    at: tuple | None = None  # document path to point at, when not the field itself (a map entry)
    value: bool = False  # point at the value rather than the key
    order: tuple = ()  # YuniKorn's check order (partition, step, sequence): the smallest is what it reports
    severity: str | None = None  # overrides the rule's default severity
    hint: str | None = None
    type: str | None = "Invalid"
    embedded: tuple[int, int] | None = None  # 0-based (line, column) in the queues document, when known
    file_pos: tuple[str, int, int] | None = None  # (file, line, column) when the issue is about the file itself


def format_field(path: tuple) -> str:
    """``partitions[0].queues[0].queues[2].properties.priority.offset``."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out
