"""The config file: discovery (nearest from the current directory upward), every key, and one
``file:line`` error for each kind of mistake."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from quotactl.lint.config import OUTPUT_FORMATS, ConfigError, LintConfig, discover, load_config, selection
from quotactl.lint.globs import glob_set
from tests.property_budget import examples

PYPROJECT = """\
[project]
name = "demo"

[tool.quotactl]
select = ["KQ", "YK1"]
ignore = [
  "KQ500",
]
exclude = ["charts/*/templates", "*.tpl.yaml"]
kueue-version = "0.19.2"
output = "sarif"
min-severity = "warning"
strict = true
force-exclude = true

[tool.quotactl.severity]
KQ211 = "error"
KQ5 = "off"

[tool.quotactl.per-file-ignores]
"legacy/**" = ["KQ2", "QL101"]
"""

YAML = """\
select: KQ, YK1
ignore:
  - KQ500
exclude: [charts/*/templates, "*.tpl.yaml"]
kueue-version: v0.19
output: sarif
min-severity: warning
strict: true
force-exclude: true
severity:
  KQ211: error
  KQ5: "off"
per-file-ignores:
  "legacy/**": [KQ2, QL101]
"""


@pytest.mark.parametrize("name,text", [("pyproject.toml", PYPROJECT), (".quotactl.yaml", YAML)])
def test_every_key_is_read_the_same_from_toml_and_yaml(tmp_path, name, text):
    (tmp_path / name).write_text(text)
    cfg = load_config(tmp_path / name)
    assert cfg.select == ("KQ", "YK1") and cfg.ignore == ("KQ500",)
    assert cfg.exclude == ("charts/*/templates", "*.tpl.yaml")
    assert (cfg.kueue_version, cfg.output, cfg.min_severity, cfg.strict, cfg.force_exclude) == (
        "v0.19", "sarif", "warning", True, True)
    assert cfg.severity == (("KQ211", "error"), ("KQ5", "off"))
    assert cfg.per_file_ignores == (("legacy/**", ("KQ2", "QL101")),)
    assert cfg.root == str(tmp_path.resolve())


def test_output_formats_are_lints(tmp_path):
    from quotactl.report.renderers import accepted

    assert OUTPUT_FORMATS == accepted(("lint",))  # the config file's output: one of lint's -o values


def test_discovery_finds_the_nearest_file_upward(tmp_path):
    deep = tmp_path / "a" / "b" / "c"
    deep.mkdir(parents=True)
    assert discover(deep) is None
    (tmp_path / ".quotactl.yaml").write_text("strict: true\n")
    assert _resolved(discover(deep), deep) == tmp_path / ".quotactl.yaml"
    (tmp_path / "a" / "pyproject.toml").write_text("[project]\nname = 'x'\n")  # no [tool.quotactl]: passed over
    assert _resolved(discover(deep), deep) == tmp_path / ".quotactl.yaml"
    (tmp_path / "a" / "b" / "pyproject.toml").write_text("[tool.quotactl]\nstrict = false\n")
    assert _resolved(discover(deep), deep) == tmp_path / "a" / "b" / "pyproject.toml"
    (tmp_path / "a" / "b" / ".quotactl.yaml").write_text("strict: true\n")  # beats pyproject in one folder
    assert _resolved(discover(deep), deep) == tmp_path / "a" / "b" / ".quotactl.yaml"


def test_discovered_path_is_shown_relative_to_the_current_directory(tmp_path, monkeypatch):
    (tmp_path / ".quotactl.yaml").write_text("strict: true\n")
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")
    assert discover() == Path("../.quotactl.yaml")


def _resolved(found: Path | None, cwd: Path) -> Path | None:
    return None if found is None else Path(os.path.abspath(found)).resolve()


@pytest.mark.parametrize("name,text,expected", [
    (".quotactl.yaml", "select: [KQ2]\nselct: [KQ5]\n", ":2: unknown key 'selct'; did you mean 'select'?"),
    (".quotactl.yaml", "ignore:\n  - KQ211\n  - KQ5066\n", ":3: ignore: unknown rule code 'KQ5066'; did you mean KQ506"),
    (".quotactl.yaml", "severity:\n  KQ211: fatal\n", ":2: severity of KQ211: 'fatal' is not one of error, warning, info, off"),
    (".quotactl.yaml", "severity:\n  KQ2111: error\n", ":2: severity: unknown rule code 'KQ2111'"),
    (".quotactl.yaml", "per-file-ignores:\n  a/*: [XX1]\n", ":2: per-file-ignores 'a/*': unknown rule code 'XX1'"),
    (".quotactl.yaml", "output: xml\n", ":1: output: 'xml' is not one of table, plain, wide, json, yaml, sarif, github"),
    (".quotactl.yaml", "strict: 'yes'\n", ":1: strict: give true or false, not 'yes'"),
    (".quotactl.yaml", "kueue-version: '9.9'\n", ":1: kueue-version: quotactl does not know Kueue 9.9"),
    (".quotactl.yaml", "exclude: {a: 1}\n", ":1: exclude: give a list of path globs"),
    (".quotactl.yaml", "- select\n", ":1: the config file must be a mapping"),
    (".quotactl.yaml", "select: [\n", ":2: YAML syntax error"),
    ("pyproject.toml", "[tool.quotactl]\nselect = [\"KQ2\"]\n\nignore = [\n  \"KQ211\",\n  \"KQ9x\",\n]\n",
     ":6: ignore: unknown rule code 'KQ9X'"),
    ("pyproject.toml", "[tool.quotactl]\nmin-severity = \"warn\"\n", ":2: min-severity: 'warn' is not one of error"),
    ("pyproject.toml", "[tool.quotactl.severity]\nKQ211 = \"loud\"\n", ":2: severity of KQ211: 'loud'"),
    ("pyproject.toml", "[tool.quotactl]\nstrict = tru\n", ":2: invalid TOML: Invalid value"),
    ("pyproject.toml", "[project]\nname = 'x'\n", ":1: no [tool.quotactl] table"),
    ("pyproject.toml", "[tool.quotactl]\nselect = " + "[" * 5000 + "]" * 5000 + "\n", ":1: invalid TOML: nested too deep"),
    (".quotactl.yaml", "select: " + "[" * 5000 + "]" * 5000 + "\n", ":1: "),
])
def test_each_mistake_is_one_line_with_file_and_line(tmp_path, name, text, expected):
    (tmp_path / name).write_text(text)
    with pytest.raises(ConfigError) as err:
        load_config(tmp_path / name)
    message = str(err.value)
    assert message.startswith(str(tmp_path / name) + expected.split(" ")[0].rstrip(":") + ":")
    assert expected in message and "\n" not in message


def test_empty_yaml_file_is_an_empty_config(tmp_path):
    (tmp_path / ".quotactl.yaml").write_text("# nothing yet\n")
    assert load_config(tmp_path / ".quotactl.yaml").select is None


def test_command_line_select_replaces_the_files_select_and_ignore():
    cfg = LintConfig(select=("KQ",), ignore=("KQ500",))
    assert selection(cfg, (), ()) == (("KQ",), ("KQ500",))
    assert selection(cfg, (), ("KQ211",)) == (("KQ",), ("KQ500", "KQ211"))
    assert selection(cfg, ("KQ5",), ()) == (("KQ5",), ())


@pytest.mark.parametrize("pattern,path,hit", [
    ("templates", "charts/x/templates/a.yaml", True),
    ("*.tpl.yaml", "deploy/a.tpl.yaml", True),
    ("*.tpl.yaml", "deploy/a.yaml", False),
    ("charts/*/templates", "charts/x/templates/a.yaml", True),
    ("charts/*/templates", "charts/x/y/templates/a.yaml", False),  # '*' stays in one folder
    ("charts/**/templates", "charts/x/y/templates/a.yaml", True),
    ("deploy/**/k.yaml", "deploy/k.yaml", True),
    ("legacy/", "legacy/old/a.yaml", True),
    ("legacy/*.yaml", "other/legacy/a.yaml", False),  # anchored at the root
    ("a[0-9].yaml", "x/a7.yaml", True),
    ("a[!0-9].yaml", "x/a7.yaml", False),
    ("a[!].yaml", "x/a[!].yaml", True),  # a malformed class is plain text
])
def test_globs(tmp_path, pattern, path, hit):
    assert glob_set([pattern], tmp_path).matches(tmp_path / path) is hit


def test_anchored_glob_outside_its_root_never_matches(tmp_path):
    assert not glob_set(["a/*.yaml"], tmp_path / "root").matches(tmp_path / "a" / "b.yaml")


def test_a_broken_pyproject_found_upward_is_named_relative(tmp_path, monkeypatch):
    (tmp_path / "pyproject.toml").write_text("[tool.quotactl]\nstrict = \n")
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")
    with pytest.raises(ConfigError, match=r"^\.\./pyproject\.toml:2: invalid TOML"):
        discover()


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(which=st.sampled_from([("pyproject.toml", PYPROJECT), (".quotactl.yaml", YAML)]),
       edits=st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 40),
                                st.sampled_from(["", "[", "]", "{", "}", ":", "=", ",", "\n", " ", "\"", "'",
                                                 "-", "KQ", "1", "true", "off", "**", "\x00", "é"])),
                      max_size=6))
def test_a_mangled_config_is_read_or_refused_in_one_line(tmp_path, which, edits):
    """Property: whatever the edits, the file is read, or refused with one file:line message."""
    name, text = which
    for at, cut, insert in edits:
        at %= len(text) + 1
        text = text[:at] + insert + text[at + cut:]
    (tmp_path / name).write_text(text, encoding="utf-8", errors="surrogatepass")
    try:
        cfg = load_config(tmp_path / name)
    except ConfigError as err:
        assert "\n" not in str(err) and str(err).startswith(str(tmp_path / name) + ":")
    else:
        assert isinstance(cfg, LintConfig)
