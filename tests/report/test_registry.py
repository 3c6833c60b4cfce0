"""Every command's output formats come from the one renderer registry: its -o accepts, lists and
completes exactly the formats every report it may print has a renderer for."""

from __future__ import annotations

import pytest

from quotactl.cli.app import COMMANDS, build_app
from quotactl.cli.output import formats_of
from quotactl.report.renderers import accepted, formats, register


def _output_formats():
    """command -> the OutputFormats of its -o (every command has one but convert)."""
    import typer

    group = typer.main.get_command(build_app())
    found = {}
    for name, command in group.commands.items():
        for option in filter(None, map(formats_of, command.params)):
            found[name] = option
    return found


OUTPUT = _output_formats()


def test_every_command_with_a_report_has_a_registry_backed_output_option():
    assert sorted(OUTPUT) == sorted(c for c in COMMANDS if c != "convert")


@pytest.mark.parametrize("command", sorted(OUTPUT))
def test_every_report_of_a_command_renders_every_format_it_accepts(command):
    option = OUTPUT[command]
    assert option.values and option.values == accepted(option.reports)
    for report in option.reports:
        # no renderer left out of -o (a format one report has and another lacks is never reachable),
        # and the first report's formats stand for every report's when a run checks -o
        assert set(formats(report)) == set(option.values), report
    assert option.default is None or option.default in option.values


def test_the_formats_are_listed_in_one_order():
    assert OUTPUT["queues"].values == ("table", "tree", "plain", "wide", "json", "yaml")
    assert OUTPUT["lint"].values == ("table", "plain", "wide", "json", "yaml", "sarif", "github")
    assert OUTPUT["snapshot"].values == ("json", "yaml")


def test_a_renderer_is_registered_once():
    with pytest.raises(ValueError, match="duplicate renderer"):
        register("schedule", "json", lambda result, color: "")
