"""Every pass `ascendir-opt --passes` accepts, by the name users type.

A pipeline is a comma-separated list: `--passes canonicalize,cse`. Passes are xDSL `ModulePass`es; ours
live beside this file, the generic clean-ups come from xDSL itself.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.passes import ModulePass


def _xdsl_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    def canonicalize() -> type[ModulePass]:
        from xdsl.transforms.canonicalize import CanonicalizePass

        return CanonicalizePass

    def cse() -> type[ModulePass]:
        from xdsl.transforms.common_subexpression_elimination import CommonSubexpressionElimination

        return CommonSubexpressionElimination

    def dce() -> type[ModulePass]:
        from xdsl.transforms.dead_code_elimination import DeadCodeElimination

        return DeadCodeElimination

    return {"canonicalize": canonicalize, "cse": cse, "dce": dce}


def _our_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    def mem2reg() -> type[ModulePass]:
        from passes.mem2reg import Mem2RegPass

        return Mem2RegPass

    def fold_tiling() -> type[ModulePass]:
        from passes.fold_tiling import FoldTilingPass

        return FoldTilingPass

    def to_sim() -> type[ModulePass]:
        from passes.sim import ToSimPass

        return ToSimPass

    return {"mem2reg": mem2reg, "fold-tiling": fold_tiling, "to-sim": to_sim}


PASSES: dict[str, Callable[[], type[ModulePass]]] = {**_xdsl_passes(), **_our_passes()}


class UnknownPassError(ValueError):
    pass


def parse_pipeline(text: str) -> list[ModulePass]:
    """`"canonicalize,cse"` -> pass instances, in order."""
    out: list[ModulePass] = []
    for name in (part.strip() for part in text.split(",")):
        if not name:
            continue
        factory = PASSES.get(name)
        if factory is None:
            import difflib

            close = difflib.get_close_matches(name, list(PASSES), n=3)
            hint = f"; did you mean {', '.join(close)}?" if close else f"; known passes: {', '.join(sorted(PASSES))}"
            raise UnknownPassError(f"unknown pass '{name}'{hint}")
        out.append(factory()())
    return out
