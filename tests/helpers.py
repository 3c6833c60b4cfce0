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
