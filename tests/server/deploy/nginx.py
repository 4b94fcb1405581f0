"""deploy/nginx/vertex.conf run by a test: the same file, its `# render:` lines rewritten for
the test's ports and paths, inside a small top-level config that keeps everything (pid,
logs, cache, temp files) in the test's folder. nginx runs in the foreground as a child."""

from __future__ import annotations

import getpass
import os
import re
import shutil
import subprocess
from pathlib import Path

import httpx

from tests.eventually import eventually
from tests.server.serve import free_port

ROOT = Path(__file__).resolve().parents[3]
DEPLOY = ROOT / "deploy"
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)


def render(conf: str, listen: int, upstreams: list[int], tmp: Path) -> str:
    """The site file with the lines marked `# render: WHAT` rewritten for a test."""
    lines = []
    ups = iter(upstreams)
    for line in conf.splitlines():
        m = re.search(r"#\s*render:\s*(\w+)", line)
        what = m.group(1) if m else None
        if what == "upstream":
            port = next(ups, None)
            if port is None:
                continue
            line = re.sub(r"127\.0\.0\.1:\d+", f"127.0.0.1:{port}", line)
        elif what == "listen":
            line = re.sub(r"listen \d+;", f"listen 127.0.0.1:{listen};", line)
        elif what == "listen6":
            continue  # loopback only
        elif what == "cache":
            line = line.replace("/var/cache/nginx/vertex", str(tmp / "cache"))
        elif what == "access":
            line = line.replace("/var/log/nginx/vertex.access.log", str(tmp / "access.log"))
        lines.append(line)
    out = "\n".join(lines) + "\n"
    assert "/var/" not in out, "a path of the real site is left in the rendered config"
    return out


class Nginx:
    def __init__(self, tmp: Path, upstreams: list[int], connections: int = 512) -> None:
        self.tmp = tmp
        self.connections = connections  # a proxied socket holds two
        self.port = free_port()
        self.upstreams = upstreams
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> None:
        assert NGINX is not None
        site = render(
            (DEPLOY / "nginx" / "vertex.conf").read_text(), self.port, self.upstreams, self.tmp
        )
        (self.tmp / "vertex.conf").write_text(site)
        # as root, nginx's workers would run as `nobody`, who cannot write the test's folder
        user = f"user {getpass.getuser()};" if os.geteuid() == 0 else ""
        temps = "\n".join(
            f"    {kind}_temp_path {self.tmp / kind};"
            for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
        )
        top = f"""{user}
daemon off;
worker_processes 1;
pid {self.tmp / "nginx.pid"};
error_log {self.tmp / "error.log"} warn;
events {{ worker_connections {self.connections}; }}
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
{temps}
    include {self.tmp / "vertex.conf"};
}}
"""
        conf = self.tmp / "nginx.conf"
        conf.write_text(top)
        check = subprocess.run(
            [NGINX, "-t", "-c", str(conf), "-p", str(self.tmp)], capture_output=True, timeout=30
        )
        assert check.returncode == 0, check.stderr.decode()
        with (self.tmp / "nginx.out").open("ab") as out:
            self.proc = subprocess.Popen(
                [NGINX, "-c", str(conf), "-p", str(self.tmp)], stdout=out, stderr=out
            )

        def up() -> bool:
            assert self.proc is not None and self.proc.poll() is None, self.errors()
            try:
                httpx.get(self.url + "/metrics", timeout=1)
            except httpx.TransportError:
                return False
            return True

        eventually(up, timeout=20, interval=0.05, what="nginx coming up")

    def errors(self) -> str:
        log = self.tmp / "error.log"
        return log.read_text(errors="replace") if log.exists() else ""

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()  # nginx: SIGTERM is a fast shutdown
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def env_file(path: Path = DEPLOY / "vertex.env") -> dict[str, str]:
    """The settings systemd would give the processes (EnvironmentFile=: KEY=value lines)."""
    out = {}
    for line in path.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            key, _, value = line.partition("=")
            out[key.strip()] = value.strip()
    return out
