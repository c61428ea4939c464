"""Equal values in a sorting reference (bench/suites/tie_order.py): torch's CPU topk orders ties as it likes (index 100
before 10 for two equal maxima), so NPUKernelBench TopKV3's indices differed from the simulated 310P sort (earlier
index first) only where values tie: 1 of 384 and 111 of 49152 elements. The answer's index stands where it selects an
equal value; a wrong element still differs.
"""

from __future__ import annotations

import numpy as np

from bench.suites.tie_order import settle, settle_ties, sorts


def test_an_index_of_an_equal_value_stands() -> None:
    x = np.array([[1, 3, 0, 3, 2, 3], [5, 4, 4, 1, 0, 4]], np.float16)
    expected = np.array([[3, 5], [0, 2]])  # torch: 3 then 5 (of the three 3.0s), 5 then one of the 4.0s
    actual = np.array([[1, 3], [0, 1]], np.int32)  # the answer: the earliest ones
    np.testing.assert_array_equal(settle(x, expected, actual), actual)


def test_a_wrong_element_still_differs() -> None:
    x = np.array([[1, 3, 0, 3, 2, 3]], np.float16)
    expected = np.array([[3, 5]])
    # 2.0 is not a 3.0; an index given twice takes one 3.0 twice; 9 is out of range
    assert settle(x, expected, np.array([[1, 4]])).tolist() == [[1, 5]]
    assert settle(x, expected, np.array([[1, 1]])).tolist() == [[3, 5]]
    assert settle(x, expected, np.array([[9, 3]])).tolist() == [[3, 3]]


def test_the_axis_is_found_from_the_shapes_or_the_values() -> None:
    x = np.array([[2, 7], [7, 1], [0, 7]], np.float32)  # top-1 along axis 0 of a [3, 2]
    expected = np.array([[1, 0]])
    actual = np.array([[1, 2]])  # column 1: rows 0 and 2 both hold 7
    np.testing.assert_array_equal(settle(x, expected, actual), actual)
    # a full sort: same shapes; the axis is the one whose gather gives the values output
    x = np.array([[1, 2, 2]], np.float32)
    values = np.array([[2, 2, 1]], np.float32)
    np.testing.assert_array_equal(settle(x, np.array([[2, 1, 0]]), np.array([[1, 2, 0]]), values), [[1, 2, 0]])


def test_only_sorting_references_are_settled() -> None:
    assert sorts("values, indices = torch.topk(self_tensor, k=k, dim=dim)") and sorts("y = x.sort(dim=1)")
    assert not sorts("return torch.argmax(x, dim=1)")
    x = np.array([[1, 3, 3]], np.float16)
    exp = {"values": np.array([[3]], np.float16), "indices": np.array([[2]])}
    got = {"values": np.array([[3]], np.float16), "indices": np.array([[1]], np.int32)}
    assert settle_ties("torch.topk(x, 1)", {"x": x}, exp, got)["indices"].tolist() == [[1]]
    assert settle_ties("torch.argmax(x)", {"x": x}, exp, got)["indices"].tolist() == [[2]]
