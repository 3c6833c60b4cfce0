import textwrap
from pathlib import Path

import pytest

from quotactl.jobs import derive_workloads
from quotactl.load.objects import load


@pytest.fixture
def derive(tmp_path: Path):
    """derive(yaml_text) -> (workload dicts, {object: reason}, diagnostics)."""

    def run(text: str):
        path = tmp_path / "input.yaml"
        path.write_text(textwrap.dedent(text))
        workloads, skipped, diagnostics = derive_workloads(load([str(path)]).objects)
        return [w.data for w in workloads], {s.object: s.reason for s in skipped}, diagnostics

    return run
