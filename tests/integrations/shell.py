"""What the integration tests need to run things the way a CI job or a developer's shell does:
git with no user configuration, and a `quotactl` command on PATH."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

# No user or system git configuration, and a fixed identity for commits.
GIT_ENV = {"GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1",
           "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.invalid"}


def git(cwd: Path, *args: str) -> str:
    out = subprocess.run(["git", *args], cwd=cwd, env={**os.environ, **GIT_ENV}, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def new_repo(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    git(path, "init", "-q", "-b", "main")
    return path


def quotactl_bin(tmp_path: Path) -> Path:
    """A bin directory whose `quotactl` is this checkout's, as `pip install` would provide."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    script = bin_dir / "quotactl"
    script.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m quotactl "$@"\n')
    script.chmod(0o755)
    return bin_dir
