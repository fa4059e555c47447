"""The package's import structure stays as DESIGN.md draws it: no import
circles between xsparse's modules (lazy imports inside functions included;
a package's `__init__` that only registers lazy factories aside), and no
module uses another module's underscore names."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "xsparse"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def resolve(module: str, node: ast.ImportFrom) -> str:
    """The absolute name of what `node` (inside `module`) imports from."""
    if node.level == 0:
        return node.module or ""
    base = module.split(".")
    if MODULES[module].name != "__init__.py":
        base = base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def imports(module: str) -> list[tuple[str, str | None, int]]:
    """(imported module, name taken from it or None, line) for every import."""
    tree = ast.parse(MODULES[module].read_text())
    found: list[tuple[str, str | None, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, None, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            source = resolve(module, node)
            for alias in node.names:
                submodule = f"{source}.{alias.name}"
                if submodule in MODULES:
                    found.append((submodule, None, node.lineno))
                else:
                    found.append((source, alias.name, node.lineno))
    return [(m, n, line) for m, n, line in found if m in MODULES]


def underscore_attributes(module: str) -> list[tuple[str, str, int]]:
    """`alias._name` where `alias` is an imported xsparse module."""
    tree = ast.parse(MODULES[module].read_text())
    aliases: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            source = resolve(module, node)
            for alias in node.names:
                if f"{source}.{alias.name}" in MODULES:
                    aliases[alias.asname or alias.name] = f"{source}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname and alias.name in MODULES:
                    aliases[alias.asname] = alias.name
    return [
        (aliases[node.value.id], node.attr, node.lineno)
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id in aliases
        and node.attr.startswith("_")
        and not node.attr.startswith("__")
    ]


def is_registry(module: str) -> bool:
    """A package `__init__` that maps names to lazy factories."""
    return MODULES[module].name == "__init__.py" and "def get_all_" in (
        MODULES[module].read_text()
    )


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's components with more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component: list[str] = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return components


def test_no_import_circles() -> None:
    graph = {
        m: {i for i, _, _ in imports(m) if i != m and not is_registry(i)}
        for m in MODULES
        if not is_registry(m)
    }
    assert strongly_connected(graph) == []


def test_no_underscore_names_across_modules() -> None:
    private = [
        f"{m} line {line}: {source}.{name}"
        for m in MODULES
        for source, name, line in imports(m) + underscore_attributes(m)
        if name is not None
        and name.startswith("_")
        and not name.startswith("__")
        and source != m
    ]
    assert private == []


LAYERS = {
    "xsparse.dialects": (
        "xsparse.transforms",
        "xsparse.backend",
        "xsparse.frontend",
        "xsparse.tools",
    ),
    "xsparse.transforms": (
        "xsparse.backend",
        "xsparse.frontend",
        "xsparse.tools",
        "xsparse.testing",
    ),
    "xsparse.backend": ("xsparse.frontend", "xsparse.tools", "xsparse.testing"),
    "xsparse.frontend": ("xsparse.tools", "xsparse.testing"),
}
"""DESIGN.md's one-way imports: what each layer never imports."""


@pytest.mark.parametrize("layer", sorted(LAYERS))
def test_layers_import_one_way(layer: str) -> None:
    upward = [
        f"{m} line {line}: {imported}"
        for m in MODULES
        if m == layer or m.startswith(layer + ".")
        for imported, _, line in imports(m)
        if any(imported == up or imported.startswith(up + ".") for up in LAYERS[layer])
    ]
    assert upward == []
