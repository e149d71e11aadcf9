# The README's two commands: `make play` and `make test`. Both create .venv when it is missing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: play test test-postgres lint bench check clean install difftest

$(STAMP): pyproject.toml setup.py gibson_core/_kernel.c
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,rl]'
	touch $(STAMP)

install: $(STAMP)

play: $(STAMP)
	$(BIN)/gibson play

test: $(STAMP)
	$(BIN)/python -m pytest

# The store suite, a two-node game and a two-node load test against a throwaway PostgreSQL cluster
# (tests marked `postgres`; `make test` deselects them). Installs PostgreSQL from the system's packages if needed.
test-postgres: $(STAMP)
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null 2>&1 || \
		(apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql)
	$(BIN)/python -m pip install --quiet -e '.[test,postgres]'
	$(BIN)/python -m pytest -m postgres

lint: $(STAMP)
	$(BIN)/ruff check .

check: $(STAMP)
	$(BIN)/gibson check tests/vectors/conformance/*.yaml tests/vectors/*.yaml

bench: $(STAMP)
	$(BIN)/gibson bench tri-tactics

difftest: $(STAMP)
	$(BIN)/gibson difftest --games 100

clean:
	rm -rf $(VENV) build *.egg-info gibson_core/_kernel*.so
