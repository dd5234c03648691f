# `make run` and `make test` each create or reuse .venv and install what they need:
# `run` only what playing needs, `test` the test tools on top.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
RUN_STAMP := $(VENV)/.installed-run
TEST_STAMP := $(VENV)/.installed-test

.PHONY: run test test-deep lint bench screenshots translations clean pi-check

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(RUN_STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(TEST_STAMP): $(RUN_STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

run: $(RUN_STAMP)
	$(BIN)/uno-showdown emulator

# The MicroPython test level runs the board code on MicroPython's WebAssembly port,
# pinned by package-lock.json; without Node those tests skip, saying why.
node_modules/.installed: package.json package-lock.json
	@if command -v npm >/dev/null 2>&1; then \
		npm ci --no-audit --no-fund --loglevel=error && touch $@; \
	else echo "npm not found: the MicroPython tests will skip (install Node.js 20)"; fi

# Tests run in one worker process per core and one more (pytest-xdist, at most 4: more would
# only fight over the brokers and browsers the tests start): much of a test's time is spent
# waiting (a countdown, a broker, a subprocess), so on two cores a third worker took the
# tests 263 s against 320 s for two, back to back, and with both cores held busy they still
# passed. Each test file stays whole in one worker, so a file's shared fixtures (a browser,
# an emulated Pico) start once; the files in the order collected, the longest first
# (tests/conftest.py says which), so that the workers end together. TEST_WORKERS=0 runs the
# suite in this process.
TEST_WORKERS ?= $(shell n=$$(( $$(nproc 2>/dev/null || echo 2) + 1 )); [ $$n -gt 4 ] && n=4; echo $$n)
# The tests' scratch folders (their games files, the tables' and the director's SQLite
# files, pytest's tmp_path) in memory, on the tmpfs at /dev/shm when it has a gigabyte free:
# on a disk every commit waits for its fsync, which on a busy machine doubled the SQLite
# tests' time. A process killed (the kill tests) leaves its writes in the page cache either
# way. TEST_TMPDIR= (empty) keeps $TMPDIR.
TEST_TMPDIR ?= $(shell d=/dev/shm; [ -d $$d ] && [ -w $$d ] && \
	[ "$$(df -Pk $$d 2>/dev/null | awk 'NR == 2 {print $$4}')" -ge 1048576 ] 2>/dev/null && echo $$d)
# Bytecode written even where the environment says not to (PYTHONDONTWRITEBYTECODE, as on
# some CI machines): the tests start the program in hundreds of processes, and in a fresh
# clone each compiled every module it imported again (about 30 s of a 5-minute run).
PYTEST := $(if $(TEST_TMPDIR),TMPDIR=$(TEST_TMPDIR)) PYTHONDONTWRITEBYTECODE= \
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(BIN)/python -m pytest -q \
	-n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder

# The whole suite: under five minutes on two cores (docs/development.md says how long).
test: $(TEST_STAMP) node_modules/.installed
	$(BIN)/ruff check .
	$(BIN)/mypy  # every package; settings in pyproject.toml
	$(PYTEST)

# The long hunt before a release (and in CI): every property test with thousands of examples
# and every long run at full length (tests/profiles.py), without the per-test time limit.
test-deep: $(TEST_STAMP) node_modules/.installed
	HYPOTHESIS_PROFILE=deep $(PYTEST) -m "hypothesis or deep" --timeout=0

lint: $(TEST_STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

# After editing a .po file (or marking new strings): new strings into every catalog, then
# every .mo compiled by Babel (tools/translations.py says how the domains are found).
translations: $(TEST_STAMP)
	$(BIN)/python -m tools.translations update
	$(BIN)/python -m tools.translations compile

bench: $(TEST_STAMP) node_modules/.installed
	for b in benchmarks/*.py; do echo "== $$b"; start=$$(date +%s); \
		$(BIN)/python $$b || exit 1; echo "== $$b took $$(( $$(date +%s) - start )) s"; done

# Every picture in docs/screenshots/, drawn by the program from scripted states
# (tools/screenshots.py): SDL's dummy driver for the screens, headless Chromium for the page.
screenshots: $(TEST_STAMP)
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(BIN)/python -m tools.screenshots

# The guide followed on a Debian arm64 system under qemu-user, outside `make test`: as root,
# with debootstrap and qemu-user-static (tools/pi_check.py says how; docs/raspberry-pi.md
# marks the commands it runs). PI_SUITES=bookworm for one; it takes tens of minutes;
# PI_KEEP=1 keeps the root (benchmarks/startup_instructions.py counts start-up in it);
# PI_CPU=cortex-a76 emulates a Pi 5 (the default is the Pi 4's Cortex-A72).
PI_SUITES ?= bookworm trixie
pi-check:
	for suite in $(PI_SUITES); do $(PYTHON) -m tools.pi_check --suite $$suite $(if $(filter 1 yes,$(PI_KEEP)),--keep) $(if $(PI_CPU),--cpu $(PI_CPU)) || exit 1; done

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache .mypy_cache node_modules
