"""A cohort cycle of thousands of members: one KQ503 per member (Kueue deactivates each), each
with a bounded message. Found by the fuzzer: every message held the whole cycle, 78 MB of text
for 3,000 cohorts."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import run_json


def _cycle(path: Path, n: int) -> Path:
    docs = [f"apiVersion: kueue.x-k8s.io/v1beta2\nkind: Cohort\nmetadata:\n  name: c{k}\nspec:\n  parentName: c{(k + 1) % n}\n"
            for k in range(n)]
    docs.append("apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata:\n  name: cq\nspec:\n"
                "  cohortName: c0\n  resourceGroups: []\n")
    path.write_text("---\n".join(docs))
    return path


def test_a_long_cycle_is_reported_per_member_with_a_short_message(tmp_path):
    code, doc = run_json("lint", str(_cycle(tmp_path / "cycle.yaml", 3000)))
    cycles = [d for d in doc["diagnostics"] if d["code"] == "KQ503"]
    assert code == 1 and len(cycles) == 3000
    assert all(len(d["message"]) < 400 for d in cycles)
    first = next(d for d in cycles if d["object"].endswith("/c0"))
    assert first["message"].startswith("cohort cycle c0 -> c1 -> c2 -> c3 -> ... (2994 more) -> c2998 -> c2999 -> c0 "
                                       "(3000 cohorts)")


def test_a_short_cycle_is_shown_whole(tmp_path):
    _, doc = run_json("lint", str(_cycle(tmp_path / "cycle.yaml", 3)), "-o", "json")
    messages = sorted(d["message"] for d in doc["diagnostics"] if d["code"] == "KQ503")
    assert messages[0].startswith("cohort cycle c0 -> c1 -> c2 -> c0:")
    assert "inactive ClusterQueues: cq" in messages[0]
