"""The import rules of docs/architecture.md: dependencies point inward, for every module."""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

import pytest

#: what these test is plain Python in both builds (none of setup.py's COMPILED is their
#: subject): the compiled build's pass of .ci/run leaves them to the plain pass
pytestmark = pytest.mark.layers

ROOT = Path(__file__).resolve().parent.parent
# Who may import whom (besides itself): the picture in docs/architecture.md, arrow by arrow.
ALLOWED = {
    "getbit_events": set(),
    "biteme": {"getbit_events"},
    "importers": {"getbit_events", "biteme"},
    "console": {"getbit_events"},
    "store": {"getbit_events", "biteme", "importers", "console"},
    "replay": {"getbit_events", "biteme", "importers", "store", "console"},
    "reports": {"getbit_events", "biteme", "importers", "store", "console"},
    "cli": {"getbit_events", "biteme", "importers", "store", "console", "replay", "reports"},
}
PACKAGES = tuple(ALLOWED)


def _imports(path: Path) -> set[str]:
    """The project's packages the module at ``path`` imports."""
    own = path.relative_to(ROOT).parts[0] if path.is_relative_to(ROOT) else ""
    return _imports_in(path.read_text(encoding="utf-8"), own)


def _imports_in(source: str, own: str) -> set[str]:
    """The project's packages ``source`` imports: plain, from, relative (its own
    package, ``own``), and by name through ``__import__`` or ``importlib.import_module``."""
    tree = ast.parse(source)
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            found.add(node.module.split(".")[0] if node.level == 0 and node.module else own)
        elif (
            isinstance(node, ast.Call)
            and _called(node.func) in ("__import__", "import_module")
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            found.add(str(node.args[0].value).split(".")[0])
    return found & set(PACKAGES)


def _called(func: ast.expr) -> str | None:
    """The name a call is made by: ``f`` of ``f(...)`` and of ``m.f(...)``."""
    if isinstance(func, ast.Name):
        return func.id
    return func.attr if isinstance(func, ast.Attribute) else None


def _modules() -> list[Path]:
    return sorted(p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py"))


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_dependencies_point_inward(path: Path) -> None:
    package = path.relative_to(ROOT).parts[0]
    bad = _imports(path) - ALLOWED[package] - {package}
    assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


def test_nothing_imports_cli() -> None:
    """``cli`` puts the command together; no library module may lean on it."""
    leaning = [
        str(path.relative_to(ROOT))
        for path in _modules()
        if path.relative_to(ROOT).parts[0] != "cli" and "cli" in _imports(path)
    ]
    assert not leaning


def test_every_package_is_in_the_table() -> None:
    """A package the build ships, or a folder of modules, that the rules do not name
    would go unchecked."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    shipped = {name.split(".")[0] for name in config["tool"]["setuptools"]["packages"]}
    folders = {p.parent.name for p in ROOT.glob("*/__init__.py")}
    assert shipped == set(PACKAGES)
    assert folders == set(PACKAGES)
    assert config["project"]["scripts"]["getbit"] == "cli:main"


def test_the_picture_is_the_table() -> None:
    """docs/architecture.md lists, for each package, what it may import: the same
    as ``ALLOWED``."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    listed = {
        m.group(1): set(re.findall(r"`(\w+)`", m.group(2)))
        for m in re.finditer(r"^- `(\w+)/` \(imports ([^)]*)\)", text, re.MULTILINE)
    }
    assert listed == ALLOWED


def test_biteme_takes_only_generic_pieces_of_getbit_events() -> None:
    """The second game's core leans on no part of Get Bit!'s rules: from
    ``getbit_events`` it takes the errors, the limits, ``SourcePos`` and the
    record's ``Violation`` and ``RecordedTag``, and a report's shared half,
    ``Verdict``, only (docs/architecture.md)."""
    generic = {"getbit_events.errors", "getbit_events.limits", "getbit_events.events",
               "getbit_events.record", "getbit_events.verdict"}
    for path in sorted((ROOT / "biteme").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                "getbit_events"
            ):
                assert node.module in generic, f"{path.name} imports {node.module}"
                if node.module == "getbit_events.events":
                    assert [a.name for a in node.names] == ["SourcePos"], path.name


def test_the_checker_sees_imports(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text(
        "import replay.cursor\nfrom reports import x\nimport json\n"
        "import importlib\nimportlib.import_module('store.check')\n__import__('console')\n"
    )
    assert _imports(probe) == {"replay", "reports", "store", "console"}


def test_the_checker_counts_relative_imports_as_their_own_package() -> None:
    source = "from . import rows\nfrom ..schema import MIGRATIONS\n"
    assert _imports_in(source, "store") == {"store"}
