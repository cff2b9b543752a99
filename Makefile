# The README names two commands: `make run` and `make test`. Both create .venv and
# install the project into it on first use (and again when pyproject.toml changes).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test lint bench migrate clean

$(BIN)/activate: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e ".[dev]"
	touch $(BIN)/activate

migrate: $(BIN)/activate
	$(BIN)/alembic upgrade head

# The same flags as the Dockerfile: small frames only, and no per-message deflate
# (it costs 25-40% of server CPU on our small JSON messages; DESIGN.md §8).
UVICORN_FLAGS := --factory --ws-max-size 65536 --ws-per-message-deflate false

run: migrate
	$(BIN)/uvicorn app.main:create_app $(UVICORN_FLAGS) --host $(HOST) --port $(PORT)

test: $(BIN)/activate
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/pytest

lint: $(BIN)/activate
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

bench: $(BIN)/activate
	$(BIN)/python -m bench.engine
	$(BIN)/python -m bench.load

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
