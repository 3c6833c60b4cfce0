"""A run imports what its command uses: `--version` no engine, a Kueue lint no YuniKorn engine and
no jsonschema while every object is valid (start-up time is paid on every invocation)."""

import json
import subprocess
import sys

from tests.helpers import FIXTURES, ROOT

HEAVY = ("jsonschema", "quotactl.kueue", "quotactl.yunikorn", "rich.markdown")


def _modules_after(*argv: str) -> set[str]:
    code = ("import sys, json, atexit; sys.argv = ['quotactl', *json.loads(sys.argv[1])]; "
            "atexit.register(lambda: sys.stderr.write('MODULES ' + json.dumps(sorted(sys.modules)) + '\\n')); "
            "from quotactl.cli.app import main; main()")
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
