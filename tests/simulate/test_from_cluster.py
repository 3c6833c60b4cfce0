"""``simulate --from-cluster`` reads the cluster as every engine command does ("from now on"), and
answers exactly as a replay of the same snapshot."""

from __future__ import annotations

import json

import pytest

from tests.helpers import run_subprocess
from tests.live.fake_apiserver import FakeApiServer, kubeconfig


@pytest.fixture
def config(tmp_path):
    with FakeApiServer.recorded() as srv:
        yield kubeconfig(tmp_path / "kubeconfig", srv.url)


def test_live_and_replayed_simulations_are_the_same(config, tmp_path):
    snap = run_subprocess("snapshot", "--from-cluster", "--kubeconfig", config, "-o", "json")
    assert snap.returncode == 0, snap.stderr
    path = tmp_path / "snap.json"
    path.write_text(snap.stdout)
    live = run_subprocess("simulate", "--from-cluster", "--kubeconfig", config, "--default-runtime", "10m",
                          "-o", "json")
    assert live.returncode == 0, live.stderr
    replay = run_subprocess("simulate", "-f", path, "--default-runtime", "10m", "-o", "json")
    assert replay.returncode == 0, replay.stderr
    assert json.loads(live.stdout) == json.loads(replay.stdout)
    assert json.loads(live.stdout)["workloads"]
