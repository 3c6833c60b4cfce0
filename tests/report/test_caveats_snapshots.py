"""The caveat lines as drawn: under explain's and preempt's first line, first in schedule's report;
folded under their text at 80 and 200 columns, whole lines in plain output."""

from __future__ import annotations

import pytest

from tests.helpers import FIXTURES
from tests.report.reports import capture, draw

TAS = str(FIXTURES / "caveats" / "tas.yaml")
GANG = str(FIXTURES / "caveats" / "yunikorn-gang.yaml")
RUNS = {
    "explain": ["explain", "ml/train", "-f", TAS],
    "preempt": ["preempt", "ml/train", "-f", TAS],
    "schedule": ["schedule", "-f", TAS],
    "yunikorn-explain": ["explain", "ml/trainer-0", "-f", GANG],
}


@pytest.fixture(scope="module")
def captured():
    return {name: capture(args) for name, args in RUNS.items()}


FIRST_CAVEAT_LINE = {"explain": 1, "preempt": 1, "schedule": 0, "yunikorn-explain": 1}  # under the verdict/title


def _caveats(name: str, text: str) -> str:
    """The caveat lines (with their continuation lines), after checking where they start; the rest
    is each report's own layout."""
    lines = text.splitlines()
    first = FIRST_CAVEAT_LINE[name]
    while first and lines[first].startswith(" "):  # the verdict's continuation lines come first
        first += 1
    assert lines[first].startswith("caveat: "), lines[:3]
    last = first
    while last + 1 < len(lines) and lines[last + 1].startswith(("caveat: ", " " * len("caveat: "))):
        last += 1
    return "\n".join(lines[first:last + 1])


@pytest.mark.parametrize("name", list(RUNS))
@pytest.mark.parametrize("width", [80, 200])
def test_caveats_at_a_width(captured, name, width, snapshot):
    out = draw(captured[name], "table", width)
    assert all(len(line) <= width for line in out.splitlines()[:12])
    assert _caveats(name, out) == snapshot


@pytest.mark.parametrize("name", list(RUNS))
def test_caveats_in_plain_output(captured, name, snapshot):
    assert _caveats(name, draw(captured[name], "plain")) == snapshot
