"""A run imports what its command uses: `--version` no engine, a Kueue lint no YuniKorn engine and
no jsonschema while every object is valid (start-up time is paid on every invocation)."""

import json
import subprocess
import sys

from tests.helpers import FIXTURES, ROOT

HEAVY = ("jsonschema", "quotactl.kueue", "quotactl.yunikorn", "rich.markdown")


def _modules_after(*argv: str) -> set[str]:
    # main() ends the process itself (os._exit, no exit handlers): look at the modules then
    code = ("import sys, json, os; sys.argv = ['quotactl', *json.loads(sys.argv[1])]; "
            "leave = os._exit; "
            "os._exit = lambda status: (sys.stderr.write('MODULES ' + json.dumps(sorted(sys.modules)) + '\\n'), "
            "sys.stderr.flush(), leave(status)); "
            "from quotactl.cli.app import main; main(); os._exit(0)")
    proc = subprocess.run([sys.executable, "-c", code, json.dumps(argv)], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    line = next(x for x in proc.stderr.splitlines() if x.startswith("MODULES "))
    return set(json.loads(line[len("MODULES "):]))


def _loaded(modules: set[str], name: str) -> bool:
    return any(m == name or m.startswith(name + ".") for m in modules)


def test_version_imports_no_engine():
    modules = _modules_after("--version")
    assert "quotactl.cli.app" in modules
    assert [h for h in HEAVY if _loaded(modules, h)] == []


def test_kueue_lint_of_valid_objects_needs_neither_jsonschema_nor_yunikorn():
    modules = _modules_after("lint", str(FIXTURES / "cluster" / "flavors.yaml"), "-o", "json")
    assert _loaded(modules, "quotactl.kueue")  # its rules ask the Kueue engine
    assert [h for h in ("jsonschema", "quotactl.yunikorn", "rich.markdown") if _loaded(modules, h)] == []


def test_one_file_lint_piped_imports_no_renderer_library_and_no_job_integration():
    # Start-up is paid on every invocation: plain output (piped) draws nothing with rich, and an
    # input without job objects needs neither the integrations nor the job-to-Workload derivation.
    for argv in (["lint", str(FIXTURES / "cluster" / "flavors.yaml")],
                 ["lint", str(FIXTURES / "cluster" / "flavors.yaml"), "-o", "json"]):
        modules = _modules_after(*argv)
        assert "quotactl.lint.kueue" in modules  # the run did lint
        unwanted = ("rich", "quotactl.jobs.derive", "quotactl.jobs.registry", "quotactl.jobs.resolve",
                    "jsonschema", "quotactl.yunikorn")
        assert [m for m in unwanted if _loaded(modules, m)] == []


def test_lint_of_a_job_still_imports_the_integrations():
    # The lazy imports above must not lose the job checks: a job is read through its integration.
    modules = _modules_after("lint", str(FIXTURES / "jobs" / "my-job.yaml"), "-o", "json")
    assert _loaded(modules, "quotactl.jobs.registry")
