"""Arithmetic in the test-case evaluator: binary operators and comparisons on numbers and tensors, with
torch's broadcasting and type promotion, and matmul's shapes.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Sequence
from typing import Any

from ascendir.testcase_dtypes import dtype_category, promote_types, scalar_dtype
from ascendir.testcase_types import MAX_INT_BITS, MAX_SEQ
from ascendir.testcase_values import Tensor, describe


class EvalArithmetic:
    """Arithmetic: methods of Evaluator (testcase_eval.py), which inherits them."""

    def eval_BinOp(self, node: ast.BinOp, env: dict[str, Any]) -> Any:
        return self.binop(node.op, self.eval(node.left, env), self.eval(node.right, env), node)

    def eval_Compare(self, node: ast.Compare, env: dict[str, Any]) -> Any:
        left = self.eval(node.left, env)
        result: Any = True
        for op, right_node in zip(node.ops, node.comparators):
            right = self.eval(right_node, env)
            if isinstance(left, Tensor) or isinstance(right, Tensor):
                if isinstance(op, (ast.Is, ast.IsNot, ast.In, ast.NotIn)):
                    self.fail(f"`{type(op).__name__}` with a tensor is not supported", node)
                shapes = [x.shape for x in (left, right) if isinstance(x, Tensor)]
                for x in (left, right):
                    if not isinstance(x, (Tensor, int, float, bool)):
                        self.fail(f"cannot compare a tensor with {describe(x)}", node)
                value: Any = Tensor(self.broadcast(shapes, node), "bool")
                if len(node.ops) > 1:
                    self.fail("chained comparison of tensors", node)
                return value
            value = self.compare(op, left, right, node)
            if not value:
                return False
            result = value
            left = right
        return result

    def compare(self, op: ast.cmpop, a: Any, b: Any, node: ast.AST) -> bool:
        if isinstance(op, ast.Eq):
            return bool(a == b)
        if isinstance(op, ast.NotEq):
            return bool(a != b)
        if isinstance(op, ast.Is):
            return a is b if a is None or b is None else bool(a == b)
        if isinstance(op, ast.IsNot):
            return a is not b if a is None or b is None else bool(a != b)
        if isinstance(op, (ast.In, ast.NotIn)):
            if not isinstance(b, (tuple, list, str)) or (isinstance(b, str) and not isinstance(a, str)):
                self.fail(f"`in` on {describe(b)}", node)
            found = a in b
            return found if isinstance(op, ast.In) else not found
        ordered = (int, float)
        if not ((isinstance(a, ordered) and isinstance(b, ordered))
                or (type(a) is type(b) and isinstance(a, (str, tuple, list)))):
            self.fail(f"cannot order {describe(a)} and {describe(b)}", node)
        try:
            fns: dict[type[ast.cmpop], Callable[[Any, Any], bool]] = {
                ast.Lt: lambda x, y: x < y, ast.LtE: lambda x, y: x <= y,
                ast.Gt: lambda x, y: x > y, ast.GtE: lambda x, y: x >= y,
            }
            return bool(fns[type(op)](a, b))
        except TypeError:
            self.fail(f"cannot order {describe(a)} and {describe(b)}", node)

    def check_int(self, v: int, node: ast.AST) -> int:
        if v.bit_length() > MAX_INT_BITS:
            self.fail(f"integer too large (more than {MAX_INT_BITS} bits)", node)
        return v

    def binop(self, op: ast.operator, a: Any, b: Any, node: ast.AST) -> Any:
        if isinstance(a, Tensor) or isinstance(b, Tensor):
            return self.tensor_binop(op, a, b, node)
        opname = type(op).__name__
        if isinstance(a, (int, float)) and isinstance(b, (int, float)):
            return self.number_binop(op, a, b, node)
        if isinstance(op, ast.Add) and type(a) is type(b) and isinstance(a, (tuple, list, str)):
            if len(a) + len(b) > MAX_SEQ:
                self.fail("sequence too long", node)
            return a + b
        if isinstance(op, ast.Mult):
            seq, n = (a, b) if isinstance(a, (tuple, list, str)) else (b, a)
            if isinstance(seq, (tuple, list, str)) and isinstance(n, int):
                if len(seq) * max(n, 0) > MAX_SEQ:
                    self.fail("sequence too long", node)
                return seq * n
        if isinstance(op, ast.Mod) and isinstance(a, str):
            self.fail("string formatting is not supported", node)
        self.fail(f"unsupported operation {opname} on {describe(a)} and {describe(b)}", node)

    def number_binop(self, op: ast.operator, a: float, b: float, node: ast.AST) -> Any:
        try:
            if isinstance(op, ast.Add):
                r: Any = a + b
            elif isinstance(op, ast.Sub):
                r = a - b
            elif isinstance(op, ast.Mult):
                r = a * b
            elif isinstance(op, ast.Div):
                r = a / b
            elif isinstance(op, ast.FloorDiv):
                r = a // b
            elif isinstance(op, ast.Mod):
                r = a % b
            elif isinstance(op, ast.Pow):
                if (isinstance(a, int) and isinstance(b, int) and b > 0
                        and max(abs(a), 1).bit_length() * b > MAX_INT_BITS + 64):
                    self.fail(f"integer too large (more than {MAX_INT_BITS} bits)", node)
                r = a ** b
                if isinstance(r, complex):
                    self.fail("complex result of `**`", node)
            elif isinstance(op, (ast.LShift, ast.RShift, ast.BitAnd, ast.BitOr, ast.BitXor)):
                if not (isinstance(a, int) and isinstance(b, int)):
                    self.fail(f"bit operation {type(op).__name__} on a float", node)
                if isinstance(op, ast.LShift):
                    if b < 0 or b > MAX_INT_BITS:
                        self.fail("shift count out of range", node)
                    r = a << b
                elif isinstance(op, ast.RShift):
                    if b < 0:
                        self.fail("negative shift count", node)
                    r = a >> min(b, MAX_INT_BITS + 1)
                elif isinstance(op, ast.BitAnd):
                    r = a & b
                elif isinstance(op, ast.BitOr):
                    r = a | b
                else:
                    r = a ^ b
            else:
                self.fail(f"unsupported operator {type(op).__name__} on numbers", node)
        except ZeroDivisionError:
            self.fail("division by zero", node)
        except (OverflowError, ValueError, ArithmeticError):
            self.fail("arithmetic overflow", node)
        if isinstance(r, int) and not isinstance(r, bool):
            return self.check_int(r, node)
        return r

    def broadcast(self, shapes: Sequence[tuple[int, ...]], node: ast.AST) -> tuple[int, ...]:
        rank = max((len(s) for s in shapes), default=0)
        out: list[int] = []
        for i in range(rank):
            dim = 1
            for s in shapes:
                j = i - (rank - len(s))
                if j < 0:
                    continue
                d = s[j]
                if d == dim or d == 1:
                    continue
                if dim == 1:
                    dim = d
                else:
                    self.fail(f"shapes {' and '.join(str(list(x)) for x in shapes)} do not broadcast", node)
            out.append(dim)
        return tuple(out)

    def result_dtype(self, operands: Sequence[Any], node: ast.AST) -> str:
        """torch's type promotion: dimensioned tensors, then 0-dim tensors, then Python scalars."""
        groups: list[list[str]] = [[], [], []]
        for x in operands:
            if isinstance(x, Tensor):
                groups[0 if x.shape else 1].append(x.dtype)
            elif isinstance(x, (bool, int, float)):
                groups[2].append(scalar_dtype(x))
            else:
                self.fail(f"unsupported operand {describe(x)} for a tensor operation", node)
        result: str | None = None
        for level, dtypes in enumerate(groups):
            if not dtypes:
                continue
            d = dtypes[0]
            for other in dtypes[1:]:
                d = promote_types(d, other)
            if result is None:
                result = d
            elif dtype_category(d) > dtype_category(result):
                # a higher category from a lower-priority group: that group's type (scalars: the default)
                result = d if level < 2 else ("float32" if dtype_category(d) == 2 else "int64")
        assert result is not None
        return result

    def tensor_binop(self, op: ast.operator, a: Any, b: Any, node: ast.AST) -> Tensor:
        for x in (a, b):
            if not isinstance(x, (Tensor, bool, int, float)):
                self.fail(f"unsupported operand {describe(x)} for a tensor operation", node)
        if isinstance(op, ast.MatMult):
            if not (isinstance(a, Tensor) and isinstance(b, Tensor)):
                self.fail("`@` needs two tensors", node)
            return self.matmul(a, b, node)
        shapes = [x.shape for x in (a, b) if isinstance(x, Tensor)]
        shape = self.broadcast(shapes, node)
        dtype = self.result_dtype([a, b], node)
        if isinstance(op, ast.Div) and dtype_category(dtype) < 2:
            dtype = "float32"
        elif isinstance(op, (ast.BitAnd, ast.BitOr, ast.BitXor, ast.LShift, ast.RShift)) and dtype_category(dtype) == 2:
            self.fail(f"bit operation {type(op).__name__} on a floating-point tensor", node)
        elif isinstance(op, (ast.Sub, ast.Pow, ast.FloorDiv, ast.Mod)) and dtype == "bool":
            self.fail(f"{type(op).__name__} on bool tensors", node)
        return Tensor(shape, dtype)

    def matmul(self, a: Tensor, b: Tensor, node: ast.AST) -> Tensor:
        if not a.shape or not b.shape:
            self.fail("matmul of a 0-dim tensor", node)
        sa, sb = list(a.shape), list(b.shape)
        va, vb = len(sa) == 1, len(sb) == 1
        if va:
            sa = [1] + sa
        if vb:
            sb = sb + [1]
        if sa[-1] != sb[-2]:
            self.fail(f"matmul shapes {list(a.shape)} and {list(b.shape)} do not match", node)
        batch = self.broadcast([tuple(sa[:-2]), tuple(sb[:-2])], node)
        out = list(batch) + ([] if va else [sa[-2]]) + ([] if vb else [sb[-1]])
        return Tensor(tuple(out), promote_types(a.dtype, b.dtype))
