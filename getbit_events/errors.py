"""The project's error hierarchy: every error we raise on purpose derives from GetbitError."""

from __future__ import annotations

__all__ = ["GetbitError", "InputError", "StoreError"]


class GetbitError(Exception):
    """Root of every error getbit-events raises on purpose."""


class InputError(GetbitError, ValueError):
    """Input that cannot be read: a missing file, a wrong encoding, a misused option."""


class StoreError(GetbitError, RuntimeError):
    """The game store refuses an operation (a corrupt file, an append-only breach)."""
