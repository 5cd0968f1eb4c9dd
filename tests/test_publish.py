"""Publishing: the GitHub Actions workflow runs the README's two commands and deploys the site with the official
Pages actions (actionlint passes it); ``make publish DEST=...`` writes the site a static host serves."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
WORKFLOW = ROOT / ".github" / "workflows" / "book.yml"
ACTIONLINT = ROOT / ".venv" / "bin" / "actionlint"
HTML = ROOT / "_build" / "html"


def test_actionlint_passes_the_workflow():
    if not ACTIONLINT.exists():
        pytest.fail(f"{ACTIONLINT} is missing: make actionlint (make test does)")
    p = subprocess.run([str(ACTIONLINT), "-no-color", str(WORKFLOW)], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stdout + p.stderr


def test_the_workflow_builds_tests_and_deploys_the_published_site():
    flow = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    build, deploy = flow["jobs"]["build"], flow["jobs"]["deploy"]
    runs = [s.get("run") for s in build["steps"] if "run" in s]
    assert runs == ["make book", "make test", "make publish DEST=site"]  # the README's two commands, then the site
    uses = {s["uses"].split("@")[0]: s for s in [*build["steps"], *deploy["steps"]] if "uses" in s}
    assert uses["actions/upload-pages-artifact"]["with"]["path"] == "site"
    assert "actions/deploy-pages" in uses and deploy["needs"] == "build"
    assert deploy["permissions"] == {"pages": "write", "id-token": "write"}
    assert "pull_request" in deploy["if"]  # a pull request is built and tested, never published


@pytest.mark.book
def test_make_publish_writes_the_built_site_as_a_host_serves_it(tmp_path):
    dest = tmp_path / "site"
    dest.mkdir()
    (dest / "stale.html").write_text("from an earlier publish")
    p = subprocess.run(["make", "-s", "publish", f"DEST={dest}"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    built = {f.relative_to(HTML) for f in HTML.rglob("*") if f.is_file() and f.name != ".buildinfo"}
    site = {f.relative_to(dest) for f in dest.rglob("*") if f.is_file()}
    assert site == built | {Path(".nojekyll")}
    assert any(f.suffix == ".xlsx" for f in site)  # the workbooks the pages link
    p = subprocess.run(["make", "-s", "publish"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert p.returncode == 2 and "make publish DEST=folder" in p.stderr
