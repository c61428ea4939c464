"""CatalogError, and the two checks every table's reader makes of an entry (a required key, no unknown key).
Separate because every part of the builder, and the reading of the files, raise it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class CatalogError(ValueError):
    """The catalog data is inconsistent (unknown name, bad signature, duplicate entry, ...)."""


def require(table: Mapping[str, Any], key: str, where: str) -> Any:
    if key not in table:
        raise CatalogError(f"{where}: missing '{key}'")
    return table[key]


def check_keys(table: Mapping[str, Any], allowed: set[str], where: str) -> None:
    unknown = sorted(set(table) - allowed)
    if unknown:
        raise CatalogError(f"{where}: unknown key(s) {', '.join(unknown)}")
