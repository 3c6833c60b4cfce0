"""Acceptance of ``quotactl convert``: every v1beta1 (and v1alpha1) object of the repository's
fixtures and copied acceptance cases converts without input errors and gives the engines the same
cluster; the converted files lint with no new error and give, through the CLI, the same
``explain --all -o json`` and ``schedule -o json`` answers.

The engines read only the typed model (docs/architecture.md), so an equal model (field paths aside:
they only locate messages) means equal answers for every command.  Acceptance cases are alike, so
by default the model is compared on every third case file, lint on every fifth and the CLI answers
on every tenth case; QUOTACTL_FULL_ROUND_TRIP=1 runs all of them (278 cases: all gave identical
answers when this was written; several minutes).
"""

from __future__ import annotations

import dataclasses
import os
from functools import cache
from pathlib import Path

import pytest

from quotactl.convert.files import convert_text
from quotactl.diagnostics import Severity
from quotactl.lint.context import LintOptions
from quotactl.lint.runner import lint_paths
from quotactl.load.objects import load
from quotactl.model.kueue import build_cluster
from tests.helpers import CASES, FIXTURES, ROOT, run_cli

# The fuzzer's kept inputs are hostile on purpose (tabs, missing names, 5,000-digit numbers): that
# they run clean is tests/fuzz/test_regressions.py's check, not a round trip's.
FUZZ_INPUTS = ROOT / "tests" / "fuzz"
OLD_VERSIONS = ("kueue.x-k8s.io/v1beta1", "kueue.x-k8s.io/v1alpha1", "config.kueue.x-k8s.io/v1beta1")


def _old_version_files() -> list[Path]:
    found = []
    for base in (FIXTURES, ROOT / "tests"):
        for path in sorted(base.rglob("*")):
            if path.suffix in (".yaml", ".yml", ".json") and path.is_file() and "__snapshots__" not in path.parts \
                    and not path.is_relative_to(FUZZ_INPUTS):
                text = path.read_text(encoding="utf-8", errors="replace")
                if any(v in text for v in OLD_VERSIONS):
                    found.append(path)
    return found


FILES = _old_version_files()
ENGINE_CASES = sorted(p for p in CASES.glob("kueue-*/*") if p.is_dir() and "lint" not in p.parent.name)
FULL = os.environ.get("QUOTACTL_FULL_ROUND_TRIP") == "1"


@cache
def _conversion(path: Path):
    return convert_text(path.read_text(encoding="utf-8"), str(path))


def _converted(path: Path, tmp_path: Path) -> Path | None:
    result = _conversion(path)
    if result.input_errors or not result.changed or result.blocked:
        return None
    out = tmp_path / path.name
    out.write_text(result.text, encoding="utf-8")
    return out


def test_there_is_something_to_convert():
    assert len(FILES) > 250 and len(ENGINE_CASES) > 250


def _semantic(value):
    """A model value with its source and field paths left out (they place messages, decide nothing)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (type(value).__name__,) + tuple(
            (f.name, _semantic(getattr(value, f.name))) for f in dataclasses.fields(value)
            if f.compare and f.name != "path" and not f.name.endswith("_path"))
    if isinstance(value, dict):
        return tuple(sorted((repr(k), _semantic(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return tuple(_semantic(v) for v in value)
    return value


def _errors(path: Path) -> set[tuple[str, str]]:
    report = lint_paths([str(path)], LintOptions())
    return {(d.code, d.object or "") for d in report.diagnostics if d.severity == Severity.ERROR}


def _sample(every: int) -> list[Path]:
    """Every file outside the acceptance cases, and every ``every``-th acceptance case file (they are
    alike); all of them with QUOTACTL_FULL_ROUND_TRIP=1."""
    cases = [p for p in FILES if CASES in p.parents]
    return [p for p in FILES if CASES not in p.parents] + (cases if FULL else cases[::every])


MODELLED = _sample(3)


@pytest.mark.parametrize("path", MODELLED, ids=[str(p.relative_to(ROOT)) for p in MODELLED])
def test_converted_file_has_the_same_model(path, tmp_path):
    assert not _conversion(path).input_errors
    converted = _converted(path, tmp_path)
    if converted is None:
        pytest.skip("nothing converted (input errors, nothing to convert, or a field would be lost)")
    before, after = build_cluster(load([str(path)]).objects), build_cluster(load([str(converted)]).objects)
    assert _semantic(after.all_objects) == _semantic(before.all_objects)
    assert _semantic(after.configuration) == _semantic(before.configuration)


LINTED = _sample(5)


@pytest.mark.parametrize("path", LINTED, ids=[str(p.relative_to(ROOT)) for p in LINTED])
def test_converted_file_has_no_new_lint_error(path, tmp_path):
    converted = _converted(path, tmp_path)
    if converted is None:
        pytest.skip("nothing converted (input errors, nothing to convert, or a field would be lost)")
    assert not _errors(converted) - _errors(path)


def _case_files(case: Path) -> list[Path]:
    return [case / n for n in ("queues.yaml", "state.yaml", "input.yaml") if (case / n).exists()]


SAMPLED = ENGINE_CASES if FULL else ENGINE_CASES[::10]


@pytest.mark.parametrize("case", SAMPLED, ids=[f"{c.parent.name}/{c.name}" for c in SAMPLED])
def test_converted_case_gives_the_same_answers(case, tmp_path):
    original = _case_files(case)
    converted = [_converted(f, tmp_path) or f for f in original]
    if converted == original:
        pytest.skip("nothing to convert in this case")
    for command in (("explain", "--all"), ("schedule",)):
        def run(files, command=command):
            return run_cli(*command, *[a for f in files for a in ("-f", f)], "-o", "json")
        a, b = run(original), run(converted)
        assert (b.exit_code, b.stdout) == (a.exit_code, a.stdout), command
