"""Every command's output formats come from the one renderer registry."""

from __future__ import annotations

import pytest

from quotactl.cli.common import LintFormat, OutputFormat
from quotactl.cli.queues import QueuesFormat
from quotactl.cli.rules import RulesFormat
from quotactl.report.renderers import formats, register

COMMANDS = {
    "lint": LintFormat,
    "queues": QueuesFormat,
    "rules": RulesFormat,
    "rule": RulesFormat,
    **{c: OutputFormat for c in ("explain", "explain-all", "explain-jobs", "explain-eta", "explain-all-eta", "preempt",
                                 "schedule", "simulate", "shares", "diff", "yunikorn-explain", "yunikorn-preempt")},
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_format_a_command_offers_has_a_renderer(command):
    assert set(formats(command)) == {f.value for f in COMMANDS[command]}


def test_a_renderer_is_registered_once():
    with pytest.raises(ValueError, match="duplicate renderer"):
        register("schedule", "json", lambda result, color: "")
