"""The composite GitHub Action (action.yml): its structure, the quotactl options it uses, and its
shell steps run here with bash the way the runner runs them (inputs through the environment)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from tests.helpers import ROOT
from tests.integrations.shell import quotactl_bin

ACTION = YAML(typ="safe").load((ROOT / "action.yml").read_text())
STEPS = ACTION["runs"]["steps"]
EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


def _step(name: str) -> dict:
    (found,) = [s for s in STEPS if s.get("id") == name or s.get("name") == name]
    return found


def _expressions(node) -> list[str]:
    if isinstance(node, dict):
        return [e for v in node.values() for e in _expressions(v)]
    if isinstance(node, list):
        return [e for v in node for e in _expressions(v)]
    return EXPRESSION.findall(node) if isinstance(node, str) else []


def test_a_composite_action_with_bash_steps_and_pinned_actions():
    assert ACTION["runs"]["using"] == "composite"
    for step in STEPS:
        if "run" in step:
            assert step["shell"] == "bash", step
        else:
            assert re.fullmatch(r"[\w.-]+/[\w./-]+@v\d+", step["uses"]), step
    assert {s["uses"].split("@")[0] for s in STEPS if "uses" in s} == {
        "actions/setup-python", "github/codeql-action/upload-sarif"}


def test_every_input_it_reads_is_declared_and_every_declared_input_is_read():
    used = {m for e in _expressions(ACTION["runs"]) for m in re.findall(r"\binputs\.([\w-]+)", e)}
    assert used == set(ACTION["inputs"])
    outputs = {m for e in _expressions(ACTION["outputs"]) for m in re.findall(r"steps\.lint\.outputs\.([\w-]+)", e)}
    assert outputs == set(ACTION["outputs"])


def test_scripts_take_inputs_from_the_environment_only():
    # An expression pasted into a script is a shell injection (a path named `$(...)`).
    for step in STEPS:
        assert not EXPRESSION.search(step.get("run", "")), step["name"]


def test_installs_from_the_actions_own_checkout_with_the_tested_pins():
    install = _step("Install quotactl")
    assert install["env"]["QUOTACTL_ACTION_PATH"] == "${{ github.action_path }}"
    assert '-c "$QUOTACTL_ACTION_PATH/constraints.txt" "$QUOTACTL_ACTION_PATH"' in install["run"]


def test_the_quotactl_options_it_runs_are_real():
    help_text = subprocess.run([sys.executable, "-m", "quotactl", "lint", "--help"], capture_output=True, text=True,
                               env={**os.environ, "COLUMNS": "300", "NO_COLOR": "1"}, check=True).stdout
    commands = [line.strip() for step in STEPS for line in step.get("run", "").splitlines()
                if line.strip().startswith("quotactl lint")]
    assert len(commands) == 2
    for command in commands:
        words = command.split()
        for option in (w for w in words if w.startswith("--")):
            assert re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", help_text), option
        fmt = words[words.index("--output") + 1]
        assert re.search(rf"[<\[|]{fmt}[|>\]]", help_text), fmt
    assert {c.split("--output ")[1].split()[0] for c in commands} == {"github", "sarif"}


# --- The shell steps, run by bash -----------------------------------------------------------


def _resolve(value: str, inputs: dict[str, str], outputs: dict[str, str]) -> str:
    """The expressions the action's step environments use: an input (or its default), a step output."""
    def one(m: re.Match) -> str:
        expr = m.group(1)
        if expr.startswith("inputs."):
            name = expr.removeprefix("inputs.")
            return inputs.get(name, ACTION["inputs"][name].get("default", ""))
        if expr.startswith("steps.lint.outputs."):
            return outputs.get(expr.removeprefix("steps.lint.outputs."), "")
        raise AssertionError(f"an expression this test does not evaluate: {expr}")
    return EXPRESSION.sub(one, value)


def _run_step(name: str, tmp_path: Path, inputs: dict[str, str], outputs: dict[str, str] | None = None):
    """Run one `run:` step with bash from the repository root, as the runner does (its GITHUB_OUTPUT
    file, RUNNER_TEMP); returns the process and the outputs the step wrote."""
    step = _step(name)
    github_output = tmp_path / "github_output"
    github_output.write_text("")
    env = {"PATH": f"{quotactl_bin(tmp_path)}:/usr/bin:/bin", "NO_COLOR": "1", "GITHUB_OUTPUT": str(github_output), "RUNNER_TEMP": str(tmp_path),
           **{k: _resolve(v, inputs, outputs or {}) for k, v in step.get("env", {}).items()}}
    done = subprocess.run(["bash", "-e", "-c", step["run"]], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)
    produced = dict(line.split("=", 1) for line in github_output.read_text().splitlines())
    return done, produced


def test_lint_step_annotates_writes_sarif_and_records_the_exit_status(tmp_path):
    done, outputs = _run_step("lint", tmp_path, {"paths": "fixtures/broken"})
    assert done.returncode == 0, done.stderr  # the status is reported after the SARIF upload
    assert outputs["exit-code"] == "1"
    assert "::error file=fixtures/broken/clusterqueues.yaml,line=20,col=9,title=KQ104::" in done.stdout
    sarif = json.loads(Path(outputs["sarif-file"]).read_text())
    assert Path(outputs["sarif-file"]) == tmp_path / "quotactl.sarif"
    results = sarif["runs"][0]["results"]
    assert any(r["ruleId"] == "KQ104" and r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
               == "fixtures/broken/clusterqueues.yaml" for r in results)


def test_lint_step_passes_args_and_several_paths(tmp_path):
    inputs = {"paths": "fixtures/cluster\n  fixtures/broken/clusterqueues.yaml", "args": "--select KQ104",
              "sarif": "false"}
    done, outputs = _run_step("lint", tmp_path, inputs)
    assert outputs == {"exit-code": "1"}  # no SARIF asked for
    titles = set(re.findall(r"title=(\w+)::", done.stdout))
    assert titles == {"KQ104"}


def test_lint_step_on_a_clean_config(tmp_path):
    _, outputs = _run_step("lint", tmp_path, {"paths": "fixtures/cluster", "sarif-file": str(tmp_path / "c.sarif")})
    assert outputs == {"exit-code": "0", "sarif-file": str(tmp_path / "c.sarif")}
    assert json.loads((tmp_path / "c.sarif").read_text())["runs"][0]["results"] == []


@pytest.mark.parametrize(("exit_code", "fail_on_findings", "status"), [
    ("0", "true", 0), ("1", "true", 1), ("1", "false", 0), ("2", "false", 2), ("2", "true", 2), ("", "true", 2),
])
def test_exit_step_preserves_the_status(tmp_path, exit_code, fail_on_findings, status):
    done, _ = _run_step("Exit status", tmp_path, {"fail-on-findings": fail_on_findings}, {"exit-code": exit_code})
    assert done.returncode == status, done.stdout + done.stderr
