"""How human output is shown: rich on a terminal (colour unless NO_COLOR), plain when piped.

One place decides the layout of every human report:

- ``View``: colour, the width to fit (None: the terminal's) and ``--wide``.
- ``Sheet``: a table whose columns say what they hold (an ``ID`` the user must copy, ``TEXT`` that
  wraps by words, a ``FIXED`` word or number that never wraps).  On a terminal its column widths are
  planned for the width it gets (80 columns first): fixed cells keep their width, no word is split
  (a column is never narrower than its longest word, up to ``LONG_WORD``), text columns share the
  rest by ``ratio``; headers never split mid-word.  The ``wide`` columns (what plain output shows)
  are drawn whenever they fit with every id whole and the text readable (200 columns do; 80 get
  the narrow set); ``--wide`` always draws them, unfolded (kubectl's ``-o wide``).  A terminal too
  narrow for the columns' floors gets one record per row instead: the first cell and the ``head``
  columns on a line, then ``header  value`` lines (``line`` columns: the value alone).
- Glue: on a terminal an amount stays on the line of its unit or resource (``4 cpu``, ``memory
  24Gi``, ``2 more nvidia.com/gpu``): the space between them is not a place to wrap.
- ``render_to_text``: rich on a terminal; the plain writer otherwise (nothing wrapped, no trailing
  spaces, one table row per line: grep-friendly), with the ``--wide`` columns (``PLAIN_VIEW``).

User text never goes through rich markup: every string becomes a ``rich.text.Text`` here, so
``[x]``, ``requests[pods]`` and ``[bold]`` print as written.

A cell or line longer than ``LONG_CELL`` characters (a generated 1,000,000-character name) is not
laid out: a table shows ``[see N]`` and prints the whole text after it, unwrapped (the terminal
wraps it; it copies as one line).  Laying it out would fold it into thousands of table rows, which
costs rich tens of seconds and helps nobody.
"""

from __future__ import annotations

import io
import os
import re
import sys
from dataclasses import dataclass

ID = "id"  # a name the user copies: folds when narrow, never truncated
TEXT = "text"  # prose: wraps by words and gets the remaining width
FIXED = "fixed"  # a number, code, verdict or unit: never wraps

LONG_CELL = 2000  # characters; longer text is printed after the table, unwrapped
LONG_WORD = 48  # a longer word (a generated name, a long field path) may fold: the last resort
PLAIN_ALIGN_CAP = 80  # plain tables: a longer cell does not widen its column (it pushes its row)
_ID_MIN = 16  # narrowest an id column folds to (unless its header is wider)
_TEXT_MIN = 10  # narrowest a text column wraps to
_TEXT_COMFORT = 20  # a table needs its text columns this wide together (or their text), else records
_TEXT_READABLE = 30  # the wide columns are drawn when every text column still gets this (or its text)
GLUE = "\ue000"  # stands for a space rich must not wrap at (a private-use character, one cell wide)
GLUE_RUN = 32  # the longest run of glued words (cells) in a table cell
_AMOUNT = re.compile(r"[(\[+~-]*\d")  # a word that is a number or an amount: 4, 24Gi, (+1), 8),
_WORD = re.compile(r"\S+")
_LINKS = {"for", "of", "to", "by", "in", "at", "and", "or", "with", "than", "from", "needs", "is", "are", "per"}


def stdout_is_tty() -> bool:
    return sys.stdout.isatty()


def use_color() -> bool:
    return stdout_is_tty() and "NO_COLOR" not in os.environ and os.environ.get("TERM") != "dumb"


@dataclass(frozen=True)
class View:
    """How a human report is drawn: colour, the width to fit (None: the terminal's, when drawing a
    table) and ``--wide`` (more columns, nothing folded)."""

    color: bool = False
    width: int | None = None
    wide: bool = False


# Plain output has no width to fit: it is drawn with the --wide layout (every column, one per
# value), so a piped report loses nothing and keeps one line per row where it can.
PLAIN_VIEW = View(wide=True)


def as_text(value) -> object:
    """A string as a ``Text`` (never parsed as markup); anything else unchanged."""
    from rich.text import Text

    if value is None:
        return Text("")
    return Text(value) if isinstance(value, str) else value


@dataclass(frozen=True)
class Col:
    header: str
    kind: str = TEXT
    justify: str = "left"
    ratio: int = 1  # share of the spare width among the id and text columns
    wide: bool | None = None  # True: in the wide set only; False: in the narrow set only; None: always
    record: str = "labeled"  # in records: "labeled" (header  value), "head" (on the first line), "line"


