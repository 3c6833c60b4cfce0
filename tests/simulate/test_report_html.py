"""``simulate --html``: one self-contained page (nothing fetched from the network to open it),
escaped names, the same bytes for the same input; a snapshot of a small case."""

from __future__ import annotations

import re
from dataclasses import replace
from html.parser import HTMLParser

import pytest

from quotactl.report.simulate_html import render_html
from quotactl.report.simulate_plot import PlotOptions
from tests.simulate.report_world import small_result

SVG_NS = "http://www.w3.org/2000/svg"


@pytest.fixture(scope="module")
def page():
    return render_html(small_result(), PlotOptions())


def test_html_snapshot(page, snapshot):
    assert page == snapshot


def test_nothing_to_fetch(page):
    assert re.findall(r"https?://[^\s\"'<>)]*", page) == [SVG_NS] * page.count(f'xmlns="{SVG_NS}"')
    assert "<script" not in page.lower() and "<link" not in page.lower() and "@import" not in page
    assert not re.search(r"""(src|href)\s*=""", page)
    assert "url(" not in page


def test_the_charts_and_tables_are_there(page):
    assert page.count("<svg") == 2 and page.count("<table>") == 3  # ClusterQueues, preemptions by reason, classes
    assert "Pending workloads (cluster, peak)" in page and "Usage of nominal quota (cluster, %)" in page
    assert "team-b-with-a-rather-long-name-for-folding" in page and "InClusterQueue" in page
    per_queue = render_html(small_result(), PlotOptions(per_queue=True))
    assert per_queue.count("<svg") == 4


def test_the_page_parses_and_every_tag_closes(page):
    class Balanced(HTMLParser):
        VOID = {"meta", "br", "img", "hr", "input", "link"}

        def __init__(self):
            super().__init__()
            self.stack: list[str] = []

        def handle_starttag(self, tag, attrs):
            if tag not in self.VOID:
                self.stack.append(tag)

        def handle_startendtag(self, tag, attrs):
            pass

        def handle_endtag(self, tag):
            assert self.stack and self.stack.pop() == tag, tag

    p = Balanced()
    p.feed(page)
    assert p.stack == []


def test_same_bytes_every_time(page):
    assert render_html(small_result(), PlotOptions()) == page


def test_user_text_is_escaped():
    r = small_result()
    queue = replace(r.cluster_queues[0], name="<b>a&b</b>")
    klass = replace(r.classes[0], name='"><img src=x>')
    text = render_html(replace(r, cluster_queues=(queue,), classes=(klass,), series={}), PlotOptions())
    assert "&lt;b&gt;a&amp;b&lt;/b&gt;" in text and "<b>a&b" not in text
    assert "&quot;&gt;&lt;img src=x&gt;" in text and "<img" not in text
