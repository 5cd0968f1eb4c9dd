"""The wheel carries the files the command reads (goodput.core.resources.SHIPPED) inside the package, as
``goodput/_shipped/``: everything else about the build is in pyproject.toml."""

import ast
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent


def _shipped() -> tuple[str, ...]:
    """goodput.core.resources.SHIPPED, read without importing the package (its dependencies may not be installed)."""
    tree = ast.parse((ROOT / "goodput" / "core" / "resources.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.AnnAssign | ast.Assign):
            targets = [node.target] if isinstance(node, ast.AnnAssign) else node.targets
            if any(getattr(t, "id", "") == "SHIPPED" for t in targets):
                return ast.literal_eval(node.value)
    raise RuntimeError("goodput/core/resources.py declares no SHIPPED")


class BuildWithData(build_py):
    """build_py, then the shipped files copied beside the package's modules (caches and checkpoints left out)."""

    def run(self):
        super().run()
        if self.editable_mode:  # an editable install reads the checkout itself
            return
        target = Path(self.build_lib) / "goodput" / "_shipped"
        for name in _shipped():
            source = ROOT / name
            if source.is_dir():
                shutil.copytree(source, target / name, dirs_exist_ok=True,
                                ignore=shutil.ignore_patterns("__pycache__", ".ipynb_checkpoints", "*.pyc"))
            else:
                (target / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, target / name)


setup(cmdclass={"build_py": BuildWithData})
