"""Fixtures of the --from-cluster tests: a fake API server per test and a kubeconfig for it."""

from __future__ import annotations

import pytest

from tests.live.fake_apiserver import FakeApiServer, kubeconfig


@pytest.fixture
def server():
    with FakeApiServer.recorded() as srv:
        yield srv


@pytest.fixture
def config(tmp_path, server):
    return kubeconfig(tmp_path / "kubeconfig", server.url)
