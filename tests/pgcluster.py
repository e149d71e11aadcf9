"""A throwaway PostgreSQL cluster for tests: ``initdb`` into a temporary folder, started on a free loopback
port with its socket in that folder, stopped and deleted afterwards. Used by ``make test-postgres``.

PostgreSQL refuses to run as root; when the tests run as root (CI here does) the cluster runs as the
``postgres`` system user that Debian's package creates.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from pathlib import Path


class ClusterUnavailable(RuntimeError):
    """No PostgreSQL server programs on this machine (``make test-postgres`` installs them)."""


def server_bin() -> Path:
    """The folder holding ``initdb`` and ``pg_ctl`` of the newest installed PostgreSQL."""
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(Path(p).parent.name))
    for folder in reversed(candidates):
        if (Path(folder) / "initdb").exists():
            return Path(folder)
    initdb = shutil.which("initdb")
    if initdb:
        return Path(initdb).parent
    raise ClusterUnavailable("no PostgreSQL server found: apt-get install postgresql")


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def throwaway_cluster():
    """Start a cluster; yield its connection string (``postgresql://gibson@127.0.0.1:PORT/gibson``)."""
    binaries = server_bin()
    root = Path(tempfile.mkdtemp(prefix="gibson-pg-"))
    data = root / "data"
    as_root = os.geteuid() == 0
    prefix = ["runuser", "-u", "postgres", "--"] if as_root else []
    if as_root:
        shutil.chown(root, "postgres", "postgres")
        root.chmod(0o700)
    port = free_port()

    def run(*args: str) -> None:
        subprocess.run([*prefix, *args], check=True, capture_output=True, text=True, timeout=120)

    started = False
    try:
        run(str(binaries / "initdb"), "-D", str(data), "-U", "gibson", "--auth=trust", "-E", "UTF8", "--no-sync")
        options = (f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off "
                   "-c max_connections=200 -c shared_buffers=64MB")
        run(str(binaries / "pg_ctl"), "-D", str(data), "-o", options, "-l", str(root / "log"), "-w", "start")
        started = True
        run(str(binaries / "createdb"), "-h", "127.0.0.1", "-p", str(port), "-U", "gibson", "gibson")
        yield f"postgresql://gibson@127.0.0.1:{port}/gibson"
    except subprocess.CalledProcessError as exc:
        raise ClusterUnavailable(f"{exc.cmd[len(prefix)]} failed: {exc.stderr.strip()[-500:]}") from None
    finally:
        if started:
            subprocess.run([*prefix, str(binaries / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"],
                           capture_output=True, timeout=60)
        shutil.rmtree(root, ignore_errors=True)


def fresh_database(cluster_dsn: str) -> str:
    """A new empty database in the cluster: its connection string."""
    import psycopg

    name = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(cluster_dsn, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return cluster_dsn.rsplit("/", 1)[0] + "/" + name
