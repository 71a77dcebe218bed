# Dumbbell: the two entry points are `make demo` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
# The stamp's name carries the recipe's version: bump it when the recipe
# below changes, so that venvs made before are brought up to date (editing
# anything else in this Makefile does not re-run pip).
STAMP := $(VENV)/.deps-installed-2

.PHONY: setup build demo test test-rust test-py bench oracle suites clean

# The venv has no setuptools (nothing here needs it; venvs of Python >= 3.12
# have none): its distutils-precedence.pth imports _distutils_hack at every
# start of the venv's Python, ~0.4 ms (1.6 M instructions) of each
# `dumbbell run`.
$(STAMP): requirements-dev.txt
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	$(BIN)/pip uninstall --quiet --disable-pip-version-check --yes setuptools
	touch $(STAMP)

setup: $(STAMP)

# Profile-guided optimisation: tools/pgo.py builds an instrumented engine,
# runs a training set and writes the profile the release build is compiled
# with (about 9% faster on the benchmark; same results).  It is redone when
# the Rust sources change.  `make build PGO=0` builds without it; without
# rustup's llvm-tools the profile is left empty and the build goes on (remove
# target/pgo to try again).
PGO ?= 1
PGO_DATA := target/pgo/dumbbell.profdata
RUST_SRC := $(wildcard Cargo.toml Cargo.lock crates/*/Cargo.toml crates/*/src/*.rs crates/*/src/*/*.rs crates/*/src/*/*/*.rs)

$(PGO_DATA): $(RUST_SRC) tools/pgo.py | $(STAMP)
	$(BIN)/python tools/pgo.py $@

ifeq ($(PGO),1)
build: $(PGO_DATA)
endif

# Build the Rust engine in release mode and install the package into .venv.
build: setup
	if [ "$(PGO)" = 1 ] && [ -s $(PGO_DATA) ]; then \
	  export RUSTFLAGS="$$RUSTFLAGS -Cprofile-use=$(abspath $(PGO_DATA))"; fi; \
	VIRTUAL_ENV=$(abspath $(VENV)) $(BIN)/maturin develop --release --quiet
	# Bytecode caches for the package: each `dumbbell run` would otherwise
	# compile cli/runner anew where PYTHONDONTWRITEBYTECODE is set (~4 ms).
	# Python checks them against the sources, so they cannot go stale.
	$(BIN)/python -m compileall -q python/dumbbell

demo: build
	$(BIN)/dumbbell demo

# The engine's tests run twice: optimised, and as a debug build, where the
# debug assertions guarding its unchecked accesses (ring, event queue) run.
test-rust:
	cargo test --release -p dumbbell-engine -p dumbbell-py
	cargo test -p dumbbell-engine

test-py: build
	$(BIN)/pytest -n auto tests

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
