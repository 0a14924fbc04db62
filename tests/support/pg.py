"""A throwaway PostgreSQL server for the tests and benchmarks (no Docker).

:func:`server` starts one per test session with the distribution's binaries
(``/usr/lib/postgresql/*/bin`` or ``pg_config --bindir``): ``initdb`` into a
temporary directory, ``pg_ctl start`` on 127.0.0.1 on a free port, trust
authentication for the ``postgres`` user.  PostgreSQL refuses to run as
root, so as root the server runs as the ``postgres`` system user (the
directory is handed to it).  It is stopped at exit.

``BGBOT_TEST_PG_URL`` (``postgresql://user@host:port/postgres``) uses an
existing server instead: each test still gets its own new database.

:func:`unavailable` says why PostgreSQL tests cannot run (or None).
"""

from __future__ import annotations

import atexit
import glob
import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from pathlib import Path

ENV_URL = "BGBOT_TEST_PG_URL"


def _bindir() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda p: int(Path(p).parent.parent.name)
                   if Path(p).parent.parent.name.isdigit() else 0)
    if found:
        return Path(found[-1]).parent
    pg_config = shutil.which("pg_config")
    if pg_config:
        out = subprocess.run([pg_config, "--bindir"], capture_output=True, text=True,
                             check=False).stdout.strip()
        if out and (Path(out) / "initdb").exists():
            return Path(out)
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def unavailable() -> str | None:
    """Why the PostgreSQL tests must be skipped, or None when they can run."""
    try:
        import asyncpg  # noqa: F401
    except ImportError:
        return "asyncpg is not installed (pip install asyncpg)"
    if os.environ.get(ENV_URL):
        return None
    if _bindir() is None:
        return ("PostgreSQL server binaries not found (apt-get install postgresql, "
                f"or set {ENV_URL}); see .ci/postgres-setup.sh")
    if os.geteuid() == 0:
        try:
            import pwd

            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root and there is no 'postgres' user to run the server as"
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """One PostgreSQL server in a temporary directory."""

    def __init__(self, *, fsync: bool = False) -> None:
        bindir = _bindir()
        assert bindir is not None, unavailable()
        self.bindir = bindir
        self.root = Path(tempfile.mkdtemp(prefix="bgbot-pg-"))
        self.data = self.root / "data"
        self.port = _free_port()
        self.fsync = fsync
        self._as: list[str] = []
        if os.geteuid() == 0:
            shutil.chown(self.root, "postgres", "postgres")
            self._as = ["runuser", "-u", "postgres", "--"]
        self.running = False

    def _run(self, *args: str) -> None:
        result = subprocess.run([*self._as, *args], capture_output=True, text=True,
                                check=False, cwd=self.root)
        if result.returncode != 0:
            log = self.root / "server.log"
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise RuntimeError(f"{args[0]} failed: {result.stderr or result.stdout}\n{tail}")

    def start(self) -> Server:
        self._run(str(self.bindir / "initdb"), "-D", str(self.data), "-U", "postgres",
                  "--auth=trust", "--encoding=UTF8", "--locale=C", "-N")
        options = (f"-h 127.0.0.1 -p {self.port} -k {self.root} -c max_connections=200 "
                   f"-c shared_buffers=64MB")
        if not self.fsync:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-l",
                  str(self.root / "server.log"), "-o", options, "-w", "-t", "60", "start")
        self.running = True
        atexit.register(self.stop)
        return self

    def stop(self) -> None:
        if self.running:
            self.running = False
            subprocess.run([*self._as, str(self.bindir / "pg_ctl"), "-D", str(self.data),
                            "-m", "fast", "-w", "stop"], capture_output=True, check=False)
        shutil.rmtree(self.root, ignore_errors=True)

    @property
    def admin_url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"


_server: Server | None = None


def admin_url() -> str:
    """The URL of the ``postgres`` database of the session's server."""
    global _server
    env = os.environ.get(ENV_URL)
    if env:
        return env
    if _server is None:
        _server = Server().start()
    return _server.admin_url


async def create_database(prefix: str = "t") -> str:
    """A new empty database on the session's server; its URL."""
    import asyncpg

    admin = admin_url()
    name = f"bgbot_{prefix}_{uuid.uuid4().hex[:12]}"
    conn = await asyncpg.connect(admin)
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    return admin.rsplit("/", 1)[0] + "/" + name


async def drop_database(url: str) -> None:
    import asyncpg

    name = url.rsplit("/", 1)[1]
    conn = await asyncpg.connect(admin_url())
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()
