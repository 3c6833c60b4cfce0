"""The rule catalogue as Markdown: every rule once, links that resolve, prose that survives rendering."""

from __future__ import annotations

from html import unescape

from hypothesis import given
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from quotactl.lint.rule import registry
from quotactl.report.rules_markdown import escape_prose, github_anchor, render_catalogue, rule_markdown
from tests.helpers import run_cli

MD = MarkdownIt("commonmark").enable("table")


def _paragraph_text(markdown: str) -> str:
    html = MD.render(markdown).strip()
    assert html.startswith("<p>") and html.endswith("</p>"), html
    return unescape(html[3:-4])


def test_escaped_prose_keeps_angle_brackets_stars_and_underscores():
    text = 'the webhook says \'preference "<p>" requires both\' (apis/kueue/*/*_types.go, a|b, back\\slash)'
    assert _paragraph_text(escape_prose(text)) == text


def test_code_spans_are_left_as_written():
    assert escape_prose("set `spec.x_y: <n>` or *not*") == "set `spec.x_y: <n>` or \\*not\\*"
    assert "<code>spec.x_y: &lt;n&gt;</code>" in MD.render(escape_prose("set `spec.x_y: <n>`"))


@given(st.text(alphabet="ab <>*_\\/.-|", min_size=1).map(lambda s: "a" + s.rstrip()))
def test_any_inline_text_renders_back_to_itself(text):
    assert _paragraph_text(escape_prose(text)) == text


def test_the_catalogue_has_every_rule_once_and_its_links_resolve():
    rules = list(registry().values())
    html = MD.render(render_catalogue(rules))
    for r in rules:
        anchor = github_anchor(f"{r.code} {r.name}")
        assert html.count(f'href="#{anchor}"') == 1, r.code
        assert html.count(f"<h3>{r.code} {r.name}</h3>") == 1, r.code


def test_the_catalogue_groups_rules_by_dialect_in_a_fixed_order():
    text = render_catalogue(list(registry().values()))
    sections = [line for line in text.splitlines() if line.startswith("## ")]
    assert sections == ["## Kueue", "## Apache YuniKorn", "## Input files (every run)"]


def test_github_anchor_drops_punctuation():
    assert github_anchor("KQ104 borrowing-limit-without-cohort") == "kq104-borrowing-limit-without-cohort"
    assert github_anchor("What it (really) checks?") == "what-it-really-checks"


def test_one_rule_page_nests_under_the_given_level():
    page = rule_markdown(registry()["KQ104"], level=3)
    assert page.startswith("### KQ104 borrowing-limit-without-cohort\n")
    assert "\n#### How to fix\n" in page and "\n## " not in page


def test_cli_prints_one_rule_as_markdown():
    result = run_cli("rules", "kq202", "--output", "markdown")
    assert result.exit_code == 0
    assert result.stdout.startswith("# KQ202 ")
    assert '"\\<p>"' in result.stdout  # the webhook's <p> placeholder, escaped
