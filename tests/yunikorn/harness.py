"""Run ``quotactl preempt`` / ``explain`` for YuniKorn in-process and score the acceptance cases
with the acceptance scorer's matching rule (tests/acceptance/accept_preempt.py).

Until the top-level ``preempt`` command exists, ``cli_json`` mimics the CLI: it loads the ``-f`` files
exactly as the commands do and calls ``quotactl.cli.yunikorn_cmds.run_preempt`` / ``run_explain``,
capturing standard output.  Once the command is registered in the Typer app, the real CLI is used.
"""

from __future__ import annotations

import contextlib
import io
import json

from quotactl.load.objects import load
from tests.helpers import run_cli


def registered(command: str) -> bool:
    from quotactl.cli.app import app

    return any((c.name or getattr(c.callback, "__name__", "")) == command for c in app.registered_commands)


def _parse(args: list[str]) -> tuple[str, str, list[str], bool, str]:
    command, target = args[0], args[1]
    files, direct, output = [], False, "table"
    i = 2
    while i < len(args):
        a = args[i]
        if a in ("-f", "--file"):
            files.append(args[i + 1])
            i += 2
            continue
        if a == "--direct":
            direct = True
        elif a in ("--output", "-o"):
            output = args[i + 1]
            i += 1
        i += 1
    return command, target, files, direct, output


def harness(args: list[str]) -> tuple[int, str]:
    """The CLI stand-in: (exit code, stdout)."""
    from quotactl.cli.yunikorn_cmds import run_explain, run_preempt

    command, target, files, direct, output = _parse(args)
    loaded = load(files, fast_json=True)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        if command == "preempt":
            code = run_preempt(loaded, target, output, direct)
        else:
            code = run_explain(loaded, target, output, direct=direct)
    return code, buf.getvalue()


def cli(args: list[str]) -> tuple[int, str]:
    """The real CLI when the command is wired, else the harness."""
    if registered(args[0]):
        result = run_cli(*args)
        return result.exit_code, result.stdout
    return harness(args)


def cli_json(args: list[str]) -> dict:
    code, out = cli(args)
    assert code == 0, f"exit {code}: {out[-300:]}"
    return json.loads(out)

