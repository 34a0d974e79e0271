"""Real servers for the tests, started on loopback in a temporary folder and stopped after:
PostgreSQL, Redis and HAProxy from the machine's own binaries (Debian's `postgresql`,
`redis-server` and `haproxy`, which scripts/setup.sh installs).  A missing binary is a failure that says
how to install it, never a skip.

PostgreSQL will not run as root; as root (CI), its folder is given to the `postgres` user
that Debian's package creates and its programs run as that user.
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

INSTALL = ("run scripts/setup.sh (as root it installs Debian's postgresql, redis-server and haproxy), or apt-get"
           " install postgresql redis-server haproxy")


class MissingService(Exception):
    """A server the tests need is not installed (args[0] says how to get it)."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def postgres_bin(program: str) -> str:
    """A PostgreSQL server program: Debian keeps them in /usr/lib/postgresql/VERSION/bin."""
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{program}"), key=lambda p: int(Path(p).parts[4]))
    path = found[-1] if found else shutil.which(program)
    if path is None:
        raise MissingService(f"PostgreSQL's {program} is not installed: {INSTALL}")
    return path


@dataclass
class Postgres:
    folder: Path
    port: int
    as_user: list[str]
    options: str = ""  # pg_ctl's -o when it was started

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def database_url(self, name: str) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{name}"

    def halt(self) -> None:
        """Stop the server, keeping its data (`-m fast`: its connections are ended)."""
        subprocess.run([*self.as_user, postgres_bin("pg_ctl"), "-D", str(self.folder / "data"), "-m", "fast",
                        "stop"], capture_output=True, timeout=60, check=True)

    def start_again(self) -> None:
        """Start a halted server again, on the same port with the same data."""
        subprocess.run([*self.as_user, postgres_bin("pg_ctl"), "-D", str(self.folder / "data"),
                        "-l", str(self.folder / "server.log"), "-w", "-t", "60", "-o", self.options, "start"],
                       capture_output=True, timeout=90, check=True)

    def stop(self) -> None:
        subprocess.run([*self.as_user, postgres_bin("pg_ctl"), "-D", str(self.folder / "data"), "-m", "immediate",
                        "stop"], capture_output=True, timeout=60)
        shutil.rmtree(self.folder, ignore_errors=True)


async def new_database(server: Postgres) -> str:
    """The URL of a new, empty database on the server."""
    import asyncpg

    name = f"test_{next(_databases)}_{os.getpid()}"
    admin = await asyncpg.connect(server.url)
    try:
        await admin.execute(f"CREATE DATABASE {name}")
    finally:
        await admin.close()
    return server.database_url(name)


_databases = itertools.count(1)


def start_postgres() -> Postgres:
    """A new PostgreSQL server on a free loopback port (user postgres, no password)."""
    initdb, pg_ctl = postgres_bin("initdb"), postgres_bin("pg_ctl")
    folder = Path(tempfile.mkdtemp(prefix="riichi-pg-"))
    as_user: list[str] = []
    if os.geteuid() == 0:
        try:
            user = pwd.getpwnam("postgres")
        except KeyError:
            raise MissingService(f"there is no postgres user to run PostgreSQL as: {INSTALL}") from None
        os.chown(folder, user.pw_uid, user.pw_gid)
        as_user = ["runuser", "-u", "postgres", "--"]
    data, log = folder / "data", folder / "server.log"
    done = subprocess.run([*as_user, initdb, "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8",
                           "--no-sync"], capture_output=True, text=True, timeout=120)
    if done.returncode:
        shutil.rmtree(folder, ignore_errors=True)
        raise RuntimeError(f"initdb failed: {done.stderr.strip()}")
    port = free_port()
    options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c max_connections=200"
    done = subprocess.run([*as_user, pg_ctl, "-D", str(data), "-l", str(log), "-w", "-t", "60", "-o", options,
                           "start"], capture_output=True, text=True, timeout=90)
    if done.returncode:
        text = log.read_text() if log.exists() else ""
        shutil.rmtree(folder, ignore_errors=True)
        raise RuntimeError(f"PostgreSQL did not start: {done.stderr.strip()} {text[-2000:]}")
    return Postgres(folder, port, as_user, options)


