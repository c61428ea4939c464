"""Tiling and coverage (ASC602-ASC607): what the cores of one launch write, and whether the launch happens.

Each core of a launch runs the same kernel and tells itself apart only by GetBlockIdx(). These rules ask,
of every write to global memory, how its address moves from one core to the next (the per-core stride,
`ascendir/analysis` style but kept small: an affine coefficient of the block index), and combine that with
what is provable about blockDim: a literal SetBlockDim / launch, the host tiling function run on concrete
shapes (`--shape`, a test case file), or a kernel-only benchmark answer, which that benchmark launches on
every vector core. Nothing is reported on a guess: an unknown stride or an unknown blockDim is silence.

The rules live in modules of their own; this module imports them (registering ASC602, ASC603, ASC606, ASC604,
ASC605 and ASC607 in RULES in the order they had here) and re-exports every public name it had:

- coverage_launch.py: the tiling function fails (ASC602), an output every core writes alike (ASC603);
- coverage_overlap.py: an output two cores write (ASC606);
- coverage_gm_access.py: scalar GM writes of neighbouring cores in one cache line (ASC604), GM accesses out of
  the tensors' bounds (ASC605);
- coverage_unwritten.py: output bytes no core writes (ASC607);

and what they share:

- coverage_block_dim.py: what is provable about blockDim (block_dim);
- coverage_strides.py: the per-core stride of an address (the coefficient of GetBlockIdx());
- coverage_gm_ops.py: which ops write GM, and which the checker does not see into;
- coverage_core_runs.py: the cores' runs with concrete shapes (footprints, every_core, observed_values) and
  the GM tensors' extents.
"""

from __future__ import annotations

# The shared helpers, then the rules' modules in the order the rules had here (importing them registers
# ASC602, ASC603, ASC606, ASC604, ASC605 and ASC607 in RULES, in that order).
from passes.verify.coverage_block_dim import BlockDim as BlockDim, block_dim as block_dim
from passes.verify.coverage_core_runs import (
    ALL_CORES_BUDGET as ALL_CORES_BUDGET,
    observed_values as observed_values,
)
from passes.verify.coverage_launch import (
    output_written_by_every_core as output_written_by_every_core,
    tiling_function_fails as tiling_function_fails,
)
from passes.verify.coverage_overlap import output_written_by_two_cores as output_written_by_two_cores
from passes.verify.coverage_gm_access import (
    CACHE_LINE as CACHE_LINE,
    gm_access_out_of_bounds as gm_access_out_of_bounds,
    gm_scalar_write_shares_cache_line as gm_scalar_write_shares_cache_line,
)
from passes.verify.coverage_unwritten import output_not_fully_written as output_not_fully_written
