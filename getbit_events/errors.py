"""The project's error hierarchy: every error we raise on purpose derives from GetbitError."""

from __future__ import annotations

__all__ = ["GetbitError", "InputError", "RecordSyntaxError", "StoreError"]


class GetbitError(Exception):
    """Root of every error getbit-events raises on purpose."""


class InputError(GetbitError, ValueError):
    """Input that cannot be read: a missing file, a wrong encoding, a misused option."""


class RecordSyntaxError(InputError):
    """A record that does not follow its format; carries its position."""

    def __init__(self, message: str, file: str, line: int, column: int) -> None:
        super().__init__(f"{file}:{line}:{column}: {message}")
        self.file = file
        self.line = line
        self.column = column
        self.reason = message


class StoreError(GetbitError, RuntimeError):
    """The game store refuses an operation (a corrupt file, an append-only breach)."""
