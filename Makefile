# The two commands a newcomer needs: `make serve` and `make test`. Both set up .venv first.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# The page's browser libraries (three.js), pinned in package-lock.json, from the npm registry.
NODE_STAMP := node_modules/.installed
# The page's minified copy (tools/build-web.mjs: esbuild, file for file; the server serves it
# when it is up to date, else the source). Rebuilt whenever a file of the page changed.
WEB_SRC := $(shell find src/vertex/web -type f)
WEB_STAMP := build/web/.built

# Whether a Chromium for the browser tests is here (tests/web/conftest.py picks one).
HAVE_CHROMIUM := command -v chromium-headless-shell >/dev/null || command -v chromium >/dev/null || command -v chromium-browser >/dev/null

.PHONY: setup serve test check lint typecheck unit bench clean web

setup: $(STAMP) $(NODE_STAMP) $(WEB_STAMP)

$(STAMP): pyproject.toml setup.py $(wildcard src/vertex/ai/dots/*.c src/vertex/ai/dots/*.h)
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $(STAMP)

$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --ignore-scripts --loglevel=error
	touch $(NODE_STAMP)

$(WEB_STAMP): $(NODE_STAMP) tools/build-web.mjs $(WEB_SRC)
	node tools/build-web.mjs
	touch $(WEB_STAMP)

serve: $(STAMP) $(NODE_STAMP) $(WEB_STAMP)
	$(BIN)/vertex serve --host 127.0.0.1 --port 8000

web: $(WEB_STAMP)

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench

typecheck: $(STAMP)
	$(BIN)/mypy src

unit: $(STAMP) $(NODE_STAMP) $(WEB_STAMP)
	@$(HAVE_CHROMIUM) || \
	  echo "NOTE: Chromium is not installed: the browser tests (tests/web) will be SKIPPED. Install it with: apt-get install chromium chromium-headless-shell"
	@command -v chromium-headless-shell >/dev/null || ! command -v chromium >/dev/null || \
	  echo "NOTE: chromium-headless-shell is not installed: the browser tests use the full Chromium, about 1.6 times slower. Install it with: apt-get install chromium-headless-shell"
	@command -v nginx >/dev/null || test -x /usr/sbin/nginx || \
	  echo "NOTE: nginx is not installed: the deployment test (tests/server/deploy) will be SKIPPED. Install it with: apt-get install nginx"
	$(BIN)/python -m pytest -m "not slow" -n 2 --dist loadfile --durations=25
	@$(HAVE_CHROMIUM) || \
	  echo "NOTE: the browser tests (tests/web) were SKIPPED: Chromium is not installed."
	@command -v nginx >/dev/null || test -x /usr/sbin/nginx || \
	  echo "NOTE: the deployment test (tests/server/deploy) was SKIPPED: nginx is not installed."

test: lint typecheck unit

# The quick round while working (under a minute): all but the slow kinds of test — browser,
# real processes, physics, long computations (tests/conftest.py marks them); `make test`
# runs everything, as CI does.
check: $(STAMP)
	$(BIN)/python -m pytest -m "not slow and not browser and not process and not physics and not long"

bench: $(STAMP) $(NODE_STAMP) $(WEB_STAMP)
	$(BIN)/python -m pytest -m slow
	@for b in bench/bench_*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) build src/*.egg-info node_modules
