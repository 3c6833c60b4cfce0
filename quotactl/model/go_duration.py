"""Go's ``time.ParseDuration``, as both schedulers decode their duration settings (YuniKorn's
queue properties, Kueue's Configuration durations): one copy for both dialects."""

from __future__ import annotations

import re

SECOND = 1_000_000_000

_UNITS = {"ns": 1, "us": 1_000, "\u00b5s": 1_000, "\u03bcs": 1_000, "ms": 1_000_000, "s": SECOND,
          "m": 60 * SECOND, "h": 3600 * SECOND}


def parse_duration(text: str) -> int:
    """``time.ParseDuration`` (nanoseconds); raises ValueError with Go's message."""
    orig = text
    quoted = '"' + orig + '"'
    s = text
    neg = False
    if s and s[0] in "+-":
        neg = s[0] == "-"
        s = s[1:]
    if s == "0":
        return 0
    if not s:
        raise ValueError(f"time: invalid duration {quoted}")
    total = 0
    while s:
        if not (s[0] == "." or s[0].isdigit() and s[0].isascii()):
            raise ValueError(f"time: invalid duration {quoted}")
        m = re.match(r"[0-9]*", s)
        digits = m.group(0)
        s = s[len(digits):]
        pre = bool(digits)
        frac = ""
        post = False
        if s.startswith("."):
            s = s[1:]
            fm = re.match(r"[0-9]*", s)
            frac = fm.group(0)
            s = s[len(frac):]
            post = bool(frac)
        if not pre and not post:
            raise ValueError(f"time: invalid duration {quoted}")
        um = re.match(r"[^0-9.]*", s)
        unit = um.group(0)
        if not unit:
            raise ValueError(f"time: missing unit in duration {quoted}")
        s = s[len(unit):]
        if unit not in _UNITS:
            raise ValueError(f'time: unknown unit "{unit}" in duration {quoted}')
        scale = _UNITS[unit]
        if len(digits.lstrip("0")) > 19:  # Go's leadingInt overflows: "invalid duration"
            raise ValueError(f"time: invalid duration {quoted}")
        frac = frac[:19]  # Go's leadingFraction stops adding digits once they no longer count
        v = int(digits.lstrip("0") or "0")
        if v > (1 << 63) // scale:
            raise ValueError(f"time: invalid duration {quoted}")
        v *= scale
        if frac:
            v += int(int(frac) * (scale / 10 ** len(frac)))
            if v > 1 << 63:
                raise ValueError(f"time: invalid duration {quoted}")
        total += v
        if total > 1 << 63:
            raise ValueError(f"time: invalid duration {quoted}")
    if neg:
        return -total
    if total > (1 << 63) - 1:
        raise ValueError(f"time: invalid duration {quoted}")
    return total
