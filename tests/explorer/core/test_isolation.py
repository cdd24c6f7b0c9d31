"""explorer.core knows nothing of Textual: importing all of it never loads Textual."""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import explorer.core


def test_no_module_of_the_core_imports_textual() -> None:
    modules = [
        info.name for info in pkgutil.walk_packages(explorer.core.__path__, prefix="explorer.core.")
    ]
    assert "explorer.core.hypermedia.link" in modules
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        "loaded = sorted(m for m in sys.modules if m == 'textual' or m.startswith('textual.'))\n"
        "print(loaded)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert result.stdout.strip() == "[]"
