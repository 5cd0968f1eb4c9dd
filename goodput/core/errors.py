"""Every error the library raises on bad input, in one place.

Both derive from :class:`ValueError` so callers that only care that the
input was wrong can catch that, and callers that want the details read the
attributes.
"""

from __future__ import annotations

__all__ = ["GoodputError", "ParameterError", "LogFormatError", "DataError"]


class GoodputError(ValueError):
    """Base class of the library's input errors."""


class ParameterError(GoodputError):
    """A model parameter outside its allowed range.

    Parameters
    ----------
    name : str
        The parameter's name as the caller spelt it (``lanes``, ``rate_gbaud``).
    value : object
        The value that was rejected.
    allowed : str
        The allowed range or set, in words (``"an integer from 1 to 32"``).
    """

    def __init__(self, name: str, value: object, allowed: str):
        self.name = name
        self.value = value
        self.allowed = allowed
        super().__init__(f"{name}={value!r} is not allowed: {name} must be {allowed}")


class LogFormatError(GoodputError):
    """A log file that does not parse: names the file and the line."""

    def __init__(self, path: str, line_number: int, message: str):
        self.path = str(path)
        self.line_number = line_number
        super().__init__(f"{self.path}:{line_number}: {message}")


class DataError(GoodputError):
    """A published table that is missing, unknown, or disagrees with its schema."""
