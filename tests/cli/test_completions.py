import os
import subprocess
import sys

import pytest

from tests.helpers import ROOT


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_committed_completions_are_current(shell):
    env = {**os.environ, "_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "1"}
    code = "import sys; sys.argv=['quotactl','--show-completion',sys.argv[1]]; from quotactl.cli.app import main; main()"
    out = subprocess.run([sys.executable, "-c", code, shell], capture_output=True, text=True, env=env, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert out.stdout == (ROOT / "completions" / f"quotactl.{shell}").read_text()
