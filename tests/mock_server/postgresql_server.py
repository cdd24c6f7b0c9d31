"""A real PostgreSQL for the tests: Debian's binaries, a temporary folder, a free port.

``initdb`` is found on the PATH or in ``/usr/lib/postgresql/*/bin`` (where
Debian's ``postgresql`` package puts it; ``make test`` installs it when it is
missing). PostgreSQL refuses to run as root, and CI runs as root: then the
cluster is made and run as ``nobody``, in a folder it owns. It listens on
127.0.0.1 and a socket in that folder only, with fsync off (the tests do not
pull the power), and is stopped at the end of the session.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import psycopg

#: Where Debian's packages put the server's programs.
DEBIAN_BINARIES = "/usr/lib/postgresql/*/bin"
#: The user the server runs as when the tests run as root.
UNPRIVILEGED = "nobody"


def find_binaries() -> Path | None:
    """The folder holding ``initdb``, ``pg_ctl`` and ``postgres``, or None."""
    found = shutil.which("initdb")
    if found is not None:
        folder = Path(os.path.realpath(found)).parent
        if (folder / "pg_ctl").exists():
            return folder
    candidates = sorted(
        glob.glob(DEBIAN_BINARIES), key=lambda p: [int(x) for x in Path(p).parent.name.split(".")]
    )
    for candidate in reversed(candidates):
        if (Path(candidate) / "initdb").exists():
            return Path(candidate)
    return None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class PostgresServer:
    """One PostgreSQL cluster in a temporary folder, on 127.0.0.1:``port``."""

    def __init__(self, binaries: Path, *, durable: bool = False) -> None:
        self.binaries = binaries
        #: fsync and synchronous commits on, as a real server has them (for benchmarks).
        self.durable = durable
        self.folder = Path(tempfile.mkdtemp(prefix="restwalk-pg-"))
        self.data = self.folder / "data"
        self.port = free_port()
        self._user: dict[str, Any] = {}
        if os.geteuid() == 0:
            entry = pwd.getpwnam(UNPRIVILEGED)
            os.chown(self.folder, entry.pw_uid, entry.pw_gid)
            self._user = {"user": entry.pw_uid, "group": entry.pw_gid, "extra_groups": []}
        self._run(
            "initdb",
            *("-D", str(self.data), "-U", "restwalk", "--auth=trust", "-E", "UTF8"),
            *("--locale=C", "--no-sync", "--no-instructions"),
        )
        self.start()
        self._databases = 0

    def _run(self, program: str, *args: str) -> None:
        subprocess.run(
            [str(self.binaries / program), *args],
            cwd=self.folder,
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            timeout=60,
            **self._user,
        )

    def _pg_ctl(self, action: str, *args: str) -> None:
        options = (
            f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c max_connections=200"
        )
        if not self.durable:
            options += " -c fsync=off -c full_page_writes=off -c synchronous_commit=off"
        self._run(
            "pg_ctl",
            action,
            *("-D", str(self.data), "-l", str(self.folder / "log"), "-w", "-t", "30"),
            *("-o", options, *args),
        )

    def start(self) -> None:
        """Start the server; returns once it accepts connections."""
        self._pg_ctl("start")

    def stop(self) -> None:
        """Stop the server (fast: connections are ended, nothing committed is lost)."""
        self._pg_ctl("stop", "-m", "fast")

    def url(self, database: str) -> str:
        return f"postgresql://restwalk@127.0.0.1:{self.port}/{database}"

    def admin(self, statement: str) -> None:
        """Run ``statement`` as the superuser, outside any database of the tests."""
        with psycopg.connect(self.url("postgres"), autocommit=True) as connection:
            connection.execute(statement.encode())

    def new_database(self) -> str:
        """A new empty database; its URL."""
        self._databases += 1
        name = f"test_{self._databases}"
        self.admin(f"CREATE DATABASE {name} TEMPLATE template0")
        return self.url(name)

    def drop_database(self, url: str) -> None:
        """Drop the database of ``url``, ending whatever is still connected to it."""
        self.admin(f"DROP DATABASE IF EXISTS {url.rsplit('/', 1)[1]} WITH (FORCE)")

    def close(self) -> None:
        """Stop the server and remove its folder."""
        try:
            self.stop()
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)
