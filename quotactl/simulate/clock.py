"""Virtual time: integer microseconds from ``t0`` (exact sums, exact ordering, the same bytes
on every machine), durations as the contract writes them, and RFC 3339 instants.

A duration is ``90s``, ``5m``, ``1h30m``, ``1.5h``, ``250ms``, ``2d``, or plain seconds (``45``,
``0.05``): one or more ``<number><unit>`` parts (units ``ms``, ``s``, ``m``, ``h``, ``d``), or a
bare number.  Go's ``time.ParseDuration`` reads the same forms (it has no ``d``); a duration is
never negative here.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from decimal import Decimal, InvalidOperation
from functools import lru_cache

US = 1_000_000  # microseconds per second
_UNITS = {"ms": 1_000, "s": US, "m": 60 * US, "h": 3600 * US, "d": 86400 * US}
_PART = re.compile(r"(\d+(?:\.\d*)?|\.\d+)(ms|s|m|h|d)")
_NUMBER = re.compile(r"\d+(?:\.\d*)?|\.\d+")


def parse_duration(text: str) -> int:
    """A duration in microseconds; ValueError (with the accepted forms) when it is not one."""
    return _parse_duration(str(text).strip())


@lru_cache(maxsize=1024)  # a trace's workloads share a few runtime annotations
def _parse_duration(t: str) -> int:
    text = t
    if _NUMBER.fullmatch(t):
        return _micros(t, US)
    pos, total = 0, 0
    for m in _PART.finditer(t):
        if m.start() != pos:
            break
        total += _micros(m.group(1), _UNITS[m.group(2)])
        pos = m.end()
    if pos != len(t) or not t:
        raise ValueError(f"{text!r} is not a duration (write e.g. 90s, 5m, 1h30m, 250ms, or plain seconds)")
    return total


def _micros(number: str, scale: int) -> int:
    try:
        return int((Decimal(number) * scale).to_integral_value())
    except InvalidOperation as exc:  # the regular expressions only let numbers through
        raise ValueError(f"{number!r} is not a number") from exc


def parse_instant(text: str, now: datetime | None = None) -> datetime:
    """An RFC 3339 time (``2026-03-02T09:00:00Z``), or ``now`` (the wall clock, to the second)."""
    t = str(text).strip()
    if t.lower() == "now":
        return (now or datetime.now(timezone.utc)).replace(microsecond=0)
    if "T" not in t.upper():
        raise ValueError(f"{text!r} is not an RFC 3339 time (write e.g. 2026-03-02T09:00:00Z) nor 'now'")
    iso = t[:-1] + "+00:00" if t[-1:] in ("Z", "z") else t
    try:
        dt = datetime.fromisoformat(iso)
    except ValueError:
        raise ValueError(f"{text!r} is not an RFC 3339 time (write e.g. 2026-03-02T09:00:00Z) nor 'now'") from None
    if dt.tzinfo is None:
        raise ValueError(f"{text!r} has no time zone (add Z or an offset such as +01:00)")
    return dt.astimezone(timezone.utc)


def micros_between(t0: datetime, t: datetime) -> int:
    """``t - t0`` in microseconds."""
    d = t - t0
    return (d.days * 86400 + d.seconds) * US + d.microseconds


def until_micros(t0: datetime, until: datetime | int | None) -> int | None:
    """--until (a time, or microseconds from t0) in microseconds from t0."""
    return micros_between(t0, until) if isinstance(until, datetime) else until


def at(t0: datetime, us: int) -> datetime:
    return t0 + timedelta(microseconds=us)


def rfc3339(dt: datetime) -> str:
    """``2026-03-02T09:00:00Z`` (fractional seconds only when there are some)."""
    dt = dt.astimezone(timezone.utc)
    text = dt.strftime("%Y-%m-%dT%H:%M:%S")
    if dt.microsecond:
        text += f".{dt.microsecond:06d}".rstrip("0")
    return text + "Z"


def seconds(us: int | None) -> int | float | None:
    """Microseconds as the JSON number of seconds: an int when whole (``100``, not ``100.0``)."""
    if us is None:
        return None
    whole, frac = divmod(us, US)
    return whole if frac == 0 else us / US
