"""A sparse COO tensor a reference program draws, carried on the numpy side.

The harness holds a draw as numpy arrays between the reference program's get_inputs and its Model (the
op's arguments are computed from them). A sparse COO tensor has no numpy form: torch refuses
`Tensor.contiguous()` for a sparse layout ("unsupported memory format option Contiguous") and
`Tensor.numpy()` ("can't convert Sparse layout tensor to numpy"). NPUKernelBench's CoalesceSparse draws one
(`torch.sparse_coo_tensor(indices, values, size)`, uncoalesced, duplicate indices included) and its Model
coalesces it, so the draw keeps it as its parts and the Model gets the same tensor back: indices and values
as drawn (not coalesced: that is the Model's own work), the size, and whether it was marked coalesced.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass
class SparseCOO:
    """A torch sparse COO tensor's parts: indices [sparse_dim, nnz] (int64), values [nnz, *dense dims] (a
    bfloat16 tensor's as float32, as every numpy-side value), the dense size, and its coalesced flag."""

    indices: np.ndarray
    values: np.ndarray
    size: tuple[int, ...]
    coalesced: bool = False

    @property
    def nbytes(self) -> int:
        return int(self.indices.nbytes + self.values.nbytes)

    def copy(self) -> SparseCOO:
        return SparseCOO(self.indices.copy(), self.values.copy(), self.size, self.coalesced)


def is_sparse_coo(t: Any) -> bool:
    """Whether a torch tensor has the sparse COO layout."""
    import torch

    return isinstance(t, torch.Tensor) and t.layout == torch.sparse_coo


def sparse_parts(t: Any, values_as_numpy: Any) -> SparseCOO:
    """A sparse COO torch tensor's parts. `_indices()`/`_values()`, not `indices()`/`values()`: those refuse
    an uncoalesced tensor, and coalescing here would do the reference's work for it. `values_as_numpy`
    converts the values tensor (torch_ref.to_numpy: bfloat16 as float32)."""
    return SparseCOO(t._indices().numpy().copy(), values_as_numpy(t._values()),
                     tuple(int(d) for d in t.shape), bool(t.is_coalesced()))


def sparse_tensor(parts: SparseCOO, dtype: Any | None) -> Any:
    """The torch sparse COO tensor of `parts`, values of `dtype` (a torch dtype; None: the arrays' own)."""
    import torch

    values = torch.from_numpy(np.array(parts.values, copy=True))
    if dtype is not None:
        values = values.to(dtype)
    indices = torch.from_numpy(np.array(parts.indices, copy=True))
    return torch.sparse_coo_tensor(indices, values, parts.size, is_coalesced=parts.coalesced)
