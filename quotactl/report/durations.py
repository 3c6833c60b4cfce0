"""Virtual-time durations for people: ``1h20m``, ``2d3h``, ``45s``, ``0.25s`` (microseconds in)."""

from __future__ import annotations

from quotactl.simulate.clock import US

_UNITS = (("d", 86400), ("h", 3600), ("m", 60))


def human_duration(us: int | None) -> str:
    """The largest two units (``1d2h``, ``5m30s``); below a minute, seconds to three significant
    digits (``53.3s``, ``0.25s``)."""
    if us is None:
        return "-"
    sign, us = ("-", -us) if us < 0 else ("", us)
    if us < 60 * US:
        return f"{sign}{us / US:.3g}s"
    secs = us // US
    parts = []
    for unit, size in _UNITS:
        n, secs = divmod(secs, size)
        if n or parts:
            parts.append(f"{n}{unit}")
    parts.append(f"{secs}s")
    kept = [p for p in parts[:2] if not p.startswith("0")] or parts[:1]
    return sign + "".join(kept)
