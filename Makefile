# make play   play against the engine (MicroPython unix port, 192K heap)
# make test   the whole test suite, on CPython and on MicroPython
# make bench  perft speed on both runtimes beside python-chess
# make fuzz   the fuzz tests with a long budget (FUZZ cases per surface and runtime)
#
# The first run makes .venv and installs requirements.txt and this project;
# later runs reinstall only when requirements.txt or pyproject.toml change.

PYTHON ?= python3
VENV := .venv
STAMP := $(VENV)/requirements.stamp

.PHONY: setup play test bench fuzz clean

FUZZ ?= 2000

NODE_STAMP := host_tools/pico/node_modules/.package-lock.json

setup: $(STAMP) $(NODE_STAMP)

$(STAMP): requirements.txt pyproject.toml
	test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install --quiet -r requirements.txt
	$(VENV)/bin/python -m pip install --quiet -e .
	touch $@

# The RP2040 emulator for the emulated-Pico tests (tests/test_pico.py) and
# `micro960 bench --pico`; without Node.js and npm those skip, saying why (with CI=true they fail).
$(NODE_STAMP): host_tools/pico/package.json host_tools/pico/package-lock.json
	@if command -v npm >/dev/null; then \
		npm ci --prefix host_tools/pico --no-audit --no-fund --silent || \
		echo "make: npm ci failed; the emulated-Pico tests will skip (fail with CI=true)"; \
	else echo "make: no npm (apt install nodejs npm); the emulated-Pico tests will skip (fail with CI=true)"; fi

play: $(STAMP)
	$(VENV)/bin/micro960 play $(ARGS)

test: $(STAMP) $(NODE_STAMP)
	$(VENV)/bin/python -m pytest -q tests

fuzz: $(STAMP) $(NODE_STAMP)
	MICRO960_FUZZ_EXAMPLES=$(FUZZ) $(VENV)/bin/python -m pytest -q tests -k fuzz

bench: $(STAMP)
	$(VENV)/bin/micro960 bench --perft

clean:
	rm -rf build .pytest_cache
