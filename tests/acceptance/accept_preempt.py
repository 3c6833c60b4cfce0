"""The ``preempt`` check of tests/acceptance/cases/FORMAT.md through the real CLI (Typer's runner),
with the acceptance scorer's matching rule: the victim set, each reason the case gives, and for
YuniKorn whether the ask is placed and on which node."""

from __future__ import annotations

import json
from pathlib import Path

from tests.acceptance.accept import inputs, spec
from tests.helpers import run_cli


def preempt_args(case: Path, *extra: str) -> list[str]:
    s = spec(case)
    args = ["preempt", s["workload"]]
    for f in inputs(case):
        args += ["-f", f]
    opts = s.get("options") or {}
    if opts.get("fairSharing"):
        args.append("--fair-sharing")
    if opts.get("direct"):
        args.append("--direct")
    return args + list(extra) + ["--output", "json"]


def run_preempt(case: Path, *extra: str) -> tuple[int, dict | None, str]:
    result = run_cli(*preempt_args(case, *extra))
    try:
        return result.exit_code, json.loads(result.stdout), result.stderr
    except ValueError:
        return result.exit_code, None, result.stderr


def check_preempt(case: Path, *extra: str) -> str | None:
    """None when the case passes, else why not."""
    exp = spec(case)["expect"]
    code, got, err = run_preempt(case, *extra)
    if code != 0 or got is None:
        return f"exit {code}: {err.strip()[-300:]}"
    have = {v.get("workload"): v.get("reason") for v in got.get("victims") or []}
    if exp.get("victims") is not None:
        want = {v["workload"]: v.get("reason") for v in exp["victims"]}
        if set(want) != set(have):
            return f"victims want {sorted(want)} got {sorted(have)}"
        for w, r in want.items():
            if r and have.get(w) != r:
                return f"reason for {w}: want {r} got {have.get(w)}"
    for w in exp.get("notVictims") or []:
        if w in have:
            return f"{w} must not be a victim"
    anyof = exp.get("victimsIncludeAnyOf")
    if anyof and not set(anyof) & set(have):
        return f"victims must include one of {anyof}, got {sorted(have)}"
    return _check_placement(exp, got)


def _check_placement(exp: dict, got: dict) -> str | None:
    """YuniKorn cases: ``placed`` and ``node`` where both the case and the report give them."""
    if exp.get("placed") is not None and got.get("placed") is not None and bool(got["placed"]) != bool(exp["placed"]):
        return f"placed want {exp['placed']} got {got['placed']}"
    if exp.get("node") and got.get("node") and exp["node"] != got["node"]:
        return f"node want {exp['node']} got {got['node']}"
    return None
