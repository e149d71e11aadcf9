# The README's two commands: `make play` and `make test`. Both create .venv when it is missing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: play test lint bench check clean install difftest

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
