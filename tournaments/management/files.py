"""Reading the file a management command is given: one way for every import command."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import CommandError


def read_input(path: Path, limit: int | None = None, what: str = "") -> bytes:
    """The file's bytes, at most `limit` of them plus one (enough to tell it is over, without reading a wrong
    multi-gigabyte file); CommandError naming the file when it cannot be read, and when it is over the limit
    and `what` says what it should have been (otherwise the caller's own check words the size)."""
    try:
        with path.open("rb") as handle:
            data = handle.read() if limit is None else handle.read(limit + 1)
    except OSError as exc:
        raise CommandError(f"{path}: {exc.strerror or exc}") from None
    if limit is not None and what and len(data) > limit:
        raise CommandError(f"{path}: over {limit} bytes; not {what}.")
    return data
