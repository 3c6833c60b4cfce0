"""Caveat lines go under the whole verdict: on a narrow terminal the verdict wraps under its text,
and the caveats must not cut it in two (seen at 80 columns on a YuniKorn explain)."""

from __future__ import annotations

import re

import pytest

from quotactl.report.renderers import render
from tests.helpers import FIXTURES
from tests.report.reports import capture

ANSI = re.compile(r"\x1b\[[0-9;]*m")
GANG = str(FIXTURES / "caveats" / "yunikorn-gang.yaml")
TAS = str(FIXTURES / "caveats" / "tas.yaml")


@pytest.mark.parametrize("args", [["explain", "ml/trainer-0", "-f", GANG], ["explain", "ml/train", "-f", TAS]])
@pytest.mark.parametrize("width", [30, 40, 60, 80])
@pytest.mark.parametrize("color", [False, True])
def test_the_verdict_is_whole_above_the_caveats(args, width, color):
    command, result = capture(args)
    lines = [ANSI.sub("", line) for line in render(command, "table", result, color=color, width=width).splitlines()]
    first_caveat = next(i for i, line in enumerate(lines) if line.startswith("caveat: "))
    lead = lines[0].partition(": ")[0] + ": "
    verdict = lines[:first_caveat]
    assert all(line.startswith(" " * len(lead)) for line in verdict[1:]), verdict
    in_caveat = re.compile(r"caveat: | {8}\S")  # a caveat line, or its continuation under its text
    after = [line for line in lines[first_caveat:] if not in_caveat.match(line)]
    assert after and not after[0].startswith(" " * len(lead)), lines[:first_caveat + 12]
