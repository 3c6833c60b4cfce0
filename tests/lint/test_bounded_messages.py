"""A finding quotes the input; a megabyte-long name must not make each finding a megabyte long.

Found by the fuzzer (seed 1622, input 8041): a YuniKorn queues.yaml whose placement rule name is
1,000,000 characters, the document repeated 400 times (401 MB), made 802 findings of 1 MB each, and
``lint -o github`` ran out of its 2 GiB building the report."""

from __future__ import annotations

import subprocess
import sys

from quotactl.diagnostics import TEXT_LIMIT, Diagnostic, Severity, bounded_text

DOC = """\
---
partitions:
- name: default
  placementrules:
  - name: {name}
    filter:
      type: ""
      users:
      - "system:\\\\:username"
  queues:
  - name: root
"""


def test_long_texts_keep_their_start_and_end():
    text = "start-" + "x" * 10_000 + "-end"
    short = bounded_text(text)
    assert len(short) <= TEXT_LIMIT + 60
    assert short.startswith("start-") and short.endswith("-end")
    assert "characters left out" in short
    assert bounded_text("short") == "short" and bounded_text(None) is None


def test_a_diagnostic_bounds_its_message_and_hint():
    d = Diagnostic("YK100", Severity.ERROR, "m" * 50_000, hint="h" * 50_000)
    assert len(d.message) <= TEXT_LIMIT + 60 and len(d.hint) <= TEXT_LIMIT + 60
    assert Diagnostic("YK100", Severity.ERROR, "fine").message == "fine"


def test_megabyte_names_give_a_report_of_kilobytes(tmp_path):
    path = tmp_path / "queues.yaml"
    path.write_text(DOC.format(name="a-" * 500_000) * 3)
    for fmt in ("github", "json", "plain"):
        proc = subprocess.run([sys.executable, "-m", "quotactl", "lint", str(path), "-o", fmt],
                              capture_output=True, text=True, timeout=300)
        assert proc.returncode == 1, proc.stderr
        assert len(proc.stdout) < 200_000, (fmt, len(proc.stdout))
        assert "characters left out" in proc.stdout
