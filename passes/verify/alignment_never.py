"""Alignment rule on lengths the checker cannot fold (ASC408): a count-form DataCopy length that is not a
multiple of 32 bytes for any values of the unknowns it reads, by itself or against another DataCopy or a UB
sub-tensor offset on the same path reading the same values (congruence.py's forms).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import TYPE_CHECKING

from xdsl.dialects import scf
from xdsl.ir import Operation

from ascendir.dialects import ascendc as asc
from passes.verify.alignment_copies import local_operand
from passes.verify.alignment_offsets import UB_POSITIONS, grid_operands
from passes.verify.ir import arg
from passes.verify.op_index import module_index
from passes.verify.rules import CheckContext, rule
from passes.verify.value_fold import elem_bytes, source_of, sub_tensor_chain, tensor_elem_bytes, type_name

if TYPE_CHECKING:
    from passes.verify.congruence import Form, Reader


@rule(
    "ASC408", "datacopy-length-never-aligned", "alignment",
    summary="DataCopy in the count form moves a length the checker cannot fold that is not a multiple of 32 "
            "bytes for any values: by itself (2*n + 1 halves), or while another DataCopy on the same path, "
            "reading the same values, moves whole blocks (n and n + 1 halves), or a UB sub-tensor that a vector "
            "call takes starts at such an offset (t[n] and a copy of n + 1 halves).",
    why="The MTE moves whole 32-byte blocks and drops the rest of a count-form DataCopy without an error "
        "(see ASC401). When the length comes from the tiling the checker cannot know it, but it can still know "
        "it is wrong: copies of n and n + 1 halves differ by 2 bytes, so at most one of them is a multiple of "
        "32 bytes whatever n the host picks. The copy that disagrees with the others is reported, with a note "
        "at one it disagrees with. A sub-tensor offset that a vector or DMA call takes must be whole blocks too "
        "(ASC404), so `x[n]` as an operand pins n as a copy of n elements does. Sites in different branches of "
        "an if are never compared: one run may take only one of them.",
    example="DataCopy(xLocal, xGm[off], tileLength);\n"
            "...\n"
            "DataCopy(yGm[off], yLocal, tileLength + 1);   // one of the two is cut short",
    instead="DataCopy(yGm[off], yLocal, tileLength);       // the tile the buffers were sized for\n"
            "DataCopyPad(yGm[off], yLocal, {1, (tileLength + 1) * 2, 0, 0, 0});  // or copy exact bytes",
)
def datacopy_length_never_aligned(ctx: CheckContext) -> None:
    from passes.verify.congruence import Form, Reader, solvable

    block = 32
    reader = Reader(block)

    # What must be whole 32-byte blocks: count-form DataCopy lengths (reported), and the unknown offsets of
    # UB sub-tensors that vector and DMA calls take (ASC404's grid, only compared against)
    sites: list[_GridSite] = []
    for op in module_index(ctx.module).of("data_copy"):
        if op.api.data != "DataCopy" or not op.overload.data.startswith("count_"):
            continue
        count, local = arg(op, "count"), local_operand(op)
        size = tensor_elem_bytes(local) if local is not None else None
        if count is None or size is None:
            continue
        elements = reader.form(count)
        if elements is None or not elements.terms:
            continue  # a constant: ASC401's
        assert local is not None and isinstance(local.type, asc.LocalTensorType)
        what = _moves(elements, type_name(local.type.element_type))
        sites.append(_GridSite(op, elements, elements.scaled(size), f"DataCopy moves {what}",
                               f"another DataCopy moves {what}", f"this DataCopy moves {what}"))
    sites += _subtensor_offset_sites(ctx, reader)

    kept = []
    for site in sites:
        if site.reported and solvable([site.total], block) is False:
            values = "values" if len(site.elements.unknowns) > 1 else "value"
            ctx.report(site.op, f"{site.text}, which is not a multiple of 32 bytes for any {values} of "
                                f"{site.elements.unknown_names()}; the bytes past the last whole block are not "
                                f"copied")
        else:
            kept.append(site)
    conflicts: dict[int, list[int]] = {i: [] for i in range(len(kept))}
    for i, j in itertools.combinations(range(len(kept)), 2):
        a, b = kept[i], kept[j]
        if (a.reported or b.reported) and set(a.total.unknowns) & set(b.total.unknowns) \
                and _run_together(a.op, b.op) and solvable([a.total, b.total], block) is False:
            conflicts[i].append(j)
            conflicts[j].append(i)
    # Keep the sites that agree with the most others; report the copies among the rest against one they
    # disagree with (an offset that disagrees is left to ASC404)
    order = sorted((i for i in conflicts if conflicts[i]),
                   key=lambda i: (len(conflicts[i]), kept[i].elements.constant != 0, i))
    agreed: set[int] = set()
    for i in order:
        against = [j for j in conflicts[i] if j in agreed]
        if not against:
            agreed.add(i)
            continue
        site, other = kept[i], kept[against[0]]
        if site.reported:
            ctx.report(site.op, f"{site.text} while {other.other_text}: {_no_value_of(site.elements)} both "
                                f"multiples of 32 bytes, so one of them is silently cut short",
                       ctx.note_at(other.op, other.note_text))


@dataclass(frozen=True)
class _GridSite:
    """A value that must be a whole number of 32-byte blocks, read as a form (see congruence.py)."""

    op: asc.ApiCallOp
    elements: Form
    total: Form  # in bytes
    text: str  # what the site does, as the subject of a message
    other_text: str  # the same, as the site compared against
    note_text: str
    reported: bool = True


def _subtensor_offset_sites(ctx: CheckContext, reader: Reader) -> list[_GridSite]:
    """UB sub-tensors `t[off]` with an unknown offset, taken by a call whose operands must start on the
    32-byte grid: the offset in bytes must be whole blocks."""
    found = []
    for op, value, name in grid_operands(ctx, UB_POSITIONS):
        t = value.type
        assert isinstance(t, asc.LocalTensorType)
        chain = sub_tensor_chain(value)
        size = elem_bytes(t.element_type)
        if chain is None or size is None:
            continue
        total = None
        for offset in chain[0]:
            form = reader.form(offset)
            if form is None:
                break
            total = form if total is None else total.plus(form)
        else:
            if total is None or not total.terms:
                continue  # a constant offset: ASC404's
            at = f"{name} starts {_moves(total, type_name(t.element_type))} into its tensor"
            found.append(_GridSite(op, total, total.scaled(size), f"{op.api.data}'s {at}",
                                   f"{op.api.data}'s {at}", f"this {op.api.data}'s {at}", reported=False))
    return found


def _moves(elements: Form, element: str) -> str:
    """`tileLength x float`, `(tileLength + 1) x float`."""
    return f"({elements.text()}) x {element}" if len(elements.terms) > 1 or elements.constant else \
        f"{elements.text()} x {element}"


def _no_value_of(form: Form) -> str:
    """`no value of n makes`, `no values of rows and cols make`."""
    if len(form.unknowns) > 1:
        return f"no values of {form.unknown_names()} make"
    return f"no value of {form.unknown_names()} makes"


def _run_together(a: Operation, b: Operation) -> bool:
    """Whether one run that reaches `a` also reaches `b` with the values it read at `a`: below the ops they
    share, both sit in the same arms of ifs on the same conditions (`if (fullTile)` twice on one stored
    bool), or in no if at all (a loop around both runs them in the same iteration)."""
    above_a = _ancestors(a)
    shared = next((p for p in _ancestors(b) if p in above_a), None)
    if shared is None:
        return False
    if isinstance(shared, scf.IfOp) and _region_in(a, shared) is not _region_in(b, shared):
        return False  # one in each arm
    guards_a, guards_b = _guards_below(a, shared), _guards_below(b, shared)
    return guards_a is not None and guards_a == guards_b


def _guards_below(op: Operation, ancestor: Operation) -> frozenset[tuple[int, int]] | None:
    """The ifs between `op` and `ancestor`, as (condition, arm) pairs: the condition by the identity of the
    value it reads through single-store locals; None when a condition has no such value."""
    guards = set()
    child = op
    parent = op.parent_op()
    while parent is not None and parent is not ancestor:
        if isinstance(parent, scf.IfOp):
            condition = source_of(parent.cond)
            if condition is None:
                return None
            guards.add((id(condition), 0 if child.parent_region() is parent.true_region else 1))
        child, parent = parent, parent.parent_op()
    return frozenset(guards)


def _region_in(op: Operation, ancestor: Operation) -> object:
    while op.parent_op() is not ancestor:
        op = op.parent_op()  # type: ignore[assignment]
    return op.parent_region()


def _ancestors(op: Operation) -> list[Operation]:
    found = []
    parent = op.parent_op()
    while parent is not None:
        found.append(parent)
        parent = parent.parent_op()
    return found
