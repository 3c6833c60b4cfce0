"""Files that are not manifests yet: Helm charts and templates, Kustomizations and their patches,
documentation snippets. Each is skipped with one IN014 note (one per chart) that gives the command
rendering it for quotactl, instead of a YAML syntax error (exit 2) that would hide the findings of
the real manifests beside it.

Recognised, conservatively (a real manifest must never be skipped):

* a Helm chart: the directory holding ``Chart.yaml``; its ``Chart.yaml``, ``values*.yaml``,
  ``templates/`` and ``charts/`` (subcharts) are the chart's (``crds/`` holds plain manifests and
  is linted). Helm's own layout: helm.sh/docs/topics/charts "The Chart File Structure";
* a Helm template anywhere else: a ``{{`` action naming Helm's objects or functions (``.Values``,
  ``.Release``, ``include``, ``toYaml``, ...), or any Go template action (``{{- if``, ``{{ $x``) in a
  text that does not parse as YAML. ``{{ $labels.instance }}`` in a Prometheus rule's quoted value,
  ``{{ inputs.x }}`` (Argo) or ``${{ secrets.x }}`` (GitHub Actions) stay ordinary text;
* a Kustomization: ``kustomization.yaml`` / ``.yml`` / ``Kustomization`` (the names kustomize
  looks for, sigs.k8s.io/kustomize/api/konfig ``RecognizedKustomizationFileNames``) or a document of
  ``kind: Kustomization`` / ``Component``; the files its ``patches``, ``patchesStrategicMerge`` and
  ``patchesJson6902`` name are patches (the kustomization in the patch's own directory is read
  when only the patch is given);
A documentation snippet (``<placeholder>`` values, ``...`` elisions) is a manifest: it is linted,
its elided lines left out and its placeholders unknown (``snippets``), with one IN014 note saying so.
"""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from quotactl.diagnostics import Diagnostic, Severity
from quotactl.load.snippets import Snippet, read_snippet
from quotactl.load.sources import Source

CHART_FILE = "Chart.yaml"
CHART_PARTS = ("templates", "charts")  # directories of a chart that are the chart's, not manifests
KUSTOMIZATION_NAMES = ("kustomization.yaml", "kustomization.yml", "Kustomization")
PATCH_FIELDS = ("patches", "patchesStrategicMerge", "patchesJson6902")
STDIN = "<stdin>"  # collect_sources' name for standard input
MAX_KUSTOMIZATION_BYTES = 1 << 20  # a kustomization read from disk is a short file

# An action naming Helm's own objects or functions: a Helm template, wherever it is.
HELM_ACTION = re.compile(
    r"\{\{-?[^}\n]*?(?:\.(?:Values|Release|Chart|Capabilities|Files|Template)\b|"
    r"\b(?:include|toYaml|toJson|fromYaml|nindent|tpl|required|lookup)\b)"
)
# Any Go template action. Prometheus and Alertmanager rules in a ConfigMap hold such text in quoted
# or block values ("{{ $labels.instance }} is down"), so this alone means a template only when the
# text is not YAML.
GO_ACTION = re.compile(
    r"\{\{-?\s*(?:\.[A-Za-z]|\$|/\*|(?:template|define|block|if|else|end|range|with|default|quote|printf|"
    r"indent)\b)"
)
KUSTOMIZE_KIND = re.compile(r"^kind:[ \t]*[\"']?(?:Kustomization|Component)[\"']?[ \t]*$", re.M)


def render_command(tool: str, where: str) -> str:
    """The command that renders a chart or a kustomization into quotactl's standard input."""
    return f"{tool} {shlex.quote(where)} | quotactl lint -"


def helm_command(chart: str) -> str:
    return render_command("helm template", chart)


def kustomize_command(directory: str) -> str:
    return render_command("kubectl kustomize", directory)