def glued(text, width: int = GLUE_RUN):
    """``text`` with the spaces that hold an amount to its unit or resource made unbreakable (GLUE):
    first after an amount before a word (``4 cpu``, ``24Gi more``, and ``more`` to the word after
    it), then, where the run stays within ``width`` cells, after a word before an amount (``memory
    24Gi``, ``max 8)``).  A run wider than ``width`` would fold mid-word: worse than the break."""
    from rich.text import Text

    if not isinstance(text, str | Text):
        return text
    plain = text.plain if isinstance(text, Text) else text
    if " " not in plain or not any(ch.isdigit() for ch in plain):
        return text
    words = list(_WORD.finditer(plain))
    joined = [False] * len(words)  # joined[i]: word i is glued to word i + 1
    for i, (a, b) in enumerate(zip(words[:-1], words[1:], strict=True)):
        joined[i] = _unit_after(plain, a, b) or (i > 0 and joined[i - 1] and a.group() in ("more", "less")
                                                 and _AMOUNT.match(words[i - 1].group()) is not None
                                                 and plain[a.end():b.start()] == " ")
    for i, (a, b) in enumerate(zip(words[:-1], words[1:], strict=True)):
        if not joined[i] and _amount_after(plain, a, b):
            start, end = i, i + 1
            while start > 0 and joined[start - 1]:
                start -= 1
            while end < len(words) - 1 and joined[end]:
                end += 1
            joined[i] = words[end].end() - words[start].start() <= width
    chars = list(plain)
    start = 0
    for i in range(len(words)):
        if i < len(words) - 1 and joined[i]:
            continue
        whole = words[i].end() - words[start].start() <= width
        for k in range(start, i):  # a run too wide to keep wraps, but an amount keeps its unit
            if whole or (_unit_after(plain, words[k], words[k + 1])
                         and words[k + 1].end() - words[k].start() <= width):
                chars[words[k].end()] = GLUE
        start = i + 1
    new = "".join(chars)
    if isinstance(text, str):
        return new
    out = text.copy()
    out.plain = new
    return out


def _unit_after(plain: str, a, b) -> bool:
    """``4 cpu``, ``24Gi more``: an amount, then the word naming what it counts."""
    wa, wb = a.group(), b.group()
    return (plain[a.end():b.start()] == " " and _AMOUNT.match(wa) is not None and wa[-1].isalnum()
            and wb[0].isalpha() and wb not in _LINKS)


def _amount_after(plain: str, a, b) -> bool:
    """``memory 24Gi``, ``offset +1000``: a resource or a setting, then its amount."""
    wa, wb = a.group(), b.group()
    return (plain[a.end():b.start()] == " " and _AMOUNT.match(wb) is not None and wb[0] != "("
            and wa[-1].isalpha() and wa not in _LINKS)


