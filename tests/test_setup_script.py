"""scripts/setup.sh, run for real on a copy of the project: quiet when it works (setuptools
printed its editable-install banner on every fresh install), pip's output and a line saying
which step failed when it does not.

To keep this under half a minute the fresh venv is made without pip and is given this
environment's site-packages (pip and the dependencies) by a .pth file, so pip only builds
and installs the project itself, which is the step that printed the banner."""

from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PROJECT = ("pyproject.toml", "README.md", "scripts/setup.sh", "server", "protocol", "client_cli")


def project_copy(root: Path) -> Path:
    for name in PROJECT:
        source, target = REPO / name, root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_dir():
            shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
        else:
            shutil.copy2(source, target)
    return root


def venv_without_pip(root: Path, borrow_site_packages: bool) -> Path:
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root / ".venv")], check=True)
    python = root / ".venv" / "bin" / "python"
    if borrow_site_packages:
        purelib = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                                 capture_output=True, text=True, check=True).stdout.strip()
        Path(purelib, "borrowed.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return python


def setup(root: Path) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", str(root / "scripts" / "setup.sh")], capture_output=True, text=True,
                          timeout=300, cwd=root)


def test_setup_on_a_fresh_venv_prints_nothing_and_installs_the_project(tmp_path):
    root = project_copy(tmp_path)
    python = venv_without_pip(root, borrow_site_packages=True)
    done = setup(root)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", ""), done.stdout + done.stderr
    where = subprocess.run([str(python), "-c", "import server; print(server.__file__)"], cwd="/",
                           capture_output=True, text=True, check=True).stdout.strip()
    assert Path(where) == root / "server" / "__init__.py"  # the copy, installed editable
    assert subprocess.run([str(root / ".venv" / "bin" / "riichi-score"), "--help"], capture_output=True).returncode == 0
    again = setup(root)
    assert (again.returncode, again.stdout, again.stderr) == (0, "", "")


def test_setup_shows_pips_output_and_the_failed_step_when_the_install_fails(tmp_path):
    root = project_copy(tmp_path)
    venv_without_pip(root, borrow_site_packages=False)  # no pip at all: the install step fails
    done = setup(root)
    assert done.returncode == 1 and done.stdout == ""
    assert "No module named pip" in done.stderr
    assert done.stderr.splitlines()[-1].startswith("scripts/setup.sh: this step failed (its output is above):")
    assert not list((root / ".venv").glob(".installed-*"))  # so the next run tries again
