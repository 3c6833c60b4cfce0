"""The ConfigMap form (the shim's ``FlattenConfigMaps``): unwrapping, merging, policy group, and line numbers that point
at the real line inside the ConfigMap."""

import base64
import gzip
import io
import textwrap
from pathlib import Path

from quotactl.lint.yunikorn import lint_yunikorn
from quotactl.load.objects import Dialect, load
from tests.helpers import FIXTURES

BROKEN = FIXTURES / "yunikorn" / "broken"
CLEAN = FIXTURES / "yunikorn" / "clean"


def lint(*paths, stdin=None):
    loaded = load([str(p) for p in paths], stdin=stdin)
    return lint_yunikorn([o for o in loaded.objects if o.dialect == Dialect.YUNIKORN])


def key(d):
    return (d.code, d.field, d.message)


def test_configmap_lines_match_the_bare_file_shifted():
    """broken/configmap.yaml embeds broken/queues.yaml as a literal block: 8 header lines, 4 columns."""
    bare = {key(d): d for d in lint(BROKEN / "queues.yaml")}
    wrapped = lint(BROKEN / "configmap.yaml")
    assert len(wrapped) == len(bare) >= 15
    for d in wrapped:
        b = bare[key(d)]
        assert (d.line, d.column) == (b.line + 8, b.column + 4), d
        assert d.file.endswith("configmap.yaml")


def test_configmap_line_points_at_the_offending_text():
    text = (BROKEN / "configmap.yaml").read_text().splitlines()
    for d in lint(BROKEN / "configmap.yaml"):
        if d.code == "YK002":
            assert text[d.line - 1][d.column - 1:].startswith("maxApplications")
        if d.code == "YK201":
            assert text[d.line - 1][d.column - 1:].startswith("high")
        if d.code == "YK128":
            assert text[d.line - 1][d.column - 1:].startswith("BinPacking")


def test_clean_fixtures_are_clean_in_both_forms():
    assert [d for d in lint(CLEAN / "queues.yaml", CLEAN / "configmap.yaml") if d.severity.value != "info"] == []


CM = """\
apiVersion: v1
kind: ConfigMap
metadata:
  name: {name}
  namespace: yunikorn
data:
{data}"""


def write(tmp: Path, name: str, text: str) -> Path:
    p = tmp / name
    p.write_text(textwrap.dedent(text))
    return p


def block(text: str, indent: int = 4) -> str:
    return textwrap.indent(textwrap.dedent(text), " " * indent)


BAD_QUEUES = """\
partitions:
  - name: default
    queues:
      - name: root
        queues:
          - name: a
            maxApplications: 5
"""


def test_list_of_both_configmaps_configs_wins(tmp_path):
    doc = {
        "defaults": CM.format(name="yunikorn-defaults", data="  queues.yaml: |\n" + block(BAD_QUEUES)),
        "configs": CM.format(name="yunikorn-configs", data="  queues.yaml: |\n" + block(
            "partitions:\n  - name: default\n    queues:\n      - name: root\n")),
    }
    items = "\n".join("- " + textwrap.indent(v, "  ")[2:] for v in doc.values())
    path = tmp_path / "list.yaml"
    path.write_text("apiVersion: v1\nkind: List\nitems:\n" + items)
    diags = lint(path)
    assert [d.code for d in diags] == ["YK006"]  # the defaults' queues.yaml is overridden, its error irrelevant
    assert "overridden by ConfigMap/yunikorn/yunikorn-configs" in diags[0].message


def test_defaults_alone_are_read_and_positions_work_inside_a_list(tmp_path):
    cmap = CM.format(name="yunikorn-defaults", data="  queues.yaml: |\n" + block(BAD_QUEUES))
    path = tmp_path / "list.yaml"
    path.write_text("apiVersion: v1\nkind: List\nitems:\n- " + textwrap.indent(cmap, "  ")[2:])
    [d] = [d for d in lint(path) if d.code == "YK002"]
    line = path.read_text().splitlines()[d.line - 1]
    assert line[d.column - 1:].startswith("maxApplications")
    assert d.object == "queue/root.a"


def test_policy_group(tmp_path):
    data = ('  service.policyGroup: batch\n  queues.yaml: |\n' + block("partitions: []\n")
            + "  batch.yaml: |\n" + block(BAD_QUEUES))
    path = write(tmp_path, "cm.yaml", CM.format(name="yunikorn-configs", data=data))
    codes = sorted(d.code for d in lint(path))
    assert codes == ["YK002", "YK006", "YK100"]  # batch.yaml is read, queues.yaml ignored


def test_missing_key_uses_the_default_config(tmp_path):
    path = write(tmp_path, "cm.yaml", CM.format(name="yunikorn-configs", data="  queue.yaml: |\n" + block(BAD_QUEUES)))
    diags = lint(path)
    codes = sorted(d.code for d in diags)
    assert codes == ["YK005", "YK006"]
    ignored = next(d for d in diags if d.code == "YK006")
    assert ignored.severity.value == "warning" and "rename the key to 'queues.yaml'" in ignored.hint


def test_binary_data_gz(tmp_path):
    payload = base64.b64encode(gzip.compress(BAD_QUEUES.encode())).decode()
    path = write(tmp_path, "cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: yunikorn-configs\n"
                 f"binaryData:\n  queues.yaml.gz: {payload}\n")
    [d] = [d for d in lint(path) if d.code == "YK002"]
    assert d.line == 6  # lines inside a gzip cannot be mapped: the key's line


