"""The chart data of simulate's plots: peaks of pending workloads and time-averaged usage per bin,
totalled over ClusterQueues by their nominal quota."""

from __future__ import annotations

from dataclasses import replace

from quotactl.report.simulate_plot import POINTS, _Changes, charts, time_unit
from quotactl.simulate.clock import US
from quotactl.simulate.result import Sample
from tests.simulate.report_world import small_result


def test_peaks_and_time_averages_per_bin():
    c = _Changes()
    # a: nominal 10 cpu; busy 5 from 0 to 30, 10 from 30; a queue of 3 for an instant at 10 only
    c.add_queue([Sample(0, 0, (("cpu", 0.5),)), Sample(10, 3, (("cpu", 0.5),)), Sample(11, 0, (("cpu", 0.5),)),
                 Sample(30, 0, (("cpu", 1.0),))], {"cpu": 10})
    # b: nominal 20 cpu; 10 in use from 20 on; two samples at 20: the last one counts
    c.add_queue([Sample(20, 7, (("cpu", 0.9),)), Sample(20, 1, (("cpu", 0.5),))], {"cpu": 20})
    peaks, averages = c.binned(40, 2)
    assert peaks == [3, 1]  # the short queue at 10 is not lost between two readings
    assert averages[0] == {"cpu": 5.0}  # 0..20: 5 in use
    assert averages[1] == {"cpu": (10 * 5 + 10 * 10) / 20 + 10}  # a: 5 then 10; b: 10


def test_cluster_usage_is_weighted_by_nominal_quota():
    r = small_result()
    cluster = charts(r)
    assert [c.title for c in cluster] == ["Pending workloads (cluster, peak)", "Usage of nominal quota (cluster, %)"]
    assert len(cluster[0].times) == POINTS and cluster[0].times[0] == 0
    usage = cluster[1].lines[0]
    assert usage.label == "cpu" and usage.values[0] == 12.5  # t0: the notebook's 2 of 16 cpu
    per_queue = charts(r, per_queue=True)[2:]
    assert [line.label for line in per_queue[0].lines] == sorted(r.series)
    assert per_queue[1].lines[0].label == "team-a cpu"


def test_a_run_that_ends_at_t0_is_one_reading():
    r = small_result()
    one = charts(replace(r, end=0))
    assert one[0].times == (0,) and len(one[0].lines[0].values) == 1


def test_time_unit():
    assert time_unit(59 * US) == ("s", US) and time_unit(3 * 60 * US)[0] == "min"
    assert time_unit(5 * 3600 * US)[0] == "h" and time_unit(7 * 86400 * US)[0] == "d"
