"""Structural checks of API-call ops against the catalog (the op's `verify_` calls `check_call`).

Only what makes the IR ill-formed is checked here: an API outside its op's family, an overload id the
catalog does not have, or an argument count the overload cannot take. Whether the call is *correct*
AscendC (dtypes, positions, ranges) is the verifier's business, which reports every finding at once.
Calls of methods (TPipe, TQue, Matmul, ...) carry the object they are called on as their first operand.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from xdsl.utils.exceptions import VerifyException

if TYPE_CHECKING:
    from ascendir.catalog import Api
    from ascendir.dialects.ascendc import ApiCallOp


@lru_cache(maxsize=1)
def _apis_by_name() -> dict[str, list[Api]]:
    from ascendir.catalog import load_catalog

    out: dict[str, list[Api]] = {}
    for api in load_catalog().apis:
        out.setdefault(api.name, []).append(api)
    return out


def check_call(op: ApiCallOp) -> None:
    api_name = op.api.data
    candidates = [api for api in _apis_by_name().get(api_name, []) if api.family == op.FAMILY]
    if not candidates:
        raise VerifyException(f"'{api_name}' is not a catalogued API of the {op.FAMILY} family")
    overload_id = op.overload.data
    if not overload_id:
        return  # resolution failed and was reported; the call is kept as written
    found = [(api, ov) for api in candidates for ov in api.overloads if ov.id == overload_id]
    if not found:
        raise VerifyException(f"'{api_name}' has no overload '{overload_id}'")
    count = len(op.args)
    if not any(ov.required_count <= count - (api.receiver is not None) <= len(ov.params) for api, ov in found):
        raise VerifyException(f"'{api_name}' overload '{overload_id}' cannot take {count} operands")
