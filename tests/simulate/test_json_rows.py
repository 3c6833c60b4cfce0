"""``simulate -o json`` writes each workload row itself (report/simulate_json._row, for speed):
every row must be exactly what json writes for the same fields, whatever the text and times."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from quotactl.model.kueue_tas import TopologyAssignment, TopologyDomainAssignment
from quotactl.report.simulate_json import _row
from quotactl.simulate.result import Eviction, WorkloadRun

TIMES = st.none() | st.integers(-10**15, 10**15) | st.sampled_from([0, 1, 999_999, 1_000_000, 1_500_000])
TEXT = st.text(max_size=12)  # any code point: quotes, backslashes, control characters, surrogates


def _seconds(us):
    return None if us is None else (us // 1_000_000 if us % 1_000_000 == 0 else us / 1_000_000)


ASSIGNMENTS = st.none() | st.builds(
    TopologyAssignment, st.lists(TEXT, min_size=1, max_size=2).map(tuple),
    st.lists(st.builds(TopologyDomainAssignment, st.lists(TEXT, max_size=2).map(tuple), st.integers(0, 99)),
             max_size=3).map(tuple))
# per admission: pod set -> assignment (None on a non-TAS flavor), or None for an admission without TAS
TOPOLOGIES = st.lists(st.none() | st.dictionaries(TEXT, ASSIGNMENTS, max_size=2), max_size=3).map(tuple)


def _assignment(ta):
    return None if ta is None else {"levels": list(ta.levels),
                                    "domains": [{"values": list(d.values), "count": d.count} for d in ta.domains]}


@st.composite
def runs(draw):
    return WorkloadRun(
        workload=draw(TEXT), cluster_queue=draw(st.none() | TEXT), klass=draw(st.none() | TEXT),
        created=draw(TIMES), arrival=draw(st.integers(0, 10**15)),
        admissions=tuple(draw(st.lists(st.integers(0, 10**15), max_size=3))),
        evictions=tuple(Eviction(draw(st.integers(0, 10**15)), draw(TEXT), draw(TEXT))
                        for _ in range(draw(st.integers(0, 2)))),
        finished=draw(TIMES), runtime=draw(TIMES), runtime_source=draw(st.none() | TEXT),
        admitted_in_input=draw(st.booleans()), started=draw(TIMES), overdue=draw(st.booleans()),
        lost_work=draw(st.integers(0, 10**15)), topology=draw(TOPOLOGIES))


@given(runs())
def test_a_row_is_what_json_writes(r):
    expected = {"workload": r.workload, "clusterQueue": r.cluster_queue, "class": r.klass,
                "created": _seconds(r.created), "arrival": _seconds(r.arrival),
                "admissions": [_seconds(a) for a in r.admissions],
                "evictions": [{"at": _seconds(e.at), "reason": e.reason, "by": e.by} for e in r.evictions],
                "finished": _seconds(r.finished), "wait": _seconds(r.wait), "runtime": _seconds(r.runtime),
                "runtimeSource": r.runtime_source, "admittedInInput": r.admitted_in_input,
                "started": _seconds(r.started), "overdue": r.overdue, "lostWork": _seconds(r.lost_work)}
    if r.topology:
        expected["topologyAssignments"] = [None if t is None else {ps: _assignment(ta) for ps, ta in t.items()}
                                           for t in r.topology]
    assert _row(r) == json.dumps(expected, separators=(", ", ": "))
