"""How the console command ends (cli.app._leave: output flushed, no interpreter teardown): the exit
status is the command's, a reader that leaves early is not an error, and an output that cannot be
written is a one-line error with exit 2, never a traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.helpers import FIXTURES, ROOT, run_subprocess

ENV = {**os.environ, "NO_COLOR": "1"}


def test_the_status_and_the_whole_output_survive_the_quick_exit():
    ok = run_subprocess("rules", "--output", "json")
    assert ok.returncode == 0 and json.loads(ok.stdout)  # 200 KB, all of it flushed
    usage = run_subprocess("lint", "--no-such-flag")
    assert usage.returncode == 2 and "Traceback" not in usage.stderr
    findings = run_subprocess("lint", FIXTURES / "broken", "--output", "json")
    assert findings.returncode == 1 and json.loads(findings.stdout)["diagnostics"]


def test_a_reader_that_leaves_early_is_not_an_error():
    proc = subprocess.Popen([sys.executable, "-m", "quotactl", "rules", "--output", "json"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=ROOT, env=ENV)
    assert proc.stdout.read(10)
    proc.stdout.close()  # like `| head -c 10`
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 0 and err == ""


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
def test_an_output_that_cannot_be_written_is_a_one_line_error():
    with open("/dev/full", "w") as full:
        r = subprocess.run([sys.executable, "-m", "quotactl", "rules", "--output", "json"], stdout=full,
                           stderr=subprocess.PIPE, text=True, cwd=ROOT, env=ENV, timeout=60)
    assert r.returncode == 2
    assert r.stderr.splitlines() == ["quotactl: error: cannot write the output: No space left on device"]
