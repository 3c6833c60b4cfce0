"""Every input the fuzzer ever failed on (tests/fuzz/regressions/) still runs clean: no traceback,
no exit status outside 0/1/2, no signal, no CPU or memory limit hit, no rule crash, JSON that parses.
Each is run the way the fuzzer ran it (forked, limited, in-process CLI); a few also through a real
``python -m quotactl`` subprocess."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.fuzz.campaign import regression_cases, run_regression
from tests.fuzz.runner import warm_up

CASES = regression_cases()
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def forked():
    warm_up()


def test_regressions_are_kept():
    assert CASES, "tests/fuzz/regressions/ holds the inputs the fuzzer has failed on"


@pytest.mark.parametrize("name,run,contents,input_name", CASES, ids=[c[0] for c in CASES])
def test_regression_runs_clean(forked, tmp_path, name, run, contents, input_name):
    outcome = run_regression(run, contents, input_name, tmp_path)
    assert outcome.failure is None, f"{name}: {outcome.failure}: {outcome.detail}\n{outcome.stderr[-2000:]!r}"


@pytest.mark.parametrize("name,run,contents,input_name", CASES[:3], ids=[c[0] for c in CASES[:3]])
def test_regression_through_the_real_command(tmp_path, name, run, contents, input_name):
    files = {}
    for key in contents:
        files[key] = tmp_path / f"{key}{Path(input_name).suffix}"
        files[key].write_bytes(contents[key])
    args = [a.replace("{input}", str(files["input"])).replace("{base}", str(files.get("base", files["input"])))
            for a in run.args]
    proc = subprocess.run([sys.executable, "-m", "quotactl", *args], capture_output=True, cwd=ROOT, timeout=300,
                          stdin=subprocess.DEVNULL, env={"PATH": "/usr/bin:/bin", "NO_COLOR": "1"})
    assert proc.returncode in (0, 1, 2), proc.stderr[-2000:]
    assert b"Traceback" not in proc.stderr and b"internal error" not in proc.stderr
