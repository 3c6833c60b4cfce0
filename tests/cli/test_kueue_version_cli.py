"""--kueue-version and --feature-gates through a real subprocess: usage errors are one line, exit 2."""

import pytest

from tests.helpers import FIXTURES, run_subprocess

ENGINE_COMMANDS = [
    ("explain", "--all", "-f"), ("schedule", "-f"), ("shares", "-f"), ("preempt", "x", "-f"),
]


@pytest.mark.parametrize("command", [("lint",), *ENGINE_COMMANDS], ids=lambda c: c[0])
def test_unknown_version_is_a_usage_error_listing_the_known_ones(command):
    r = run_subprocess(*command, FIXTURES / "cluster", "--kueue-version", "v0.9")
    assert r.returncode == 2
    assert r.stderr.strip().splitlines() == [
        "quotactl: error: --kueue-version: quotactl does not know Kueue v0.9 "
        "(known: v0.14, v0.15, v0.16, v0.17, v0.18, v0.19, v0.20)"]


def test_version_from_the_environment():
    r = run_subprocess("lint", FIXTURES / "cluster", env={"QUOTACTL_KUEUE_VERSION": "nonsense"})
    assert r.returncode == 2 and "'nonsense' is not a Kueue version" in r.stderr


def test_unknown_gate_on_an_engine_command_names_the_closest():
    r = run_subprocess("schedule", "-f", FIXTURES / "cluster", "--feature-gates", "PartialAdmision=false")
    assert r.returncode == 2
    assert r.stderr.strip() == ("quotactl: error: --feature-gates: unrecognized feature gate 'PartialAdmision' in "
                                "Kueue v0.20; did you mean PartialAdmission?")


def test_gate_of_the_target_release_is_accepted():
    ok = run_subprocess("schedule", "-f", FIXTURES / "cluster", "--feature-gates", "TASBalancedPlacement=true")
    assert ok.returncode == 0, ok.stderr
    old = run_subprocess("schedule", "-f", FIXTURES / "cluster", "--feature-gates", "TASBalancedPlacement=true",
                         "--kueue-version", "v0.14")
    assert old.returncode == 2 and "(added in v0.15)" in old.stderr


def test_diff_takes_the_version_too():
    r = run_subprocess("diff", "--base", FIXTURES / "cluster", "--head", FIXTURES / "cluster",
                       "--kueue-version", "0.19")
    assert r.returncode == 0, r.stderr


def test_lint_reports_a_configuration_gate_kueue_refuses(tmp_path):
    cfg = tmp_path / "config.yaml"
    cfg.write_text("apiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\nfeatureGates:\n"
                   "  ConcurrentAdmission: true\n")
    assert run_subprocess("lint", cfg).returncode == 0
    r = run_subprocess("lint", cfg, "--kueue-version", "v0.17")
    assert r.returncode == 1
    assert (f"{cfg}:4:3: error KQ820 unrecognized feature gate 'ConcurrentAdmission' in Kueue v0.17 "
            "(added in v0.18)") in r.stdout


def test_engine_command_warns_about_a_configuration_gate_kueue_refuses(tmp_path):
    cfg = tmp_path / "config.yaml"
    cfg.write_text("apiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\nfeatureGates:\n"
                   "  PartialAdmision: false\n")
    r = run_subprocess("schedule", "-f", FIXTURES / "cluster", "-f", cfg, "-o", "json")  # the later Configuration
    assert r.returncode == 0
    assert (f"{cfg}:4:3: warning KQ820 unrecognized feature gate 'PartialAdmision' in Kueue v0.20; did you mean "
            "PartialAdmission?") in r.stderr


def test_setting_a_ga_gate_is_a_warning_as_in_kueue():
    r = run_subprocess("lint", FIXTURES / "cluster", "--feature-gates",
                       "ManagedJobsNamespaceSelectorAlwaysRespected=true")
    assert r.returncode == 0
    assert r.stderr.strip() == ("quotactl: warning: --feature-gates: setting GA feature gate "
                                "ManagedJobsNamespaceSelectorAlwaysRespected=true: it will be removed in a future "
                                "Kueue release")


def test_lint_accepts_the_gates_of_kueue_v0_20_0(tmp_path):
    # Gates the v0.20.0 release notes (CHANGELOG-0.20.md) add: Kueue v0.20.0 starts with them.
    cfg = tmp_path / "config.yaml"
    cfg.write_text("apiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\nfeatureGates:\n"
                   "  FairSharingRefill: true\n  TASNodeFeasibilityForAllLevels: false\n"
                   "  AdmissionFairSharingAnchorAtQuotaReservation: true\n  WaitForPodsReadyUnscheduledTimeout: true\n"
                   "  ConfigurablePreemptions: true\n  DynamicQuotaOrchestration: true\n")
    r = run_subprocess("lint", cfg)
    assert r.returncode == 0 and "KQ820" not in r.stdout, r.stdout
    old = run_subprocess("lint", cfg, "--kueue-version", "v0.19")
    assert old.returncode == 1 and "'FairSharingRefill' in Kueue v0.19 (added in v0.20)" in old.stdout


def test_lint_accepts_a_gate_a_patch_release_added(tmp_path):
    # LWSImmutableGroupSize arrived with v0.19.1 (and v0.18.5): a v0.19 line Configuration may set it.
    cfg = tmp_path / "config.yaml"
    cfg.write_text("apiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\nfeatureGates:\n"
                   "  LWSImmutableGroupSize: false\n")
    r = run_subprocess("lint", cfg, "--kueue-version", "v0.19.2")
    assert r.returncode == 0 and "KQ820" not in r.stdout, r.stdout
