"""The ``Topology`` section of ``explain``'s text report (a real subprocess, piped: plain text):
where Kueue places each pod set of a TAS flavor, or Kueue's failure text verbatim, and for a pod
set placed nowhere its candidate domains (drawn at 80 and 200 columns).  Inputs are the kueue-tas
acceptance cases copied into tests/acceptance/cases/kueue-tas (Kueue's
TestFindTopologyAssignments), and tests/kueue/tas/data."""

from __future__ import annotations

import pytest
from rich.cells import cell_len

from tests.helpers import ROOT, run_subprocess
from tests.report.reports import capture, draw

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


RACKS = ["-f", "tests/kueue/tas/data/racks-held.yaml"]  # issue 27's example with a rack held (generated)


@pytest.fixture(scope="module")
def racks_held():
    return capture(["explain", "default/train", *RACKS])


@pytest.mark.parametrize("width", [80, 200])
def test_candidate_domains_at_width(racks_held, width, snapshot):
    """The Topology section of a pod set placed nowhere: Kueue's text, the workload whose going
    lets it fit, then the candidate domains as a table that fits the width."""
    out = draw(racks_held, "table", width)
    section = out[out.index("\nTopology\n") + 1:out.index("\nPreemption\n")]
    assert section == snapshot
    assert all(cell_len(line) <= width for line in section.splitlines())
    assert section.index("would fit when default/small is preempted") < section.index("domains of example.com/rack")
