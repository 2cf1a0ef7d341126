"""A watchdog for "never hangs" properties: not a speed check (benchmarks live in bench/).

The bound is far beyond any honest run on a loaded machine; only a runaway loop reaches it.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

RUNAWAY_SECONDS = 60


class Runaway(AssertionError):
    pass


@contextmanager
def no_hang(seconds: int = RUNAWAY_SECONDS) -> Iterator[None]:
    if not hasattr(signal, "SIGALRM"):
        yield
        return

    def fire(signum: int, frame: FrameType | None) -> None:
        raise Runaway(f"still running after {seconds} s: a runaway loop")

    previous = signal.signal(signal.SIGALRM, fire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
