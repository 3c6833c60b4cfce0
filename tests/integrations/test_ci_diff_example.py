"""fixtures/ci-diff/README.md's GitHub Actions steps, run as written on a throwaway git repository
laid out like the one the README describes (main's configuration on origin/main, the pull
request's in the working tree)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from tests.helpers import FIXTURES, run_cli
from tests.integrations.shell import GIT_ENV, git, new_repo, quotactl_bin

EXAMPLE = FIXTURES / "ci-diff"
README = (EXAMPLE / "README.md").read_text()
(BLOCK,) = re.findall(r"```yaml\n(.*?)```", README, flags=re.S)
STEPS = YAML(typ="safe").load(BLOCK)["steps"]

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed: the example runs git")


def _run_steps() -> list[str]:
    return [s["run"] for s in STEPS if "run" in s]


def test_it_installs_quotactl_from_the_checkout_of_its_repository():
    assert "pip install quotactl" not in README  # quotactl is not on a package index
    (checkout,) = [s for s in STEPS if s.get("with", {}).get("repository", "").endswith("/quotactl")]
    install = _run_steps()[0].split()
    assert install[:2] == ["pip", "install"]
    assert install[-1] == f"./{checkout['with']['path']}"
    assert f"{checkout['with']['path']}/constraints.txt" in install
    assert next(s for s in STEPS if "uses" in s)["with"]["fetch-depth"] == 0  # origin/main is needed


@pytest.fixture
def pull_request(tmp_path) -> Path:
    """A clone whose origin/main holds before/ and whose working tree holds after/."""
    origin = new_repo(tmp_path / "origin")
    (origin / "deploy" / "kueue").mkdir(parents=True)
    shutil.copy(EXAMPLE / "before" / "kueue.yaml", origin / "deploy" / "kueue" / "kueue.yaml")
    shutil.copy(EXAMPLE / "workloads.yaml", origin / "cluster-workloads.yaml")
    git(origin, "add", "-A")
    git(origin, "commit", "-q", "-m", "main")
    git(tmp_path, "clone", "-q", str(origin), "pr")
    pr = tmp_path / "pr"
    git(pr, "switch", "-q", "-c", "move-quota")
    shutil.copy(EXAMPLE / "after" / "kueue.yaml", pr / "deploy" / "kueue" / "kueue.yaml")
    git(pr, "commit", "-q", "-am", "move 4 cpu from team-b to team-a")
    return pr


def test_the_diff_step_compares_main_with_the_pull_request_and_fails_the_job(pull_request, tmp_path):
    script = _run_steps()[-1]
    env = {**os.environ, **GIT_ENV, "PATH": f"{quotactl_bin(tmp_path)}:{os.environ['PATH']}", "NO_COLOR": "1"}
    # GitHub runs a `run:` script with `bash -e`.
    done = subprocess.run(["bash", "-e", "-c", script], cwd=pull_request, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 1, done.stderr  # the gate fails the job
    assert (pull_request / "base" / "deploy" / "kueue" / "kueue.yaml").read_bytes() == (
        EXAMPLE / "before" / "kueue.yaml").read_bytes()
    report = json.loads((pull_request / "quotactl-diff.json").read_text())
    expected = json.loads(run_cli("diff", "--base", EXAMPLE / "before", "--head", EXAMPLE / "after",
                                  "-f", EXAMPLE / "workloads.yaml", "--fail-on", "evictions,starvation",
                                  "--output", "json").stdout)
    assert report["failed"] and report["failed"] == expected["failed"]
    assert report["workloads"] == expected["workloads"]
