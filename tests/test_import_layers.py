"""The packages import downward only: frontend <- ascendir <- passes <- bench <- llm <- cli (DESIGN.md, Layout).

Every import of every module is read with `ast`: module-level ones, the lazy ones inside functions (which cycle
checks and import-time tests never see), relative ones (which stay inside their package) and
`importlib.import_module("...")` with a literal name. An import of a package on a higher layer is an arrow up,
and fails here with its file and line. rust_sim (the simulator's Python face) sits under passes, which builds its
programs; it imports nothing of the project. An arrow up is mended by moving the code down, not by listing it; the
one listed module is a facade with no code of its own: ascendir/sim/__init__.py forwards `ascendir.sim.run`, the name
issues 28 and 29 give users, to passes.sim, and may import passes.sim and nothing else of a higher layer.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# the layer of each top-level package; a module may import its own layer and those below
LAYERS = {"frontend": 0, "ascendir": 1, "rust_sim": 1.5, "passes": 2, "bench": 3, "llm": 4, "cli": 5}
# never imported by the packages: test code and stand-alone scripts
NOT_IMPORTABLE = ("tests", "tools", "scripts")
# public names kept where users were told to find them: module -> the one higher module it may import
FACADES = {("ascendir", "sim", "__init__.py"): "passes.sim"}


def imported_modules(module_path: tuple[str, ...], tree: ast.AST) -> Iterator[tuple[int, str]]:
    """(line, dotted name) of each import in `tree`, relative ones resolved against the package of the module
    at `module_path` (its parts below the repository root, as ("passes", "sim", "launch.py"))."""
    package = module_path[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                yield node.lineno, ".".join([*base, *([node.module] if node.module else [])])
            else:
                yield node.lineno, node.module or ""
        elif (isinstance(node, ast.Call) and ast.unparse(node.func).endswith("import_module") and node.args
              and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            yield node.lineno, node.args[0].value


def arrows_up(root: Path, package: str) -> list[str]:
    """'file:line: what' for each import in `package` (under `root`) of a package on a higher layer."""
    found = []
    for path in sorted((root / package).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        parts = path.relative_to(root).parts
        for line, module in sorted(imported_modules(parts, tree)):
            top = module.split(".")[0]
            if FACADES.get(parts) == module:
                continue
            where = f"{path.relative_to(root)}:{line}"
            if top in NOT_IMPORTABLE:
                found.append(f"{where}: {package} imports {module}, which is not part of the installed packages")
            elif top in LAYERS and LAYERS[top] > LAYERS[package]:
                found.append(f"{where}: {package} imports {module}, a layer above it")
            elif package == "rust_sim" and top in LAYERS and top != "rust_sim":
                found.append(f"{where}: rust_sim imports {module}; the simulator's face depends on nothing")
    return found


@pytest.mark.parametrize("package", sorted(LAYERS, key=LAYERS.__getitem__))
def test_no_upward_imports(package: str) -> None:
    assert arrows_up(ROOT, package) == []


def test_checker_finds_lazy_relative_and_dynamic_arrows(tmp_path: Path) -> None:
    (tmp_path / "ascendir" / "lower").mkdir(parents=True)
    (tmp_path / "ascendir" / "lower" / "example.py").write_text(
        "import numpy\nfrom frontend import ast\nfrom . import sibling\n"
        "def f():\n    from passes.sim.launch import run\n    return run\n"
        "from ..sim import launch\nimport importlib\nimportlib.import_module('llm.loop')\n"
        "from tests.conftest import x\n")
    assert arrows_up(tmp_path, "ascendir") == [
        "ascendir/lower/example.py:5: ascendir imports passes.sim.launch, a layer above it",
        "ascendir/lower/example.py:9: ascendir imports llm.loop, a layer above it",
        "ascendir/lower/example.py:10: ascendir imports tests.conftest, which is not part of the installed packages",
    ]


def test_facade_forwards_to_passes_sim() -> None:
    import numpy as np

    import ascendir.sim
    from passes.sim import launch

    assert ascendir.sim.SimResult is launch.SimResult and ascendir.sim.SimError is launch.SimError
    assert ascendir.sim.DEFAULT_BUDGET == launch.DEFAULT_BUDGET
    x = np.arange(2048, dtype=np.float16) / 100
    y = np.ones(2048, dtype=np.float16)
    result = ascendir.sim.run(str(ROOT / "examples" / "add_custom.cpp"), {"x": x, "y": y}, block_dim=2,
                              tiling={"totalLength": 2048, "tileNum": 8}, outputs={"z": ((2048,), "float16")})
    assert isinstance(result, launch.SimResult) and result.ok, result.findings
    assert np.array_equal(result.outputs["z"], x + y)


def test_facade_may_import_only_its_target(tmp_path: Path) -> None:
    (tmp_path / "ascendir" / "sim").mkdir(parents=True)
    (tmp_path / "ascendir" / "sim" / "__init__.py").write_text(
        "def run():\n    from passes.sim import run\n    from passes.sim.launch import SimResult\n")
    assert arrows_up(tmp_path, "ascendir") == [
        "ascendir/sim/__init__.py:3: ascendir imports passes.sim.launch, a layer above it"]

