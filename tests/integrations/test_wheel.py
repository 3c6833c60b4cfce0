"""The package builds as a wheel that holds everything a run needs, and the wheel installs and runs
outside this checkout (pipx and `pip install quotactl-*.whl` users get exactly this)."""

from __future__ import annotations

import subprocess
import sys
import sysconfig
import zipfile
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from quotactl import __version__
from tests.helpers import ROOT
from tests.integrations.source_tree import copy_source_tree


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """Built once from a copy of the checkout, offline: setuptools from the test environment."""
    work = tmp_path_factory.mktemp("wheel")
    src = copy_source_tree(work / "src")
    out = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-q",
         "-w", str(work / "dist"), str(src)],
        capture_output=True, text=True, timeout=300,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    (built,) = (work / "dist").glob("quotactl-*.whl")
    return built


def _names(wheel: Path) -> set[str]:
    with zipfile.ZipFile(wheel) as z:
        return set(z.namelist())


def test_the_wheel_holds_every_schema_as_a_real_file(wheel):
    # quotactl/schemas is a symlink to schemas/ in the checkout: the wheel must carry the files.
    schemas = {p.relative_to(ROOT / "schemas").as_posix(): p for p in (ROOT / "schemas").rglob("*.json")}
    assert len(schemas) > 40
    with zipfile.ZipFile(wheel) as z:
        for rel, path in schemas.items():
            assert z.read(f"quotactl/schemas/{rel}") == path.read_bytes(), rel


def test_the_wheel_holds_every_module_and_the_typing_marker(wheel):
    modules = {p.relative_to(ROOT).as_posix() for p in (ROOT / "quotactl").rglob("*.py")
               if "schemas" not in p.relative_to(ROOT).parts}
    names = _names(wheel)
    assert modules <= names, sorted(modules - names)[:10]
    assert "quotactl/py.typed" in names


def test_the_wheel_declares_the_console_script_and_the_version(wheel):
    with zipfile.ZipFile(wheel) as z:
        declared = z.read(f"quotactl-{__version__}.dist-info/entry_points.txt").decode()
        metadata = z.read(f"quotactl-{__version__}.dist-info/METADATA").decode()
    (script,) = entry_points(group="console_scripts", name="quotactl")  # the checkout's, from pyproject.toml
    assert f"quotactl = {script.value}" in declared.splitlines()
    assert f"Version: {__version__}" in metadata.splitlines()


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> Path:
    """A fresh venv with the wheel installed (no network: --no-deps --no-index); quotactl's
    dependencies come from the test environment through a .pth file, quotactl itself only from
    the wheel (the checkout's editable install is not on that path)."""
    venv = tmp_path_factory.mktemp("venv") / "v"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    out = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps", "--no-index", str(wheel)],
        capture_output=True, text=True, timeout=300,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    deps = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (Path(site) / "quotactl_test_deps.pth").write_text("".join(f"{p}\n" for p in sorted(deps)))
    return venv


def _run(venv: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(venv / "bin" / "quotactl"), *args], capture_output=True, text=True, cwd=cwd,
                          timeout=120, env={"PATH": "/usr/bin:/bin", "NO_COLOR": "1"})


def test_the_installed_wheel_runs_from_its_own_files(installed, tmp_path):
    where = subprocess.run([str(installed / "bin" / "python"), "-c", "import quotactl; print(quotactl.__file__)"],
                           capture_output=True, text=True, cwd=tmp_path, check=True).stdout
    assert Path(where).resolve().is_relative_to(installed.resolve())
    version = _run(installed, "--version", cwd=tmp_path)
    assert (version.returncode, version.stdout) == (0, f"quotactl {__version__}\n")


def test_the_installed_wheel_lints_with_its_own_schemas(installed, tmp_path):
    # KQ002 (a value outside the CRD's enum) comes from the JSON schemas shipped in the wheel.
    lint = _run(installed, "lint", str(ROOT / "fixtures" / "broken"), "-o", "plain", cwd=tmp_path)
    assert lint.returncode == 1, lint.stderr
    assert " error KQ002 " in lint.stdout
