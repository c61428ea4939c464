"""A program's units as the scopes its kernels are lowered with: the kernel headers a source already includes (and
those it names only under a condition the chip's compile drops), the vendor libraries the sources include, what the
build gives a kernel from elsewhere (tiling layouts of host headers, the template tiling key's declarations), the
tiling struct GET_TILING_DATA reads, and a `using namespace std;` at namespace scope."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable

from ascendir.lower.scope import Scope
from frontend import ast as A
from frontend.pipeline import Program


HEADER_SUFFIXES = (".h", ".hpp", ".hh", ".inc")


def included_by_kernel_sources(program: Program) -> set[str]:
    """The kernel headers of an op project that a kernel source file includes. They are units of their
    own too (op_kernel/*.h), but collected a second time a header's class would replace the one the
    source's out-of-class method definitions (`void K<T>::Init(...) {...}`) were attached to."""
    found: set[str] = set()
    for u in program.units:
        if u.unit.role == "kernel" and u.preprocessed is not None \
                and not u.unit.path.lower().endswith(HEADER_SUFFIXES):
            found.update(os.path.normpath(p) for p in u.preprocessed.includes)
    return found


_INCLUDE_DIRECTIVE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*["<]([^">]+)[">]', re.M)


def named_by_kernel_includes(program: Program) -> set[str]:
    """The basenames of the headers a kernel source's `#include` directives name, taken or not by the
    preprocessor. A header named only in a branch dropped for the chip (`#if __CCE_AICORE__ == 200` around
    `#include "layer_norm_v4_transpose_310p.h"`) is not compiled for it: the build compiles an op_kernel
    header only through the sources that include it. (Names a taken include could not find are left out: there
    the header's own lowering is all the checking it gets.)"""
    names: set[str] = set()
    for u in program.units:
        if u.unit.role == "kernel" and not u.unit.path.lower().endswith(HEADER_SUFFIXES):
            missing = {os.path.basename(m) for m in (u.preprocessed.missing_includes if u.preprocessed else [])}
            names.update(os.path.basename(n) for n in _INCLUDE_DIRECTIVE.findall(u.unit.text)
                         if os.path.basename(n) not in missing)
    return names


def _libraries(program: Program) -> set[str]:
    """The vendor libraries (Scope.libraries) that the program's kernel sources include."""
    included = {os.path.normpath(h).replace(os.sep, "/") for u in program.units
                if u.unit.role in ("kernel", "header") and u.preprocessed is not None
                for h in u.preprocessed.vendor_includes}
    return {"matmul"} if any(h.startswith("lib/matmul") for h in included) else set()


def with_others(scope: Scope, others: Iterable[Scope], program: Program) -> Scope:
    """A kernel scope completed with what the build gives a kernel from elsewhere: the vendor libraries its
    sources include, tiling layouts of host headers the kernel never includes (the build generates the glue), and
    the template tiling key's declarations (the kernel build defines ASCENDC_TPL_ARGS_DECL to nothing, the host
    sources that include the same header keep them)."""
    scope.libraries = _libraries(program)
    for other in others:
        for name, ts in other.tiling_structs.items():
            if name not in scope.classes:
                # (a class of the kernel's own of that name is the one the kernel means: ops-nn
                # transpose_batch_mat_mul's kernel template HardwareInfo<ArchTag> beside its host's HardwareInfo)
                scope.tiling_structs.setdefault(name, ts)
        scope.tpl_declarations += other.tpl_declarations
        for where, units in other.tpl_units.items():
            scope.tpl_units.setdefault(where, set()).update(units)
    return scope


def tiling_struct(scope: Scope, host: Scope, context: Scope | None = None) -> str | None:
    """The struct GET_TILING_DATA reads: REGISTER_TILING_DEFAULT's, else the one registered for the kernel's
    operator type (REGISTER_TILING_DATA_CLASS(OpType, S), OpType the entry's name in CamelCase, as the build
    matches them), else the first registered, else the one tiling struct defined."""
    if scope.default_tiling:
        return scope.default_tiling
    entries = {fn.name.parts[-1].name.replace("_", "").lower() for fn, _ in scope.kernels}
    registries = [host.registered_tiling, scope.registered_tiling, *([context.registered_tiling] if context else [])]
    for registry in registries:
        own = [struct for op, struct in registry.items() if op.replace("_", "").lower() in entries]
        if own:
            return own[0]
    registered = next((list(r.values()) for r in registries if r), [])
    # a struct registered only to be a TILING_DATA_FIELD_DEF_STRUCT of another is not what the kernel reads
    nested = {f[1].base.parts[-1].name for ts in (*host.tiling_structs.values(), *scope.tiling_structs.values())
              for f in ts.fields if f[3] == "struct" and isinstance(f[1].base, A.QualifiedName)}
    outer = [name for name in registered if name not in nested]
    if outer or registered:
        return (outer or registered)[0]
    defs = [n for n, ts in {**host.tiling_structs, **scope.tiling_structs}.items()
            if n.endswith("TilingData") or n.endswith("Tiling")]
    return defs[0] if len(defs) == 1 else None


def uses_namespace_std(units: list[A.TranslationUnit]) -> bool:
    """Whether a source or header has `using namespace std;` at namespace scope (catlass's 19_mla: its options
    struct's `string dataType`)."""
    def found(decls: list[A.Node]) -> bool:
        return any(isinstance(d, A.UsingDirective) and [p.name for p in d.namespace.parts] == ["std"]
                   or isinstance(d, A.NamespaceDecl) and found(d.decls) for d in decls)

    return any(found(u.decls) for u in units)
