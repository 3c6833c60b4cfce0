"""The acceptance checks of tests/acceptance/cases/FORMAT.md, run through the real CLI (Typer's runner).

The matching rules are those of the developers' acceptance scorer (``accept.py``, one check per case
kind), re-implemented here so that the test suite needs nothing outside the repository.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.helpers import CASES, run_cli


def suite_dir(suite: str) -> Path:
    return CASES / suite


def cases(suite: str) -> list[Path]:
    return sorted(p.parent for p in suite_dir(suite).glob("*/case.json"))


def spec(case: Path) -> dict:
    return json.loads((case / "case.json").read_text())


def inputs(case: Path) -> list[str]:
    return [str(case / n) for n in ("queues.yaml", "state.yaml", "input.yaml") if (case / n).exists()]


def _norm(field: str | None) -> str:
    return re.sub(r"\[\d+\]", "[]", field or "").strip(".")


def field_matches(want: str | None, got: str | None) -> bool:
    """The scorer's field rule: index-insensitive, either path a suffix of the other, or the same leaf."""
    want, got = _norm(want), _norm(got)
    leaf = want.split(".")[-1].replace("[]", "")
    return bool(want and (got == want or got.endswith(want) or (got and want.endswith(got)))) or bool(leaf and leaf in got)


def check_lint(case: Path) -> str | None:
    """None when the case passes, else why not (the scorer's matching rule)."""
    s = spec(case)
    result = run_cli("lint", *inputs(case), "--output", "json")
    doc = json.loads(result.stdout)
    errors = [d for d in doc["diagnostics"] if d["severity"] == "error"]
    if s["expect"].get("valid"):
        return None if not errors else f"expected valid, got {[(e['code'], e['field'], e['message']) for e in errors]}"
    if not errors:
        return "expected errors, got none"
    for e in s["expect"].get("errors", []):
        if not any(field_matches(e.get("field"), d["field"]) for d in errors):
            return f"no error at {e.get('field')} (got {[(d['code'], d['field']) for d in errors]})"
    return None
