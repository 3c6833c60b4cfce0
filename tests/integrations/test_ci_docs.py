"""docs/github-action.md's examples use only the action inputs, hook ids and quotactl options that exist."""

from __future__ import annotations

import re

from ruamel.yaml import YAML

from tests.helpers import ROOT, run_cli

DOC = (ROOT / "docs" / "github-action.md").read_text()
BLOCKS = [YAML(typ="safe").load(b) for b in re.findall(r"```yaml\n(.*?)```", DOC, flags=re.S)]
ACTION = YAML(typ="safe").load((ROOT / "action.yml").read_text())
HOOKS = YAML(typ="safe").load((ROOT / ".pre-commit-hooks.yaml").read_text())


def _steps_using_the_action() -> list[dict]:
    steps = []
    for block in BLOCKS:
        items = block if isinstance(block, list) else [s for job in block.get("jobs", {}).values() for s in job["steps"]]
        steps += [s for s in items if isinstance(s, dict) and "/quotactl@" in s.get("uses", "")]
    return steps


def _hooks_used() -> list[dict]:
    used = []
    for block in BLOCKS:
        if isinstance(block, dict) and "repos" in block:
            used += [h for repo in block["repos"] for h in repo["hooks"]]
        elif isinstance(block, list) and not any("uses" in s or "run" in s for s in block):
            used += block  # a fragment of a hooks list
    return used


def test_the_workflow_examples_use_declared_inputs():
    steps = _steps_using_the_action()
    assert len(steps) == 2
    for step in steps:
        assert set(step["with"]) <= set(ACTION["inputs"]), step["with"]
    assert "security-events" in BLOCKS[0]["permissions"]


def test_the_workflow_examples_pass_real_lint_options():
    for step in _steps_using_the_action():
        args = step["with"].get("args", "").split()
        result = run_cli("lint", "fixtures/cluster", *args, "-o", "json")
        assert result.exit_code == 0, (args, result.stderr)


def test_the_pre_commit_examples_name_real_hooks():
    used = _hooks_used()
    assert {h["id"] for h in used} == {h["id"] for h in HOOKS}
    assert all(set(h) <= {"id", "name", "args", "files", "exclude"} for h in used)


def test_every_input_is_documented_in_the_table():
    for name in ACTION["inputs"]:
        assert f"| `{name}` |" in DOC, name
