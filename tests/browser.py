"""Shared plumbing of the browser tests: Debian's Chromium through Playwright (never a browser
download) and uvicorn serving an app on a free loopback port in a background thread."""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def require_chromium() -> None:
    """Skip the calling test module without Chromium; under CI its absence is a failure."""
    if os.path.exists(CHROMIUM) and shutil.which(CHROMIUM):
        return
    if os.environ.get("CI"):
        pytest.fail(f"CI: {CHROMIUM} is missing (apt-get install chromium)", pytrace=False)
    pytest.skip(f"{CHROMIUM} is missing", allow_module_level=True)


def bound_socket() -> socket.socket:
    """A loopback socket bound to a port the kernel chose, handed to uvicorn still open: asking
    for a free port, closing it and letting uvicorn bind it again is a race when the suite runs
    in parallel (pytest-xdist), as another worker's server may take the port in between."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind(("127.0.0.1", 0))
    return s


@contextmanager
def serve(app: object, log_level: str = "warning", **config: object) -> Iterator[str]:
    """Run ``app`` with uvicorn on 127.0.0.1 until the block ends; yields its base URL.
    ``config``: more ``uvicorn.Config`` options (e.g. ``timeout_graceful_shutdown``)."""
    import uvicorn

    sock = bound_socket()
    port = int(sock.getsockname()[1])
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level=log_level, **config))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.time() + 20
    while not server.started:
        if time.time() > deadline or not thread.is_alive():
            pytest.fail("the server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


@contextmanager
def chromium() -> Iterator[object]:
    """A headless Chromium browser (Playwright)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            yield b
        finally:
            b.close()
