"""``simulate``'s progress: virtual time that never goes back, a share done that never shrinks and
an ETA, from in-order reports (one process) and out-of-order ones (forked parts, a fallback run)."""

from __future__ import annotations

import re
import sys

import pytest

from quotactl.cli.simulate_progress import ProgressModel, eta_text
from quotactl.simulate.clock import US, parse_duration
from tests.helpers import run_with_stderr_on_a_terminal
from tests.simulate.test_split import GENERATOR


def test_virtual_time_and_share_never_go_back_on_out_of_order_reports():
    model = ProgressModel(until=None, started=0.0)
    shown = []
    # (now, horizon): a part starting late reports t0 again; a fallback run starts over at t0
    for now, horizon in [(0, 100), (40, 100), (10, 120), (60, 150), (0, 150), (30, 150), (150, 150)]:
        model.update(now, horizon)
        shown.append((model.now, model.fraction))
    clocks, shares = [c for c, _ in shown], [f for _, f in shown]
    assert clocks == sorted(clocks) and clocks[-1] == 150
    assert shares == sorted(shares) and shares[1] == pytest.approx(0.4)
    assert shares[-1] < 1  # 100% only when the run has ended (the bar then goes away)


def test_the_share_is_of_until_when_given():
    model = ProgressModel(until=1000, started=0.0)
    model.update(250, 5000)  # events beyond --until do not count
    assert model.fraction == pytest.approx(0.25)
    drained = ProgressModel(until=1000, started=0.0)
    drained.update(100, 200)  # the run drains before --until: its last event is the end
    assert drained.fraction == pytest.approx(0.5)


def test_eta_is_the_wall_time_left_at_the_rate_so_far():
    model = ProgressModel(until=None, started=10.0)
    assert model.eta(11.0) is None and eta_text(None) == "ETA -"
    model.update(25, 100)
    assert model.eta(14.0) == pytest.approx(12.0)  # a quarter in 4 s: three quarters in 12 s
    assert eta_text(3725.4) == "ETA 1:02:05"


def _frames_on_a_terminal(*args: str) -> tuple[int, list[str]]:
    code, _out, err = run_with_stderr_on_a_terminal(*args, columns=120)
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", err)
    return code, [f.strip() for f in re.split(r"[\r\n]", text) if "simulating" in f]


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_the_bar_shows_time_share_and_eta_moving_forward(tmp_path, jobs):
    gen = tmp_path / "generator.yaml"
    gen.write_text(GENERATOR)  # 2,250 workloads in 3 cohort trees: --jobs 2 forks parts
    code, frames = _frames_on_a_terminal("simulate", "--generator", str(gen), "--jobs", jobs, "--no-plot")
    assert code == 0 and frames
    parsed = [re.search(r"(\d+)%\s+t0(?:\+(\S+))?\s+ETA (\S+)", f) for f in frames]
    assert all(parsed), frames
    shares = [int(m.group(1)) for m in parsed]
    clocks = [parse_duration(m.group(2)) if m.group(2) else 0 for m in parsed]
    assert shares == sorted(shares) and clocks == sorted(clocks) and shares[-1] > shares[0]
    assert clocks[-1] >= 1 * US  # the generator's workloads run for seconds of virtual time
