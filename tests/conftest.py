"""Shared fixtures."""

from __future__ import annotations

from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parent.parent.parent / "shared"
CORPUS = SHARED / "corpus" / "pdn"


@pytest.fixture
def corpus_dir() -> Path:
    """The shared PDN corpus, read in place; tests using it skip cleanly when it is absent."""
    if not CORPUS.is_dir():
        pytest.skip(f"shared corpus not found at {CORPUS}")
    return CORPUS
