"""The import rules of docs/architecture.md: dependencies point inward."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("getbit_events", "importers", "replay", "reports")
# Who may import whom; the CLI modules of the core are the one wiring point.
ALLOWED = {
    "getbit_events": {"getbit_events"},
    "importers": {"getbit_events", "importers"},
    "replay": {"getbit_events", "replay"},
    "reports": {"getbit_events", "reports"},
}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "__import__"
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            found.add(str(node.args[0].value).split(".")[0])
    return found & set(PACKAGES)


def _modules() -> list[Path]:
    return sorted(p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py"))


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_dependencies_point_inward(path: Path) -> None:
    package = path.relative_to(ROOT).parts[0]
    if package == "getbit_events" and path.name.startswith("cli"):
        return  # the command line wires the packages together
    bad = _imports(path) - ALLOWED[package]
    assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


def test_the_checker_sees_imports(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text("import replay.cursor\nfrom reports import x\nimport json\n")
    assert _imports(probe) == {"replay", "reports"}
