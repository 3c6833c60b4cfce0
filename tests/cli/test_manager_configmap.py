"""The kueue-manager-config ConfigMap as Kueue deploys it: lint reads its controller_manager_config.yaml
as the Configuration, with positions inside the ConfigMap's file, and the engine commands use it exactly
as a bare Configuration object."""

from __future__ import annotations

import shutil

import pytest

from tests.helpers import ROOT, run_subprocess

CONFIG = """\
apiVersion: config.kueue.x-k8s.io/v1beta2
kind: Configuration
fairSharing:
  preemptionStrategies: [LessThanOrEqualToFinalShare]
resources:
  excludeResourcePrefixes: ["memory"]
"""


def _configmap(config: str, indent: str = "    ") -> str:
    body = "".join(indent + line + "\n" for line in config.splitlines())
    return ("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: kueue-manager-config\n  namespace: kueue-system\n"
            "data:\n  controller_manager_config.yaml: |\n" + body)


def _cluster_without_config(dest):
    dest.mkdir()
    for f in (ROOT / "fixtures" / "cluster").glob("*.yaml"):
        if f.name != "kueue-config.yaml":
            shutil.copy(f, dest / f.name)
    return dest


def test_lint_points_inside_the_configmap(tmp_path):
    bad = CONFIG + "waitForPodsReady:\n  timeout: 5m\n  tiemout: 1m\n"
    path = tmp_path / "cm.yaml"
    path.write_text(_configmap(bad))
    r = run_subprocess("lint", path)
    assert r.returncode == 1, r.stdout + r.stderr
    # line 7 holds 'controller_manager_config.yaml: |'; the embedded line 9 (tiemout) is file line 16, column 7
    assert f"{path}:16:7: error KQ007 unknown field 'tiemout'" in r.stdout, r.stdout


def test_a_valid_manager_configmap_lints_clean(tmp_path):
    path = tmp_path / "cm.yaml"
    path.write_text(_configmap(CONFIG, indent="      "))
    r = run_subprocess("lint", path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "1 object checked: no problems found" in r.stdout


def test_a_configmap_value_that_is_not_text_is_an_input_error(tmp_path):
    path = tmp_path / "cm.yaml"
    path.write_text("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: kueue-manager-config}\n"
                    "data:\n  controller_manager_config.yaml:\n    kind: Configuration\n")
    r = run_subprocess("lint", path)
    assert r.returncode == 2, r.stdout + r.stderr
    assert f"{path}:5:3" in r.stdout + r.stderr
    assert "Traceback" not in r.stderr


@pytest.mark.parametrize("command", [["schedule"], ["shares"], ["explain", "--all"]])
def test_engines_use_the_configmap_like_a_bare_configuration(tmp_path, command):
    bare = _cluster_without_config(tmp_path / "bare")
    in_cm = _cluster_without_config(tmp_path / "cm")
    none = _cluster_without_config(tmp_path / "none")
    (bare / "kueue-config.yaml").write_text(CONFIG)
    (in_cm / "kueue-manager-config.yaml").write_text(_configmap(CONFIG))
    outputs = [run_subprocess(*command, "-f", d, "-o", "json") for d in (bare, in_cm, none)]
    for r in outputs:
        assert r.returncode == 0, r.stderr
    assert outputs[0].stdout == outputs[1].stdout
    if command != ["explain", "--all"]:
        assert outputs[0].stdout != outputs[2].stdout  # the settings do change the answer
