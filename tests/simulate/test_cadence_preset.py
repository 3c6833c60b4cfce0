"""``--cadence kueue-harness``: its values are the ones docs/simulate-calibration.md records, and
a small generator config run with it shows the harness's write limit (runtimes start at no more
than the client's rate after its burst, while the quota is held from the decision)."""

from __future__ import annotations

import re
from dataclasses import fields, replace
from pathlib import Path

from quotactl.kueue.options import engine_options
from quotactl.model.kueue import build_cluster
from quotactl.simulate.cadence import PRESETS, Cadence
from quotactl.simulate.clock import US, parse_duration, parse_instant
from quotactl.simulate.generated import generated_objects
from quotactl.simulate.generator import read_generator
from quotactl.simulate.run import SimulationOptions, simulate

DOC = Path(__file__).resolve().parents[2] / "docs" / "simulate-calibration.md"
T0 = parse_instant("2026-01-01T00:00:00Z")
SECONDS = {"interval", "admission_cost", "requeue_batch"}

# 30 ClusterQueues of one cohort (the baseline's shape), 20 small workloads each, all at once
CONFIG = """\
cohorts:
  - className: cohort
    count: 1
    queuesSets:
    - className: cq
      count: 30
      nominalQuota: 20
      borrowingLimit: 100
      reclaimWithinCohort: Any
      withinClusterQueue: LowerPriority
      workloadsSets:
      - count: 20
        creationIntervalMs: 1
        workloads:
        - className: small
          runtimeMs: 100
          priority: 50
          request: 1
"""


def documented() -> dict:
    """The preset line of the doc: ``kueue-harness: interval=0.2s ... create_burst=2000``."""
    m = re.search(r"^kueue-harness: (.+)$", DOC.read_text(), re.MULTILINE)
    assert m, "docs/simulate-calibration.md has no 'kueue-harness: ...' line"
    pairs = dict(p.split("=", 1) for p in m.group(1).split())
    return {k: parse_duration(v) if k in SECONDS else float(v) for k, v in pairs.items()}


def test_the_preset_is_what_the_calibration_doc_says():
    preset = PRESETS["kueue-harness"]
    values = documented()
    assert set(values) == {f.name for f in fields(Cadence)} - {"basis"}
    assert {k: getattr(preset, k) for k in values} == values
    assert "docs/simulate-calibration.md" in preset.basis


def _runs(tmp_path, cadence: Cadence):
    path = tmp_path / "generator.yaml"
    path.write_text(CONFIG)
    cluster = build_cluster(generated_objects(read_generator(str(path)), T0))
    result = simulate(cluster, engine_options(cluster), SimulationOptions(cadence=cadence), t0=T0)
    return [w for w in result.workloads if not w.evictions]


def test_the_preset_spreads_runtime_starts_at_the_write_rate(tmp_path):
    preset = PRESETS["kueue-harness"]
    runs = _runs(tmp_path, preset)
    assert len(runs) > 300
    starts = sorted(w.finished - w.runtime for w in runs)
    period = round(US / preset.write_rate)
    burst = int(preset.write_burst)
    # the k-th write goes through no earlier than the bucket allows (and other writes share it)
    assert all(s >= (k - burst + 1) * period for k, s in enumerate(starts))
    assert starts[-1] >= (len(starts) - burst) * period
    # decided (and counted as admitted) long before the write lets it run: the quota is held meanwhile
    assert max(w.finished - w.runtime - w.admissions[0] for w in runs) > US


def test_without_the_write_limit_runtimes_start_at_the_decision(tmp_path):
    free = replace(PRESETS["kueue-harness"], write_rate=0, write_burst=0)
    runs = _runs(tmp_path, free)
    assert all(w.finished - w.runtime == w.admissions[0] for w in runs)


def test_an_admission_cost_on_the_command_line_keeps_the_presets_limits():
    from quotactl.cli.simulate import _cadence

    chosen = _cadence(None, "kueue-harness", "2ms")
    assert chosen == replace(PRESETS["kueue-harness"], admission_cost=2_000)
    assert _cadence(None, "kueue-harness", None) is PRESETS["kueue-harness"]