def screen(sources: list[Source]) -> tuple[list[Source], list[Diagnostic]]:
    """The sources that are manifests (to parse), and an IN014 note for every file that is not:
    one per chart, one per other file. A documentation snippet is kept, as the text to parse (its
    elided lines blanked), with a note naming what is not checked."""
    charts: dict[Path, list[Source]] = {}
    chart_dirs: dict[Path, bool] = {}
    patches = _patches_named(sources)
    kept: list[Source] = []
    notes: list[Diagnostic] = []
    for src in sources:
        if src.text is None:
            kept.append(src)
            continue
        chart = chart_of(src.name, chart_dirs)
        if chart is not None:
            charts.setdefault(chart, []).append(src)
            continue
        note = _file_note(src, patches)
        if note is not None:
            notes.append(note)
            continue
        snippet = read_snippet(src.text)
        if snippet is not None:
            notes.append(_snippet_note(src.name, snippet))
            src = Source(src.name, snippet.text)
        kept.append(src)
    notes.extend(_chart_note(chart, files) for chart, files in charts.items())
    return kept, notes


def _file_note(src: Source, patches: dict[str, str]) -> Diagnostic | None:
    """The note for one file that is not a manifest, or None when it is one."""
    text = src.text or ""
    if is_kustomization(src.name, text):
        where = "DIR" if src.name == STDIN else _dir_of(src.name)
        return _note(src.name, 1, f"Kustomization: kustomize renders this directory; lint the output: "
                     f"{kustomize_command(where)}")
    named_by = patches.get(_normal(src.name))
    if named_by is not None:
        return _note(src.name, 1, f"Kustomize patch named by {named_by}: half an object, not a manifest; lint "
                     f"the output: {kustomize_command(_dir_of(named_by))}")
    line = helm_action_line(text)
    if line is not None:
        return _helm_template_note(src.name, line)
    return None


def _snippet_note(name: str, snippet: Snippet) -> Diagnostic:
    """What a snippet leaves unchecked: its placeholders' values and its elided lines."""
    parts = []
    if snippet.placeholders:
        n = len(snippet.placeholders)
        shown = sorted({p.text for p in snippet.placeholders})
        listed = ", ".join(shown[:3]) + (", ..." if len(shown) > 3 else "")
        parts.append(f"{n} placeholder value{'s' if n != 1 else ''} ({listed}) unknown")
    if snippet.elided_lines:
        n = len(snippet.elided_lines)
        parts.append(f"{n} elided line{'s' if n != 1 else ''} ('...') left out")
    return _note(name, snippet.first_line, f"documentation snippet: {' and '.join(parts)}; everything else is "
                 "checked (fill in the placeholders to check those too)")


def _chart_note(chart: Path, files: list[Source]) -> Diagnostic:
    n = len(files)
    return _note(str(chart / CHART_FILE), 1, f"Helm chart {chart}: {n} file{'s' if n != 1 else ''} (templates, "
                 f"values) skipped: not manifests until Helm renders them; lint the rendered chart: "
                 f"{helm_command(str(chart))}")


def _note(file: str, line: int, message: str) -> Diagnostic:
    return Diagnostic("IN014", Severity.INFO, message, file, line, 1)


# --------------------------------------------------------------------------------- Helm charts ---

def chart_of(name: str, charts: dict[Path, bool] | None = None) -> Path | None:
    """The chart directory ``name`` belongs to: its Chart.yaml or values file, or a file under its
    templates/ or charts/; None for any other file (crds/, a file beside a chart, stdin).
    ``charts``: directory -> holds a Chart.yaml, filled as directories are looked at (one run's)."""
    if name == STDIN:
        return None
    path = Path(name)
    seen = {} if charts is None else charts
    for parent in path.parents:
        if _has_chart_file(parent, seen):
            rel = path.relative_to(parent).parts
            ours = (rel[0] == CHART_FILE or rel[0].startswith("values")) if len(rel) == 1 else rel[0] in CHART_PARTS
            return _outermost_chart(parent, seen) if ours else None
    return None


def _outermost_chart(chart: Path, seen: dict[Path, bool]) -> Path:
    """A subchart (charts/<name>/) is rendered by its parent chart."""
    for parent in chart.parents:
        if parent.name == "charts" and _has_chart_file(parent.parent, seen):
            return _outermost_chart(parent.parent, seen)
    return chart


