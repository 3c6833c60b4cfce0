"""``-o/--output``: a command accepts exactly the formats its reports have renderers for
(report/renderers.py), and its ``--help`` and shell completion list those, so a format is never
accepted and then missing.  The registry is read on first use: a report module imports its
engine, which a run that never looks at ``-o`` does not pay for."""

from __future__ import annotations

import sys
from functools import cached_property

import typer

from quotactl.report import renderers


class UnknownFormat(typer.BadParameter):
    """``-o`` given a format the command has no renderer for: one line and exit 2 (a usage
    error), not click's usage block."""

    def show(self, file=None) -> None:
        (file or sys.stderr).write(f"quotactl: error: {self.message}\n")


class OutputFormats:
    """The ``-o`` values of a command that may print any of ``reports``: typer's parser of the
    option (the value, checked) and its completion."""

    def __init__(self, reports: tuple[str, ...], default: str | None, lead: str) -> None:
        self.reports, self.default, self.lead = reports, default, lead

    @cached_property
    def values(self) -> tuple[str, ...]:
        return renderers.accepted(self.reports)

    def __call__(self, value: str) -> str:
        # The default needs no look-up, and the first report's formats are every report's (tests
        # keep both true): a run imports only the report modules it renders with, not, for a
        # Kueue explain, YuniKorn's engine.
        if value != self.default and value not in renderers.accepted(self.reports[:1]):
            raise UnknownFormat(f"-o {value!r}: use {', '.join(self.values)}")
        return value

    def completions(self, incomplete: str) -> list[str]:
        return [v for v in self.values if v.startswith(incomplete)]

    def metavar(self) -> str:
        return f"<{'|'.join(self.values)}>"

    def help(self) -> str:
        """``lead: table (plain when piped), plain, ...``: each value with what it is."""
        described = []
        for fmt in self.values:
            notes = renderers.notes(self.reports, fmt)
            described.append(f"{fmt} ({'; '.join(notes)})" if notes else fmt)
        return f"{self.lead}: {', '.join(described)}."


def output_option(*reports: str, default: str | None = "table", lead: str = "Output format"):
    """The ``-o/--output`` option of a command that prints ``reports`` (names in the renderer
    registry); ``lead`` opens its help, which lists the formats."""
    formats = OutputFormats(reports, default, lead)

    def complete(incomplete: str) -> list[str]:
        return formats.completions(incomplete)

    return typer.Option(default, "--output", "-o", parser=formats, autocompletion=complete, help=lead,
                        show_default=default is not None)


def formats_of(param) -> OutputFormats | None:
    """The ``OutputFormats`` behind a click parameter (None for any other option)."""
    info = getattr(getattr(param, "type_descriptor", None), "parameter_info", None)
    parser = getattr(info, "parser", None)
    return parser if isinstance(parser, OutputFormats) else None
