"""A tensor-list output compared against a Model that returns one tensor: NPUKernelBench's
ForeachNonFiniteCheckAndUnscale Model returns `torch.concat([g.flatten() for g in grads])`, and its ModelNew does the
same to the op's list; the harness compares the op's list flattened and concatenated."""

from __future__ import annotations

import numpy as np

from bench.suites.npukernelbench import _shaped


def test_a_list_of_the_total_size_is_concatenated() -> None:
    got = [np.arange(3, dtype=np.float16), np.arange(6, dtype=np.float16).reshape(2, 3)]
    expected = np.concatenate([got[0], got[1].reshape(-1)])
    shaped = _shaped(got, expected)
    assert isinstance(shaped, np.ndarray) and shaped.shape == (9,)
    assert np.array_equal(shaped, expected)


def test_the_order_of_the_list_is_kept() -> None:
    # a list in the wrong order must not compare equal: the concatenation follows the op's order
    got = [np.ones(3, dtype=np.float32), np.zeros(2, dtype=np.float32)]
    expected = np.concatenate([np.zeros(2), np.ones(3)]).astype(np.float32)
    assert not np.array_equal(_shaped(got, expected), expected)


def test_a_list_of_another_size_is_not_made_to_fit() -> None:
    got = [np.ones(3, dtype=np.float32)]
    assert np.asarray(_shaped(got, np.ones(4, dtype=np.float32))).size == 3
