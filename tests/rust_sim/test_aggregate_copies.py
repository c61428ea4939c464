"""Copies of aggregates follow C++: `S b = a;`, an argument taken by value, a returned object, `b = a;` and an
element of an array copied out or in each give an object of its own (ascendir/lower/aggregates.py), so a write
through the copy never shows in the original. Before, the object model bound the copy to the same object: for a
class (or an element of an array of structs) every such write changed the original silently, and a local of a
plain struct with C array members lost its arrays in the copy (the reads became reads of unset tiling fields,
ASC958). Each program writes the values C++ gives to y; the struct and the class forms run alike."""

from __future__ import annotations

import pytest

from passes.sim import run

STRUCT = """#include "kernel_operator.h"
using namespace AscendC;
struct S {
    int32_t n;
    int32_t v[4];
};
#define FILL(a, base) for (int i = 0; i < 4; i++) { (a).v[i] = (base) + i; }
"""

CLASS = """#include "kernel_operator.h"
using namespace AscendC;
class S {
public:
    __aicore__ inline int32_t Get(int i) const { return v[i]; }
    int32_t n;
    int32_t v[4];
};
#define FILL(a, base) for (int i = 0; i < 4; i++) { (a).v[i] = (base) + i; }
"""

KERNEL = """
extern "C" __global__ __aicore__ void k(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    GlobalTensor<int32_t> yGm;
    yGm.SetGlobalBuffer((__gm__ int32_t *)y, %d);
%s
}
"""

# (helpers before the kernel, the kernel's body, what C++ writes to y)
CASES = {
    "copy_then_write": ("", """
    S a = {.n = 1};
    FILL(a, 10);
    S b = a;
    b.v[0] = 99;
    b.n = 5;
    yGm.SetValue(0, a.v[0]); yGm.SetValue(1, b.v[0]); yGm.SetValue(2, a.n); yGm.SetValue(3, b.n);
    yGm.SetValue(4, b.v[1]);
""", [10, 99, 1, 5, 11]),
    "pass_by_value": ("""
__aicore__ inline int32_t Bump(S s) { s.v[0] = 99; s.n = 7; return s.v[0] + s.v[1] + s.n; }
""", """
    S a = {.n = 1};
    FILL(a, 10);
    int32_t r = Bump(a);
    yGm.SetValue(0, a.v[0]); yGm.SetValue(1, r); yGm.SetValue(2, a.n);
""", [10, 117, 1]),
    "return_by_value": ("""
__aicore__ inline S Same(S &s) { return s; }
""", """
    S a = {.n = 1};
    FILL(a, 10);
    S b = Same(a);
    b.v[0] = 99;
    yGm.SetValue(0, a.v[0]); yGm.SetValue(1, b.v[0]); yGm.SetValue(2, b.v[2]);
""", [10, 99, 12]),
    "assign_after_both_exist": ("", """
    S a = {.n = 1};
    S b = {.n = 2};
    FILL(a, 10);
    FILL(b, 0);
    b = a;
    b.v[0] = 99;
    yGm.SetValue(0, a.v[0]); yGm.SetValue(1, b.v[0]); yGm.SetValue(2, b.v[3]); yGm.SetValue(3, b.n);
""", [10, 99, 13, 1]),
    "array_of_aggregates": ("", """
    S arr[2];
    for (int k = 0; k < 2; k++) { arr[k].n = k; FILL(arr[k], 10 * k); }
    S c = arr[1];
    c.v[0] = 99;
    arr[0] = c;
    arr[0].v[1] = 77;
    yGm.SetValue(0, arr[1].v[0]); yGm.SetValue(1, c.v[0]); yGm.SetValue(2, arr[0].v[0]); yGm.SetValue(3, c.v[1]);
    yGm.SetValue(4, arr[0].v[1]); yGm.SetValue(5, arr[0].v[2]);
""", [10, 99, 99, 11, 77, 12]),
    "pointer_is_no_copy": ("""
__aicore__ inline void Set(S *p) { p->v[0] = 42; p->n = 5; }
""", """
    S a = {.n = 1};
    FILL(a, 10);
    Set(&a);
    S *q = &a;
    q->v[1] = 43;
    yGm.SetValue(0, a.v[0]); yGm.SetValue(1, a.n); yGm.SetValue(2, a.v[1]);
""", [42, 5, 43]),
}


@pytest.mark.parametrize("form", ["struct", "class"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_a_copy_is_an_object_of_its_own(form: str, case: str) -> None:
    helpers, body, expected = CASES[case]
    source = (STRUCT if form == "struct" else CLASS) + helpers + KERNEL % (len(expected), body)
    result = run(source, {}, block_dim=1, outputs={"y": ((len(expected),), "int32")})
    assert result.ok and not result.findings, [str(f) for f in result.findings]
    assert result.outputs["y"].tolist() == expected


def test_a_records_brace_list_sets_its_arrays_and_zeroes_the_rest() -> None:
    # a list for an array member fills it element by element; aggregate initialisation zeroes what it leaves out
    body = """
    S a = {7, {1, 2}};
    S b = {};
    yGm.SetValue(0, a.n); yGm.SetValue(1, a.v[0]); yGm.SetValue(2, a.v[1]); yGm.SetValue(3, a.v[2]);
    yGm.SetValue(4, b.n + b.v[3]);
"""
    result = run(STRUCT + KERNEL % (5, body), {}, block_dim=1, outputs={"y": ((5,), "int32")})
    assert result.ok and not result.findings, [str(f) for f in result.findings]
    assert result.outputs["y"].tolist() == [7, 1, 2, 0, 0]


def test_a_parameter_changed_by_its_method_is_a_copy() -> None:
    # a parameter the callee only reads is not copied (nothing changes the caller's object meanwhile); one that a
    # method not declared const changes is
    helpers = """
class Q : public S {
public:
    __aicore__ inline void Put(int i, int32_t x) { v[i] = x; }
};
__aicore__ inline int32_t Change(Q q) { q.Put(0, 99); return q.Get(0); }
__aicore__ inline int32_t Read(Q q) { return q.Get(0) + q.Get(1); }
"""
    body = """
    Q a;
    FILL(a, 10);
    int32_t changed = Change(a);
    yGm.SetValue(0, changed); yGm.SetValue(1, a.v[0]); yGm.SetValue(2, Read(a));
"""
    result = run(CLASS + helpers + KERNEL % (3, body), {}, block_dim=1, outputs={"y": ((3,), "int32")})
    assert result.ok and not result.findings, [str(f) for f in result.findings]
    assert result.outputs["y"].tolist() == [99, 10, 21]


def test_a_record_stored_into_a_struct_member_keeps_its_scalars() -> None:
    # a class member of the record's type stays a struct value (aggregates.struct_value): the record object stored
    # into it gives its scalars; its arrays are not carried, and a read of one is reported (left for later)
    body = """
    S a = {.n = 3};
    FILL(a, 10);
    K op;
    op.Init(a);
    yGm.SetValue(0, op.N());
"""
    helpers = """
class K {
public:
    __aicore__ inline void Init(S &p) { param = p; }
    __aicore__ inline int32_t N() { return param.n; }
    S param;
};
"""
    result = run(STRUCT + helpers + KERNEL % (1, body), {}, block_dim=1, outputs={"y": ((1,), "int32")})
    assert result.ok and not result.findings, [str(f) for f in result.findings]
    assert result.outputs["y"].tolist() == [3]