class Sheet:
    """A table that lays itself out for the width it is drawn at (see the module doc)."""

    def __init__(self, columns: list[Col], view: View = View(), title=None):
        self.view = view
        self.all_columns = columns
        self.title = title
        self.rows: list[list] = []  # a cell for every column, wide or narrow

    @property
    def columns(self) -> list[Col]:
        """The columns the view's own choice shows (plain and --wide: the wide set)."""
        return [self.all_columns[i] for i in self._indices(self.view.wide)]

    def _indices(self, wide: bool) -> list[int]:
        return [i for i, c in enumerate(self.all_columns) if c.wide is None or c.wide == wide]

    def add_row(self, *cells) -> None:
        """One cell per column given to the constructor (wide and narrow ones)."""
        self.rows.append([as_text(c) for c in cells])

    # --- terminal ---------------------------------------------------------------------------

    def __rich_console__(self, console, options):
        from rich.text import Text

        all_rows, notes = _long_cells_as_notes([[glued(c) for c in r] for r in self.rows])
        if self.title:  # above the table, wrapped at the terminal's width, not the table's
            yield glued(as_text(Text(self.title, style="bold") if isinstance(self.title, str) else self.title))
        columns, rows, widths = self._layout(console, options, all_rows)
        if widths:
            table = self._rich_table(columns, rows)
            for column, width in zip(table.columns, widths, strict=True):
                column.width = max(1, width)
            yield table
        else:
            yield from self._records(columns, rows)
        for n, text in notes:
            yield Unwrapped(Text(f"[see {n}] ").append_text(text))

    def _layout(self, console, options, all_rows):
        """(columns, their rows, widths): the wide set when it fits readably (or --wide), else the
        narrow set; no widths: one record per row."""
        sets = [True] if self.view.wide else [True, False]
        if self._indices(True) == self._indices(False):
            sets = [self.view.wide]
        for wide in sets:
            keep = self._indices(wide)
            columns = [self.all_columns[i] for i in keep]
            rows = [[r[i] for i in keep] for r in all_rows]
            natural = [_natural(c.header, [r[i] for r in rows]) for i, c in enumerate(columns)]
            room = options.max_width - _overhead(console, options, self._rich_table(columns, []))
            if self.view.wide:
                return columns, rows, natural
            if wide:
                roomy = [_roomy(c, n, [r[i] for r in rows]) for i, (c, n) in enumerate(zip(columns, natural,
                                                                                          strict=True))]
                if sum(roomy) <= room:
                    return columns, rows, plan_widths(columns, natural, roomy, room)
                continue
            floors = [_floor(c, [r[i] for r in rows]) for i, c in enumerate(columns)]
            if sum(floors) + _comfort(columns, natural, floors) > room:
                return columns, rows, []  # too narrow for a readable table (text a few words a line)
            return columns, rows, plan_widths(columns, natural, floors, room)
        raise AssertionError("unreachable: the narrow set always decides")

    def _records(self, columns, rows):
        """Each row as its first cell and its ``head`` cells on a line, then ``header  value`` lines
        (kubectl describe's shape; ``line`` columns without the header): for a terminal too narrow
        for the columns' floors."""
        from rich.text import Text

        labeled = [c for c in columns[1:] if c.record == "labeled"]
        pad = max((_width(c.header) for c in labeled), default=0)
        for r in rows:
            first = Text.assemble(r[0], style="bold") if r[0].plain else Text("-")
            for c, cell in zip(columns[1:], r[1:], strict=True):
                if c.record == "head" and cell.plain:
                    first.append("  ").append_text(cell)
            yield Hanging("", first)
            for c, cell in zip(columns[1:], r[1:], strict=True):
                if cell.plain and c.record == "line":
                    yield Hanging("  ", cell)
                elif cell.plain and c.record == "labeled":
                    yield Hanging(Text(f"  {c.header.ljust(pad)}  ", style="dim"), cell)

    def __rich_measure__(self, console, options):
        from rich.measure import Measurement

        keep = self._indices(self.view.wide)
        columns = [self.all_columns[i] for i in keep]
        rows, _notes = _long_cells_as_notes([[r[i] for i in keep] for r in self.rows])
        natural = [_natural(c.header, [r[i] for r in rows]) for i, c in enumerate(columns)]
        total = sum(natural) + _overhead(console, options, self._rich_table(columns, []))
        return Measurement(min(total, options.max_width), total)

    @staticmethod
    def _rich_table(columns, rows):
        from rich import box
        from rich.table import Table
        from rich.text import Text

        t = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 1, 0, 0), header_style="bold")
        for c in columns:
            # the widths keep fixed cells and words whole: fold only cuts a word longer than LONG_WORD
            t.add_column(Text(c.header), justify=c.justify, overflow="fold")
        for r in rows:
            t.add_row(*r)
        return t

    # --- plain ------------------------------------------------------------------------------

    def plain_lines(self) -> list[str]:
        """Aligned columns, two spaces apart, nothing wrapped; a cell longer than
        PLAIN_ALIGN_CAP does not widen its column."""
        keep = self._indices(self.view.wide)
        grid = [[c.header for c in self.columns]] + [[r[i].plain for i in keep] for r in self.rows]
        widths = [max((_width(line) for row in grid for line in row[i].split("\n")
                       if len(line) <= PLAIN_ALIGN_CAP), default=0) for i in range(len(self.columns))]
        out = [_plain_title(self.title)] if self.title else []
        for row in grid:
            parts = [cell.split("\n") for cell in row]
            for k in range(max(len(p) for p in parts)):
                cells = [p[k] if k < len(p) else "" for p in parts]
                out.append("  ".join(_pad(x, w, c.justify) for x, w, c in zip(cells, widths, self.columns,
                                                                                 strict=True)).rstrip())
        return out


