"""A sparse COO tensor a reference program draws (NPUKernelBench's CoalesceSparse) reaches its Model as drawn:
the numpy-side draw carries its parts, since torch refuses `contiguous()`/`numpy()` for a sparse layout."""

from __future__ import annotations

from typing import Any

import pytest

torch = pytest.importorskip("torch")

from bench.suites.sparse_coo import SparseCOO  # noqa: E402
from bench.suites.torch_ref import inputs_as_tensors, tensors_as_inputs, to_numpy  # noqa: E402


def _drawn() -> tuple[Any, Any, Any]:
    # (0, 1) twice: uncoalesced, as sparse_coo_tensor makes it
    indices = torch.tensor([[0, 2, 0, 1], [1, 3, 1, 0]])
    values = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]], dtype=torch.bfloat16)
    return indices, values, torch.sparse_coo_tensor(indices, values, [3, 4, 2])


def test_a_sparse_draw_round_trips_uncoalesced() -> None:
    indices, values, sparse = _drawn()
    with pytest.raises(RuntimeError, match="unsupported memory format"):
        sparse.contiguous()  # what the conversion used to call
    inputs = tensors_as_inputs((indices, values, sparse), ["a", "b", "c"], seed=7)
    held = inputs.values["c"]
    assert isinstance(held, SparseCOO) and held.size == (3, 4, 2) and not held.coalesced
    assert held.values.dtype.name == "float32" and inputs.dtypes["c"] == "bfloat16"
    back = inputs_as_tensors(inputs)[2]
    assert back.layout == torch.sparse_coo and back.dtype == torch.bfloat16 and not back.is_coalesced()
    assert torch.equal(back._indices(), sparse._indices()) and torch.equal(back._values(), sparse._values())
    # the Model's own coalesce sums the duplicate as it does on the drawn tensor
    ours, theirs = back.coalesce(), sparse.coalesce()
    assert torch.equal(ours.indices(), theirs.indices()) and torch.equal(ours.values(), theirs.values())
    assert ours.values()[0].tolist() == [6.0, 8.0]


def test_the_reference_may_write_into_its_copy() -> None:
    inputs = tensors_as_inputs(_drawn(), ["a", "b", "c"], seed=7)
    inputs_as_tensors(inputs)[2]._values().mul_(0)
    assert float(abs(inputs.values["c"].values).sum()) == 36.0
    coalesced = to_numpy(_drawn()[2].coalesce())
    assert coalesced.coalesced and coalesced.indices.shape == (2, 3)  # [sparse_dim, nnz]
