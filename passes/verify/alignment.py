"""Alignment (ASC4xx): lengths, offsets and parameter fields the hardware silently truncates or rejects.

Every rule here reports only compile-time constants: a count, offset or struct field whose value is
folded from `arith` constants and mutable locals with one reaching store. Values that depend on tiling
or on loop variables are left alone.

The rules live in modules of their own; this module imports them (registering ASC401-408 in RULES in the
order of their codes) and re-exports every public name it had:

- alignment_copies.py: DataCopy's count (ASC401), DataCopyParams / DataCopyExtParams fields (ASC402) and
  DataCopyPad's padding (ASC403);
- alignment_offsets.py: where operands start: UB sub-tensors (ASC404), GetWithOffset (ASC405), L0 sub-tensors
  (ASC406);
- alignment_compare.py: Compare's count (ASC407);
- alignment_never.py: DataCopy lengths and UB offsets that no tiling makes whole 32-byte blocks (ASC408);

and what they share with the other rule families (sync_*.py, capacity.py, congruence.py, coverage.py):

- value_fold.py: values folded to compile-time constants through arithmetic and single-store locals
  (fold_int, fold_bool, source_of, reaching_store), element sizes and type names, struct fields, sub-tensor
  offsets, branches whose condition folds against them (unreachable);
- op_index.py: the ops the alignment and sync rules look at, gathered in one walk of the module
  (module_index).
"""

from __future__ import annotations

# The shared helpers, then the rules' modules in the order of their codes (importing them registers
# ASC401-408 in RULES, in that order).
from passes.verify.value_fold import (
    as_unsigned as as_unsigned,
    elem_bytes as elem_bytes,
    fold_bool as fold_bool,
    fold_int as fold_int,
    reaching_store as reaching_store,
    source_of as source_of,
    statement_in as statement_in,
    struct_fields as struct_fields,
    sub_tensor_chain as sub_tensor_chain,
    sub_tensor_offset as sub_tensor_offset,
    tensor_elem_bytes as tensor_elem_bytes,
    type_name as type_name,
    unreachable as unreachable,
)
from passes.verify.op_index import ModuleIndex as ModuleIndex, module_index as module_index
from passes.verify.alignment_copies import (
    datacopy_length_unaligned as datacopy_length_unaligned,
    datacopy_params as datacopy_params,
    datacopy_params_out_of_range as datacopy_params_out_of_range,
    datacopypad_padding_too_wide as datacopypad_padding_too_wide,
    fold_unsigned as fold_unsigned,
)
from passes.verify.alignment_offsets import (
    getwithoffset_unaligned as getwithoffset_unaligned,
    l0_subtensor_unaligned as l0_subtensor_unaligned,
    ub_subtensor_unaligned as ub_subtensor_unaligned,
    unguarded_within as unguarded_within,
)
from passes.verify.alignment_compare import compare_count_unaligned as compare_count_unaligned
from passes.verify.alignment_never import datacopy_length_never_aligned as datacopy_length_never_aligned
