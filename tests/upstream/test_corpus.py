"""The real-world corpus: what Kueue and YuniKorn ship as valid (examples, documentation snippets,
e2e test data, fixtures/upstream/SOURCES.md names each file's origin) must lint with no error.

Each file is linted on its own (``lint_each``: the real CLI, one subprocess for the whole corpus),
with the flags ``fixtures/upstream/corpus.yaml`` gives it.  The same manifest lists the files
upstream ships although the real validators reject them (asserted to fail with exactly those
codes), and the kinds quotactl does not model (the only ones allowed to be skipped).
"""

from __future__ import annotations

import json
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from tests.helpers import FIXTURES, ROOT

CORPUS = FIXTURES / "upstream"
INVALID = CORPUS / "invalid"
MANIFEST = YAML(typ="safe").load((CORPUS / "corpus.yaml").read_text())

# Files that fail for a known gap in quotactl, by cause, with the tests they fail ("clean": lints with
# an error, "skipped": not checked at all); strict xfails, so each entry goes once it passes. Empty:
# every corpus file passes.
PENDING: dict[str, dict[str, set[str]]] = {}
PENDING_REASON = {(f, test): reason for reason, files in PENDING.items() for f, tests in files.items()
                  for test in tests}
# Scheduler configs: never acceptable as "a kind quotactl does not model".
CONFIG_MAPS = {"kueue-manager-config", "yunikorn-configs", "yunikorn-defaults"}


def _is_config_map(object_id: str | None) -> bool:
    """``ConfigMap/name`` or ``ConfigMap/namespace/name`` of a scheduler config."""
    return bool(object_id) and object_id.startswith("ConfigMap/") and object_id.rsplit("/", 1)[1] in CONFIG_MAPS


def _rel(path: Path) -> str:
    return path.relative_to(CORPUS).as_posix()


def corpus_files() -> list[str]:
    return sorted(_rel(p) for p in CORPUS.rglob("*.y*ml")
                  if p.is_file() and p != CORPUS / "corpus.yaml" and INVALID not in p.parents)


def invalid_files() -> list[str]:
    return sorted(_rel(p) for p in INVALID.rglob("*.y*ml"))


def flags_of(file: str) -> list[str]:
    return [arg for group in MANIFEST["flags"] if file in group["files"] for arg in group["args"]]


UPSTREAM_INVALID = {e["file"]: e for e in MANIFEST["upstream_invalid"]}


@cache
def results() -> dict[str, dict]:
    """Lint every file once (one subprocess for the whole corpus)."""
    files = corpus_files() + invalid_files()
    jobs = [[str(CORPUS / f), flags_of(f)] for f in files]
    proc = subprocess.run([sys.executable, "-m", "tests.upstream.lint_each"], input=json.dumps(jobs),
                          capture_output=True, text=True, cwd=ROOT, timeout=600, check=True)
    return dict(zip(files, json.loads(proc.stdout), strict=True))


def _errors(result: dict) -> list[str]:
    report = result["report"] or {"diagnostics": []}
    return [f"{d['code']} {d.get('object')} {d.get('field')}: {d['message']}"
            for d in report["diagnostics"] if d["severity"] == "error"]


def _params(files, test):
    for f in files:
        marks = []
        if (f, test) in PENDING_REASON:
            marks.append(pytest.mark.xfail(reason=PENDING_REASON[f, test], strict=True))
        yield pytest.param(f, id=f, marks=marks)


CLEAN = [f for f in corpus_files() if f not in UPSTREAM_INVALID]


@pytest.mark.parametrize("file", list(_params(CLEAN, "clean")))
def test_upstream_file_lints_clean(file):
    result = results()[file]
    assert _errors(result) == []
    assert result["exit_code"] == 0, result["stderr"]


@pytest.mark.parametrize("file", sorted(UPSTREAM_INVALID))
def test_upstream_file_the_real_validator_rejects(file):
    """Shipped as valid, but Kueue's webhook / YuniKorn's validator refuse it (corpus.yaml says why)."""
    result = results()[file]
    assert sorted({e.split()[0] for e in _errors(result)}) == sorted(UPSTREAM_INVALID[file]["codes"])
    assert result["exit_code"] == 1


INVALID_CODES = {e["file"]: e["codes"] for e in MANIFEST["invalid"]}


@pytest.mark.parametrize("file", invalid_files())
def test_upstream_error_example_fails_with_its_rule(file):
    result = results()[file]
    assert sorted({e.split()[0] for e in _errors(result)}) == sorted(INVALID_CODES[file])
    assert result["exit_code"] == 1


NOT_MODELLED = {e["kind"] for e in MANIFEST["not_modelled"]}


@pytest.mark.parametrize("file", list(_params(corpus_files(), "skipped")))
def test_nothing_skipped_silently(file):
    """Every file yields an object quotactl checks, unless its kinds are listed as not modelled; no
    document is dropped as 'not a Kubernetes object'."""
    report = results()[file]["report"]
    skipped = [d for d in report["diagnostics"] if d["code"] in ("IN003", "IN009")]
    unlisted = [d["message"] for d in skipped if d["code"] == "IN009"
                or d["message"].split(" is not a kind")[0] not in NOT_MODELLED or _is_config_map(d.get("object"))]
    assert unlisted == []
    assert report["summary"]["objects"] > 0 or skipped


def test_manifest_names_only_corpus_files():
    known = set(corpus_files()) | set(invalid_files())
    named = ({f for g in MANIFEST["flags"] for f in g["files"]} | set(UPSTREAM_INVALID) | set(INVALID_CODES)
             | {f for f, _test in PENDING_REASON})
    assert named - known == set()


def test_every_file_has_its_source_named():
    sources = (CORPUS / "SOURCES.md").read_text()
    assert [f for f in corpus_files() + invalid_files() if f"`{f}`" not in sources] == []
