"""``python -m app.backup backup|restore``: copy the database to a file, and back.

    python -m app.backup backup [--into backups]       # `make backup`
    python -m app.backup restore FILE                   # `make restore FILE=...`

Uses DATABASE_URL (or ``--database-url``), as the server does.

- **SQLite**: SQLite's online backup API (``sqlite3.Connection.backup``) copies the
  database page by page while the server keeps writing, into ``parlour-<UTC time>.sqlite3``;
  a restore copies such a file into the database the same way. The result is a consistent
  database, the write-ahead log's committed pages included.
- **PostgreSQL**: ``pg_dump --format=custom`` (one consistent snapshot; the servers keep
  serving) into ``parlour-<UTC time>.dump``; a restore is ``pg_restore --clean
  --if-exists --no-owner --single-transaction`` into the database named: its tables are
  replaced whole or, should anything fail, not at all. ``pg_dump`` and ``pg_restore``
  must be of the server's major version or newer (checked first, with a message saying
  which to install). The password, if the URL has one, goes to them in ``PGPASSWORD``,
  never on a command line that ``ps`` shows.

Restore with the servers stopped: a running server holds rooms in memory that the restored
database no longer agrees with. A backup holds everything — people, their sessions and
password hashes — so keep the files as safe as the database.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import sqlite3
import subprocess
import sys
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import URL, create_engine, make_url, text

from app.config import Settings

SQLITE_SUFFIX, POSTGRES_SUFFIX = ".sqlite3", ".dump"


class BackupError(Exception):
    """A backup or restore that cannot be done, with the reason for the operator."""


def default_database_url() -> str:
    """DATABASE_URL as the server reads it (without needing the server's other settings:
    a backup needs no SECRET_KEY)."""
    return os.environ.get("DATABASE_URL") or str(Settings.model_fields["database_url"].default)


def backup_name(url: URL, now: datetime) -> str:
    suffix = SQLITE_SUFFIX if url.get_backend_name() == "sqlite" else POSTGRES_SUFFIX
    return f"parlour-{now.strftime('%Y%m%dT%H%M%SZ')}{suffix}"


def sqlite_path(url: URL) -> Path:
    if not url.database or url.database == ":memory:":
        raise BackupError("an in-memory SQLite database has nothing to back up")
    return Path(url.database)


def copy_sqlite(source: Path, target: Path) -> None:
    """SQLite's online backup: ``source`` copied whole into ``target`` (replacing it)."""
    with closing(sqlite3.connect(source)) as reading, closing(sqlite3.connect(target)) as writing:
        reading.backup(writing)


def libpq(url: URL) -> tuple[str, dict[str, str]]:
    """The libpq connection URI of a SQLAlchemy URL (without its password), and the
    environment that gives the password to pg_dump and pg_restore."""
    env = dict(os.environ)
    if url.password:
        env["PGPASSWORD"] = str(url.password)
    plain = url.set(drivername="postgresql", password=None)
    return plain.render_as_string(hide_password=False), env


def major_version(text_: str) -> int:
    """The major version in ``pg_dump (PostgreSQL) 15.20 (...)``."""
    found = re.search(r"(\d+)(?:\.\d+)?", text_)
    if found is None:
        raise BackupError(f"cannot read a PostgreSQL version from {text_!r}")
    return int(found.group(1))


def postgres_tool(name: str, url: URL) -> str:
    """The path of ``name`` (pg_dump, pg_restore), checked against the server's version."""
    path = shutil.which(name)
    if path is None:
        raise BackupError(f"{name} is not installed (Debian: apt-get install postgresql-client)")
    tool = major_version(subprocess.run([path, "--version"], capture_output=True, text=True).stdout)
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            number = int(conn.execute(text("SHOW server_version_num")).scalar_one())
    finally:
        engine.dispose()
    server = number // 10000
    if tool < server:
        raise BackupError(
            f"{name} is from PostgreSQL {tool}, the server runs {server}: install "
            f"postgresql-client-{server} (a dump must be made by the server's version or newer)"
        )
    return path


def run(command: list[str], env: dict[str, str]) -> None:
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise BackupError(f"{Path(command[0]).name} failed: {done.stderr.strip()}")


def backup(database_url: str, into: Path, now: datetime | None = None) -> Path:
    """Copy the database into a new file in ``into``; its path."""
    url = make_url(database_url)
    into.mkdir(parents=True, exist_ok=True)
    target = into / backup_name(url, now or datetime.now(UTC))
    if target.exists():
        raise BackupError(f"{target} exists already")
    if url.get_backend_name() == "sqlite":
        source = sqlite_path(url)
        if not source.exists():
            raise BackupError(f"there is no database at {source}")
        copy_sqlite(source, target)
        return target
    dump = postgres_tool("pg_dump", url)
    uri, env = libpq(url)
    run([dump, "--format=custom", "--no-owner", f"--file={target}", f"--dbname={uri}"], env)
    return target


def restore(database_url: str, source: Path) -> None:
    """Replace the database's contents with the backup at ``source``."""
    url = make_url(database_url)
    if not source.is_file():
        raise BackupError(f"there is no backup at {source}")
    if url.get_backend_name() == "sqlite":
        if source.suffix != SQLITE_SUFFIX:
            raise BackupError(f"{source} is not a SQLite backup (*{SQLITE_SUFFIX})")
        target = sqlite_path(url)
        target.parent.mkdir(parents=True, exist_ok=True)
        copy_sqlite(source, target)
        return
    if source.suffix != POSTGRES_SUFFIX:
        raise BackupError(f"{source} is not a PostgreSQL backup (*{POSTGRES_SUFFIX})")
    pg_restore = postgres_tool("pg_restore", url)
    uri, env = libpq(url)
    command = [pg_restore, "--clean", "--if-exists", "--no-owner", "--single-transaction"]
    run([*command, "--exit-on-error", f"--dbname={uri}", str(source)], env)


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m app.backup", description=__doc__)
    parser.add_argument("command", choices=["backup", "restore"])
    parser.add_argument("file", nargs="?", type=Path, help="restore: the backup to restore")
    parser.add_argument("--into", type=Path, default=Path("backups"), help="backup: where")
    parser.add_argument("--database-url", default=None)
    args = parser.parse_args(argv)
    database_url = args.database_url or default_database_url()
    try:
        if args.command == "backup":
            print(f"backed up to {backup(database_url, args.into)}")
        elif args.file is None:
            parser.error("restore needs the backup's file (make restore FILE=backups/...)")
        else:
            restore(database_url, args.file)
            print(f"restored {args.file}")
    except BackupError as error:
        raise SystemExit(f"{args.command}: {error}") from None


if __name__ == "__main__":
    main(sys.argv[1:])
