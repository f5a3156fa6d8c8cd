"""Shared fixtures: the corpus (copied from the project's shared corpus) and test programs."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.expectations import Case, load_cases
from tests.malformed_built import built_cases

TESTS = Path(__file__).resolve().parent
CORPUS = TESTS / "corpus"
PROGRAMS = TESTS / "programs"


def corpus_programs() -> list[Path]:
    return sorted(CORPUS.glob("*.psl"))


def malformed_cases() -> list[Case]:
    """Programs with a mistake; the expectation is their FIRST diagnostic."""
    return load_cases(PROGRAMS / "malformed") + built_cases()


def warning_cases() -> list[Case]:
    """Programs that compile with warnings; the expectations are ALL their diagnostics."""
    return load_cases(PROGRAMS / "warnings")


def valid_programs() -> list[Path]:
    return sorted((PROGRAMS / "valid").glob("*.psl"))


@pytest.fixture(scope="session")
def corpus_dir() -> Path:
    return CORPUS


@pytest.fixture()
def prog(tmp_path):
    """Writes a program text to a file in tmp_path; returns its path as a string."""
    def write(text: str, name: str = "p.psl") -> str:
        p = tmp_path / name
        p.write_text(text)
        return str(p)
    return write
