"""The README's "Jobs, by the name you know" section runs as written: every `quotactl` command exits
as annotated (`# exit N`, else 0), and every output line shown under it is in its output (a line
ending in `...` as a prefix; `...` alone skips lines)."""

import re
import shlex

import pytest

from tests.helpers import ROOT, run_subprocess

SECTION = ROOT.joinpath("README.md").read_text().split("## Jobs, by the name you know", 1)[1].split("\n## ", 1)[0]


def _commands() -> list[tuple[str, int, list[str]]]:
    out: list[tuple[str, int, list[str]]] = []
    for block in re.findall(r"```console\n(.*?)```", SECTION, re.S):
        for line in block.splitlines():
            if line.startswith("$ "):
                command, _, comment = line[2:].partition("#")
                code = re.search(r"exit (\d)", comment)
                out.append((command.strip(), int(code.group(1)) if code else 0, []))
            elif line.strip() != "..." and out:
                out[-1][2].append(line)
    return [c for c in out if c[0].startswith("quotactl ")]


def test_the_section_has_both_stories():
    commands = [c for c, _code, _shown in _commands()]
    assert any(c.startswith("quotactl explain job/") for c in commands)
    assert any("--fail-if-pending" in c for c in commands)


@pytest.mark.parametrize(("command", "code", "shown"), _commands(), ids=[c[0] for c in _commands()])
def test_readme_command_runs_as_shown(command, code, shown):
    r = run_subprocess(*shlex.split(command)[1:], env={"COLUMNS": "200"})
    assert r.returncode == code, r.stderr
    lines = r.stdout.splitlines()
    for want in shown:
        if want.endswith("..."):
            assert any(line.startswith(want[:-3].rstrip()) for line in lines), want
        else:
            assert want in lines, want
