"""Shared fixtures: the corpus (copied from the project's shared corpus) and test programs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
CORPUS = TESTS / "corpus"
PROGRAMS = TESTS / "programs"


def corpus_programs() -> list[Path]:
    return sorted(CORPUS.glob("*.psl"))


def malformed_cases() -> list[dict]:
    return json.loads((PROGRAMS / "malformed.json").read_text(encoding="utf-8"))


def valid_programs() -> list[Path]:
    return sorted((PROGRAMS / "valid").glob("*.psl"))


@pytest.fixture(scope="session")
def corpus_dir() -> Path:
    return CORPUS
