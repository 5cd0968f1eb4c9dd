# Goodput: the two commands a reader needs are `make book` and `make test`.
# Everything else they need (virtual environment, pinned Python packages, the
# book's JavaScript, a headless browser for the tests) is set up on the way.

PYTHON  ?= python3
# Python keeps each module it compiles in __pycache__ (ignored by git): the tests' workers, the notebooks'
# kernels and every command the tests start then load the book's modules instead of compiling them, and
# pytest keeps the test modules it rewrites for its assertions. A shell that turns this off
# (PYTHONDONTWRITEBYTECODE=1) would make each of those processes compile them all again.
unexport PYTHONDONTWRITEBYTECODE
VENV    := .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed
VENDOR  := _vendor/.complete
HTML    := _build/html/index.html
PORT    ?= 8000
CHROMIUM ?= /usr/bin/chromium
NOTEBOOKS := $(wildcard notebooks/*.ipynb)
# What the pages compute from. The build-time log is read by the status page alone (which is
# executed on every build that re-reads it), so a new one does not re-execute the chapters.
BUILD_TIMES := data/logs/host/build-times.log
MODELS  := $(filter-out $(BUILD_TIMES),$(shell find goodput data -type f -not -path '*/__pycache__/*'))
SOURCES := $(MODELS) $(shell find book -type f) $(NOTEBOOKS) _config.yml _toc.yml
# Sphinx re-reads a page when its own file changes, and jupyter-cache re-executes a notebook when
# its code changes; neither knows what the code imports. A change under goodput/ or data/, or a new
# environment, drops the execution cache and every page's doctree (all pages are read and executed
# again); a change to the book's Sphinx extensions drops the doctrees.
MODELS_STAMP := _build/.models-stamp
EXT_STAMP := _build/.extensions-stamp
# Each chapter's workbook, exported before the build so the pages can link it for download.
WORKBOOKS := _build/workbooks/.complete

.PHONY: book test test-fast test-other-cpu test-wheel publish actionlint serve lab refresh lock clean venv assets chromium libreoffice qemu workbooks capture firmware bench

## book: build the HTML book into _build/html (sets everything up first)
book: $(HTML)

# Only what changed is rebuilt: the notebooks missing from the execution cache are executed first,
# one per core (tools/build_book.py), then Sphinx reads the pages that changed and writes.
# Sphinx copies book/_static/ only when it writes a page: after a change to the book's scripts or styles
# alone every page is written again (--all; nothing is read or executed again), so the change reaches the site.
STATIC_STAMP := _build/.static-stamp
$(HTML): $(STAMP) $(VENDOR) $(SOURCES) $(MODELS_STAMP) $(EXT_STAMP) $(WORKBOOKS) $(wildcard $(BUILD_TIMES))
	$(BIN)/python tools/build_book.py --warningiserror --nitpick --keep-going \
	  $$(if [ -e $(STATIC_STAMP) ] && [ -z "$$(find book/_static -type f -newer $(STATIC_STAMP))" ]; then :; else echo --all; fi)
	@touch $(STATIC_STAMP) $@

$(MODELS_STAMP): $(MODELS) $(STAMP)
	rm -rf _build/.jupyter_cache _build/.doctrees
	@mkdir -p _build && touch $@

$(EXT_STAMP): $(wildcard book/_ext/*.py book/_ext/*.js)
	rm -rf _build/.doctrees
	@mkdir -p _build && touch $@

## workbooks: every chapter's model as .xlsx with live formulas, into _build/workbooks
workbooks: $(WORKBOOKS)
$(WORKBOOKS): $(STAMP) $(MODELS)
	rm -rf _build/workbooks
	$(BIN)/goodput export xlsx --all -o _build/workbooks
	@touch $@

# pytest on every core: one worker per core, each notebook's cells (and each module named in
# conftest.py's ONE_WORKER) kept on one worker (conftest.py's scheduler).
PYTEST := $(BIN)/python -m pytest -n auto

## test: run every test: unit, data, notebooks (nbval), the built book in a browser
# What times a real link (-m alone) runs after the others, by itself: beside them it comes out slow. Only
# the test modules that hold such a test are collected for it.
ALONE = $(shell grep -l 'mark\.alone' tests/test_*.py)
test: $(HTML) chromium libreoffice qemu actionlint
	$(PYTEST) --nbval --nbval-sanitize-with tests/nbval-sanitize.cfg -m "not alone and not wheel"
	$(BIN)/python -m pytest -p no:xdist -p no:nbval -m alone $(ALONE)

## test-fast: the quick inner loop (models, parsers, data, CLI, committed notebooks' digits; no book, no browser, no nbval)
test-fast: $(STAMP)
	GOODPUT_FUZZ_EXAMPLES=50 $(PYTEST) -p no:nbval -m "not book and not slow" tests

## publish: the built book as a static host serves it, into DEST (a folder that is emptied first): its pages,
## the workbooks they link, and .nojekyll (GitHub Pages would leave out the folders whose names start with _)
publish: $(HTML)
	@if [ -z "$(DEST)" ]; then echo "make publish DEST=folder: where to write the site" >&2; exit 2; fi
	rm -rf "$(DEST)" && mkdir -p "$(DEST)"
	cp -R _build/html/. "$(DEST)/"
	rm -f "$(DEST)/.buildinfo"
	touch "$(DEST)/.nojekyll"
	@echo "publish: $$(find "$(DEST)" -type f | wc -l) files in $(DEST); serve it as is, at its root or below a path"

## actionlint: the GitHub Actions workflows' linter (rhysd/actionlint, built from its Go module) into the venv
ACTIONLINT := $(BIN)/actionlint
actionlint: $(ACTIONLINT)
$(ACTIONLINT): | $(STAMP)
	@command -v go >/dev/null || { if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq golang-go; }
	GOBIN=$(abspath $(BIN)) go install github.com/rhysd/actionlint/cmd/actionlint@v1.7.12

## test-wheel: build the wheel, install it into a fresh environment away from the checkout, run the README's commands (CI runs it after make test)
test-wheel: $(STAMP)
	$(BIN)/python -m pytest -p no:nbval -m wheel tests/test_wheel.py

## test-other-cpu: the notebooks again (nbval) with the SIMD kernels of an older CPU (CI runs it after make test)
OTHER_CPU := OPENBLAS_CORETYPE=Prescott NPY_DISABLE_CPU_FEATURES="X86_V3 X86_V4 AVX512_ICL"
test-other-cpu: $(STAMP)
	$(OTHER_CPU) $(PYTEST) --nbval --nbval-sanitize-with tests/nbval-sanitize.cfg notebooks

## serve: read the built book at http://127.0.0.1:$(PORT)/
serve: $(HTML)
	$(BIN)/python -m http.server --bind 127.0.0.1 --directory _build/html $(PORT)

## lab: open the notebooks in JupyterLab on 127.0.0.1 (any user, root too), at the book's first chapter
# The server prints its address with a token, as JupyterLab does; it serves the repository, so the
# live figures load vega and the book's script from _vendor and book/_static (goodput.render.live)
# and each chapter's download link finds its workbook in _build/workbooks. The application is put in
# the page (expose_app_in_browser) for the book's script to number the figures code cells label.
# As root (CI, containers) JupyterLab refuses to start without --allow-root; other users need none.
FIRST_CHAPTER = $(shell sed -n 's/^ *- file: \(notebooks\/.*\)$$/\1/p' _toc.yml | head -n 1)
LAB_PORT ?= 8888
lab: $(STAMP) $(VENDOR) $(WORKBOOKS)
	$(BIN)/jupyter lab --ip 127.0.0.1 --port $(LAB_PORT) --ServerApp.root_dir=. --LabApp.expose_app_in_browser=True \
	  --LabApp.default_url=/lab/tree/$(FIRST_CHAPTER).ipynb $$(if [ "$$(id -u)" = 0 ]; then echo --allow-root; fi)

## bench: time the loop against its budgets (clean book, rebuilds, first control, test-fast, test, the command); writes data/logs/host/build-times.log
bench: $(STAMP) chromium
	$(BIN)/python tools/bench_build.py

## capture: build the benchmark firmware and capture its logs into data/logs/host (root for the shaped link) and, with QEMU, data/logs/qemu
capture:
	sh tools/capture.sh

## refresh: re-execute the notebooks in place after a model change, then commit them
refresh: $(STAMP)
	$(BIN)/jupyter nbconvert --to notebook --execute --inplace --ExecutePreprocessor.record_timing=False $(NOTEBOOKS)

venv: $(STAMP)
$(STAMP): requirements.lock pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements.lock
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
	@touch $@

assets: $(VENDOR)
$(VENDOR): js-assets.json tools/vendor_js.py $(STAMP)
	$(BIN)/python tools/vendor_js.py js-assets.json _vendor
	@touch $@

## chromium: the headless browser the tests drive (Debian's package)
chromium:
	@if [ ! -x $(CHROMIUM) ]; then \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; \
	fi

## libreoffice: the spreadsheet engine that recalculates the workbooks in the tests (Debian's packages)
libreoffice:
	@if ! command -v soffice >/dev/null || [ ! -e /usr/lib/python3/dist-packages/uno.py ]; then \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && $$SUDO env DEBIAN_FRONTEND=noninteractive \
	    apt-get install -y -qq --no-install-recommends libreoffice-calc-nogui python3-uno; \
	fi

## qemu: the Arm cross compiler, picolibc and QEMU that build and run the bare-metal firmware (Debian's packages)
PICOLIBC_SPECS := /usr/lib/picolibc/arm-none-eabi/picolibc.specs
# the Cortex-R5F objects (firmware objects-r5f) compile against newlib's headers, as data/logs/host/size-r5f.log was
NEWLIB_STDIO := /usr/lib/arm-none-eabi/include/stdio.h
qemu:
	@if ! command -v qemu-system-arm >/dev/null || ! command -v arm-none-eabi-gcc >/dev/null \
	    || [ ! -e $(PICOLIBC_SPECS) ] || [ ! -e $(NEWLIB_STDIO) ]; then \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && $$SUDO env DEBIAN_FRONTEND=noninteractive \
	    apt-get install -y -qq --no-install-recommends gcc-arm-none-eabi picolibc-arm-none-eabi \
	      libnewlib-arm-none-eabi qemu-system-arm; \
	fi

## lock: re-pin requirements.lock from pyproject.toml in a scratch environment
lock:
	rm -rf /tmp/goodput-lock && $(PYTHON) -m venv /tmp/goodput-lock
	/tmp/goodput-lock/bin/pip install --quiet -e ".[book,test]"
	( head -n 2 requirements.lock; /tmp/goodput-lock/bin/pip freeze --exclude-editable ) > requirements.lock.new
	mv requirements.lock.new requirements.lock

clean:
	rm -rf _build _vendor .jupyter_cache
