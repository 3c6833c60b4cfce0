"""Helpers shared by the lint rule tests in this folder."""

from __future__ import annotations

import textwrap
from pathlib import Path

from quotactl.lint.context import LintOptions
from quotactl.lint.runner import lint_paths

ROOT = Path(__file__).resolve().parents[2]


def lint_text(tmp_path, text: str, **opts):
    """Lint ``text`` (dedented) as one input file; ``opts`` are LintOptions fields."""
    f = tmp_path / "input.yaml"
    f.write_text(textwrap.dedent(text))
    return lint_paths([str(f)], LintOptions(**opts)).diagnostics


def by_code(diags, code):
    return [d for d in diags if d.code == code]
