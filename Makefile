# make play   play against the engine (MicroPython unix port, 256K heap)
# make test   the whole test suite, on CPython and on MicroPython
# make bench  perft speed on both runtimes beside python-chess
# make fuzz   the fuzz tests with a long budget (FUZZ cases per surface and runtime)
# make nnue   generate labelled positions, train the network, export its weights
#             (build/nnue/; NNUE_POSITIONS, NNUE_DEPTH, NNUE_HIDDEN ... below)
#
# The first run makes .venv and installs requirements.txt and this project;
# later runs reinstall only when requirements.txt or pyproject.toml change.

PYTHON ?= python3
VENV := .venv
STAMP := $(VENV)/requirements.stamp

.PHONY: setup play test bench fuzz nnue clean

FUZZ ?= 2000

NODE_STAMP := host_tools/pico/node_modules/.package-lock.json

setup: $(STAMP) $(NODE_STAMP)

$(STAMP): requirements.txt pyproject.toml
	test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install --quiet --disable-pip-version-check -r requirements.txt -e .
	touch $@

# numpy for the network's trainer and its test (requirements-train.txt),
# kept out of requirements.txt: the engine and its other tools never need it.
TRAIN_STAMP := $(VENV)/requirements-train.stamp

$(TRAIN_STAMP): requirements-train.txt $(STAMP)
	$(VENV)/bin/python -m pip install --quiet --disable-pip-version-check -r requirements-train.txt
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

# The tests run side by side, TEST_JOBS at a time (pytest-xdist's -n; the
# number of cores by default): `make test TEST_JOBS=1` runs them one by one.
TEST_JOBS ?= auto

test: $(STAMP) $(TRAIN_STAMP) $(NODE_STAMP)
	$(VENV)/bin/python -m pytest -q -n $(TEST_JOBS) tests

fuzz: $(STAMP) $(TRAIN_STAMP) $(NODE_STAMP)
	MICRO960_FUZZ_EXAMPLES=$(FUZZ) $(VENV)/bin/python -m pytest -q -n $(TEST_JOBS) tests -k fuzz

# The network (host_tools/nnue/README.md): NNUE_POSITIONS positions of games in
# every rule set labelled by Stockfish at NNUE_DEPTH, NNUE_SELFPLAY of
# Stockfish's games with random moves at NNUE_SELFPLAY_DEPTH, a network of
# NNUE_HIDDEN units and NNUE_BUCKETS output buckets trained on both (and
# their mirrors) for NNUE_EPOCHS, its weights in build/nnue/micro960.nnue.
# Then, unless NNUE_TUNE is 0, NNUE_TUNE more of selfplay's positions
# (seed NNUE_TUNE_SEED) labelled deeper, at NNUE_TUNE_DEPTH, and the network
# trained on from those weights on them for NNUE_TUNE_EPOCHS at NNUE_TUNE_LR,
# the rate falling by NNUE_TUNE_DECAY each epoch. NNUE_EXTRA and NNUE_TUNE_EXTRA
# name more data files (plain or .xz, such as ../shared/data/nnue/'s) that each
# stage trains on beside its own; each file's last games are held back.
# Everything runs at nice 19: it is long, and the machine's other work comes first.
NNUE_POSITIONS ?= 300000
NNUE_DEPTH ?= 8
NNUE_SELFPLAY ?= 2600000
NNUE_SELFPLAY_DEPTH ?= 6
NNUE_HIDDEN ?= 24
NNUE_BUCKETS ?= 4
NNUE_EPOCHS ?= 30
NNUE_SEED ?= 1
NNUE_JOBS ?= 2
NNUE_DIR ?= build/nnue
NNUE_TUNE ?= 600000
NNUE_TUNE_DEPTH ?= 8
NNUE_TUNE_SEED ?= 37
NNUE_TUNE_EPOCHS ?= 4
NNUE_TUNE_LR ?= 1e-4
NNUE_TUNE_DECAY ?= 0.7
NNUE_EXTRA ?=
NNUE_TUNE_EXTRA ?=

nnue: $(STAMP) $(TRAIN_STAMP)
	nice -n 19 $(VENV)/bin/python -m host_tools.nnue.generate --positions $(NNUE_POSITIONS) \
		--depth $(NNUE_DEPTH) --seed $(NNUE_SEED) --jobs $(NNUE_JOBS) --out $(NNUE_DIR)/games.tsv
	nice -n 19 $(VENV)/bin/python -m host_tools.nnue.selfplay --positions $(NNUE_SELFPLAY) \
		--depth $(NNUE_SELFPLAY_DEPTH) --seed $(NNUE_SEED) --jobs $(NNUE_JOBS) \
		--out $(NNUE_DIR)/selfplay.tsv
	cat $(NNUE_DIR)/games.tsv $(NNUE_DIR)/selfplay.tsv > $(NNUE_DIR)/positions.tsv
	nice -n 19 $(VENV)/bin/python -m host_tools.nnue.train --data $(NNUE_DIR)/positions.tsv $(NNUE_EXTRA) \
		--hidden $(NNUE_HIDDEN) --buckets $(NNUE_BUCKETS) --epochs $(NNUE_EPOCHS) --mirror \
		--seed $(NNUE_SEED) --out $(NNUE_DIR)/float.npz
	$(VENV)/bin/python -m host_tools.nnue.export --model $(NNUE_DIR)/float.npz \
		--out $(NNUE_DIR)/micro960.nnue
	if [ $(NNUE_TUNE) -gt 0 ]; then \
		nice -n 19 $(VENV)/bin/python -m host_tools.nnue.selfplay --positions $(NNUE_TUNE) \
			--depth $(NNUE_SELFPLAY_DEPTH) --label-depth $(NNUE_TUNE_DEPTH) \
			--seed $(NNUE_TUNE_SEED) --jobs $(NNUE_JOBS) --out $(NNUE_DIR)/tune.tsv && \
		nice -n 19 $(VENV)/bin/python -m host_tools.nnue.train --data $(NNUE_DIR)/tune.tsv $(NNUE_TUNE_EXTRA) \
			--init $(NNUE_DIR)/micro960.nnue --epochs $(NNUE_TUNE_EPOCHS) --lr $(NNUE_TUNE_LR) \
			--decay $(NNUE_TUNE_DECAY) --mirror --seed $(NNUE_SEED) --out $(NNUE_DIR)/tuned.npz && \
		$(VENV)/bin/python -m host_tools.nnue.export --model $(NNUE_DIR)/tuned.npz \
			--out $(NNUE_DIR)/micro960.nnue; \
	fi

bench: $(STAMP)
	$(VENV)/bin/micro960 bench --perft

clean:
	rm -rf build .pytest_cache
