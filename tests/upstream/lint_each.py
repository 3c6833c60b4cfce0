"""Run ``quotactl lint -o json`` on many files, each on its own, in one process.

The corpus files are separate examples: linted together they would collide (two examples both
define ResourceFlavor default-flavor), and a subprocess per file would take minutes.  This driver
goes through the real CLI (the Typer app, its option parsing, exit codes and JSON renderer) once per
file.  Input on stdin: a JSON list of ``[file, [extra args]]``; output: a JSON list of
``{"file", "args", "exit_code", "report"}`` in the same order.
"""

from __future__ import annotations

import json
import sys

from typer.testing import CliRunner

from quotactl.cli.app import app


def lint_each(jobs: list[tuple[str, list[str]]]) -> list[dict]:
    runner = CliRunner()
    results = []
    for file, args in jobs:
        result = runner.invoke(app, ["lint", "-o", "json", *args, file])
        report = json.loads(result.stdout) if result.stdout.strip() else None
        results.append({"file": file, "args": args, "exit_code": result.exit_code, "report": report,
                        "stderr": result.stderr})
    return results


if __name__ == "__main__":
    json.dump(lint_each(json.load(sys.stdin)), sys.stdout)
