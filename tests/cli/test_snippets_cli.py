"""End to end (a real subprocess): a documentation snippet is linted. Its real mistakes are reported
(exit 1) in every output format and both dialects; its <placeholder> values and '...' elisions are
one IN014 note, and findings about a placeholder's value are set aside as suppressed. An engine
command refuses a placeholder where it needs a value (exit 2, file:line)."""

import json

import pytest

from tests.helpers import ROOT, run_subprocess

DATA = ROOT / "tests" / "cli" / "data" / "snippets"
YK = DATA / "yunikorn-queues.yaml"
YK_CM = DATA / "yunikorn-configmap.yaml"
KQ = DATA / "kueue-cluster-queue.yaml"
KQ_CLUSTER = DATA / "kueue-cluster.yaml"
POD = ("apiVersion: v1\nkind: Pod\nmetadata:\n  name: p1\n  namespace: default\n  labels: {applicationId: app1, "
       "queue: root.a}\nspec:\n  schedulerName: yunikorn\n  containers:\n  - name: c\n    image: x\n"
       "    resources:\n      requests: {cpu: \"1\", memory: 1Gi}\n")


def lint_json(*args):
    proc = run_subprocess("lint", *args, "-o", "json")
    assert "Traceback" not in proc.stderr
    doc = json.loads(proc.stdout)
    return proc.returncode, [(d["code"], d["line"], d["severity"]) for d in doc["diagnostics"]], doc


def test_yunikorn_snippet_reports_its_real_mistake_only():
    code, found, doc = lint_json(YK)
    assert code == 1
    # nodesortpolicy: fair is a scalar where YuniKorn decodes a mapping: the one real error
    assert found == [("YK003", 5, "error"), ("YK100", 5, "info"), ("IN014", 10, "info")]
    note = doc["diagnostics"][2]["message"]
    assert "3 placeholder values (<memory>, <team>, <vcores>) unknown and 1 elided line" in note
    assert doc["summary"]["suppressed"] == 3  # <team> is not a queue name, <memory> and <vcores> not quantities


def test_yunikorn_snippet_in_a_configmap():
    code, found, doc = lint_json(YK_CM)
    assert (code, found) == (0, [("IN014", 15, "info")])
    assert doc["summary"]["suppressed"] == 3


def test_kueue_snippet_reports_borrowing_limit_without_cohort():
    code, found, doc = lint_json(KQ)
    assert code == 1
    assert found == [("IN014", 6, "info"), ("KQ104", 16, "error")]
    assert doc["summary"]["suppressed"] == 6  # names, a flavor reference and a quantity that are placeholders


def test_a_finding_that_depends_on_a_placeholder_quantity_is_set_aside():
    """The Workload 'can never fit' only if <cpu-quota> is below 2: unknown."""
    proc = run_subprocess("lint", KQ_CLUSTER, "--show-suppressed", "-o", "plain")
    assert proc.returncode == 0, proc.stdout
    lines = [line for line in proc.stdout.splitlines() if " KQ512 " in line]
    assert len(lines) == 1 and "(suppressed: depends on the placeholder <cpu-quota> at" in lines[0]


@pytest.mark.parametrize("fmt", ["plain", "table", "github", "json", "sarif"])
@pytest.mark.parametrize("snippet,real,placeholders", [
    (YK, {"YK003"}, {"YK110", "YK115"}),
    (KQ, {"KQ104"}, {"KQ004", "KQ008", "KQ009"}),
], ids=["yunikorn", "kueue"])
def test_every_format_reports_the_real_error_and_not_the_placeholders(fmt, snippet, real, placeholders):
    proc = run_subprocess("lint", snippet, "-o", fmt, env={"COLUMNS": "200"})
    assert proc.returncode == 1, proc.stdout + proc.stderr
    if fmt == "sarif":
        results = json.loads(proc.stdout)["runs"][0]["results"]
        shown = {r["ruleId"] for r in results if not r.get("suppressions")}
        hidden = {r["ruleId"] for r in results if r.get("suppressions")}
        assert real | {"IN014"} <= shown and not shown & placeholders
        assert placeholders <= hidden
    else:
        assert all(code in proc.stdout for code in real | {"IN014"}), proc.stdout
        assert not any(code in proc.stdout for code in placeholders), proc.stdout


def test_a_key_holding_a_placeholder_is_still_checked(tmp_path):
    f = tmp_path / "lq.yaml"
    f.write_text("apiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata:\n  name: lq\n  namespace: ns\n"
                 "spec:\n  clusterQeueu: <cluster-queue>\n")
    code, found, _ = lint_json(f)
    assert code == 1 and ("KQ007", 7, "error") in found  # the misspelt field, whatever its value


def test_a_snippet_with_no_mistake_passes_with_its_note(tmp_path):
    f = tmp_path / "lq.yaml"
    f.write_text("apiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata:\n  name: <queue>\n"
                 "  namespace: <namespace>\nspec:\n  clusterQueue: <cluster-queue>\n  ...\n")
    code, found, _ = lint_json(f)
    assert (code, found) == (0, [("IN014", 4, "info")])


@pytest.mark.parametrize("command", [["explain", "--all"], ["schedule"], ["shares"], ["explain", "<namespace>/job-1"]])
def test_an_engine_command_refuses_a_placeholder_quantity(command):
    proc = run_subprocess(*command, "-f", KQ_CLUSTER)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert (f"{KQ_CLUSTER}:19:23: error IN014 spec.resourceGroups[0].flavors[0].resources[0].nominalQuota of "
            "ClusterQueue/cluster-queue is the placeholder <cpu-quota>") in proc.stderr
    assert proc.stdout == "" and "Traceback" not in proc.stderr


def test_an_engine_command_takes_placeholder_names(tmp_path):
    f = tmp_path / "cluster.yaml"
    f.write_text(KQ_CLUSTER.read_text().replace("<cpu-quota>", "8"))
    proc = run_subprocess("explain", "--all", "-f", f)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "<namespace>/job-1  cluster-queue  Fit" in proc.stdout  # the names are labels; 2 cpu of 8 fits
    assert "KQ004 '<namespace>' is not a valid name" in proc.stderr  # the API server would refuse it: warned


def test_a_yunikorn_engine_command_refuses_a_placeholder_quantity(tmp_path):
    pod = tmp_path / "pod.yaml"
    pod.write_text(POD)
    proc = run_subprocess("explain", "default/p1", "-f", YK_CM, "-f", pod)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert (f"{YK_CM}:17:33: error IN014 partitions[0].queues[0].queues[0].resources.max.memory of "
            "queue/root.<team> is the placeholder <memory>") in proc.stderr