def test_quoted_value_falls_back_to_the_key_line(tmp_path):
    quoted = BAD_QUEUES.replace("\n", "\\n")
    path = write(tmp_path, "cm.yaml", CM.format(name="yunikorn-configs", data=f'  queues.yaml: "{quoted}"\n'))
    [d] = [d for d in lint(path) if d.code == "YK002"]
    assert d.line == 7 and "line 7:" in d.message  # the file line of the key; YuniKorn's own line inside the text


def test_explicit_indentation_indicator(tmp_path):
    data = "  queues.yaml: |4\n" + block(BAD_QUEUES, indent=6)
    path = write(tmp_path, "cm.yaml", CM.format(name="yunikorn-configs", data=data))
    [d] = [d for d in lint(path) if d.code == "YK002"]
    assert path.read_text().splitlines()[d.line - 1][d.column - 1:].startswith("maxApplications")


def test_yaml_syntax_error_inside_the_configmap(tmp_path):
    data = "  queues.yaml: |\n" + block("partitions:\n  - name: default\n    queues:\n      - name: root\n"
                                        "        submitacl: *\n")
    path = write(tmp_path, "cm.yaml", CM.format(name="yunikorn-configs", data=data))
    [d] = [d for d in lint(path) if d.code == "YK001"]
    assert d.severity.value == "error" and d.line == 12 and "yaml: line 5" in d.message


def test_stdin_without_source_text():
    """From stdin there is no file to re-read: scalars and positions come from the loader's data."""
    text = CM.format(name="yunikorn-configs", data="  queues.yaml: |\n" + block(BAD_QUEUES))
    [d] = [d for d in lint("-", stdin=io.StringIO(text)) if d.code == "YK002"]
    assert text.splitlines()[d.line - 1][d.column - 1:].startswith("maxApplications")
    bare = [d for d in lint("-", stdin=io.StringIO(BAD_QUEUES)) if d.code == "YK002"]
    assert [(x.line, x.column, x.file) for x in bare] == [(7, 13, "<stdin>")]


def test_other_configmap_name_is_linted_with_a_note(tmp_path):
    path = write(tmp_path, "cm.yaml", CM.format(name="queues", data="  queues.yaml: |\n" + block(BAD_QUEUES)))
    assert sorted(d.code for d in lint(path)) == ["YK002", "YK010", "YK100"]


def test_inline_mapping_instead_of_text(tmp_path):
    path = write(tmp_path, "cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: yunikorn-configs\ndata:\n"
                 "  queues.yaml:\n    partitions:\n      - name: default\n        queues: [{name: root}]\n")
    diags = lint(path)
    assert sorted(d.code for d in diags) == ["YK001", "YK100"]
    assert "not a string" in diags[0].message and diags[0].line == 6


def test_gzip_bomb_is_refused_without_inflating_it():
    import gzip

    import pytest

    from quotactl.load.yunikorn import InflationLimit, gunzip_bounded

    bomb = gzip.compress(b"\0" * (8 * 2**20))
    with pytest.raises(InflationLimit):
        gunzip_bounded(bomb, limit=2**20)
    with pytest.raises(InflationLimit):  # a second member past the limit counts too
        gunzip_bounded(gzip.compress(b"a") + bomb, limit=2**20)
    assert gunzip_bounded(gzip.compress(b"queues"), limit=2**20) == b"queues"


def test_recursive_alias_inside_a_configmap_is_refused(tmp_path):
    # The bare queues.yaml is checked by the YAML loader; inside a ConfigMap the decoder's own size
    # walk looped forever on the cycle, memory growing (found by the fuzzer).
    cm = textwrap.dedent("""\
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: yunikorn-configs
        data:
          queues.yaml: |
            partitions:
            - name: default
              queues: &a
              - name: root
                queues: *a
        """)
    (tmp_path / "cm.yaml").write_text(cm)
    loaded = load([str(tmp_path / "cm.yaml")])
    diags = lint_yunikorn([o for o in loaded.objects if o.dialect == Dialect.YUNIKORN], None)
    refused = [d for d in diags if "recursive YAML alias" in d.message]
    assert refused and refused[0].code == "YK001" and refused[0].line == 7


def test_deep_flow_nesting_inside_a_gzipped_configmap_is_refused_not_a_crash(tmp_path):
    # The top-level loader bounds nesting before libyaml's recursive C composer runs; the
    # queues.yaml inside a ConfigMap was composed unchecked: 30,000 '[' crashed the process
    # with SIGSEGV (found by the fuzzer). Run in a subprocess: a regression kills the process.
    from tests.helpers import run_subprocess

    queues = "partitions:\n- name: " + "[" * 30000 + "]" * 30000 + "\n"
    packed = base64.b64encode(gzip.compress(queues.encode())).decode()
    (tmp_path / "cm.yaml").write_text(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: yunikorn-configs\n"
        f"binaryData:\n  queues.yaml.gz: {packed}\n")
    proc = run_subprocess("lint", str(tmp_path / "cm.yaml"), "-o", "plain")
    assert proc.returncode == 1, proc.stderr
    assert "nesting deeper than 1000 levels" in proc.stdout and "YK001" in proc.stdout


def test_each_queues_document_of_a_multi_document_file_is_its_own(tmp_path):
    # The document nodes of a file are composed once and shared by its objects (composing from the
    # start for each one was quadratic: 400 documents took over 20 s; found by the fuzzer).
    from quotactl.load.yunikorn import load_inputs

    docs = [f"partitions:\n- name: p{i}\n  queues:\n  - name: root\n" for i in range(5)]
    (tmp_path / "many.yaml").write_text("---\n" + "---\n".join(docs))
    loaded = load([str(tmp_path / "many.yaml")])
    inputs = load_inputs([o for o in loaded.objects if o.dialect == Dialect.YUNIKORN])
    assert [inp.config.partitions[0].name for inp in inputs] == [f"p{i}" for i in range(5)]
