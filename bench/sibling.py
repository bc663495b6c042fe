"""Another benchmark script of this folder, loaded as a module (the scripts are run
by path, not imported as a package)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType


def sibling(name: str) -> ModuleType:
    """``bench/NAME.py``, loaded as the module ``bench_NAME``."""
    here = Path(__file__).with_name(f"{name}.py")
    spec = importlib.util.spec_from_file_location(f"bench_{name}", here)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
