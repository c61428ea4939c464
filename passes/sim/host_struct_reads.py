"""A struct a host program's kernel reads through a GM pointer: its fields are read from GM, where main copied it.

catlass 23_flash_attention_infer's main fills a `FATilingData` on the host, copies its bytes into a device buffer
with aclrtMemcpy, and the kernel reads them back field by field:

    __gm__ FATilingData *fATilingData = reinterpret_cast<__gm__ FATilingData *>(params.tiling);
    uint32_t batch = fATilingData->batch;

The lowering reads such a struct as tiling data (`get_tiling_data` of the pointer, a `tiling_field` per read),
whose fields a kernel run on its own gets folded from the host tiling the run computed (FoldTilingPass); a field
no host code set is ASC958 'the kernel reads tiling field ...' and 0. A host program has no separate tiling step:
what the struct holds is the bytes of the device buffer (main's object laid out as C does, host_program_vectors.
mark_content, or an input given or drawn). So before the run each such read becomes a load of the field's type
at its offset in the C layout (tiling_layout.py, the layout main's copy is made with) from the pointer, as the
device reads it: the kernel then reads whatever the buffer holds, unwritten bytes included (the simulator's
taint says so where they matter). Fields the layout does not place (a struct holding an array of structs) stay
tiling reads, reported as before.
"""

from __future__ import annotations

from typing import Any

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr, i64
from xdsl.ir import Operation


def read_fields_from_gm(module: Any, program: Any) -> int:
    """Rewrites `module`'s reads of structs through GM pointers into GM loads (see the module's docstring); the
    number of reads rewritten."""
    from ascendir.dialects import ascendc as asc
    from ascendir.lower import ctypes as C
    from ascendir.lower.host_program_vectors import FORMAT_TYPES
    from ascendir.lower.tiling_layout import tiling_slots

    layouts: dict[str, dict[str, Any] | None] = {}
    rewritten = 0
    for op in [op for op in module.walk() if isinstance(op, asc.TilingFieldOp)]:
        source = op.tiling.owner
        if not isinstance(source, asc.GetTilingDataOp):
            continue  # (a nested struct taken whole, a struct the kernel built: not a read of GM)
        struct = source.result.type.type_name.data
        if struct not in layouts:
            found = tiling_slots(program, struct)
            layouts[struct] = {s.path: s for s in found[0]} if found is not None else None
        slot = (layouts[struct] or {}).get(op.field.data)
        if slot is None or slot.fmt not in FORMAT_TYPES:
            continue
        scalar = C.Scalar(FORMAT_TYPES[slot.fmt])
        if C.scalar_ir_type(scalar) != op.result.type:
            continue  # (read at another type than the layout's: left as it was)
        offset = arith.ConstantOp(IntegerAttr(slot.offset, i64))
        bytes_at = source.pointer
        new: list[Operation] = [offset]
        if bytes_at.type != asc.GmPtrType(C.element_ir_type(C.U8)):
            cast = asc.GmPtrCastOp.create(operands=[bytes_at], result_types=[asc.GmPtrType(C.element_ir_type(C.U8))])
            new.append(cast)
            bytes_at = cast.results[0]
        at = asc.GmPtrOffsetOp.create(operands=[bytes_at, offset.result], result_types=[bytes_at.type])
        typed = asc.GmPtrCastOp.create(operands=[at.results[0]],
                                       result_types=[asc.GmPtrType(C.element_ir_type(scalar))])
        new += [at, typed]
        index = op.index
        if index is None:
            zero = arith.ConstantOp(IntegerAttr(0, i64))
            new.append(zero)
            index = zero.result
        load = asc.GmLoadOp.create(operands=[typed.results[0], index], result_types=[op.result.type])
        new.append(load)
        for created in new:
            created.location = op.location
        block = op.parent_block()
        assert block is not None
        block.insert_ops_before(new, op)
        op.result.replace_all_uses_with(load.results[0])
        op.detach()
        op.erase()
        rewritten += 1
    return rewritten
