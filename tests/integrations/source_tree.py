"""A copy of this checkout's package sources (as the working tree has them, uncommitted edits
included) for the tests that build or install the package, so nothing they do writes into the
checkout."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.helpers import ROOT

# What .gitignore keeps out of the repository, plus git's own directory.
_NOT_SOURCES = shutil.ignore_patterns(
    ".git", ".venv", "__pycache__", "*.pyc", "*.egg-info", "build", "dist", ".pytest_cache", ".ruff_cache",
    ".hypothesis",
)
# Top-level folders no build or install reads (most of the checkout's size).
_NOT_PACKAGED = {"tests", "fixtures", "benchmarks", "docs"}


def _ignored(folder: str, names: list[str]) -> set[str]:
    top = {n for n in names if n in _NOT_PACKAGED} if Path(folder) == ROOT else set()
    return top | _NOT_SOURCES(folder, names)


def copy_source_tree(dest: Path) -> Path:
    """Copy the checkout to ``dest`` (symlinks kept as symlinks, as git stores them)."""
    shutil.copytree(ROOT, dest, symlinks=True, ignore=_ignored)
    return dest
