"""``quotactl explain --eta --output json``: explain's document (schemas/output/explain.json) with
an ``eta`` object, per workload under ``--all``.  Pure formatting of ``simulate.eta.Eta``."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from quotactl.report.caveats import with_caveats
from quotactl.report.explain_json import all_document, explanation_dict
from quotactl.report.renderers import outcome, register
from quotactl.simulate.clock import at, rfc3339, seconds

if TYPE_CHECKING:  # the simulator is imported only when an ETA is asked for
    from quotactl.simulate.eta import Eta, Explained, ExplainedAll


def eta_dict(eta: Eta) -> dict:
    return {
        "status": eta.status,
        "t0": rfc3339(eta.t0),
        "start": seconds(eta.start),
        "startTime": None if eta.start is None else rfc3339(at(eta.t0, eta.start)),
        "why": eta.why,
        "finishesFirst": [{"workload": f.workload, "clusterQueue": f.cluster_queue, "at": seconds(f.at)}
                          for f in eta.finishes_first],
        "finishesFirstTotal": eta.finishes_first_total,
        "preempts": [{"workload": v.workload, "clusterQueue": v.cluster_queue, "reason": v.reason,
                      "at": seconds(v.at)} for v in eta.preempts],
        "assumptions": {"runtimeSources": dict(eta.runtime_sources), "noRuntimeRunning": list(eta.no_runtime_running),
                        "noRuntimeRunningTotal": eta.no_runtime_total, "overdue": list(eta.overdue),
                        "overdueTotal": eta.overdue_total},
    }


def render(x: Explained, caveats: tuple = ()) -> str:
    doc = with_caveats(explanation_dict(x.explanation), caveats)
    doc["eta"] = eta_dict(x.eta)
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def render_all(x: ExplainedAll, caveats: tuple = ()) -> str:
    doc = with_caveats(all_document(list(x.explanations), x.shown), caveats)
    for row in doc["workloads"]:
        eta = x.etas.get(row["workload"])
        if eta is not None:
            row["eta"] = eta_dict(eta)
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


register("explain-eta", "json", lambda x, view: render(outcome(x).result, outcome(x).caveats))
register("explain-all-eta", "json", lambda x, view: render_all(outcome(x).result, outcome(x).caveats))
