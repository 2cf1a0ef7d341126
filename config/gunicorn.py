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


def post_worker_init(worker: Any) -> None:
    # Django, the URL patterns, the templates and the translations are loaded and live as long as the
    # worker: frozen, they are no longer walked by every full pass of the garbage collector under load.
    gc.freeze()
