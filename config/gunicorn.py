"""gunicorn's settings for Damier (`gunicorn -c config/gunicorn.py config.wsgi`): `make serve`, the README's
commands and bench/load.py use them; the command line still overrides any of them."""

from __future__ import annotations

import gc
from typing import Any

# Threads, not processes: a reader answered from the cache waits on the database and the socket, and eight
# of them share one interpreter's memory; two workers use the two cores of a small server.
worker_class = "gthread"
workers = 2
threads = 8
keepalive = 30
# A listening socket per worker, among which the kernel spreads new connections. With one shared socket the
# worker that happens to be polling takes them: at 200 players one worker held 42 of 50 readers' keep-alive
# connections and the other 8 (p50 50 ms against 9 ms; p95 90-117 ms). The price: two gunicorns of one
# user started on one port share it instead of the second failing.
reuse_port = True


def post_worker_init(worker: Any) -> None:
    # Django, the URL patterns, the templates and the translations are loaded and live as long as the
    # worker: frozen, they are no longer walked by every full pass of the garbage collector under load.
    gc.freeze()
