"""The template tiling key's declaration a kernel entry is instantiated from, when an op folder declares the same
op twice: ops-nn transpose_batch_mat_mul has `ASCENDC_TPL_ARGS_DECL(TransposeBatchMatMul, ...)` with four parameters
in op_kernel/ (the 910B entry's header) and in op_kernel/arch35/ (the 950 entry's). Neither the name nor the arity
told them apart, so the 910B entry got no instance (its body empty: 4 instructions, no output, ASC961); the one
written in the kernel source's own folder is taken."""

from __future__ import annotations

from types import SimpleNamespace

from ascendir.lower.tpl_tiling_key import TplDeclaration, TplParam, for_kernel


def _decl(file: str) -> TplDeclaration:
    params = tuple(TplParam(name, "uint", 2, (0, 1)) for name in ("A", "B", "C", "D"))
    return TplDeclaration("TransposeBatchMatMul", params, SimpleNamespace(span=SimpleNamespace(file=file)))  # type: ignore[arg-type]


def test_the_declaration_beside_the_kernel_source_is_taken() -> None:
    root = "/ops/matmul/transpose_batch_mat_mul/op_kernel"
    here, arch35 = _decl(f"{root}/transpose_batch_mat_mul_tiling_key.h"), _decl(f"{root}/arch35/tiling_key.h")
    for decls in ([here, arch35], [arch35, here]):
        assert for_kernel(decls, "transpose_batch_mat_mul", 4, f"{root}/transpose_batch_mat_mul.cpp") is here
        assert for_kernel(decls, "transpose_batch_mat_mul", 4, f"{root}/arch35/transpose_batch_mat_mul.cpp") is arch35
    assert for_kernel([here, arch35], "transpose_batch_mat_mul", 4) is None  # no file: still undecided
