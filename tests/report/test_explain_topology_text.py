"""The ``Topology`` section of ``explain``'s text report (a real subprocess, piped: plain text):
where Kueue places each pod set of a TAS flavor, or Kueue's failure text verbatim.  Inputs are
the kueue-tas acceptance cases copied into tests/acceptance/cases/kueue-tas (Kueue's
TestFindTopologyAssignments)."""

from __future__ import annotations

import pytest

from tests.helpers import ROOT, run_subprocess

CASES = ROOT / "tests" / "acceptance" / "cases" / "kueue-tas"


def _topology_section(case: str) -> str:
    p = run_subprocess("explain", "default/test-wl", "-f", str(CASES / case / "state.yaml"))
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    start = lines.index("Topology")
    end = next((i for i in range(start + 1, len(lines)) if not lines[i].startswith(" ")), len(lines))
    return "\n".join(lines[start:end])


@pytest.mark.parametrize("case", [
    "assign-rack-required-too-many-pods-to-fit-in-any-rack-bestfit",
    "assign-multi-layer-topology-block-required-rack-slices-of-4-host-slices-92a8f9",
    "assign-detailed-failure-message-with-exclusion-stats",
])
def test_topology_section(case, snapshot):
    assert _topology_section(case) == snapshot
