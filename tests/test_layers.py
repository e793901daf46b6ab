"""Layering: imports go one way only (geometry/rules → vision/synth → gamelog → web/cli)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parent.parent / "armada_vision"

# Which third-party and project packages each layer may import.
ALLOWED_THIRD_PARTY = {
    "geometry": {"numpy", "shapely"},
    "rules": {"numpy", "shapely"},
    "vision": {"numpy", "shapely", "cv2"},
    "synth": {"numpy", "shapely", "cv2"},
    "gamelog": {"numpy", "shapely"},
}
ALLOWED_PROJECT = {
    "geometry": {"geometry"},
    "rules": {"geometry", "rules"},
    "vision": {"geometry", "rules", "vision"},
    "synth": {"geometry", "rules", "vision", "synth"},
    "gamelog": {"geometry", "rules", "vision", "gamelog"},
}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


@pytest.mark.parametrize("layer", sorted(ALLOWED_THIRD_PARTY))
def test_layer_imports_only_what_it_may(layer: str) -> None:
    stdlib = set(sys.stdlib_module_names) | {"__future__"}
    for path in sorted((PKG / layer).rglob("*.py")):
        for name in _imports(path):
            top = name.split(".")[0]
            if top == "armada_vision":
                sub = name.split(".")[1] if "." in name else ""
                assert sub in ALLOWED_PROJECT[layer], f"{path.name} imports {name}"
            else:
                assert top in stdlib or top in ALLOWED_THIRD_PARTY[layer], (
                    f"{path.relative_to(PKG)} imports {name}"
                )


def test_importing_rules_loads_neither_cv2_nor_fastapi() -> None:
    code = (
        "import sys, armada_vision.geometry, armada_vision.rules\n"
        "import pkgutil, importlib\n"
        "for pkg in (armada_vision.geometry, armada_vision.rules):\n"
        "    for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + '.'):\n"
        "        importlib.import_module(m.name)\n"
        "bad = [m for m in ('cv2', 'fastapi', 'uvicorn', 'starlette', 'sqlite3') "
        "if m in sys.modules]\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
