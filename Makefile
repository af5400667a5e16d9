# Fault Lines: build, serve and test everything from a fresh machine.
# `make serve` builds the site and serves it on http://127.0.0.1:8000; `make test` runs every test.
SHELL := /bin/bash
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
DEV_STAMP := $(VENV)/.dev-installed
RAY_VENV := .venv-ray
RAY_STAMP := $(RAY_VENV)/.ray-installed
NODE_STAMP := node_modules/.installed
SITE_VENV := .venv-site
SITE_STAMP := $(SITE_VENV)/.site-installed
BROWSER_STAMP := $(VENV)/.browser-installed

.PHONY: test test-extra test-ray conformance-live stress-grade-all lint serve site dev ray-venv node-deps pyodide-wheels site-deps browser-deps sandbox-deps bench mutants wheels clean

## Python dev environment (miniray editable + test tools)
$(DEV_STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $@
dev: $(DEV_STAMP)

## Real Ray 2.60 in its own venv, for the conformance suite. ray[default]: the state API, `ray memory`
## and the metrics agent, whose output the lessons quote (tests/conformance/scenarios/lesson*.py)
$(RAY_STAMP):
	$(PY) -m venv $(RAY_VENV)
	$(RAY_VENV)/bin/pip install -q --upgrade pip
	$(RAY_VENV)/bin/pip install -q 'ray[default]==2.60.0'
	touch $@
ray-venv: $(RAY_STAMP)

## Node packages (Pyodide core files for the parity tests)
$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@
node-deps: $(NODE_STAMP)

## Pure-Python wheels (pytest and its deps, exact pins) unzipped into Pyodide by the parity tests
PYODIDE_WHEELS := build/pyodide-wheels
PYODIDE_WHEELS_STAMP := $(PYODIDE_WHEELS)/.downloaded
$(PYODIDE_WHEELS_STAMP): tests/pyodide/wheels.txt
	rm -rf $(PYODIDE_WHEELS) && mkdir -p $(PYODIDE_WHEELS)
	$(PY) -m pip download -q --only-binary=:all: --no-deps --implementation py --platform any \
		--python-version 3.14 -d $(PYODIDE_WHEELS) -r tests/pyodide/wheels.txt
	touch $@
pyodide-wheels: $(PYODIDE_WHEELS_STAMP)

## Lint and types: ruff (lint and format) on the tree, mypy on miniray, the course package, the site
## build (hooks/: the MkDocs entry and its site_build package) and the conformance runner (conformance/).
lint: $(DEV_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy miniray faultlines hooks conformance

test: lint $(DEV_STAMP) $(RAY_STAMP) $(NODE_STAMP) $(PYODIDE_WHEELS_STAMP) browser-deps sandbox-deps site
	RAY_PYTHON=$(CURDIR)/$(RAY_VENV)/bin/python $(BIN)/python -m pytest -q --durations=15 -m "not slow_extra"

## The slower variants of checks make test already makes (marked slow_extra): more themes and widths
test-extra: $(DEV_STAMP) $(RAY_STAMP) $(NODE_STAMP) $(PYODIDE_WHEELS_STAMP) browser-deps sandbox-deps site
	RAY_PYTHON=$(CURDIR)/$(RAY_VENV)/bin/python $(BIN)/python -m pytest -q -m slow_extra

## grade-all --ray against a real Ray cluster started on this machine (slow to start: not in `make test`)
test-ray: $(DEV_STAMP) $(RAY_STAMP) sandbox-deps
	FAULTLINES_TEST_RAY=1 RAY_PYTHON=$(CURDIR)/$(RAY_VENV)/bin/python $(BIN)/python -m pytest -q tests/ray_cluster

## Every conformance scenario on real Ray 2.60, the slow ones too (LIVE_ON_RAY = False: only their recording in `make test`)
conformance-live: $(DEV_STAMP) $(RAY_STAMP)
	FAULTLINES_CONFORMANCE_LIVE=all RAY_PYTHON=$(CURDIR)/$(RAY_VENV)/bin/python $(BIN)/python -m pytest -q tests/conformance

## grade-all --jobs 2 of a few hundred correct submissions, 0 spurious failures (slow: not in `make test`)
stress-grade-all: $(DEV_STAMP) sandbox-deps
	FAULTLINES_STRESS=1 $(BIN)/python -m pytest -q -s tests/stress

## Mutation testing of the exercises' reference solutions (slow: not part of `make test`)
mutants: $(DEV_STAMP)
	$(BIN)/python tests/mutants/run_mutants.py

## The two distributions, miniray and faultlines (which depends on miniray), as wheels in dist/
wheels: $(DEV_STAMP)
	$(BIN)/pip wheel -q --no-deps -w dist . ./packaging/faultlines

bench: $(DEV_STAMP) $(RAY_STAMP) $(NODE_STAMP)
	RAY_PYTHON=$(CURDIR)/$(RAY_VENV)/bin/python $(BIN)/python bench/run_all.py

## Course site: MkDocs Material + the offline JupyterLite playground (hooks/site_build/), built into site/.
## Site tools live in their own venv so the miniray dev env stays light.
$(SITE_STAMP): requirements-site.txt
	$(PY) -m venv $(SITE_VENV)
	$(SITE_VENV)/bin/pip install -q --upgrade pip
	$(SITE_VENV)/bin/pip install -q -r requirements-site.txt
	touch $@
site-deps: $(SITE_STAMP)

site: $(SITE_STAMP) $(NODE_STAMP)
	NO_MKDOCS_2_WARNING=1 $(SITE_VENV)/bin/mkdocs build --strict

serve: site
	$(SITE_VENV)/bin/python -m hooks.site_build.serve site --port 8000

## Browser tests: Debian's Chromium (apt, only if missing) driven by Python playwright in the dev
## venv. Never `playwright install`: it downloads its own browser, which this network refuses.
$(BROWSER_STAMP): requirements-browser.txt $(DEV_STAMP)
	test -x /usr/bin/chromium || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium)
	$(BIN)/pip install -q -r requirements-browser.txt
	touch $@
browser-deps: $(BROWSER_STAMP)

## The grader's sandbox: Debian's bubblewrap (apt, only if missing), as Chromium above. The CLI
## probes it before grading (faultlines/sandbox/machine.py) and says what it found.
sandbox-deps:
	test -x /usr/bin/bwrap || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq bubblewrap)

clean:
	rm -rf site build dist .pytest_cache
