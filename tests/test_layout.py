"""The package's imports flow one way: datasets -> relevance -> evaluation -> filters ->
problems -> algorithms -> analysis -> studies -> comparison -> CLI, with the package-level
helpers (argument checks, seeds, Pareto dominance, compilation notices) below all.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "pymoo_fs"
LAYERS = {"_validation": 0, "seeds": 0, "_signals": 0, "_files": 0.5, "pareto": 0,
          "compilation": 0, "datasets": 1, "relevance": 1.5, "evaluation": 2, "filters": 2.5, "problems": 3,
          "algorithms": 4, "analysis": 5, "studies": 6, "selector": 6, "comparison": 7,
          "cli": 8, "__main__": 8}


def _part(module):
    """Top-level part of a dotted pymoo_fs module name (``pymoo_fs.evaluation.knn`` ->
    ``evaluation``)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def _imports(path):
    tree = ast.parse(path.read_text())
    package = ".".join(("pymoo_fs",) + path.relative_to(ROOT).with_suffix("").parts[:-1])
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module
            if module:
                found.append(module)
                # "from package import module" imports the module too
                found += [f"{module}.{a.name}" for a in node.names]
    return [m for m in found if m in NAMES]


MODULES = sorted(p for p in ROOT.rglob("*.py"))
NAMES = {".".join(("pymoo_fs",) + p.relative_to(ROOT).with_suffix("").parts).removesuffix(
    ".__init__") for p in MODULES}


@pytest.mark.parametrize("path", MODULES, ids=[str(p.relative_to(ROOT)) for p in MODULES])
def test_imports_flow_one_way(path):
    rel = path.relative_to(ROOT)
    own = rel.parts[0].removesuffix(".py")
    if own == "__init__":
        return
    assert own in LAYERS, f"new top-level module {own!r}: give it a layer in this test"
    for module in _imports(path):
        part = _part(module)
        if part in ("", own):
            continue
        assert LAYERS[part] <= LAYERS[own], f"{rel} imports {module} from a higher layer"


def test_no_import_cycles_between_modules():
    graph = {}
    for path in MODULES:
        name = ".".join(("pymoo_fs",) + path.relative_to(ROOT).with_suffix("").parts)
        name = name.removesuffix(".__init__")
        graph[name] = {m for m in _imports(path) if m != name}
    state = {}

    def visit(n, stack):
        state[n] = 1
        for m in graph.get(n, ()):
            if m.startswith(n + ".") or n.startswith(m + "."):
                continue  # a package and its own modules
            if state.get(m) == 1:
                raise AssertionError(f"import cycle: {' -> '.join(stack + [m])}")
            if m not in state:
                visit(m, stack + [m])
        state[n] = 2

    for n in sorted(graph):
        if n not in state:
            visit(n, [n])


@pytest.mark.parametrize("path", MODULES, ids=[str(p.relative_to(ROOT)) for p in MODULES])
def test_contracts_are_required_not_probed(path):
    """Evaluators and problems are checked by type (the Evaluator contract, the
    FeatureSelectionProblem class), never probed for their methods with ``hasattr``."""
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "hasattr":
            target = ast.unparse(node.args[0])
            assert "evaluator" not in target and "problem" not in target, (
                f"{path.relative_to(ROOT)}:{node.lineno}: hasattr({target}, ...)")
