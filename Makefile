# The README names two commands: `make run` and `make test`. Both create .venv and
# install the project into it on first use (and again when pyproject.toml changes).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run run-many test lint bench migrate backup restore clean translations translations-update

$(BIN)/activate: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e ".[dev]"
	touch $(BIN)/activate

# The JavaScript linter (Biome) comes from npm, run by the Node.js that the dev extras put
# into the virtualenv, so no system Node is needed. `npm install --no-save` rather than
# `npm ci`: registry mirrors that carry only some of Biome's per-platform binaries make
# `npm ci` refuse a lock file that lists them all.
NODE_PATH_ENV := PATH="$(abspath $(BIN)):$$PATH"
node_modules/.package-lock.json: package.json package-lock.json $(BIN)/activate
	$(NODE_PATH_ENV) $(BIN)/npm install --no-save --no-audit --no-fund --loglevel=error
	touch node_modules/.package-lock.json

migrate: $(BIN)/activate
	$(BIN)/alembic upgrade head

# Backups of DATABASE_URL (app/backup.py): SQLite's online backup or pg_dump, into
# backups/parlour-<UTC time>.sqlite3 or .dump; `make restore FILE=backups/...` puts one back
# (stop the servers first).
BACKUPS ?= backups

backup: $(BIN)/activate
	$(BIN)/python -m app.backup backup --into $(BACKUPS)

restore: $(BIN)/activate
	@test -n "$(FILE)" || { echo "make restore FILE=backups/parlour-....sqlite3 (or .dump)"; exit 2; }
	$(BIN)/python -m app.backup restore "$(FILE)"

# The gettext catalogues of app/i18n/locale: `translations` compiles them (never
# committed compiled); `translations-update` adds the messages new in the sources to every
# language's catalogues, untranslated, and drops those gone (README: adding a language).
translations: $(BIN)/activate
	$(BIN)/python -m app.i18n compile

translations-update: $(BIN)/activate
	$(BIN)/python -m app.i18n update

# app/serve.py migrates, then starts uvicorn with the server's options (as the Docker
# image does). run-many: PROCESSES processes on consecutive ports from PORT, sharing the
# rooms through DATABASE_URL (PostgreSQL) and REDIS_URL; SIGHUP to it (the pid it prints)
# restarts them one at a time without dropping a table.
PROCESSES ?= 2

run: $(BIN)/activate translations
	$(BIN)/python -m app.serve --host $(HOST) --port $(PORT)

run-many: $(BIN)/activate translations
	$(BIN)/python -m app.serve --host $(HOST) --port $(PORT) --processes $(PROCESSES)

# The server and rules tests in parallel: one pytest-xdist worker per CPU (TEST_WORKERS=0:
# none, in one process), each with its own databases; worksteal lets an idle worker take tests
# a busy one still holds. Beside them, the browser tests one at a time: they mostly wait on
# Chromium and the wire (about a fifth of the CPU), and two of them side by side starve each
# other's event loops. The server tests' report is kept in test-artifacts/ and shown after
# the browser tests' own; either failing fails `make test`.
TEST_WORKERS ?= logical

test: lint translations
	mkdir -p test-artifacts
	$(BIN)/pytest -m "not e2e" -n $(TEST_WORKERS) --dist worksteal --durations=10 \
		> test-artifacts/server-tests.log 2>&1 & server=$$!; \
	$(BIN)/pytest -m e2e --durations=10; browser=$$?; \
	wait $$server; tests=$$?; cat test-artifacts/server-tests.log; \
	exit $$(( browser || tests ))

# Python: ruff (lint and format) and mypy (strict on app/ and games/); JavaScript: Biome.
lint: $(BIN)/activate node_modules/.package-lock.json
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(NODE_PATH_ENV) node_modules/.bin/biome check --error-on-warnings

# The PostgreSQL runs need a database of their own (createdb bench), emptied by each run,
# and Redis for the run with two processes.
BENCH_DATABASE_URL ?= postgresql+psycopg://postgres@127.0.0.1:5432/bench

bench: $(BIN)/activate
	$(BIN)/python -m bench.engine
	$(BIN)/python -m bench.bots
	$(BIN)/python -m bench.analysis
	$(BIN)/python -m bench.persistence
	$(BIN)/python -m bench.persistence --database-url $(BENCH_DATABASE_URL)
	$(BIN)/python -m bench.load --paced-rooms 1000
	$(BIN)/python -m bench.load --runs saturated,paced --paced-rooms 1000 \
		--database-url $(BENCH_DATABASE_URL) --reset-postgres
	$(BIN)/python -m bench.load --runs saturated,paced --paced-rooms 1000 --processes 2 \
		--database-url $(BENCH_DATABASE_URL) --reset-postgres

clean:
	rm -rf $(VENV) node_modules .pytest_cache .ruff_cache .mypy_cache
