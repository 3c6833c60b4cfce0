"""A snapshot replays offline with the same answers: every command's output from --from-cluster
equals its output on the file `quotactl snapshot` wrote (lint, queues and workload name the file,
so the file name is the one difference allowed)."""

from __future__ import annotations

import pytest

from tests.helpers import FIXTURES, run_subprocess

COMMANDS = [
    ("explain", "--all"),
    ("explain", "ml/eval-llm"),
    ("explain",),  # the Job and the Pod with Kueue's labels, explained as newly submitted
    ("preempt", "ml/eval-llm"),
    ("schedule",),
    ("shares",),
    ("lint",),
    ("workload",),
    ("diff", "--head", str(FIXTURES / "ci-diff" / "after")),
]


@pytest.fixture
def snapshots(config, tmp_path):
    out = {}
    for fmt in ("yaml", "json"):
        result = run_subprocess("snapshot", "--from-cluster", "--kubeconfig", config, "-o", fmt)
        assert result.returncode == 0, result.stderr
        out[fmt] = tmp_path / f"snap.{fmt}"
        out[fmt].write_text(result.stdout)
    return out


def offline(command: tuple[str, ...], snapshot) -> tuple[str, ...]:
    """The same question on the file. ``diff --from-cluster --head X`` compares the cluster with
    the cluster after applying X: offline, the --head files come after the snapshot, and the later
    of two objects with one name wins (quotactl/load/overrides.py), so X replaces the cluster's objects."""
    if command[0] == "diff":
        return ("diff", "--base", str(snapshot), "--head", str(snapshot), "--head", command[2])
    return (*command, "-f", str(snapshot))


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_live_and_replayed_answers_are_the_same(command, config, snapshots):
    fmt = "yaml" if command[0] == "workload" else "json"
    live = run_subprocess(*command, "--from-cluster", "--kubeconfig", config, "-o", fmt)
    assert live.returncode in (0, 1), live.stderr
    assert live.stdout.strip()
    formats = ("json",) if command[0] in ("lint", "workload") else ("json", "yaml")  # they print positions
    for snap_format in formats:
        replay = run_subprocess(*offline(command, snapshots[snap_format]), "-o", fmt)
        assert replay.returncode == live.returncode, replay.stderr
        assert live.stdout == replay.stdout.replace(str(snapshots[snap_format]), "cluster:fake")


def test_diff_reads_the_cluster_once(server, config):
    result = run_subprocess("diff", "--from-cluster", "--kubeconfig", config,
                            "--head", FIXTURES / "ci-diff" / "after", "-o", "json")
    assert result.returncode == 0, result.stderr
    assert [r.path for r in server.requests].count("/apis") == 1
