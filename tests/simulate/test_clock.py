"""Durations, instants and the cadence table."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from quotactl.simulate.cadence import PRESETS, Cadence, preset
from quotactl.simulate.clock import US, parse_duration, parse_instant, rfc3339, seconds
from quotactl.simulate.events import EventQueue


@pytest.mark.parametrize("text, micros", [
    ("90s", 90 * US), ("5m", 300 * US), ("1h30m", 5400 * US), ("45", 45 * US), ("0.05", 50_000),
    ("250ms", 250_000), ("1.5h", 5400 * US), ("2d", 172_800 * US), ("0", 0), ("0.05s", 50_000), (" 10s ", 10 * US),
])
def test_durations(text, micros):
    assert parse_duration(text) == micros


@pytest.mark.parametrize("text", ["", "-5s", "ten", "5 m", "1h-30m", "s", "1e3s", "5x", "1h30"])
def test_not_durations(text):
    with pytest.raises(ValueError, match="not a duration"):
        parse_duration(text)


def test_instants():
    assert parse_instant("2026-03-02T09:00:05Z") == datetime(2026, 3, 2, 9, 0, 5, tzinfo=timezone.utc)
    assert parse_instant("2026-03-02T10:00:05+01:00") == datetime(2026, 3, 2, 9, 0, 5, tzinfo=timezone.utc)
    now = datetime(2026, 5, 1, 12, 0, 0, 123456, tzinfo=timezone.utc)
    assert parse_instant("now", now=now) == now.replace(microsecond=0)
    for bad in ("2026-03-02", "2026-03-02T09:00:00", "tomorrow", "2026-02-30T00:00:00Z"):
        with pytest.raises(ValueError):
            parse_instant(bad)


def test_json_numbers_and_times():
    assert seconds(100 * US) == 100 and isinstance(seconds(100 * US), int)
    assert seconds(150_000) == 0.15 and seconds(None) is None and seconds(-5 * US) == -5
    assert rfc3339(datetime(2026, 3, 2, 9, 0, 0, 40_000, tzinfo=timezone.utc)) == "2026-03-02T09:00:00.04Z"


def test_event_queue_pops_one_instant_finishes_first():
    q = EventQueue()
    q.load_arrivals([(5, "b"), (5, "a"), (7, "c")])
    q.finish(5, "z", 1)
    inst = q.pop_instant()
    assert (inst.at, inst.finishes, inst.arrivals) == (5, [("z", 1)], ["a", "b"])
    assert q.next_time() == 7 and len(q) == 1


def test_cadence_grid_and_cost():
    c = Cadence(10 * US, 2 * US)
    assert c.ticks and c.next_tick(0) == 0 and c.next_tick(1) == 10 * US and c.next_tick(10 * US) == 10 * US
    assert c.cycle_end(20 * US, 3) == 26 * US
    with pytest.raises(ValueError):
        Cadence(0, US)
    with pytest.raises(ValueError):
        Cadence(-1)


def test_presets_are_usable_and_say_where_they_come_from():
    assert "kueue-harness" in PRESETS
    for name, c in PRESETS.items():
        assert preset(name) is c and c.ticks and c.basis
    with pytest.raises(KeyError, match="kueue-harness"):
        preset("nightly")
