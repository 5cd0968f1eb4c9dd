"""The chapter registry (goodput.core.chapters) is the one declaration per chapter: it follows the book's
table of contents, and the command line, the checks, the calculations and the render modules are
all found from it."""

import argparse
import sys
from pathlib import Path

import pytest
import yaml

from goodput import checks, cli
from goodput.core import chapters
from goodput.core.command import Command
from goodput.render import calculations

ROOT = Path(__file__).resolve().parent.parent


def _toc_notebooks() -> list[str]:
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    files = [c["file"] for part in toc["parts"] for c in part["chapters"]]
    return [f.removeprefix("notebooks/") for f in files if f.startswith("notebooks/")]


def test_the_registry_holds_every_chapter_of_the_table_of_contents_in_its_order():
    assert chapters.ids() == _toc_notebooks()


@pytest.mark.parametrize("chapter", chapters.CHAPTERS, ids=lambda c: c.id)
def test_each_chapter_has_its_notebook_render_module_and_models(chapter):
    assert (chapters.NOTEBOOKS / f"{chapter.id}.ipynb").is_file()
    assert chapter.title and not chapter.title.startswith("#")
    module = chapter.render()
    assert module.__name__ == "goodput.render.chapters." + chapter.id.replace("-", "_")
    assert chapter.id in (module.__doc__ or ""), f"{module.__name__}'s docstring names its chapter"
    for model in chapter.model_modules():
        assert model.__name__.split(".")[1] in ("models", "analysis"), f"{model.__name__} is no model"


def test_every_model_module_belongs_to_one_chapter():
    owners = {}
    for chapter in chapters.CHAPTERS:
        for model in chapter.models:
            assert model not in owners, f"{model} is declared by {owners.get(model)} and {chapter.id}"
            owners[model] = chapter.id


def test_the_checks_come_from_the_documents_modules_each_for_a_chapter_of_the_model_it_names():
    found = checks.collect()
    assert {c.chapter for c in found} <= set(chapters.ids())
    for chapter, providers in checks._providers.items():
        for provider in providers:
            assert provider.__module__.startswith("goodput.sources."), provider.__qualname__
            assert chapters.get(chapter).models[provider.__checks_rank__]


def test_a_provider_takes_its_chapter_from_the_registry_and_one_no_chapter_presents_is_refused():
    assert chapters.presenting("goodput.models.can").id == chapters.presenting("models.can").id == "can-fd"
    with pytest.raises(LookupError, match="no chapter presents (tests\\.)?test_chapters"):
        checks.provider(sys.modules[__name__])


def test_a_check_is_its_chapters_once_collected():
    """A provider's checks carry no typed chapter: collecting them stamps the chapter that presents its module."""
    from goodput.models import can

    made = [c for func in checks._providers["can-fd"] for c in func()]
    assert made and {c.chapter for c in made} == {""}
    assert {c.chapter for c in checks.collect("can-fd")} == {"can-fd"}
    assert [c.note for c in checks.collect("can-fd")] == [c.note for c in made]
    assert can.__name__.removeprefix("goodput.") in chapters.get("can-fd").models


def _subcommands() -> list[str]:
    parser = cli.build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return list(action.choices)


def test_the_command_line_has_each_models_command_in_book_order_then_from_checks_and_export():
    declared = [command.name for chapter in chapters.CHAPTERS for command in chapter.commands()]
    assert len(declared) == len(set(declared))
    assert _subcommands() == declared + ["from", "checks", "export"]
    for chapter in chapters.CHAPTERS:
        for model in chapter.model_modules():
            command = getattr(model, "COMMAND", None)
            assert command is None or isinstance(command, Command), model.__name__


def test_the_calculations_are_the_render_modules_calculation_functions():
    with_calc = [c.id for c in chapters.CHAPTERS if callable(getattr(c.render(), "calculation", None))]
    assert list(calculations.CHAPTERS) == with_calc
    for chapter in with_calc:
        assert calculations.CHAPTERS[chapter] is chapters.get(chapter).render().calculation
        assert calculations.get(chapter).chapter == chapter


def test_an_unknown_chapter_or_one_without_a_model_is_named_in_the_error():
    with pytest.raises(KeyError, match="no chapter 'nope'; chapters: choose-a-link, line-coding"):
        chapters.get("nope")
    without = next(c for c in chapters.CHAPTERS if not c.has_calculation())
    with pytest.raises(KeyError, match=f"{without.id}.*has no model to calculate; chapters with one: choose-a-link, line-coding"):
        calculations.get(without.id)


def test_a_notebook_without_a_heading_is_named(tmp_path, monkeypatch):
    (tmp_path / "x.ipynb").write_text('{"cells": [{"cell_type": "markdown", "source": ["no heading"]}]}')
    monkeypatch.setattr(chapters, "NOTEBOOKS", tmp_path)
    with pytest.raises(ValueError, match="x.ipynb: no '# ' heading"):
        chapters.Chapter("x").title


@pytest.mark.slow  # it parses every module: a second
def test_a_chapter_id_is_written_in_the_registry_alone():
    """Every other module gets a chapter from the registry (``chapters.presenting(model)``,
    ``chapters.rendered_by(__name__)``), so renaming a chapter is one line. The ids that are also a command's or a
    link family's name (``spi``) are left out; a docstring may name a chapter; the generated specs copy the registry."""
    import ast
    from pathlib import Path

    package = Path(chapters.__file__).resolve().parents[1]
    allowed = {package / "core" / "chapters.py", package / "models" / "quick_spec.py"}
    ids = {i for i in chapters.ids() if "-" in i}
    found = []
    for path in sorted(package.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                      if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                      and node.body and isinstance(node.body[0], ast.Expr)}
        found += [f"{path.relative_to(package)}:{node.lineno} {node.value!r}" for node in ast.walk(tree)
                  if isinstance(node, ast.Constant) and node.value in ids and id(node) not in docstrings
                  and path not in allowed]
    assert len(ids) >= 12 and found == []
