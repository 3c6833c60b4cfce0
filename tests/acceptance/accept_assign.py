"""The ``assign`` check of tests/acceptance/cases/FORMAT.md through the real CLI (Typer's runner),
with the acceptance scorer's matching rule."""

from __future__ import annotations

import json
from pathlib import Path

from tests.acceptance.accept import inputs, spec
from tests.helpers import run_cli


def explain_args(case: Path) -> list[str]:
    s = spec(case)
    args = ["explain", s["workload"]]
    for f in inputs(case):
        args += ["-f", f]
    if (s.get("options") or {}).get("fairSharing"):
        args.append("--fair-sharing")
    return args + ["--output", "json"]


def check_assign(case: Path) -> str | None:
    """None when the case passes, else why not."""
    s = spec(case)
    result = run_cli(*explain_args(case))
    if result.exit_code != 0:
        return f"exit {result.exit_code}: {result.stderr.strip()[-300:]}"
    got = json.loads(result.stdout)
    exp = s["expect"]
    if exp.get("representativeMode") and got.get("representativeMode") != exp["representativeMode"]:
        return f"representativeMode want {exp['representativeMode']} got {got.get('representativeMode')}"
    pod_sets = got.get("podSets") or {}
    for ps, resources in (exp.get("podSets") or {}).items():
        for res, want in resources.items():
            have = (pod_sets.get(ps) or {}).get(res) or {}
            for k in ("flavor", "mode", "borrow"):
                if k in want and want[k] is not None and have.get(k) != want[k]:
                    return f"{ps}/{res}.{k} want {want[k]} got {have.get(k)}"
    return None


def check_messages(case: Path) -> str | None:
    """Kueue's own texts, where the case gives them: stricter than accept.py (exact text)."""
    s = spec(case)
    exp = s["expect"]
    if "message" not in exp and "messages" not in exp:
        return None
    got = json.loads(run_cli(*explain_args(case)).stdout)
    if "message" in exp:
        mine = got["message"].split(". Pending the preemption of ")[0]
        if mine != exp["message"]:
            return f"message want {exp['message']!r} got {mine!r}"
    joined = " ".join(got["messages"])
    for m in exp.get("messages") or []:
        if m not in joined:
            return f"reason {m!r} missing from {got['messages']}"
    return None
