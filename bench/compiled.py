"""The validator benchmark again, with the hot modules compiled by mypyc.

    python bench/compiled.py [bench/validate.py options]

An experiment, not a way to install: the project ships pure Python. This copies
the working tree to a scratch folder, compiles the modules a validation spends
its time in with mypyc (from mypy, a dev dependency; it needs a C compiler),
and runs ``bench/validate.py`` there, so the numbers can be set beside the
pure-Python ones. The scratch folder is removed afterwards.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HOT = [
    "getbit_events/board.py",
    "getbit_events/rules.py",
    "getbit_events/findings.py",
    "getbit_events/setup.py",
    "getbit_events/outcomes.py",
    "getbit_events/validate.py",
    "getbit_events/reducer.py",
    "importers/gbn.py",
]


def main() -> None:
    mypyc = shutil.which("mypyc", path=str(Path(sys.executable).parent)) or shutil.which("mypyc")
    if mypyc is None:
        sys.exit("mypyc not found: install the dev extras (pip install -e '.[dev]')")
    with tempfile.TemporaryDirectory(prefix="getbit-compiled-") as scratch:
        copy = Path(scratch) / ROOT.name
        shutil.copytree(
            ROOT, copy, ignore=shutil.ignore_patterns(".venv", ".git", "*.db", "__pycache__")
        )
        (Path(scratch) / "shared").symlink_to(ROOT.parent / "shared")  # python-chess's games
        # mypyc builds with the environment's setuptools, which need not read this
        # project's metadata: compile without it
        (copy / "pyproject.toml").rename(copy / "pyproject.toml.off")
        subprocess.run([mypyc, *HOT], cwd=copy, check=True, capture_output=True)
        env = {**os.environ, "PYTHONPATH": str(copy)}
        subprocess.run(
            [sys.executable, str(copy / "bench" / "validate.py"), *sys.argv[1:]],
            cwd=copy,
            env=env,
            check=True,
        )


if __name__ == "__main__":
    main()