def _has_chart_file(directory: Path, seen: dict[Path, bool]) -> bool:
    if directory not in seen:
        seen[directory] = (directory / CHART_FILE).is_file()
    return seen[directory]


# ------------------------------------------------------------------------------ Helm templates ---

def helm_action_line(text: str, pattern: re.Pattern = HELM_ACTION) -> int | None:
    """The line of the first Helm template action in ``text`` (or of ``pattern``), or None."""
    if "{{" not in text:
        return None
    m = pattern.search(text)
    return None if m is None else text.count("\n", 0, m.start()) + 1


def template_note(src: Source, parse_errors: list[Diagnostic]) -> Diagnostic | None:
    """The IN014 note replacing the parse errors of a text that is not YAML because it is a Go
    template (``{{- if .enabled }}`` on a line of its own), or None."""
    if not any(d.input_error for d in parse_errors):
        return None
    line = helm_action_line(src.text or "", GO_ACTION)
    return None if line is None else _helm_template_note(src.name, line)


def _helm_template_note(name: str, line: int) -> Diagnostic:
    return _note(name, line, "Helm template ({{ ... }} actions): not YAML until Helm renders it; lint the "
                 f"rendered chart: {helm_command('CHART')}")


# --------------------------------------------------------------------------------- Kustomize ---

def is_kustomization(name: str, text: str) -> bool:
    if Path(name).name in KUSTOMIZATION_NAMES:
        return True
    return "kustomize.config.k8s.io" in text and KUSTOMIZE_KIND.search(text) is not None


@dataclass
class _Kustomizations:
    """The patch files named by the kustomizations seen so far: normalised path -> kustomization."""

    patches: dict[str, str] = field(default_factory=dict)
    read_dirs: set[str] = field(default_factory=set)

    def add(self, kustomization: str, text: str) -> None:
        base = _dir_of(kustomization)
        for rel in patch_paths(text, kustomization):
            self.patches.setdefault(_normal(os.path.join(base, rel)), kustomization)


def _patches_named(sources: list[Source]) -> dict[str, str]:
    """Patch file -> the kustomization naming it: the kustomizations among the inputs, and the one
    beside each input file (a patch given alone)."""
    seen = _Kustomizations()
    for src in sources:
        if src.text is not None and is_kustomization(src.name, src.text) and src.name != STDIN:
            seen.add(src.name, src.text)
            seen.read_dirs.add(_normal(_dir_of(src.name)))
    for src in sources:
        directory = _dir_of(src.name)
        if src.name == STDIN or _normal(directory) in seen.read_dirs:
            continue
        seen.read_dirs.add(_normal(directory))
        for kust_name in KUSTOMIZATION_NAMES:
            candidate = os.path.join(directory, kust_name)
            text = _read_small(candidate)
            if text is not None:
                seen.add(candidate, text)
                break
    return seen.patches


def patch_paths(text: str, name: str) -> list[str]:
    """The files a kustomization names as patches (inline patches are skipped)."""
    from quotactl.load.yamlparse import parse_documents  # the loader's own parser and limits

    docs, _ = parse_documents(text, name)
    data = docs[0].data if docs else None
    if not isinstance(data, dict):
        return []
    return [p for key in PATCH_FIELDS for p in _entry_paths(data.get(key))]


def _entry_paths(entries) -> Iterable[str]:
    for entry in entries if isinstance(entries, list) else ():
        path = entry.get("path") if isinstance(entry, dict) else entry
        if isinstance(path, str) and path and "\n" not in path:
            yield path


def _read_small(path: str) -> str | None:
    try:
        with open(path, "rb") as fh:
            raw = fh.read(MAX_KUSTOMIZATION_BYTES + 1)
    except OSError:
        return None
    if len(raw) > MAX_KUSTOMIZATION_BYTES:
        return None
    return raw.decode("utf-8", "replace")


def _dir_of(name: str) -> str:
    return os.path.dirname(name) or "."


def _normal(path: str) -> str:
    return os.path.normpath(path)
