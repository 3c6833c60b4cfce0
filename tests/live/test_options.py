"""kubectl habits: -n/--namespace is a namespace everywhere, the cluster options need
--from-cluster, and the pieces of the preamble they use."""

from __future__ import annotations

import pytest

from quotactl.cli.common import ClusterArgs
from quotactl.cli.inputs import parse_timeout, qualified
from tests.helpers import FIXTURES, run_cli

CLUSTER = str(FIXTURES / "cluster")


def test_schedule_n_is_no_longer_cycles():
    # -n is a namespace (a report filter on files), never a cycle count
    result = run_cli("schedule", "-n", "3", "-f", CLUSTER)
    assert result.exit_code == 0
    assert "no workload of the input is in namespace '3'" in result.stderr
    assert run_cli("schedule", "--cycles", "1", "-f", CLUSTER).exit_code == 0


@pytest.mark.parametrize("args", [("--context", "prod"), ("--kubeconfig", "kc"), ("--scheduler", "kueue"),
                                  ("--system-namespace", "kueue"), ("--request-timeout", "5s")])
def test_cluster_options_need_from_cluster(args):
    result = run_cli("shares", "-f", CLUSTER, *args)
    assert result.exit_code == 2
    assert "add --from-cluster" in result.stderr


@pytest.mark.parametrize("command", [("shares",), ("schedule",), ("explain", "--all")])
def test_all_namespaces_is_what_files_give(command):
    # -A on files: every namespace, which is what a file holds anyway (kubectl users type it by habit)
    plain = run_cli(*command, "-f", CLUSTER, "-o", "json")
    assert plain.exit_code == 0
    assert run_cli(*command, "-A", "-f", CLUSTER, "-o", "json").stdout == plain.stdout


def test_namespace_and_all_namespaces_exclude_each_other():
    result = run_cli("explain", "eval-llm", "-n", "ml", "-A", "-f", CLUSTER)
    assert result.exit_code == 2 and "not both" in result.stderr


@pytest.mark.parametrize("command", ["explain", "preempt"])
def test_namespace_names_a_bare_workload_in_files(command):
    bare = run_cli(command, "eval-llm", "-n", "ml", "-f", CLUSTER, "-o", "json")
    full = run_cli(command, "ml/eval-llm", "-f", CLUSTER, "-o", "json")
    assert bare.exit_code == 0 and bare.stdout == full.stdout
    assert run_cli(command, "eval-llm", "-n", "team-a", "-f", CLUSTER).exit_code == 2


@pytest.mark.parametrize("args", [("--request-timeout", "soon"), ("--request-timeout", "0"),
                                  ("--scheduler", "slurm")])
def test_malformed_cluster_options_are_usage_errors(args, tmp_path):
    result = run_cli("snapshot", "--from-cluster", "--kubeconfig", str(tmp_path / "none"), *args)
    assert result.exit_code == 2
    assert result.stderr.startswith("quotactl: error: ")


def test_snapshot_needs_from_cluster():
    result = run_cli("snapshot")
    assert result.exit_code == 2 and "add --from-cluster" in result.stderr


@pytest.mark.parametrize("command", [("schedule",), ("lint",), ("queues",), ("workload",), ("explain", "--all")])
def test_no_input_says_both_ways_to_give_one(command):
    result = run_cli(*command)
    assert result.exit_code == 2 and "--from-cluster" in result.stderr


def test_diff_from_cluster_takes_no_base():
    result = run_cli("diff", "--from-cluster", "--base", CLUSTER, "--head", CLUSTER)
    assert result.exit_code == 2 and "--base is the cluster itself" in result.stderr
    assert run_cli("diff", "--head", CLUSTER).exit_code == 2


@pytest.mark.parametrize("text,seconds", [("30", 30), ("30s", 30), ("2m", 120), ("1h", 3600), ("0.5", 0.5)])
def test_request_timeout_durations(text, seconds):
    assert parse_timeout(text) == seconds


@pytest.mark.parametrize("name,expected", [("wl", "ml/wl"), ("team/wl", "team/wl"), ("job/ns/x", "job/ns/x"),
                                           (None, None)])
def test_qualified_names(name, expected):
    assert qualified(name, ClusterArgs(namespace="ml")) == expected
    assert qualified(name, ClusterArgs()) == name
