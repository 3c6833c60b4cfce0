"""What goes wrong talking to a cluster: each a clear message, never a traceback. A 403 on one
resource is a warning and the run goes on; everything else is one line and exit 2."""

from __future__ import annotations

import json

import pytest

from tests.helpers import run_subprocess
from tests.live.fake_apiserver import FakeApiServer, SilentServer, kubeconfig, refused_url


def live(config, *args):
    return run_subprocess(*args, "--from-cluster", "--kubeconfig", config)


def one_error_line(result, *expected: str) -> None:
    assert result.returncode == 2, result.stderr
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("quotactl: error: "), result.stderr
    for text in expected:
        assert text in lines[0]
    assert "Traceback" not in result.stderr


def test_a_forbidden_list_is_a_warning_naming_it_and_the_run_goes_on(tmp_path):
    with FakeApiServer.recorded(forbidden={"/apis/kueue.x-k8s.io/v1beta2/workloads"}) as srv:
        result = live(kubeconfig(tmp_path / "kc", srv.url), "snapshot", "-o", "json")
    assert result.returncode == 0, result.stderr
    assert "no permission to list workloads.kueue.x-k8s.io (all namespaces); skipped" in result.stderr
    doc = json.loads(result.stdout)
    assert "Workload" not in {i["kind"] for i in doc["items"]}
    assert "ClusterQueue" in {i["kind"] for i in doc["items"]}
    assert doc["metadata"]["annotations"]["quotactl.io/skipped"] == "workloads.kueue.x-k8s.io (all namespaces)"


def test_a_forbidden_namespace_is_named_in_the_warning(tmp_path):
    forbidden = {"/apis/kueue.x-k8s.io/v1beta2/namespaces/team-b/"}
    with FakeApiServer.recorded(forbidden=forbidden) as srv:
        result = live(kubeconfig(tmp_path / "kc", srv.url), "shares", "-n", "team-b")
    assert result.returncode == 0, result.stderr
    assert "localqueues.kueue.x-k8s.io (namespace team-b)" in result.stderr
    assert "workloads.kueue.x-k8s.io (namespace team-b)" in result.stderr


def test_a_forbidden_configmap_is_a_warning(tmp_path):
    with FakeApiServer.recorded(forbidden={"/api/v1/namespaces/kueue-system/configmaps"}) as srv:
        result = live(kubeconfig(tmp_path / "kc", srv.url), "schedule")
    assert result.returncode == 0, result.stderr
    assert "configmaps/kueue-manager-config (namespace kueue-system)" in result.stderr


def test_a_refused_connection(tmp_path):
    one_error_line(live(kubeconfig(tmp_path / "kc", refused_url()), "schedule"), "cannot connect to",
                   "connection refused", "context 'fake'")


def test_a_server_that_never_answers_times_out(tmp_path):
    with SilentServer() as srv:
        result = live(kubeconfig(tmp_path / "kc", srv.url), "explain", "--all", "--request-timeout", "1s")
    one_error_line(result, "no answer from", "within 1s (--request-timeout)")


def test_tls_to_a_plain_http_port(tmp_path):
    with FakeApiServer.recorded() as srv:
        result = live(kubeconfig(tmp_path / "kc", srv.url.replace("http:", "https:")), "lint")
    one_error_line(result, "TLS error talking to https://127.0.0.1:")


def test_an_unresolvable_host(tmp_path):
    one_error_line(live(kubeconfig(tmp_path / "kc", "https://no-such-host.invalid:6443"), "schedule"),
                   "cannot resolve the host of https://no-such-host.invalid:6443")


def test_the_exec_credential_plugin_token_is_sent(tmp_path):
    with FakeApiServer.recorded(token="from-the-plugin") as srv:
        result = live(kubeconfig(tmp_path / "kc", srv.url, exec_token="from-the-plugin"), "schedule")
    assert result.returncode == 0, result.stderr
    assert srv.requests and {r.authorization for r in srv.requests} == {"Bearer from-the-plugin"}


def test_refused_credentials_are_exit_2(tmp_path):
    with FakeApiServer.recorded(token="right") as srv:
        result = live(kubeconfig(tmp_path / "kc", srv.url, token="wrong"), "schedule")
    one_error_line(result, "refused the credentials of context 'fake' (401 Unauthorized)")


def test_an_unknown_context(config):
    one_error_line(live(config, "schedule", "--context", "prod"), "kubeconfig: no context 'prod' (contexts: fake)")


@pytest.mark.parametrize("content", [None, "{not: [yaml", "apiVersion: v1\nkind: Config\n"])
def test_a_missing_or_broken_kubeconfig(tmp_path, content):
    path = tmp_path / "kubeconfig"
    if content is not None:
        path.write_text(content)
    one_error_line(live(path, "schedule"), "kubeconfig")


def test_a_path_that_is_not_an_api_server(tmp_path):
    data = FakeApiServer.recorded().data
    data["discovery"].pop("/apis")
    with FakeApiServer(data) as srv:
        one_error_line(live(kubeconfig(tmp_path / "kc", srv.url), "schedule"), "GET /apis: not found")
