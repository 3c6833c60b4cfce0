"""report/console.py: the column planner (property-tested), the Sheet's views, cells too long to lay
out, hanging lines and the plain writer."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from rich.cells import cell_len
from rich.text import Text

from quotactl.report.console import (
    FIXED,
    ID,
    LONG_CELL,
    PLAIN_VIEW,
    TEXT,
    Col,
    Hanging,
    Sheet,
    View,
    plain_text,
    plan_widths,
    render_to_text,
)

KINDS = st.sampled_from([FIXED, ID, TEXT])


@given(st.lists(st.tuples(KINDS, st.integers(1, 60), st.integers(0, 80), st.integers(1, 4)), min_size=1,
                max_size=10), st.integers(20, 250))
def test_plan_fits_the_room_and_keeps_every_floor(spec, room):
    columns = [Col("h", kind, ratio=ratio) for kind, _, _, ratio in spec]
    floors = [floor for _, floor, _, _ in spec]
    natural = [floor + extra for _, floor, extra, _ in spec]
    widths = plan_widths(columns, natural, floors, room)
    if sum(natural) <= room:
        assert widths == natural
        return
    assert all(f <= w <= n for f, w, n in zip(floors, widths, natural, strict=True))
    if sum(floors) <= room:
        assert sum(widths) <= room
        # no room left unused while a column still wants more
        assert sum(widths) == room or widths == natural


def test_fixed_columns_stay_whole_and_ids_come_before_text():
    columns = [Col("code", FIXED), Col("object", ID), Col("message", TEXT, ratio=3)]
    widths = plan_widths(columns, [5, 30, 200], [5, 12, 12], 60)
    assert widths[0] == 5 and sum(widths) == 60
    assert widths[1] >= 60 // 3  # an id grows first, up to a third of the room
    assert widths[2] > widths[1]


def _sheet(view: View) -> Sheet:
    s = Sheet([Col("name", ID), Col("note", TEXT, wide=False), Col("a", FIXED, wide=True),
               Col("b", FIXED, wide=True)], view, title="t[x]")
    s.add_row("ns/a-rather-long-workload-name-0123456789", "some words to wrap here and there", "1", "2")
    return s


def test_wide_and_narrow_columns():
    assert [c.header for c in _sheet(View()).columns] == ["name", "note"]
    assert [c.header for c in _sheet(View(wide=True)).columns] == ["name", "a", "b"]
    assert [c.header for c in _sheet(PLAIN_VIEW).columns] == ["name", "a", "b"]


def test_an_id_is_never_folded_narrow_gives_records_and_wide_never_folds():
    """At 45 columns the 41-character id leaves no room for a table: one record per row, the id
    whole on its line; at 120 the wide set fits and is drawn; --wide draws it at any width."""
    name = "ns/a-rather-long-workload-name-0123456789"
    narrow = render_to_text([_sheet(View())], view=View(width=45)).splitlines()
    assert all(cell_len(line) <= 45 for line in narrow)
    assert narrow[1] == name and narrow[2].startswith("  note  some words")
    roomy = render_to_text([_sheet(View())], view=View(width=120)).splitlines()
    assert roomy[1].split() == ["name", "a", "b"] and roomy[3].split() == [name, "1", "2"]
    wide = render_to_text([_sheet(View(wide=True))], view=View(width=40, wide=True))
    assert f"{name}  1  2" in wide


def test_the_wide_set_is_drawn_only_when_it_fits_with_readable_text():
    s = Sheet([Col("name", ID), Col("why", TEXT, ratio=3), Col("extra", TEXT, wide=True)], View())
    s.add_row("ns/w", "word " * 40, "more " * 40)
    assert render_to_text([s], view=View(width=60)).splitlines()[0].split() == ["name", "why"]
    assert render_to_text([s], view=View(width=100)).splitlines()[0].split() == ["name", "why", "extra"]


def test_an_amount_stays_on_the_line_of_its_resource():
    """The glue: ``4 cpu``, ``24Gi more memory``, ``memory 24Gi`` never break; plain text is unchanged."""
    from quotactl.report.console import GLUE, glued

    assert glued("needs 4 more cpu than x") == f"needs 4{GLUE}more{GLUE}cpu than x"
    assert glued("cpu 1, memory 24Gi per pod") == f"cpu{GLUE}1, memory{GLUE}24Gi per pod"
    assert glued("waiting for 3 pods") == f"waiting for 3{GLUE}pods"  # "for" is not a unit
    text = "waiting for 24Gi more memory held by team-a/x (20Gi memory)"
    for width in range(18, 60):
        out = render_to_text([Hanging("  ", text)], view=View(width=width))
        assert "24Gi more memory" in out and "(20Gi memory)" in out and GLUE not in out
    narrow = render_to_text([Hanging("  ", text)], view=View(width=14)).split()
    assert narrow == text.split()  # too narrow for a glued run: it breaks at its spaces, not inside a word


def test_a_million_character_name_is_printed_whole_after_the_table():
    name = "n" * 1_000_000
    sheet = Sheet([Col("workload", ID), Col("why", TEXT)], View(width=80))
    sheet.add_row(name, "too long to lay out")
    sheet.add_row("short", "fits")
    out = render_to_text([sheet, Text("Workload " + name)], view=View(width=80))
    lines = out.splitlines()
    assert len(lines) == 6  # header, rule, 2 rows, the note, the prose line: nothing folded
    assert lines[2].startswith("[see 1]") and lines[4] == "[see 1] " + name
    assert lines[5] == "Workload " + name
    assert len(name) > LONG_CELL
    plain = plain_text([sheet]).splitlines()
    assert plain[1] == f"{name}  too long to lay out" and plain[2].startswith("short")


def test_hanging_lines_wrap_under_their_text_and_stay_one_line_plain():
    line = Hanging("  message:  ", "word " * 30)
    out = render_to_text([line], view=View(width=45)).splitlines()
    assert out[0].startswith("  message:  word") and all(x.startswith(" " * 12 + "word") for x in out[1:])
    assert plain_text([line]) == "  message:  " + ("word " * 30).rstrip() + "\n"


def test_plain_writer_pads_nothing_at_the_end():
    s = Sheet([Col("a", ID), Col("b", TEXT), Col("c", FIXED, justify="right")], PLAIN_VIEW)
    s.add_row("x", "", "")
    s.add_row("longer", "two\nlines", "12")
    out = plain_text([s])
    assert out == "a       b       c\nx\nlonger  two    12\n        lines\n"