def plan_widths(columns: list[Col], natural: list[int], floors: list[int], room: int) -> list[int]:
    """Column widths (content only) that fit ``room`` when they can: everything at its natural width
    if that fits; else every column at its floor (fixed cells whole, headers by words) and the spare
    width shared out by ratio, ids and text first, no column past its natural width."""
    if sum(natural) <= room:
        return list(natural)
    widths = list(floors)
    spare = room - sum(widths)
    for i, c in enumerate(columns):  # an id on one line can be copied: ids first, up to a third each
        if c.kind == ID and spare > 0:
            grow = max(0, min(spare, min(natural[i], room // 3) - widths[i]))
            widths[i] += grow
            spare -= grow
    for kinds in ((ID, TEXT), (FIXED,)):  # a fixed column's header on one line comes last
        spare = _share_out(columns, kinds, natural, widths, spare)
    return widths


def _share_out(columns: list[Col], kinds, natural: list[int], widths: list[int], spare: int) -> int:
    """Grow the columns of ``kinds`` toward their natural width by ratio; the width left over."""
    while spare > 0:
        growing = [i for i, c in enumerate(columns) if c.kind in kinds and widths[i] < natural[i]]
        if not growing:
            break
        total = sum(columns[i].ratio for i in growing)
        given = 0
        for i in growing:
            share = max(1, spare * columns[i].ratio // total)
            grow = min(share, natural[i] - widths[i], spare - given)
            widths[i] += grow
            given += grow
        spare -= given
        if not given:
            break
    return spare


def _comfort(columns: list[Col], natural: list[int], floors: list[int]) -> int:
    """The width the text columns need beyond their floors to hold a few words a line (together
    _TEXT_COMFORT, or all of their text)."""
    text = [(n, f) for c, n, f in zip(columns, natural, floors, strict=True) if c.kind == TEXT]
    return max(0, min(sum(n for n, _ in text), _TEXT_COMFORT) - sum(f for _, f in text))


def _floor(c: Col, cells) -> int:
    """The narrowest a column goes: a fixed column's widest cell, an id or text column's
    _ID_MIN/_TEXT_MIN (or its widest cell when narrower) and its longest word (up to LONG_WORD);
    never below the header's longest word."""
    words = max((_width(w) for w in c.header.split()), default=1)
    widest = max((_width(line) for cell in cells for line in cell.plain.split("\n")), default=0)
    if c.kind == FIXED:
        return max(words, widest)
    least = _ID_MIN if c.kind == ID else _TEXT_MIN
    return max(words, min(widest, least), min(_longest_word(cells), LONG_WORD))


def _roomy(c: Col, natural: int, cells) -> int:
    """The width a column needs in the wide set: ids and fixed cells whole on a line, text
    _TEXT_READABLE (or all of it) and never a word split."""
    if c.kind == TEXT:
        return max(min(natural, _TEXT_READABLE), _floor(c, cells))
    return natural


def _longest_word(cells) -> int:
    """Cells hold GLUE for the spaces they must not wrap at: a glued run counts as one word."""
    return max((_width(w) for cell in cells for w in cell.plain.split()), default=0)


def _natural(header: str, cells) -> int:
    lines = [header] + [line for cell in cells for line in cell.plain.split("\n")]
    return max(_width(line) for line in lines)


def _overhead(console, options, skeleton) -> int:
    """Borders and padding of a table with these columns (measured on an empty copy)."""
    from rich.measure import Measurement

    for column in skeleton.columns:
        column.width = 1
    skeleton.show_header = False
    skeleton.title = None
    return Measurement.get(console, options, skeleton).maximum - len(skeleton.columns)


def _long_cells_as_notes(rows):
    """Rows with every cell over LONG_CELL characters replaced by ``[see N]``, and the notes."""
    from rich.text import Text

    notes = []
    out = []
    for r in rows:
        new = []
        for cell in r:
            if len(cell.plain) > LONG_CELL:
                notes.append((len(notes) + 1, cell))
                cell = Text(f"[see {len(notes)}]", style="dim")
            new.append(cell)
        out.append(new)
    return out, notes


class Unwrapped:
    """A line printed as it is (the terminal wraps it): for text too long to lay out."""

    def __init__(self, text):
        self.text = text

    def __rich_console__(self, console, options):
        from rich.segment import Segment

        yield from self.text.render(console)
        yield Segment.line()


class Hanging:
    """``label`` then ``text``, continuation lines indented under the text (not at the margin)."""

    def __init__(self, label, text, style: str = ""):
        from rich.text import Text

        self.label = label if isinstance(label, Text) else Text(label, style=style)
        self.text = as_text(text)
        self.line = self.label.copy().append_text(self.text)

    def __rich_console__(self, console, options):
        from rich.table import Table

        if len(self.text.plain) > LONG_CELL:
            yield Unwrapped(self.line)
            return
        if not self.label or self.label.cell_len * 2 > options.max_width:
            yield glued(self.line)
            return
        grid = Table.grid()
        grid.add_column(no_wrap=True)
        grid.add_column(overflow="fold")
        grid.add_row(self.label, glued(self.text, options.max_width - self.label.cell_len))
        yield grid


def _width(s: str) -> int:
    from rich.cells import cell_len

    return cell_len(s)


def _pad(text: str, width: int, justify: str) -> str:
    gap = max(0, width - _width(text))
    return " " * gap + text if justify == "right" else text + " " * gap


def _plain_title(title) -> str:
    return title if isinstance(title, str) else title.plain


# --- drawing ------------------------------------------------------------------------------------

def render_to_text(renderables, *, view: View = View(), plain: bool = False) -> str:
    """The report as a string: the plain writer when ``plain``; else rich at ``view.width`` (or the
    terminal's), deterministic when colour is off and the width fixed."""
    items = list(_flatten(renderables))
    if plain:
        return plain_text(items)
    buf = io.StringIO()
    console = _console(buf, view.width or _terminal_width(), view.color)
    for r in items:
        if isinstance(r, Sheet) and view.wide:  # as wide as it needs; the terminal wraps the lines
            _console(buf, max(console.width, _measure(console, r)), view.color).print(r, crop=False)
        else:
            console.print(_unwrapped_if_long(r), crop=False)
    return "".join(line.rstrip() + "\n" for line in buf.getvalue().replace(GLUE, " ").splitlines())


def _console(file, width: int, color: bool):
    from rich.console import Console  # imported by the renderers that draw; JSON output never does

    return Console(file=file, width=width, color_system="standard" if color else None, force_terminal=color,
                   no_color=not color, highlight=False, emoji=False, markup=False, legacy_windows=False)


def plain_text(items) -> str:
    """Plain rendering: Text as it is, Sheets aligned, anything else rich-drawn as wide as it needs
    (never wrapped); no trailing spaces."""
    lines: list[str] = []
    for r in items:
        lines.extend(_plain_lines(r))
    return "".join(line.rstrip() + "\n" for line in lines)


def _plain_lines(r) -> list[str]:
    if isinstance(r, str):  # before importing rich: a piped lint never loads it
        return r.split("\n")
    if isinstance(r, Sheet):
        return r.plain_lines()
    if isinstance(r, Hanging):
        return r.line.plain.split("\n")
    from rich.padding import Padding
    from rich.text import Text

    if isinstance(r, Text):
        return r.plain.split("\n")
    if isinstance(r, Padding):
        return [" " * r.left + line for line in _plain_lines(r.renderable)]
    return _rich_unbounded(r)


def _rich_unbounded(r) -> list[str]:
    """A rich renderable (a Tree, Markdown) drawn at the width it measures, so nothing wraps."""
    buf = io.StringIO()
    _console(buf, max(80, _measure(_console(io.StringIO(), 10_000, False), r)), False).print(r, crop=False)
    return buf.getvalue().rstrip("\n").split("\n")


def _measure(console, r) -> int:
    from rich.measure import Measurement

    return Measurement.get(console, console.options.update_width(10**9), r).maximum


def _unwrapped_if_long(r):
    from rich.text import Text

    if isinstance(r, Text) and len(r.plain) > LONG_CELL:
        return Unwrapped(r)
    return glued(as_text(r))


def _flatten(renderables):
    from rich.console import Group

    for r in renderables:
        if isinstance(r, Group):
            yield from _flatten(r.renderables)
        else:
            yield r


def _terminal_width() -> int:
    if "COLUMNS" in os.environ:
        try:
            return max(40, int(os.environ["COLUMNS"]))
        except ValueError:
            pass
    try:
        return max(40, os.get_terminal_size(sys.stdout.fileno()).columns)
    except OSError:
        return 80


def sectioned(sections) -> list:
    """Non-empty sections (lists of renderables), flattened, with one blank line between."""
    from rich.text import Text

    out: list = []
    for section in sections:
        if section:
            if out:
                out.append(Text(""))
            out.extend(section)
    return out
