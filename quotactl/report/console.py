"""How human output is shown: rich with colour on a terminal, plain when piped or NO_COLOR."""

from __future__ import annotations

import io
import os
import sys


def stdout_is_tty() -> bool:
    return sys.stdout.isatty()


def use_color() -> bool:
    return stdout_is_tty() and "NO_COLOR" not in os.environ and os.environ.get("TERM") != "dumb"


def render_to_text(renderables, width: int | None = None, color: bool = False) -> str:
    """Render rich objects to a string (deterministic when colour is off and width fixed)."""
    from rich.console import Console  # imported by the renderers that draw; JSON output never does

    buf = io.StringIO()
    console = Console(
        file=buf,
        width=width or _terminal_width(),
        color_system="standard" if color else None,
        force_terminal=color,
        no_color=not color,
        highlight=False,
        emoji=False,
        legacy_windows=False,
    )
    for r in renderables:
        console.print(r)
    return buf.getvalue()


def _terminal_width() -> int:
    if "COLUMNS" in os.environ:
        try:
            return max(60, int(os.environ["COLUMNS"]))
        except ValueError:
            pass
    try:
        return max(60, os.get_terminal_size(sys.stdout.fileno()).columns)
    except OSError:
        return 120


def sectioned(sections) -> list:
    """Non-empty sections (lists of renderables), each grouped, with one blank line between."""
    from rich.console import Group
    from rich.text import Text

    out: list = []
    for section in sections:
        if section:
            if out:
                out.append(Text(""))
            out.append(Group(*section))
    return out
