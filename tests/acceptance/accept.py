"""The acceptance checks of ../shared/cases/FORMAT.md, run through the real CLI (Typer's runner).

Cases are read from ../shared/cases when present (the full, current set), else from the copy
in tests/acceptance/cases.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.helpers import SHARED, run_cli

LOCAL = Path(__file__).parent / "cases"


def suite_dir(suite: str) -> Path:
    shared = SHARED / "cases" / suite
    return shared if shared.is_dir() else LOCAL / suite


def cases(suite: str) -> list[Path]:
    return sorted(p.parent for p in suite_dir(suite).glob("*/case.json"))


def spec(case: Path) -> dict:
    return json.loads((case / "case.json").read_text())


def inputs(case: Path) -> list[str]:
    return [str(case / n) for n in ("queues.yaml", "state.yaml", "input.yaml") if (case / n).exists()]


def _norm(field: str | None) -> str:
    return re.sub(r"\[\d+\]", "[]", field or "").strip(".")


def check_lint(case: Path) -> str | None:
    """None when the case passes, else why not (same matching rule as shared/tools/accept.py)."""
    s = spec(case)
    result = run_cli("lint", *inputs(case), "--output", "json")
    doc = json.loads(result.stdout)
    errors = [d for d in doc["diagnostics"] if d["severity"] == "error"]
    if s["expect"].get("valid"):
        return None if not errors else f"expected valid, got {[(e['code'], e['field'], e['message']) for e in errors]}"
    if not errors:
        return "expected errors, got none"
    for e in s["expect"].get("errors", []):
        want = _norm(e.get("field"))
        leaf = want.split(".")[-1].replace("[]", "")
        ok = any(
            (want and (_norm(d["field"]) == want or _norm(d["field"]).endswith(want)
                       or (want.endswith(_norm(d["field"])) and _norm(d["field"]))))
            or (leaf and leaf in _norm(d["field"]))
            for d in errors
        )
        if not ok:
            return f"no error at {e.get('field')} (got {[(d['code'], d['field']) for d in errors]})"
    return None
