import textwrap
from pathlib import Path

import pytest

from quotactl.diagnostics import Severity
from quotactl.jobs import derive_workloads
from quotactl.jobs.context import build_context
from quotactl.load.objects import load
from quotactl.model.kueue import build_cluster


@pytest.fixture
def derive(tmp_path: Path):
    """derive(yaml_text) -> (workload dicts, {object: reason}, diagnostics)."""

    def run(text: str):
        path = tmp_path / "input.yaml"
        path.write_text(textwrap.dedent(text))
        loaded = load([str(path)])
        assert not [d for d in loaded.diagnostics if d.severity == Severity.ERROR], loaded.diagnostics
        context = build_context(build_cluster(loaded.objects), loaded.objects)
        workloads, skipped, diagnostics = derive_workloads(loaded.objects, context)
        return [w.data for w in workloads], {s.object: s.reason for s in skipped}, diagnostics

    return run
