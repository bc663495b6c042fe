"""The build: pure Python, with the validator's hot modules compiled by mypyc where it can.

Everything about the project is in pyproject.toml; this file only adds the
compiled build. ``pip install .`` compiles the modules a validation and an import
spend their time in (``COMPILED``, see bench/validate.py and docs/architecture.md)
to C extensions with mypyc, which validates GBN about 1.7 times as fast. The
Python source stays the one statement of the rules: the compiled modules are
made from it at install and do exactly what it does (CI runs the tests against
both builds).

The build stays pure Python, just slower, when:
- the install is editable (``pip install -e .``), so an edited module takes
  effect at once;
- ``GETBIT_PURE=1`` is set;
- the compile fails (no C compiler, say): the build says so and goes on.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

COMPILED = [
    "getbit_events/board.py",
    "getbit_events/steps.py",
    "getbit_events/rules.py",
    "getbit_events/record.py",
    "getbit_events/findings.py",
    "getbit_events/tags.py",
    "getbit_events/outcomes.py",
    "getbit_events/plays.py",
    "getbit_events/validate.py",
    "getbit_events/reducer.py",
    "importers/gbn.py",
    "importers/gbn_lex.py",
    "importers/gbn_write.py",
    "importers/reading.py",
    "biteme/rules.py",
    "biteme/fold.py",
    "biteme/findings.py",
    "biteme/tags.py",
    "biteme/scoring.py",
    "biteme/validate.py",
    "importers/bmn.py",
    "importers/payload_text.py",
    "importers/jsonl.py",
    "importers/jsonl_lines.py",
    "importers/jsonl_rounds.py",
    "store/encoding.py",
    "store/readmodel.py",
    "importers/wire.py",
    "store/adding.py",
    "store/stored.py",
    "store/eventlog.py",
]


class OptionalBuildExt(build_ext):
    """Build the compiled modules, or none of them: a half-built set cannot be imported."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # any compile or link failure: stay pure Python
            self._drop_outputs()
            print(f"getbit-events: compiling with mypyc failed ({exc}); installing pure Python",
                  file=sys.stderr)

    def _drop_outputs(self) -> None:
        for ext in self.extensions:
            built = Path(self.build_lib) / self.get_ext_filename(ext.name)
            built.unlink(missing_ok=True)
        self.extensions = []


def compiled_modules() -> list[Any]:
    """mypyc's extensions for a wheel build, or none (editable, GETBIT_PURE, no mypyc)."""
    if "bdist_wheel" not in sys.argv or os.environ.get("GETBIT_PURE") == "1":
        return []  # metadata, editable and sdist builds run this file too: no compile there
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("getbit-events: mypyc is not installed; installing pure Python", file=sys.stderr)
        return []
    try:
        return list(mypycify(COMPILED, opt_level="3"))
    except (Exception, SystemExit) as exc:  # mypy could not type the modules: stay pure Python
        print(f"getbit-events: mypyc could not compile ({exc}); installing pure Python",
              file=sys.stderr)
        return []


setup(ext_modules=compiled_modules(), cmdclass={"build_ext": OptionalBuildExt})
