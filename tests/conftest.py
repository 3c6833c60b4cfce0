import os
import sys
from pathlib import Path

import pytest
from hypothesis import settings

from tests.property_budget import IN_CI

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("NO_COLOR", "1")

# CI: the same examples every run (and no example database to carry between runs); the budgets of
# the slow property tests shrink there too (tests/property_budget.py)
settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
if IN_CI:
    settings.load_profile("ci")


# Shared by the YuniKorn lint and queues CLI tests (tests/cli, tests/lint); quotactl is imported
# inside, after ROOT is on sys.path.
@pytest.fixture
def wired(monkeypatch):
    """The CLI with ``lint_yunikorn`` and the ``queues`` command wired in.

    A no-op once quotactl/lint/runner.py imports ``lint_yunikorn`` from quotactl.lint.yunikorn and
    quotactl/cli/app.py registers ``queues``; until then the tests wire them the same way.
    """
    import quotactl.lint.runner as runner
    from quotactl.lint import yunikorn as yk

    if runner.lint_yunikorn is not yk.lint_yunikorn:
        monkeypatch.setattr(runner, "lint_yunikorn", yk.lint_yunikorn)
    from quotactl.cli.app import app
    from quotactl.cli.queues import queues_command

    added = False
    if "queues" not in [c.name for c in app.registered_commands]:
        app.command("queues")(queues_command)
        added = True
    yield app
    if added:
        app.registered_commands[:] = [c for c in app.registered_commands if c.name != "queues"]
