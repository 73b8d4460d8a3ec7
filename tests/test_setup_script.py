"""Which interpreter ``scripts/setup`` makes .venv with: the one $PYTHON names, else the
system's own Python 3 where it is new enough and can make a virtual environment, else the
first python3 on the PATH (``scripts/setup --which-python`` says it, from any folder)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from .conftest import ROOT

SETUP = ROOT / "scripts" / "setup"


def which_python(env: dict[str, str], cwd: Path) -> str:
    done = subprocess.run(
        [str(SETUP), "--which-python"], env=env, cwd=cwd, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def system_python_suits() -> bool:
    """Whether /usr/bin/python3 is 3.11 or newer with what a virtual environment with pip needs."""
    if not os.access("/usr/bin/python3", os.X_OK):
        return False
    check = "import sys; assert sys.version_info >= (3, 11); import ensurepip, venv"
    return subprocess.run(["/usr/bin/python3", "-c", check], capture_output=True, timeout=60).returncode == 0


def test_python_names_the_interpreter_and_otherwise_the_systems_own_is_preferred(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHON"}
    assert which_python({**env, "PYTHON": "/opt/my/python3.12"}, tmp_path) == "/opt/my/python3.12"
    assert which_python(env, tmp_path) == ("/usr/bin/python3" if system_python_suits() else "python3")


def test_asking_which_python_makes_no_environment(tmp_path: Path) -> None:
    """The question is answered before anything is made: a copy of the scripts without a
    .venv beside them is left without one."""
    scripts = tmp_path / "scripts"
    scripts.mkdir()
    (scripts / "setup").write_bytes(SETUP.read_bytes())
    (scripts / "setup").chmod(0o755)
    done = subprocess.run(
        [str(scripts / "setup"), "--which-python"], cwd="/", capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() and sorted(p.name for p in tmp_path.iterdir()) == ["scripts"]
