# `make run` and `make test` each create or reuse .venv and install what they need.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/uno-showdown emulator

# The MicroPython test level runs the board code on MicroPython's WebAssembly port,
# pinned by package-lock.json; without Node those tests skip, saying why.
node_modules/.installed: package.json package-lock.json
	@if command -v npm >/dev/null 2>&1; then \
		npm ci --no-audit --no-fund --loglevel=error && touch $@; \
	else echo "npm not found: the MicroPython tests will skip (install Node.js 20)"; fi

test: $(STAMP) node_modules/.installed
	$(BIN)/ruff check .
	$(BIN)/mypy  # every package; settings in pyproject.toml
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(BIN)/python -m pytest -q

bench: $(STAMP) node_modules/.installed
	for b in benchmarks/*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache .mypy_cache node_modules
