"""Every command's ``--help`` page, and its parsing of flags.

Plain text, never rich markup (``[tool.quotactl]`` stays as written), at most 80 columns: prose
paragraphs are reflowed to the terminal (a docstring's own line breaks do not matter), a paragraph
that starts with ``\\b`` (an example command) is kept line for line, and no word is split, not even
at a hyphen (``--no-cross-refs``).  Options are listed under the panel their ``rich_help_panel``
names ("Reading a live cluster"), flags without a type (``--wide``, not ``--wide <bool>``).

A flag takes no value: ``--strict true`` is a usage error (exit 2), not ``--strict`` and a stray
argument that a command could read as a file or a workload name."""

from __future__ import annotations

import copy
import inspect
import textwrap

from typer.core import TyperCommand

from quotactl.cli.output import formats_of

OPTIONS_PANEL = "Options"
FIRST_COLUMN = 30  # a longer option name puts its help on the next line (click's layout)
BOOL_WORDS = frozenset({"true", "false", "yes", "no", "on", "off", "1", "0"})  # what a flag value would be


class QuotactlCommand(TyperCommand):
    """A Typer command with quotactl's help layout and flag check."""

    def parse_args(self, ctx, args: list[str]) -> list[str]:
        problem = flag_given_a_value(self.get_params(ctx), args)
        if problem:
            ctx.fail(problem)  # a usage error: exit 2
        return super().parse_args(ctx, args)

    def format_help_text(self, ctx, formatter) -> None:
        text = inspect.cleandoc(self.help or "").partition("\f")[0]
        if text:
            formatter.write_paragraph()
            formatter.write(reflow(text, formatter.width, "  ") + "\n")

    def format_options(self, ctx, formatter) -> None:
        for title, rows in help_sections(self.get_params(ctx), ctx):
            formatter.write_paragraph()
            formatter.write(f"{title}:\n")
            formatter.write(definition_list(rows, formatter.width, "  "))


def flag_given_a_value(params, args: list[str]) -> str | None:
    """The error when a flag is followed by a boolean word (``--strict true``, ``-A yes``)."""
    flags = {}
    for p in params:
        if getattr(p, "is_flag", False) and not getattr(p, "count", False):
            flags.update((name, p) for name in (*p.opts, *p.secondary_opts))
    for word, following in zip(args, args[1:], strict=False):
        if word == "--":
            break
        if word in flags and following.lower() in BOOL_WORDS:
            return f"{word} takes no value ({following!r}): give {_alternatives(flags[word], word)}"
    return None


def _alternatives(param, word: str) -> str:
    """``--strict or --no-strict`` for a pair of flags, ``-A alone`` for one."""
    pair = [o for o in (*param.opts, *param.secondary_opts) if o.startswith("--")]
    return " or ".join(pair) if len(pair) == 2 else f"{word} alone"


def help_sections(params, ctx) -> list[tuple[str, list[tuple[str, str]]]]:
    """(title, rows) in order: Arguments, Options, then each named panel as first met."""
    sections: dict[str, list[tuple[str, str]]] = {}
    for p in params:
        if getattr(p, "hidden", False):
            continue
        if p.param_type_name == "argument":
            sections.setdefault("Arguments", []).append((argument_name(p), getattr(p, "help", None) or ""))
            continue
        record = _shown(p).get_help_record(ctx)
        if record is not None:
            sections.setdefault(getattr(p, "rich_help_panel", None) or OPTIONS_PANEL, []).append(record)
    order = ["Arguments", OPTIONS_PANEL] + [t for t in sections if t not in ("Arguments", OPTIONS_PANEL)]
    return [(t, sections[t]) for t in order if t in sections]


def _shown(param):
    """``param`` as --help shows it: ``-o`` with the formats of the command's renderers (read from
    the registry only now, cli/output.py)."""
    formats = formats_of(param)
    if formats is None:
        return param
    shown = copy.copy(param)
    shown.metavar, shown.help = formats.metavar(), formats.help()
    return shown


def argument_name(param) -> str:
    """``WORKLOAD``, ``PATH...``: the metavar (or name) without a type."""
    name = param.metavar or param.name.upper()
    return name if param.nargs == 1 or name.endswith("...") else f"{name}..."


def reflow(text: str, width: int, indent: str) -> str:
    """Paragraphs (blank-line separated) filled to ``width``; a ``\\b`` paragraph kept as written."""
    out = []
    for paragraph in text.split("\n\n"):
        if paragraph.startswith("\b"):
            lines = paragraph[1:].strip("\n").splitlines()
            out.append("\n".join(indent + line if line else "" for line in lines))
        else:
            out.append(_fill(" ".join(paragraph.split()), width, indent, indent))
    return "\n\n".join(out)


def definition_list(rows: list[tuple[str, str]], width: int, indent: str) -> str:
    """``name  help`` rows, the help reflowed in a column; a long name puts its help below."""
    names = [n for n, _h in rows if len(n) <= FIRST_COLUMN]
    column = len(indent) + max((len(n) for n in names), default=FIRST_COLUMN) + 2
    lines = []
    for name, help_text in rows:
        body = _fill(" ".join(help_text.split()), width, " " * column, " " * column)
        if not help_text:
            lines.append(indent + name)
        elif len(indent + name) + 2 <= column:
            lines.append(indent + name.ljust(column - len(indent)) + body[column:])
        else:
            lines.extend([indent + name, body])
    return "\n".join(lines) + "\n"


def _fill(text: str, width: int, first: str, rest: str) -> str:
    return textwrap.fill(text, width, initial_indent=first, subsequent_indent=rest,
                         break_on_hyphens=False, break_long_words=False) or first.rstrip()
