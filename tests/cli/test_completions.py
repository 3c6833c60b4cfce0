import os
import subprocess
import sys

import pytest

from tests.cli.test_output_formats import ACCEPTED
from tests.helpers import ROOT


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_committed_completions_are_current(shell):
    env = {**os.environ, "_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "1"}
    code = "import sys; sys.argv=['quotactl','--show-completion',sys.argv[1]]; from quotactl.cli.app import main; main()"
    out = subprocess.run([sys.executable, "-c", code, shell], capture_output=True, text=True, env=env, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert out.stdout == (ROOT / "completions" / f"quotactl.{shell}").read_text()


def test_completion_offers_each_commands_output_formats_and_flags():
    # the scripts ask the CLI itself: a new -o format or option is offered with no regeneration
    def complete(words: str, index: int) -> list[str]:
        env = {**os.environ, "_QUOTACTL_COMPLETE": "complete_bash", "COMP_WORDS": words, "COMP_CWORD": str(index)}
        code = "import sys; sys.argv=['quotactl']; from quotactl.cli.app import main; main()"
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT)
        return out.stdout.split()

    assert complete("quotactl explain -o ", 3) == ["table", "plain", "wide", "json", "yaml"]
    assert complete("quotactl queues -o ", 3) == ["table", "tree", "plain", "wide", "json", "yaml"]
    assert "--wide" in complete("quotactl schedule --w", 2)


@pytest.mark.parametrize("command", sorted(ACCEPTED))
def test_completion_offers_exactly_the_formats_a_command_accepts(command):
    env = {**os.environ, "_QUOTACTL_COMPLETE": "complete_bash", "COMP_WORDS": f"quotactl {command} -o ",
           "COMP_CWORD": "3"}
    code = "import sys; sys.argv=['quotactl']; from quotactl.cli.app import main; main()"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT)
    assert tuple(out.stdout.split()) == ACCEPTED[command]  # the registry's formats, in its order
