"""One interface for every command's output: a renderer per (command, format).

A renderer is ``fn(result, view) -> str`` (``view``: a ``console.View``, colour and ``--wide``;
machine formats ignore it); each report module registers its own at import, so a new format or
command is one module.  ``render`` finds them all.  A JSON renderer brings its YAML twin
(``yaml_out``) unless its module registered its own first, a table renderer its ``wide`` view.  A command's ``-o`` accepts, lists in
``--help`` and completes exactly the formats of its reports (``accepted``, cli/output.py); a
``note`` says what a format is when its name does not.

    register("schedule", "json", lambda result, view: render(result))
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache

from quotactl.report.console import View
from quotactl.report.yaml_out import as_yaml

Renderer = Callable[[object, View], str]

_RENDERERS: dict[tuple[str, str], Renderer] = {}
_NOTES: dict[tuple[str, str], str] = {}  # (report, format) -> what the format is, for --help

# The order formats are listed in (--help, completion, the error for an unknown one); others after.
ORDER = ("table", "tree", "plain", "wide", "json", "yaml", "markdown", "sarif", "github")
TABLE_NOTE = "plain when piped"
WIDE_NOTE = "every column, like --wide"
YAML_NOTE = "the json document as YAML"


@dataclass(frozen=True)
class Outcome:
    """A result plus what the command adds to it for the report (diff's failed gates, the
    ranked queue heads of shares, YuniKorn's --direct) and the input's caveats (``Caveat``s)."""

    result: object
    context: object = None
    caveats: tuple = ()


def outcome(x: object) -> Outcome:
    """``x`` as an Outcome: a bare result has no context and no caveats."""
    return x if isinstance(x, Outcome) else Outcome(x)


def register(command: str, fmt: str, fn: Renderer, note: str | None = None) -> None:
    if (command, fmt) in _RENDERERS:
        raise ValueError(f"duplicate renderer for {command} -o {fmt}")
    _RENDERERS[(command, fmt)] = fn
    if fmt == "table":
        note = note or TABLE_NOTE
    if note:
        _NOTES[(command, fmt)] = note
    if fmt == "json" and (command, "yaml") not in _RENDERERS:  # -o yaml: the JSON document as YAML
        register(command, "yaml", as_yaml(fn), YAML_NOTE)
    if fmt == "table":  # kubectl's -o wide: the table with every column, as --wide
        register(command, "wide", lambda result, view: fn(result, replace(view, wide=True)), WIDE_NOTE)


def render(command: str, fmt: str, result: object, color: bool = False, wide: bool = False,
           width: int | None = None) -> str:
    """``command``'s report in ``fmt``; ``width``: the terminal width to lay tables out for (None:
    the terminal's)."""
    if (command, fmt) not in _RENDERERS:
        _import_named(command.split("-")[0])
    if (command, fmt) not in _RENDERERS:
        _import_all()
    return _RENDERERS[(command, fmt)](result, View(color=color, width=width, wide=wide))


def formats(command: str) -> tuple[str, ...]:
    _import_all()
    return tuple(f for c, f in _RENDERERS if c == command)


def accepted(reports: tuple[str, ...]) -> tuple[str, ...]:
    """The formats every one of ``reports`` (those a command may print) renders, in ``ORDER``;
    imports only the report modules named after them."""
    for report in reports:
        _import_named(report.split("-")[0])
    common = set.intersection(*({f for c, f in _RENDERERS if c == report} for report in reports))
    return tuple(sorted(common, key=lambda f: (ORDER.index(f) if f in ORDER else len(ORDER), f)))


def notes(reports: tuple[str, ...], fmt: str) -> tuple[str, ...]:
    """What ``fmt`` is, for --help: the distinct notes ``reports`` registered with it."""
    return tuple(dict.fromkeys(_NOTES[(r, fmt)] for r in reports if (r, fmt) in _NOTES))


@cache
def _import_named(prefix: str) -> None:
    """Import the report modules named after a command (``lint_json``, ``lint_text``, ...): a run
    renders one command, and the others' renderers import their engines."""
    import quotactl.report as package

    for info in pkgutil.iter_modules(package.__path__, package.__name__ + "."):
        if info.name.rpartition(".")[2].startswith(prefix):
            importlib.import_module(info.name)


@cache
def _import_all() -> None:
    """Import every report module once, which registers their renderers."""
    import quotactl.report as package

    for info in pkgutil.iter_modules(package.__path__, package.__name__ + "."):
        importlib.import_module(info.name)
