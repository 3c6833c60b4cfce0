"""The hooks of .pre-commit-hooks.yaml, run by pre-commit itself on a throwaway repository.

pre-commit installs quotactl into its own environment from a commit of this checkout (a copy of the
working tree, so uncommitted edits are what gets tested) and its dependencies from the package
index, once per test session."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from tests.helpers import ROOT
from tests.integrations.shell import GIT_ENV, git, new_repo
from tests.integrations.source_tree import copy_source_tree

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed: pre-commit needs it")

CLUSTER_QUEUE = """\
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata:
  name: {name}
spec:
  namespaceSelector: {{}}
{cohort}  resourceGroups:
  - coveredResources: [cpu]
    flavors:
    - name: default
      resources:
      - {{name: cpu, nominalQuota: 8, borrowingLimit: 4}}
"""
CLEAN = CLUSTER_QUEUE.format(name="team-a", cohort="  cohortName: research\n")
BROKEN = CLUSTER_QUEUE.format(name="team-b", cohort="")  # borrowingLimit without a cohort: KQ104
LOCAL_QUEUE = """\
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: ml, namespace: ml}
spec: {clusterQueue: team-z}
"""


@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory) -> tuple[Path, str]:
    """This checkout as a git repository with one commit, and that commit's sha."""
    repo = new_repo(copy_source_tree(tmp_path_factory.mktemp("hooks") / "quotactl"))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "quotactl under test")
    return repo, git(repo, "rev-parse", "HEAD")


@pytest.fixture(scope="module")
def pre_commit_home(tmp_path_factory) -> Path:
    # Hook environments are built once here and shared by the tests of this module.
    return tmp_path_factory.mktemp("pre-commit-home")


def _project(path: Path, hook_repo: tuple[Path, str], hooks: list[dict], files: dict[str, str]) -> Path:
    repo = new_repo(path)
    config = {"repos": [{"repo": str(hook_repo[0]), "rev": hook_repo[1], "hooks": hooks}]}
    with (repo / ".pre-commit-config.yaml").open("w") as f:
        YAML().dump(config, f)
    for name, text in files.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text)
    git(repo, "add", "-A")  # pre-commit runs on the files git knows
    return repo


def _pre_commit(repo: Path, home: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, **GIT_ENV, "PRE_COMMIT_HOME": str(home), "NO_COLOR": "1"}
    return subprocess.run([sys.executable, "-m", "pre_commit", "run", "--color", "never", *args], cwd=repo,
                          env=env, capture_output=True, text=True, timeout=900)


def test_the_manifest_names_the_hooks_this_test_runs():
    hooks = YAML(typ="safe").load((ROOT / ".pre-commit-hooks.yaml").read_text())
    assert [h["id"] for h in hooks] == ["quotactl-lint", "quotactl-lint-config"]
    assert all(h["language"] == "python" and h["entry"].startswith("quotactl lint") for h in hooks)


def test_quotactl_lint_fails_on_the_broken_file_and_passes_the_clean_one(tmp_path, hook_repo, pre_commit_home):
    repo = _project(tmp_path / "project", hook_repo, [{"id": "quotactl-lint"}],
                    {"kueue/clean.yaml": CLEAN, "kueue/broken.yaml": BROKEN, "docs/notes.md": "# not YAML\n"})
    every = _pre_commit(repo, pre_commit_home, "--all-files")
    assert every.returncode == 1, every.stdout + every.stderr
    assert "kueue/broken.yaml:12:38: error KQ104 " in every.stdout
    assert "kueue/clean.yaml:" not in every.stdout.replace(".pre-commit-config.yaml:", "")
    clean = _pre_commit(repo, pre_commit_home, "--files", "kueue/clean.yaml")
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert "quotactl lint" in clean.stdout and "Passed" in clean.stdout


def test_quotactl_lint_checks_a_commits_files_without_the_rest_of_the_config(tmp_path, hook_repo, pre_commit_home):
    # The commit touches a ClusterQueue and a LocalQueue whose ClusterQueue, team-z, lives in a file
    # the commit leaves alone: not an error for the changed files...
    team_z = CLUSTER_QUEUE.format(name="team-z", cohort="  cohortName: research\n")
    repo = _project(tmp_path / "project", hook_repo, [{"id": "quotactl-lint"}],
                    {"kueue/clean.yaml": CLEAN, "kueue/localqueue.yaml": LOCAL_QUEUE, "kueue/team-z.yaml": team_z})
    changed = _pre_commit(repo, pre_commit_home, "--files", "kueue/clean.yaml", "kueue/localqueue.yaml")
    assert changed.returncode == 0, changed.stdout + changed.stderr


def test_quotactl_lint_config_checks_references_across_files(tmp_path, hook_repo, pre_commit_home):
    # ... and the whole-configuration hook reports a ClusterQueue that no file defines.
    repo = _project(tmp_path / "project", hook_repo, [{"id": "quotactl-lint-config", "args": ["kueue"]}],
                    {"kueue/clean.yaml": CLEAN, "kueue/localqueue.yaml": LOCAL_QUEUE})
    whole = _pre_commit(repo, pre_commit_home, "--all-files")
    assert whole.returncode == 1, whole.stdout + whole.stderr
    assert "kueue/localqueue.yaml:4:" in whole.stdout and "team-z" in whole.stdout


def test_quotactl_lint_honours_the_projects_exclude_globs(tmp_path, hook_repo, pre_commit_home):
    # pre-commit names every file; the hook's --force-exclude keeps .quotactl.yaml's exclude in force.
    repo = _project(tmp_path / "project", hook_repo, [{"id": "quotactl-lint"}],
                    {"kueue/clean.yaml": CLEAN, "vendor/broken.yaml": BROKEN, ".quotactl.yaml": "exclude: [vendor]\n"})
    every = _pre_commit(repo, pre_commit_home, "--all-files")
    assert every.returncode == 0, every.stdout + every.stderr
    assert "KQ104" not in every.stdout
