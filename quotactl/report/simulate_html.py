"""``quotactl simulate --html FILE``: the report as one self-contained page to share in a review.

Everything is inline: the CSS, and the charts as SVG drawn by pygal with its JavaScript off (no
script, no link, no font or stylesheet from the network), so the page opens offline.  User text
(ClusterQueue, class and workload names) is escaped with ``html.escape``.  The same input gives
the same bytes: pygal's random chart ids and its dated comments are replaced or dropped."""

from __future__ import annotations

import re
from html import escape

from quotactl.report.durations import human_duration
from quotactl.report.simulate_plot import Chart, PlotOptions, charts
from quotactl.report.simulate_text import (
    WAIT_COLUMNS,
    livelock_line,
    summary_line,
    usage_text,
    wait_cells,
)
from quotactl.simulate.clock import rfc3339
from quotactl.simulate.result import SimulationResult

CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:2em;color:#222;max-width:1200px}
h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em}
table{border-collapse:collapse;margin:.5em 0}
th,td{border-bottom:1px solid #ddd;padding:.25em .6em;text-align:right;vertical-align:top}
th{background:#f4f4f4}td.name,th.name{text-align:left;word-break:break-all}
p.summary{font-weight:600}p.livelock{color:#b00;font-weight:600}
figure{margin:1em 0}svg{max-width:100%;height:auto}
""".strip()

_SCRIPT = re.compile(r"<script\b.*?</script>", re.S)
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_XML_DECL = re.compile(r"<\?xml[^>]*\?>")


def _svg(chart: Chart, index: int) -> str:
    """One chart as inline SVG, offline and deterministic."""
    import pygal  # only for --html

    xy = pygal.XY(js=[], disable_xml_declaration=True, show_dots=False, width=900, height=320,
                  title=chart.title, x_title=f"time since t0 ({chart.unit})", y_title=chart.y_label,
                  legend_at_bottom=True, truncate_legend=-1, explicit_size=False)
    xy.uuid = f"sim{index}"  # pygal draws a random one per chart
    for line in chart.lines:
        xy.add(line.label, list(zip(chart.times, line.values, strict=True)))
    svg = xy.render(is_unicode=True)
    return _XML_DECL.sub("", _COMMENT.sub("", _SCRIPT.sub("", svg)))


def _row(cells: list[str], names: int = 1, tag: str = "td") -> str:
    out = []
    for i, c in enumerate(cells):
        cls = ' class="name"' if i < names else ""
        out.append(f"<{tag}{cls}>{escape(c)}</{tag}>")
    return "<tr>" + "".join(out) + "</tr>"


def _table(headers: list[str], rows: list[list[str]], names: int = 1) -> str:
    return ("<table>\n<thead>" + _row(headers, names, "th") + "</thead>\n<tbody>\n"
            + "\n".join(_row(r, names) for r in rows) + "\n</tbody>\n</table>")


def _queues(r: SimulationResult) -> str:
    headers = ["ClusterQueue", "admitted", "finished", "preempted", "lost work", *WAIT_COLUMNS, "pending at end",
               "usage of nominal"]
    rows = [[q.name, str(q.admitted), str(q.finished), str(q.preemptions), human_duration(q.lost_work), *wait_cells(q.wait),
             str(q.pending_at_end), usage_text(q.usage)] for q in r.cluster_queues]
    return _table(headers, rows)


def _reasons(r: SimulationResult) -> str | None:
    rows = [[q.name, reason, str(n)] for q in r.cluster_queues for reason, n in q.preemptions_by_reason.items()]
    return _table(["ClusterQueue", "reason", "preempted"], rows, names=2) if rows else None


def _classes(r: SimulationResult) -> str:
    headers = ["class", "workloads", "admitted", "finished", *WAIT_COLUMNS]
    rows = [[c.name, str(c.workloads), str(c.admitted), str(c.finished), *wait_cells(c.wait)] for c in r.classes]
    return _table(headers, rows)


def render_html(r: SimulationResult, opts: PlotOptions = PlotOptions()) -> str:
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        '<head><meta charset="utf-8">',
        f"<title>quotactl simulate from {escape(rfc3339(r.start))}</title>",
        f"<style>{CSS}</style></head>",
        "<body>",
        "<h1>quotactl simulate</h1>",
        f'<p class="summary">{escape(summary_line(r))}</p>',
    ]
    if (ll := livelock_line(r)) is not None:
        parts.append(f'<p class="livelock">{escape(ll)}</p>')
    parts += ["<h2>ClusterQueues</h2>", _queues(r)]
    if (reasons := _reasons(r)) is not None:
        parts += ["<h2>Preemptions by reason</h2>", reasons]
    if r.classes:
        parts += ["<h2>Classes</h2>", _classes(r)]
    if r.series:
        parts.append("<h2>Over time</h2>")
        parts += [f"<figure>{_svg(c, i)}</figure>" for i, c in enumerate(charts(r, opts.per_queue))]
    parts += ["</body>", "</html>"]
    return "\n".join(parts) + "\n"
