"""A real uvicorn server in a thread on a free localhost port: for what only a server shows
(its proxy headers, streams that stay open, connections that go)."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import uvicorn


@contextmanager
def serving(app: Any, **options: Any) -> Iterator[str]:
    """``app`` served with uvicorn's ``options`` (over quiet defaults); yields its base URL."""
    defaults: dict[str, Any] = {
        "log_level": "warning",
        "access_log": False,
        "timeout_graceful_shutdown": 1,
    }
    config = uvicorn.Config(app, lifespan="on", **(defaults | options))
    server = uvicorn.Server(config)
    listening = socket.socket()
    listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listening.bind(("127.0.0.1", 0))
    port = listening.getsockname()[1]
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listening]}, daemon=True)
    thread.start()
    # a real wait: the server thread starts on its own time, no clock of the service decides it
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        assert thread.is_alive(), "the server thread died"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=15)
        listening.close()