@dataclass
class Redis:
    folder: Path
    port: int
    process: subprocess.Popen

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def pause(self) -> None:
        """Stop the server answering (SIGSTOP), as a cut connection looks to its clients."""
        self.process.send_signal(19)

    def resume(self) -> None:
        self.process.send_signal(18)

    def stop(self) -> None:
        self.resume()
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)
        shutil.rmtree(self.folder, ignore_errors=True)


def start_redis() -> Redis:
    """A new Redis server on a free loopback port, keeping nothing on disk."""
    program = shutil.which("redis-server") or (os.path.exists("/usr/bin/redis-server") and "/usr/bin/redis-server")
    if not program:
        raise MissingService(f"redis-server is not installed: {INSTALL}")
    folder = Path(tempfile.mkdtemp(prefix="riichi-redis-"))
    port = free_port()
    process = subprocess.Popen([program, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly",
                                "no", "--dir", str(folder), "--logfile", str(folder / "server.log")],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and process.poll() is None:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as connection:
                connection.sendall(b"PING\r\n")
                if connection.recv(16).startswith(b"+PONG"):
                    return Redis(folder, port, process)
        except OSError:
            time.sleep(0.05)
    process.kill()
    shutil.rmtree(folder, ignore_errors=True)
    raise RuntimeError("redis-server did not start")


@dataclass
class HAProxy:
    folder: Path
    port: int
    process: subprocess.Popen

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)
        shutil.rmtree(self.folder, ignore_errors=True)


def start_haproxy(backends: list[int], server_options: str = "", mode: str = "tcp") -> HAProxy:
    """HAProxy on a free loopback port in front of these loopback ports (round robin), in
    `mode` tcp or http; `server_options` go on each backend's line (send-proxy, send-proxy-v2).
    http mode adds X-Forwarded-For (option forwardfor)."""
    program = shutil.which("haproxy") or (os.path.exists("/usr/sbin/haproxy") and "/usr/sbin/haproxy")
    if not program:
        raise MissingService(f"haproxy is not installed: {INSTALL}")
    folder = Path(tempfile.mkdtemp(prefix="riichi-haproxy-"))
    port = free_port()
    servers = "\n".join(f"    server n{i} 127.0.0.1:{backend} {server_options}" for i, backend in enumerate(backends))
    (folder / "haproxy.cfg").write_text(f"""global
    maxconn 4000
defaults
    mode {mode}
    timeout connect 5s
    timeout client 1h
    timeout server 1h
    timeout tunnel 1h
{"    option forwardfor" if mode == "http" else ""}
frontend riichi
    bind 127.0.0.1:{port}
    default_backend nodes
backend nodes
    balance roundrobin
{servers}
""")
    process = subprocess.Popen([program, "-db", "-f", str(folder / "haproxy.cfg")], stdout=subprocess.DEVNULL,
                               stderr=open(folder / "haproxy.log", "wb"))  # noqa: SIM115 (open while it runs)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and process.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return HAProxy(folder, port, process)
        except OSError:
            time.sleep(0.05)
    process.kill()
    text = (folder / "haproxy.log").read_text(errors="replace")
    shutil.rmtree(folder, ignore_errors=True)
    raise RuntimeError(f"haproxy did not start: {text[-2000:]}")


class Front:
    """tests/front.py in a process of its own: one address in front of several nodes."""

    def __init__(self, backends: list[int]):
        import sys

        self.port = free_port()
        self.process = subprocess.Popen([sys.executable, "-m", "tests.front", str(self.port), *map(str, backends)],
                                        stdout=subprocess.PIPE, text=True, cwd=Path(__file__).resolve().parents[1])
        if self.process.stdout.readline().strip() != "listening":
            self.process.kill()
            raise RuntimeError("the front did not start")

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.process.kill()
        self.process.wait(10)
