"""The rendered reports of one small run (syrupy snapshots; check them by eye when they change)."""

from __future__ import annotations

import json

import jsonschema

from quotactl.report import simulate_json, simulate_text
from quotactl.report.simulate_plot import PlotOptions
from tests.helpers import ROOT
from tests.kueue.builders import cq, flavor
from tests.simulate.world import job, run

SCHEMA = json.loads((ROOT / "schemas" / "output" / "simulate.json").read_text())


def _result():
    dicts = [flavor("f"), cq("a", [(["cpu"], [("f", {"cpu": 10})])], within="LowerPriority", cohort="org"),
             cq("b", [(["cpu"], [("f", {"cpu": (4, 6)})])], cohort="org"),
             job("low", "a", 8, 0, "100s", klass="batch"), job("high", "a", 8, 30, "50s", priority=10, klass="urgent"),
             job("b1", "b", 6, 5, "20s", klass="batch"), job("stuck", "b", 30, 6, "1s")]
    return run(dicts)


def test_simulate_json(snapshot):
    doc = json.loads(simulate_json.render(_result()))
    jsonschema.validate(doc, SCHEMA)
    assert doc == snapshot


def test_simulate_plain(snapshot):
    assert simulate_text.render_plain(_result(), PlotOptions(plot=False)) == snapshot  # the plot: test_report_text


def test_every_output_format_has_a_renderer():
    from quotactl.report.renderers import accepted, formats

    assert set(formats("simulate")) == set(accepted(("simulate",))) == {"table", "plain", "wide", "json", "yaml"}
