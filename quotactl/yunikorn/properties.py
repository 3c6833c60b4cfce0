"""Queue properties as YuniKorn really applies them (yunikorn-core queue.go ``UpdateQueueProperties``,
``mergeProperties``, ``filterParentProperty``).

Property values are plain strings that the validator never looks at; YuniKorn parses them when it
builds the queue and, on a value it cannot parse, silently uses the default.  Each parser here
returns the value YuniKorn ends up with *and* why, so lint can say "YuniKorn will use 0 because
'abc' is not an int32" and ``quotactl queues`` can show what is in force.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from quotactl.model.go_duration import SECOND, parse_duration  # Go's time.ParseDuration, shared with Kueue's

SORT_POLICY = "application.sort.policy"
SORT_PRIORITY = "application.sort.priority"
PRIORITY_POLICY = "priority.policy"
PRIORITY_OFFSET = "priority.offset"
PREEMPTION_POLICY = "preemption.policy"
PREEMPTION_DELAY = "preemption.delay"
QUOTA_PREEMPTION_DELAY = "quota.preemption.delay"
BACKOFF = "application.unschedasks.backoff"
BACKOFF_DELAY = "application.unschedasks.backoff.delay"

KNOWN = (SORT_POLICY, SORT_PRIORITY, PRIORITY_POLICY, PRIORITY_OFFSET, PREEMPTION_POLICY, PREEMPTION_DELAY,
         QUOTA_PREEMPTION_DELAY, BACKOFF, BACKOFF_DELAY)

INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1
UINT64_MAX = 2**64 - 1
DEFAULT_PREEMPTION_DELAY = 30 * SECOND
DEFAULT_BACKOFF_DELAY = 30 * SECOND

# Kubernetes' built-in PriorityClasses and the user range (pkg/apis/scheduling).
SYSTEM_CLUSTER_CRITICAL = 2_000_000_000
SYSTEM_NODE_CRITICAL = 2_000_001_000
HIGHEST_USER_PRIORITY = 1_000_000_000
# The priority design considered capping offsets at 999,999,999 (so they cannot reach system priorities).
SAFE_OFFSET = 999_999_999


@dataclass(frozen=True)
class Parsed:
    """A property value as YuniKorn parses it."""

    value: object  # what YuniKorn uses
    error: str | None = None  # why the written text was not used (None: it was)
    default: bool = False  # the value is the default (unset or fallback)


# ------------------------------------------------------------------------ Go primitives -------

def parse_int32(text: str) -> int:
    """``strconv.ParseInt(text, 10, 32)``; raises ValueError with Go's message."""
    m = re.fullmatch(r"[+-]?[0-9]+", text)
    if not m:
        raise ValueError(f'strconv.ParseInt: parsing "{text}": invalid syntax')
    digits = text.lstrip("+-").lstrip("0") or "0"
    if len(digits) > 10:  # past int32 (and past what Python's int() reads)
        raise ValueError(f'strconv.ParseInt: parsing "{text}": value out of range')
    value = -int(digits) if text.startswith("-") else int(digits)
    if not INT32_MIN <= value <= INT32_MAX:
        raise ValueError(f'strconv.ParseInt: parsing "{text}": value out of range')
    return value


def parse_uint64(text: str) -> int:
    """``strconv.ParseUint(text, 10, 64)``."""
    if not re.fullmatch(r"[0-9]+", text):
        raise ValueError(f'strconv.ParseUint: parsing "{text}": invalid syntax')
    digits = text.lstrip("0") or "0"
    if len(digits) > 20:  # past uint64 (and past what Python's int() reads)
        raise ValueError(f'strconv.ParseUint: parsing "{text}": value out of range')
    value = int(digits)
    if value > UINT64_MAX:
        raise ValueError(f'strconv.ParseUint: parsing "{text}": value out of range')
    return value


def format_duration(ns: int) -> str:
    """Go's ``Duration.String()``: ``30s``, ``1m30s``, ``1h0m0s``, ``1.5s``, ``500ms``."""
    if ns == 0:
        return "0s"
    sign = "-" if ns < 0 else ""
    u = abs(ns)
    if u < SECOND:
        for unit, size in (("ms", 1_000_000), ("\u00b5s", 1_000), ("ns", 1)):
            if u >= size:
                return sign + _frac(u, size) + unit
    hours, rem = divmod(u, 3600 * SECOND)
    minutes, rem = divmod(rem, 60 * SECOND)
    seconds = _frac(rem, SECOND) + "s"
    if hours:
        return f"{sign}{hours}h{minutes}m{seconds}"
    if minutes:
        return f"{sign}{minutes}m{seconds}"
    return sign + seconds


def _frac(value: int, unit: int) -> str:
    whole, rest = divmod(value, unit)
    if not rest:
        return str(whole)
    digits = str(rest).rjust(len(str(unit)) - 1, "0").rstrip("0")
    return f"{whole}.{digits}"


# --------------------------------------------------------------------- property parsers -------

def parse_sort_policy(raw: str | None) -> Parsed:
    """``SortPolicyFromString`` (case-sensitive); unset or unknown -> fifo."""
    if raw is None or raw == "":
        return Parsed("fifo", default=True)
    if raw in ("fifo", "fair"):
        return Parsed(raw)
    if raw == "stateaware":
        return Parsed("fifo", "stateaware is deprecated and behaves as fifo")
    hint = f"; values are case-sensitive, did you mean {raw.lower()!r}?" if raw.lower() in ("fifo", "fair") else ""
    return Parsed("fifo", f"not one of fifo, fair{hint}", default=True)


