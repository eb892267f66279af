"""The map of docs/architecture.md, checked: no import circles, no project import hidden in a
function (but the app factory's), and capabilities import each other only downwards."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SKIP = {".venv", "tests", "bench", "migrations", "build", "clients"}

# Which service capabilities each one may import (core is open to all). The direction of
# every other edge goes through signals or the outbox (services/core/signals.py).
SERVICE_LAYERS = {
    "core": set(),
    "audit": {"core"},
    "accounts": {"core", "audit"},
    "keys": {"core", "audit", "accounts"},
    "limits": {"core"},
    "documents": {"core", "audit"},
    "semantic": {"core", "documents"},
    "search": {"core", "documents", "semantic"},
    "copilot": {"core", "audit", "documents", "search", "semantic"},
    "lifecycle": {"core"},
    "oauth": {"core", "audit", "accounts"},
    "passkeys": {"core", "audit", "accounts"},
    "webhooks": {"core", "audit"},
    "notifications": {"core", "push"},
    "push": {"core", "audit"},
    "workflows": {"core", "audit", "notifications"},
    "forms": {"core", "audit", "documents", "workflows"},
    "graph": {"core", "audit", "documents", "search"},
    "operations": {"core", "audit", "accounts", "keys", "limits", "documents", "search"},
    "analytics": {"core", "limits"},
}
# What the layers of the app may import, by top-level name. The CLI (cli/) sits beside the
# API and the portal: it calls services, and jobs for `flask worker` and the inline runs.
FORBIDDEN = {
    "services": {"api", "portal", "jobs", "cli", "tenancy", "app"},
    "models": {"api", "portal", "jobs", "cli", "services", "tenancy", "app"},
    "jobs": {"api", "portal", "cli", "tenancy", "app"},
    "api": {"portal", "jobs", "cli", "app"},
    "portal": {"api", "jobs", "cli", "app"},
    "cli": {"api", "portal", "tenancy", "app"},
}


def _modules() -> dict[str, Path]:
    found = {}
    for path in ROOT.rglob("*.py"):
        relative = path.relative_to(ROOT)
        if SKIP & set(relative.parts):
            continue
        name = ".".join(relative.with_suffix("").parts).removesuffix(".__init__")
        found[name] = path
    return found


MODULES = _modules()


def _resolve(name: str) -> str | None:
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _imports(tree: ast.AST) -> list[tuple[ast.AST, str]]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found += [(node, f"{node.module}.{alias.name}") for alias in node.names]
    return found


def _graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for name, path in MODULES.items():
        targets = {_resolve(target) for _, target in _imports(ast.parse(path.read_text()))}
        graph[name] = {t for t in targets if t and t != name}
    return graph


def test_there_are_no_import_circles():
    graph = _graph()
    visiting, done, circles = [], set(), []

    def visit(module: str) -> None:
        if module in done:
            return
        if module in visiting:
            circles.append([*visiting[visiting.index(module) :], module])
            return
        visiting.append(module)
        for target in sorted(graph[module]):
            visit(target)
        visiting.pop()
        done.add(module)

    for module in sorted(graph):
        visit(module)
    assert circles == []


def test_no_project_import_hides_in_a_function():
    hidden = []
    for name, path in MODULES.items():
        if name == "app":  # the factory imports inside create_app on purpose (STYLE.md)
            continue
        for function in ast.walk(ast.parse(path.read_text())):
            if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                for _, target in _imports(function):
                    if _resolve(target):
                        hidden.append(f"{name}.{function.name} imports {target}")
    assert hidden == []


def test_layers_import_only_what_they_may():
    wrong = []
    for name, targets in _graph().items():
        layer = name.split(".")[0]
        for target in targets:
            if target.split(".")[0] in FORBIDDEN.get(layer, set()):
                wrong.append(f"{name} -> {target}")
            if name.startswith("services.") and target.startswith("services."):
                mine, theirs = name.split(".")[1], target.split(".")[1]
                if mine != theirs and theirs not in SERVICE_LAYERS[mine] | {"core"}:
                    wrong.append(f"{name} -> {target}")
    assert wrong == []


def test_a_capabilitys_commands_import_only_what_all_commands_share():
    """cli/<name>.py reaches another capability through its services, never through its
    commands: the only cli modules it imports are the shared ones (capabilities.SHARED)."""
    import capabilities

    shared = {f"cli.{name}" for name in capabilities.SHARED["cli"]} | {"cli"}
    wrong = [
        f"{name} -> {target}"
        for name, targets in _graph().items()
        if name.startswith("cli.")
        for target in targets
        if target.startswith("cli.") and target not in shared and target != name
    ]
    assert wrong == []


def test_every_service_package_is_on_the_map():
    packages = {p.name for p in (ROOT / "services").iterdir() if (p / "__init__.py").exists()}
    assert packages == set(SERVICE_LAYERS)


def test_every_python_package_ships_with_pip_install():
    """`pip install .` installs the modules pyproject.toml lists and the packages setuptools
    finds under its include list: a package outside both imports here and is missing from
    the installed service."""
    from setuptools.config.pyprojecttoml import read_configuration

    setuptools = read_configuration(ROOT / "pyproject.toml")["tool"]["setuptools"]
    installed = set(setuptools["packages"])  # the find directive, expanded as a build does
    packages = {name for name, path in MODULES.items() if path.name == "__init__.py"}
    top_modules = {n for n, path in MODULES.items() if path.parent == ROOT and "." not in n}
    assert packages - installed == set()
    assert top_modules - set(setuptools["py-modules"]) == set()


# --- one name per capability (capabilities.py) ----------------------------------------------


def _entries(layer: str) -> set[str]:
    """The names found in one layer: modules and packages, template and test folders, docs."""
    folder = {"templates": ROOT / "templates" / "portal", "docs": ROOT / "docs"}.get(
        layer, ROOT / layer
    )
    names = set()
    for path in folder.iterdir():
        if path.name.startswith(("_", ".")):
            continue
        if layer == "docs":
            names |= {path.stem} if path.suffix == ".md" else set()
        elif layer in ("templates", "tests"):
            names |= {path.name} if path.is_dir() and path.name != "__pycache__" else set()
        elif path.suffix == ".py" or (path / "__init__.py").exists():
            names.add(path.stem if path.suffix == ".py" else path.name)
    return names


def test_every_capability_is_found_under_its_name_in_each_layer_it_claims():
    import capabilities

    missing = [
        f"{c.name}: {capabilities.LAYERS[layer].replace('x', c.name)}"
        for c in capabilities.CAPABILITIES
        for layer in sorted(c.layers)
        if c.name not in _entries(layer)
    ]
    assert missing == []


def test_every_module_belongs_to_a_capability_or_to_what_all_share():
    import capabilities

    strays = []
    for layer in capabilities.LAYERS:
        known = set(capabilities.having(layer)) | capabilities.SHARED[layer]
        strays += [f"{layer}: {name}" for name in sorted(_entries(layer) - known)]
    assert strays == []


def test_the_architecture_map_lists_the_capabilities_as_the_registry_does():
    """docs/architecture.md's table: `| name | layers | what it owns |`, one row each."""
    import capabilities

    rows = {}
    for line in (ROOT / "docs" / "architecture.md").read_text().splitlines():
        cells = [cell.strip().strip("`") for cell in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) == 3 and cells[0] in SERVICE_LAYERS:
            rows[cells[0]] = set(cells[1].split())
    assert rows == {c.name: set(c.layers) for c in capabilities.CAPABILITIES}


# --- one definition of each wire shape -------------------------------------------------------


def _documented_models(app) -> dict[str, type]:
    """Every pydantic model an API view validates with or answers, which the OpenAPI document
    describes: its query, its body, its form fields and its answer."""
    found = {}
    for endpoint, view in app.view_functions.items():
        doc = getattr(view, "api_doc", None) or {}
        models = [doc.get("query"), doc.get("body"), (doc.get("form") or {}).get("model")]
        models.append((doc.get("response") or {}).get("model"))
        found |= {f"{endpoint}: {m.__name__}": m for m in models if m is not None}
    return found


def test_every_shape_the_api_documents_is_defined_in_a_wire_module(app):
    """A capability's requests and answers are defined once, in services/<name>/wire.py, which
    the API, the portal and the OpenAPI document all read (the portal may not import api/)."""
    documented = _documented_models(app)
    elsewhere = [
        f"{where} is in {model.__module__}"
        for where, model in sorted(documented.items())
        if not re.fullmatch(r"services\.\w+\.wire", model.__module__)
    ]
    assert len(documented) > 50
    assert elsewhere == []
