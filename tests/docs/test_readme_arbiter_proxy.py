"""README's "The arbiter first": the nginx rules it gives send the crowd and the arbiter where it says.

The rules are taken from the README itself, so the test fails if the text and the behaviour part. nginx runs
them for real in front of two small servers that answer with their own name; Django is not needed for the
routing, only for the session cookie's name."""

from __future__ import annotations

import http.client
import re
import shutil
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from django.conf import settings

README = Path(__file__).resolve().parents[2] / "README.md"


def readme_rules() -> str:
    text = README.read_text(encoding="utf-8")
    block = re.search(r"\n    # nginx, in http \{ \}\n((?:    .*\n)+)", text)
    assert block is not None, "README: the nginx rules under 'The arbiter first' are gone"
    return "\n".join(line[4:] for line in block.group(1).splitlines())


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_the_rules_route_on_the_session_cookie_django_sets() -> None:
    rules = readme_rules()
    assert f"$cookie_{settings.SESSION_COOKIE_NAME} " in rules
    assert "location /admin/ { proxy_pass http://damier_arbiter; }" in rules


def named_server(name: str) -> ThreadingHTTPServer:
    class Answer(BaseHTTPRequestHandler):
        def _answer(self) -> None:
            body = name.encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        do_GET = do_POST = _answer

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Answer)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


@pytest.fixture
def proxy(tmp_path: Path) -> Iterator[int]:
    nginx = shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if Path(p).exists()), None)
    if nginx is None:
        pytest.skip("nginx is not installed (Debian: nginx-light)")
    crowd, arbiter = named_server("crowd"), named_server("arbiter")
    port = free_port()
    rules = (readme_rules()
             .replace("127.0.0.1:8001", f"127.0.0.1:{crowd.server_address[1]}")
             .replace("127.0.0.1:8002", f"127.0.0.1:{arbiter.server_address[1]}")
             .replace("# listen 443 ssl, server_name, certificates ...", f"listen 127.0.0.1:{port};"))
    conf = tmp_path / "nginx.conf"
    conf.write_text(
        f"worker_processes 1; pid {tmp_path}/nginx.pid; error_log {tmp_path}/error.log; daemon off;\n"
        "events {}\n"
        f"http {{ access_log off; client_body_temp_path {tmp_path}/body; proxy_temp_path {tmp_path}/proxy;\n"
        f"{rules}\n}}\n")
    process = subprocess.Popen([nginx, "-e", str(tmp_path / "error.log"), "-c", str(conf), "-p", str(tmp_path)],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                assert process.poll() is None, (process.stdout.read() if process.stdout else b"").decode()
                time.sleep(0.05)
        yield port
    finally:
        process.terminate()
        process.wait(timeout=10)
        crowd.shutdown()
        arbiter.shutdown()


def served_by(port: int, method: str, path: str, cookie: str | None = None) -> str:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    connection.request(method, path, body=b"" if method == "POST" else None,
                       headers={"Cookie": cookie} if cookie else {})
    response = connection.getresponse()
    assert response.status == 200
    return response.read().decode()


def test_nginx_sends_the_crowd_to_its_server_and_the_arbiter_to_his(proxy: int) -> None:
    session = settings.SESSION_COOKIE_NAME
    assert served_by(proxy, "GET", "/t/open-2026/standings/") == "crowd"
    assert served_by(proxy, "GET", "/t/open-2026/round/3/", "django_language=fr; csrftoken=x") == "crowd"
    assert served_by(proxy, "GET", "/admin/login/") == "arbiter"
    assert served_by(proxy, "POST", "/admin/login/") == "arbiter"
    # Signed in, the arbiter reads the public pages on his own server too (he may see a draft round).
    assert served_by(proxy, "GET", "/t/open-2026/round/3/", f"{session}=abc123") == "arbiter"
    assert served_by(proxy, "GET", "/t/open-2026/standings/", f"csrftoken=x; {session}=abc123") == "arbiter"