def parse_sort_priority(raw: str | None) -> Parsed:
    if raw is None:
        return Parsed(True, default=True)
    low = raw.lower()
    if low == "enabled":
        return Parsed(True)
    if low == "disabled":
        return Parsed(False)
    return Parsed(True, f"unknown {SORT_PRIORITY} value: {raw}", default=True)


def parse_priority_policy(raw: str | None) -> Parsed:
    if raw is None or raw == "":
        return Parsed("default", default=True)
    low = raw.lower()
    if low in ("default", "fence"):
        return Parsed(low)
    return Parsed("default", f"undefined priority policy: {raw}", default=True)


def parse_priority_offset(raw: str | None) -> Parsed:
    if raw is None:
        return Parsed(0, default=True)
    try:
        return Parsed(parse_int32(raw))
    except ValueError as exc:
        return Parsed(0, str(exc), default=True)


def parse_preemption_policy(raw: str | None) -> Parsed:
    if raw is None or raw == "":
        return Parsed("default", default=True)
    low = raw.lower()
    if low in ("default", "fence", "disabled"):
        return Parsed(low)
    return Parsed("default", f"undefined preemption policy: {raw}", default=True)


def _positive_duration(raw: str | None, default: int, key: str) -> Parsed:
    if raw is None:
        return Parsed(default, default=True)
    try:
        value = parse_duration(raw)
    except ValueError as exc:
        return Parsed(default, str(exc), default=True)
    if value <= 0:
        return Parsed(default, f"{key} must be positive: {raw}", default=True)
    return Parsed(value)


def parse_preemption_delay(raw: str | None) -> Parsed:
    return _positive_duration(raw, DEFAULT_PREEMPTION_DELAY, PREEMPTION_DELAY)


def parse_quota_preemption_delay(raw: str | None) -> Parsed:
    """``quota.preemption.delay``: a positive duration turns quota preemption on; else 0 (off)."""
    if raw is None:
        return Parsed(0, default=True)
    try:
        value = parse_duration(raw)
    except ValueError as exc:
        return Parsed(0, str(exc), default=True)
    if value < 0:
        return Parsed(0, f"{QUOTA_PREEMPTION_DELAY} must be positive: {raw}", default=True)
    return Parsed(value, default=value == 0)


def parse_backoff(raw: str | None) -> Parsed:
    if raw is None:
        return Parsed(0, default=True)
    try:
        return Parsed(parse_uint64(raw))
    except ValueError as exc:
        return Parsed(0, str(exc), default=True)


def parse_backoff_delay(raw: str | None) -> Parsed:
    return _positive_duration(raw, DEFAULT_BACKOFF_DELAY, BACKOFF_DELAY)


PARSERS = {
    SORT_POLICY: parse_sort_policy, SORT_PRIORITY: parse_sort_priority, PRIORITY_POLICY: parse_priority_policy,
    PRIORITY_OFFSET: parse_priority_offset, PREEMPTION_POLICY: parse_preemption_policy,
    PREEMPTION_DELAY: parse_preemption_delay, QUOTA_PREEMPTION_DELAY: parse_quota_preemption_delay,
    BACKOFF: parse_backoff, BACKOFF_DELAY: parse_backoff_delay,
}

DEFAULT_TEXT = {
    SORT_POLICY: "fifo", SORT_PRIORITY: "enabled", PRIORITY_POLICY: "default", PRIORITY_OFFSET: "0",
    PREEMPTION_POLICY: "default", PREEMPTION_DELAY: "30s", QUOTA_PREEMPTION_DELAY: "0 (off)",
    BACKOFF: "0 (off)", BACKOFF_DELAY: "30s",
}


def describe(key: str, value: object) -> str:
    """A parsed value the way a user writes it."""
    if key in (PREEMPTION_DELAY, BACKOFF_DELAY):
        return format_duration(int(value))
    if key == QUOTA_PREEMPTION_DELAY:
        return "0 (off)" if not value else format_duration(int(value))
    if key == SORT_PRIORITY:
        return "enabled" if value else "disabled"
    if key == BACKOFF:
        return "0 (off)" if not value else str(value)
    return str(value)


def suggest(key: str) -> str | None:
    """The known property a misspelt key probably meant."""
    low = key.lower().replace("_", ".").replace("-", ".")
    for known in KNOWN:
        if low == known:
            return known
    close = difflib.get_close_matches(low, KNOWN, n=1, cutoff=0.75)
    return close[0] if close else None


# --------------------------------------------------------------------- inheritance ------------

def filter_parent_property(key: str, value: str) -> str:
    """What a configured child inherits from its parent's effective value."""
    if key == PRIORITY_POLICY:
        return "default"
    if key == PRIORITY_OFFSET:
        return "0"
    if key == PREEMPTION_POLICY:
        return value if parse_preemption_policy(value).value == "disabled" else "default"
    return value


def merge_properties(parent_effective: dict[str, str] | None, own: dict[str, str] | None) -> dict[str, str]:
    """``mergeProperties``: the parent's effective map (filtered), then the queue's own keys."""
    out = {k: filter_parent_property(k, v) for k, v in (parent_effective or {}).items()}
    out.update(own or {})
    return out
