"""Shared test helpers: run the CLI in-process (Typer's runner) or as a real subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from quotactl.cli.app import app

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures"
# The acceptance cases (upstream scheduler tests as YAML), one folder per suite: tests/acceptance/cases/FORMAT.md.
CASES = ROOT / "tests" / "acceptance" / "cases"


def run_cli(*args: str, input: str | None = None):
    """In-process run; returns the click Result (exit_code, stdout, stderr)."""
    runner = CliRunner()
    return runner.invoke(app, [str(a) for a in args], input=input, catch_exceptions=False)


def run_json(*args: str) -> tuple[int, dict]:
    result = run_cli(*args, "--output", "json")
    return result.exit_code, json.loads(result.stdout)


def run_subprocess(*args: str, input: str | None = None, timeout: float = 120, env: dict | None = None):
    full_env = {**os.environ, "NO_COLOR": "1", **(env or {})}
    return subprocess.run([sys.executable, "-m", "quotactl", *map(str, args)], capture_output=True, text=True,
                          input=input, timeout=timeout, cwd=ROOT, env=full_env)


def run_with_stderr_on_a_terminal(*args: str, columns: int = 100, timeout: float = 300) -> tuple[int, str, str]:
    """(exit code, stdout, stderr): stdout to a file (not a terminal, and no pipe a big report
    could fill), stderr a pseudo-terminal, read back as written (progress bars)."""
    import pty
    import tempfile

    master, slave = pty.openpty()
    env = {**os.environ, "TERM": "xterm", "COLUMNS": str(columns)}
    env.pop("NO_COLOR", None)
    with tempfile.TemporaryFile() as out:
        proc = subprocess.Popen([sys.executable, "-m", "quotactl", *map(str, args)], stdout=out, stderr=slave,
                                cwd=ROOT, env=env)
        os.close(slave)
        chunks = []
        while True:
            try:
                data = os.read(master, 65536)
            except OSError:  # the child closed the terminal
                break
            if not data:
                break
            chunks.append(data)
        code = proc.wait(timeout=timeout)
        os.close(master)
        out.seek(0)
        return code, out.read().decode(), b"".join(chunks).decode(errors="replace")
