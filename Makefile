# Dumbbell: the two entry points are `make demo` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.deps-installed

.PHONY: setup build demo test test-rust test-py bench oracle suites clean

$(STAMP): requirements-dev.txt
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $(STAMP)

setup: $(STAMP)

# Build the Rust engine in release mode and install the package into .venv.
build: setup
	VIRTUAL_ENV=$(abspath $(VENV)) $(BIN)/maturin develop --release --quiet

demo: build
	$(BIN)/dumbbell demo

test-rust:
	cargo test --release -p dumbbell-engine

test-py: build
	$(BIN)/pytest tests

test: test-rust test-py

# ns-2's own validation suites (needs the ns2-examples package)
suites: build
	$(VENV)/bin/python tests/suites/run_suites.py

# Needs the real ns-2 (/usr/bin/ns): regenerate every fixture, then compare
# ns-2 and Dumbbell on 200 freshly generated scenarios.
oracle: build
	$(BIN)/python tests/ns2/regen.py
	$(BIN)/python tests/random/regen.py
	$(BIN)/python tests/random/check.py -n 200 --dumbbell "$(abspath $(BIN))/dumbbell run"

bench: build
	$(BIN)/python benches/run.py

clean:
	rm -rf $(VENV) target
