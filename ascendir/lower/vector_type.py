"""Reading `std::vector<T>` as written in a declaration: the host interpreter's run-time vectors and tables
(host_vector.py, host_vector_table.py) and a host program's vectors lowered as arrays (host_program_vectors.py) each
decide what T is, from this one argument."""

from __future__ import annotations

from frontend import ast as A


def vector_argument(type_ref: A.TypeRef, qualified: bool = False) -> A.TemplateArg | None:
    """The one template argument of a `std::vector<T>` type; None for any other type. Host code is read under
    `using namespace std` (`vector<T>` counts too); with `qualified`, only `std::vector<T>` itself, not a pointer
    to one."""
    base = type_ref.base
    if isinstance(base, str) or not base.parts:
        return None
    if qualified:
        if type_ref.pointers or [p.name for p in base.parts] != ["std", "vector"]:
            return None
    elif base.parts[-1].name != "vector":
        return None
    targs = base.parts[-1].template_args
    return targs[0] if targs and len(targs) == 1 else None
