"""
openseriesuy: a client of the Open Series UY API (Uruguayan statistical indicators).

    >>> from openseriesuy import Client
    >>> cpi = Client().values("consumer-price-index", start="2025-01")

Standard library only; with pandas installed the tabular calls return DataFrames.
"""

from .client import DEFAULT_BASE_URL, Client
from .errors import BadRequest, InternalError, MethodNotAllowed, NotFound, OpenSeriesError, TooManyRequests, error_from_answer
from .tables import Rows
from .transport import Stats

__all__ = [
    "Client",
    "DEFAULT_BASE_URL",
    "Rows",
    "Stats",
    "OpenSeriesError",
    "BadRequest",
    "NotFound",
    "MethodNotAllowed",
    "TooManyRequests",
    "InternalError",
    "error_from_answer",
]
