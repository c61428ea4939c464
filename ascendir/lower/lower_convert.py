"""C conversions and arithmetic in the function lowering: the usual arithmetic conversions, comparisons and
binary arithmetic as arith ops (folded when both sides are constants), pointer arithmetic, and explicit and
functional casts (`(T)x`, `T(x)`, `static_cast`, tensor reinterpretation).

Separate because it is C's type rules, apart from which expression asked for them.
"""

from __future__ import annotations

import math

from xdsl.dialects import arith
from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Operation, SSAValue

from ascendir.dialects import ascendc as asc
from ascendir.lower import ctypes as C, array_pointer, list_tensor, ub_pointer
from ascendir.lower import absent_inputs, code_pointer, host_program_args, object_address, reference_cast, register_api
from ascendir.lower import pointer_compare
from ascendir.lower.const_fold import convert_const, fold_binary
from ascendir.lower.ctypes import CType, Scalar
from ascendir.lower.errors import Unsupported
from ascendir.lower.fast_ops import CMPF, CMPI, I1, fast_op
from ascendir.lower.values import Instance, Val
from frontend import ast as A


class ConversionLowering:
    """C conversions and arithmetic: methods of FunctionLowerer (function.py), which inherits them."""

    def compare(self, op: str, a: Val, b: Val, node: A.Node, operands: tuple[A.Node, A.Node] | None = None) -> Val:
        if self.host_program is not None:  # (a std::string of a host program with a literal: host_program_args.py)
            held = host_program_args.compare(self, op, a, b, node)  # type: ignore[arg-type]
            if held is not None:
                return held
        if isinstance(a.ctype, C.UnknownT) or isinstance(b.ctype, C.UnknownT):
            return Val(C.BOOL, self.undef(C.BOOL, node))
        if isinstance(a.ctype, C.EnumT) or isinstance(b.ctype, C.EnumT):
            if a.obj == "g_coreType" or b.obj == "g_coreType":
                other = b if a.obj == "g_coreType" else a
                core = str(other.const)
                res = self.emit(asc.CoreIsOp.create(properties={"core": StringAttr(core)},
                                                    result_types=[C.scalar_ir_type(C.BOOL)]), node).results[0]
                if op == "!=":
                    res = self.emit(arith.XOrIOp(res, self.const_ssa(1, C.BOOL, node)), node).results[0]
                return Val(C.BOOL, res)
            if a.const is not None and b.const is not None:
                same = a.const == b.const
                return Val(C.BOOL, const=int(same if op == "==" else not same))
            a = self._enum_as_int(a, node)
            b = self._enum_as_int(b, node)
        if not isinstance(a.ctype, Scalar) or not isinstance(b.ctype, Scalar):
            held = code_pointer.compare(self, op, a, b, node)  # `func != nullptr` (code_pointer.py)
            if held is not None:
                return held
            if all(isinstance(v.ctype, C.Pointer) and v.const == 0 and v.ssa is None and v.obj is None
                   for v in (a, b)):
                # a null pointer passed on (`op.Init(x, y, nullptr)`, then `if (offset != nullptr)` in Init)
                return Val(C.BOOL, const=int(op == "=="))
            pointers = [v for v in (a, b) if isinstance(v.ctype, C.Pointer) or array_pointer.is_pointer_operand(v)]
            if pointers and (isinstance(a.ctype, C.Pointer) or isinstance(b.ctype, C.Pointer) or len(pointers) == 2):
                if op not in ("==", "!="):
                    # `p < end`: the order of two addresses ([expr.rel]/4) is not followed here; answering a
                    # constant would be a value the program never computed
                    raise Unsupported(f"relational comparison of pointers ({a.ctype} {op} {b.ctype})", node)
                if pointer_compare.is_null_literal(a) or pointer_compare.is_null_literal(b):
                    # kernel pointers are non-null, but for an absent optional input's (absent_inputs.py)
                    return absent_inputs.compare(self, op, a, b) or Val(C.BOOL, const=int(op == "!="))
                return pointer_compare.compare(self, op, a, b, node)  # `p == q`: where they point
            raise Unsupported(f"comparison of {a.ctype} and {b.ctype}", node)
        t = C.common_type(a.ctype, b.ctype)
        left, right = operands or (node, node)
        a, b = self.convert(a, t, left), self.convert(b, t, right)
        if a.const is not None and b.const is not None:
            x, y = a.const, b.const
            result = {"==": x == y, "!=": x != y, "<": x < y, ">": x > y, "<=": x <= y, ">=": x >= y}[op]  # type: ignore[operator]
            return Val(C.BOOL, const=int(result))
        if t.is_float:
            pred = {"==": "oeq", "!=": "une", "<": "olt", ">": "ogt", "<=": "ole", ">=": "oge"}[op]
            x, y = self.ssa(a, node), self.ssa(b, node)
            res = fast_op(arith.CmpfOp, [x, y], I1, lambda: arith.CmpfOp(x, y, pred), predicate=CMPF[pred])
        else:
            s = "s" if t.is_signed or t.kind == "bool" else "u"
            pred = {"==": "eq", "!=": "ne", "<": f"{s}lt", ">": f"{s}gt", "<=": f"{s}le", ">=": f"{s}ge"}[op]
            x, y = self.ssa(a, node), self.ssa(b, node)
            res = fast_op(arith.CmpiOp, [x, y], I1, lambda: arith.CmpiOp(x, y, pred), predicate=CMPI[pred])
        return Val(C.BOOL, self.emit(res, node).results[0])

    def _enum_as_int(self, v: Val, node: A.Node) -> Val:
        if isinstance(v.ctype, C.EnumT):
            if isinstance(v.const, int):
                return Val(C.I32, const=v.const)
            raise Unsupported(f"enum {v.ctype.name} used as a number", node)
        return v

    def arith(self, op: str, a: Val, b: Val, node: A.Node, operands: tuple[A.Node, A.Node] | None = None) -> Val:
        if isinstance(a.ctype, C.UnknownT) or isinstance(b.ctype, C.UnknownT):
            return self._poisoned(a, b, node)
        a, b = self._enum_as_int(a, node), self._enum_as_int(b, node)
        if isinstance(a.ctype, C.Pointer) and isinstance(b.ctype, Scalar) and op in ("+", "-"):
            return self.pointer_offset(a, b if op == "+" else self.expr_neg(b, node), node)
        if isinstance(b.ctype, C.Pointer) and isinstance(a.ctype, Scalar) and op == "+":
            return self.pointer_offset(b, a, node)
        if op in ("+", "-") and array_pointer.is_pointer_operand(a) and isinstance(b.ctype, Scalar):
            return array_pointer.offset_view(self, a, b, op == "-", node)  # `allMem + 2 * N`
        if op == "+" and array_pointer.is_pointer_operand(b) and isinstance(a.ctype, Scalar):
            return array_pointer.offset_view(self, b, a, False, node)
        if not isinstance(a.ctype, Scalar) or not isinstance(b.ctype, Scalar):
            raise Unsupported(f"operator '{op}' on {a.ctype} and {b.ctype}", node)
        left, right = operands or (node, node)
        if op in ("<<", ">>"):
            t = C.promote(a.ctype)
            b = self.convert(b, t, right)
        else:
            t = C.common_type(a.ctype, b.ctype)
            b = self.convert(b, t, right)
        a = self.convert(a, t, left)
        if a.const is not None and b.const is not None and not isinstance(a.const, str) and not isinstance(b.const, str):
            folded = fold_binary(op, a.const, b.const, t)
            if folded is not None:
                return Val(t, const=folded)
        x, y = self.ssa(a, node), self.ssa(b, node)
        if t.is_float:
            cls = {"+": arith.AddfOp, "-": arith.SubfOp, "*": arith.MulfOp, "/": arith.DivfOp}.get(op)
            if cls is None:
                raise Unsupported(f"operator '{op}' on floating-point values", node)
            return Val(t, self.emit(fast_op(cls, [x, y], x.type, lambda: cls(x, y)), node).results[0])
        signed = t.is_signed
        cls = {
            "+": arith.AddiOp, "-": arith.SubiOp, "*": arith.MuliOp,
            "/": arith.DivSIOp if signed else arith.DivUIOp, "%": arith.RemSIOp if signed else arith.RemUIOp,
            "<<": arith.ShLIOp, ">>": arith.ShRSIOp if signed else arith.ShRUIOp,
            "&": arith.AndIOp, "|": arith.OrIOp, "^": arith.XOrIOp,
        }.get(op)  # fmt: skip
        if cls is None:
            raise Unsupported(f"operator '{op}'", node)
        return Val(t, self.emit(fast_op(cls, [x, y], x.type, lambda: cls(x, y)), node).results[0])

    def expr_neg(self, v: Val, node: A.Node) -> Val:
        t = C.promote(v.ctype) if isinstance(v.ctype, Scalar) else C.I64
        return self.arith("-", Val(t, const=0), v, node)

    def pointer_offset(self, p: Val, n: Val, node: A.Node) -> Val:
        t = p.ctype
        assert isinstance(t, C.Pointer)
        if t.ub:
            return ub_pointer.offset(self, p, n, node)
        if not t.gm and self.host_program is not None:
            # a host program's data pointers (`uint8_t *workspaceWB = workspace + sizeWA;` in catlass's
            # ToUnderlyingArguments) hold device memory: its host arrays are left out (host_program.py)
            t = C.Pointer(t.pointee, gm=True)
        if not t.gm:
            raise Unsupported("arithmetic on a non-GM pointer", node)
        op = asc.GmPtrOffsetOp.create(operands=[self.ssa(p, node), self.ssa(self.convert(n, C.I64, node), node)],
                                      result_types=[C.ir_type(t)])
        return Val(t, self.emit(op, node).results[0])

    def convert(self, v: Val, t: CType, node: A.Node) -> Val:
        """C conversion of `v` to `t` (only arithmetic conversions make ops)."""
        if not isinstance(t, Scalar):
            self.check_tensor_conversion(v, t, node, "assignment")
            if isinstance(t, C.Pointer) and isinstance(v.ctype, C.Pointer):
                return self.pointer_cast(v, t, node)
            if isinstance(t, C.Pointer) and isinstance(v.ctype, Scalar):
                return self.pointer_from_int(v, t, node)
            return v
        if isinstance(v.ctype, C.EnumT) and isinstance(v.const, int):
            v = Val(C.I32, const=v.const)
        s = v.ctype
        if ub_pointer.is_ub_pointer(s) and t.kind != "bool" and not t.is_float:
            return ub_pointer.to_int(self, v, t, node)
        if isinstance(s, C.Pointer) and isinstance(v.ssa, SSAValue) and isinstance(v.ssa.type, asc.GmPtrType) \
                and t.kind != "bool" and not t.is_float:
            # `(uint64_t)ptr`: the address the device sees
            word = self.emit(asc.GmPtrToIntOp.create(operands=[v.ssa], result_types=[C.scalar_ir_type(C.U64)]), node)
            return self.convert(Val(C.U64, word.results[0]), t, node)
        if not isinstance(s, Scalar):
            if isinstance(s, C.EnumT):
                return v  # enum values passed where an integer is declared: keep the enumerator
            if isinstance(s, C.UnknownT):
                return Val(t, self.undef(t, node)) if v.const is None else Val(t, const=v.const)
            through = self._converted(v, node) if isinstance(v.obj, Instance) else v
            if through is not v:
                # an object of a class with one conversion operator (tla's `C<v>::operator value_type()`), where a
                # number is wanted: `uint32_t m = get<0>(shape)` converts implicitly (C++ [class.conv.fct])
                return self.convert(through, t, node)
            if isinstance(s, C.Pointer) and t.kind != "bool" and not t.is_float and t.bits >= 64 and \
                    object_address.holds_object(v):
                # `(uint64_t)&tilingData`: the object's number. An integer narrower than the pointer cannot hold
                # it ([expr.reinterpret.cast]/4: the compiler rejects `(uint32_t)&td`), so that stays reported.
                return object_address.to_int(self, v, t)
            raise Unsupported(f"cannot convert {s} to {t}", node)
        if s == t:
            return v
        if v.const is not None and not isinstance(v.const, str):
            if isinstance(v.const, float) and not math.isfinite(v.const) and not t.is_float and t.kind != "bool":
                # NaN or infinity to an integer type: undefined in C++, so no value to fold (`(T)INFINITY` in a
                # template instantiated with int32_t)
                return Val(t, self.undef(t, node))
            return Val(t, const=convert_const(v.const, s, t))
        x = self.ssa(v, node)
        dst = C.scalar_ir_type(t)
        if t.kind == "bool":
            return self.compare("!=", v, Val(s, const=0), node)
        if s.is_float and t.is_float:
            if s.bits == t.bits:  # half <-> bfloat16: through float
                wide = self.emit(arith.ExtFOp(x, C.scalar_ir_type(C.F32)), node).results[0]
                return Val(t, self.emit(arith.TruncFOp(wide, dst), node).results[0])
            cast: type[Operation] = arith.ExtFOp if s.bits < t.bits else arith.TruncFOp
        elif s.is_float:
            cast = arith.FPToSIOp if t.is_signed else arith.FPToUIOp
        elif t.is_float:
            cast = arith.SIToFPOp if s.kind == "int" else arith.UIToFPOp
        elif s.bits == t.bits:
            return Val(t, x)
        elif s.bits < t.bits:
            cast = arith.ExtSIOp if s.kind == "int" else arith.ExtUIOp
        else:
            cast = arith.TruncIOp
        op = fast_op(cast, [x], dst, lambda: cast(x, dst))  # type: ignore[call-arg]
        return Val(t, self.emit(op, node).results[0])

    def pointer_from_int(self, v: Val, t: C.Pointer, node: A.Node) -> Val:
        """An integer used as a pointer: a GM address (a tensor list's pointer table holds its tensors' addresses
        as uint64 words); a null pointer constant stays a constant; another pointer is one the lowering cannot
        follow."""
        if v.ssa is None and v.const == 0:
            return Val(t, const=0)
        held = object_address.from_int(self, v, t, node)
        if held is not None:
            return held  # an object's number cast back: its pointer again
        if t.ub:
            return ub_pointer.from_int(self, v, t, node)
        target = C.ir_type(C.Pointer(t.pointee, gm=True))
        if not t.gm or not isinstance(target, asc.GmPtrType):
            return Val(t, self.undef(t, node))
        word = self.ssa(self.convert(v, C.U64, node), node)
        op = asc.GmPtrFromIntOp.create(operands=[word], result_types=[target])
        return Val(C.Pointer(t.pointee, gm=True), self.emit(op, node).results[0])

    def pointer_cast(self, v: Val, t: C.Pointer, node: A.Node) -> Val:
        if v.const == 0 and v.ssa is None:
            return Val(t, const=0)
        src = v.ctype
        if t.ub and ub_pointer.is_ub_pointer(src):
            return ub_pointer.cast(v, t)
        if isinstance(t.pointee, C.TilingT):
            ssa = self.ssa(v, node)
            return Val(t, ssa)
        if isinstance(src, C.Pointer) and isinstance(v.ssa, SSAValue) and isinstance(v.ssa.type, asc.GmPtrType):
            target = C.ir_type(C.Pointer(t.pointee, gm=True))
            if v.ssa.type == target:
                return Val(t, v.ssa)
            if not isinstance(target, asc.GmPtrType):
                # a pointer to a class or object type (a broken struct read as a class): no GM pointer value
                return Val(t, self.undef(t, node))
            op = asc.GmPtrCastOp.create(operands=[v.ssa], result_types=[target])
            return Val(C.Pointer(t.pointee, gm=True), self.emit(op, node).results[0])
        if isinstance(src, C.Pointer) and v.obj is not None:
            return Val(t, v.ssa, obj=v.obj)
        return Val(t, v.ssa, const=v.const, obj=v.obj)

    def expr_Cast(self, e: A.Cast) -> Val:
        method = self._member_named_like_type(e)
        if method is not None:
            # `Tensor(x, y)` in a method of a class with a member function Tensor: C++ looks names up in the
            # class before the namespaces, so this calls the member, whatever vendor type has the same name
            return self.expr(A.Call(e.span, A.Name(e.span, A.QualifiedName(e.span, [A.NamePart(e.span, method)])),
                                    list(e.args or ([e.expr] if e.expr is not None else []))))
        if self._static_method_named_like_type(e):
            # `LayoutA::template MakeLayout<T>(rows, cols)`: a static method of the class the alias names
            return self.expr(A.Call(e.span, A.Name(e.span, e.type.base), list(e.args or [e.expr])))
        if self._function_named_like_class(e):
            # `BasicMatmul<RowMajor, ...>(args)` at namespace scope, where `BasicMatmul` is also a class of a
            # namespace the call does not see (`Gemm::Kernel::BasicMatmul`): the call of the function template
            return self.expr(A.Call(e.span, A.Name(e.span, e.type.base), list(e.args or [e.expr])))
        if self.host_program is not None and host_program_args.is_string_type(self, e.type):  # type: ignore[arg-type]
            # `string(argv[i])`, `std::string("half")` in a host program: the number of the text
            items = list(e.args or ([e.expr] if e.expr is not None else []))
            held = host_program_args.make_string(self, items, e)  # type: ignore[arg-type]
            if held is not None:
                return held
        t = self.resolve_type(e.type)
        if self._function_named_like_unknown_type(e, t):
            # `AscendC::Cast<half, uint8_t>(dst, src, mode, n)` where some class declares `using Cast = ...`:
            # the parser took the name for a type, but no type of that name is visible here and a function
            # (an AscendC API or one of the program's) is: the call
            return self.expr(A.Call(e.span, A.Name(e.span, e.type.base), list(e.args or [e.expr])))
        if list_tensor.is_list_tensor_desc(t):  # `ListTensorDesc(data)`
            items = list(e.args or ([e.expr] if e.expr is not None else []))
            return list_tensor.declare(self, "", e, [self.expr(a) for a in items if not isinstance(a, A.InitList)])
        if e.expr is None and not e.args:
            if isinstance(t, Scalar):
                return Val(t, const=0)
            if isinstance(t, C.StructT):
                return self.init_list(t, [], e)
            return Val(t, self.undef(t, e))
        if isinstance(e.expr, A.InitList):
            return self.init_list(t, e.expr.items, e)
        if e.args and len(e.args) > 1 or isinstance(t, C.StructT):
            return self.init_list(t, e.args or ([e.expr] if e.expr is not None else []), e)
        v = self.expr(e.expr)  # type: ignore[arg-type]
        if isinstance(t, C.ClassT) and t.name in self.scope.classes:
            # `Coord<2, T>(values)`: an object made by the constructor that takes the value
            converted = self._converted_to_class(v, t, "", e)
            if converted is not v:
                return converted
        if isinstance(t, C.Pointer) and t.gm and isinstance(v.ctype, C.Pointer) and not v.ctype.gm and v.ssa is not None:
            t = C.Pointer(t.pointee, gm=True)
        if isinstance(t, C.Pointer) and isinstance(v.ctype, C.Pointer):
            return self.pointer_cast(v, t, e)
        held = reference_cast.scalar_reference_cast(self, e, t, v)  # `reinterpret_cast<int32_t&>(f)`: its bits
        if held is not None:
            return held
        target = t.pointee if isinstance(t, C.Pointer) and "&" in getattr(e.type, "pointers", "") else t
        if isinstance(target, C.LocalTensorT | C.GlobalTensorT) and isinstance(v.ctype, C.LocalTensorT | C.GlobalTensorT):
            return self.tensor_cast(v, target, e)  # `(GlobalTensor<int8_t> &)gm`: a reference to the same object
        if (same := register_api.reinterpret(v, target)) is not None:
            return same  # `(RegTensor<uint16_t>&)x`: the register x, its bits read as the cast's type
        if isinstance(t, C.UnknownT):
            if t.reported:
                self.report.unknown_type(t.text, e)
            return Val(t)
        return self.convert(v, t, e)

    def _static_method_named_like_type(self, e: A.Cast) -> bool:
        from ascendir.lower.calls import static_method_of_type

        base = e.type.base if e.kind == "functional" and isinstance(e.type, A.TypeRef) else None
        if not isinstance(base, A.QualifiedName) or len(base.parts) < 2 or e.type.pointers \
                or isinstance(e.expr, A.InitList) or (e.expr is None and not e.args):
            return False
        if base.parts[-1].name in self.scope.classes:
            return False
        return static_method_of_type(self, base.parts) is not None

    def _function_named_like_class(self, e: A.Cast) -> bool:
        """Whether `N<...>(args)` read as a functional cast names a function of an enclosing namespace rather than
        the class N, which is declared in a namespace nested deeper (C++ finds the function: the class's namespace is
        not searched). The namespaces are compared by the qualifier written and where each is declared."""
        base = e.type.base if e.kind == "functional" and isinstance(e.type, A.TypeRef) else None
        if not isinstance(base, A.QualifiedName) or e.type.pointers or isinstance(e.expr, A.InitList) \
                or (e.expr is None and not e.args):
            return False
        name = base.parts[-1].name
        functions = [f for f in self.scope.functions.get(name, ()) if f.body is not None]
        info = self.scope.classes.get(name) or self.scope.declared_templates.get(name)
        if not functions or info is None:
            return False
        written = "::".join(p.name for p in base.parts[:-1])
        class_ns = self.scope.declared_in.get(id(info.decl), "")
        for fn in functions:
            fn_ns = self.scope.declared_in.get(id(fn), "")
            if written and not (fn_ns == written or fn_ns.endswith("::" + written)):
                continue
            if class_ns != fn_ns and (not fn_ns or class_ns.startswith(fn_ns + "::")):
                return True
        return False

    def _function_named_like_unknown_type(self, e: A.Cast, t: CType) -> bool:
        """Whether `N<...>(args)` read as a functional cast names no type where it is written (the parser reads
        a name as a type once any scope declares a type of that name: a member alias in another class) but a
        function of the program or an API of the catalog."""
        base = e.type.base if e.kind == "functional" and isinstance(e.type, A.TypeRef) else None
        if type(t) is not C.UnknownT or not isinstance(base, A.QualifiedName) or e.type.pointers \
                or isinstance(e.expr, A.InitList) or (e.expr is None and not e.args):
            return False
        name = base.parts[-1].name
        return bool(self.scope.functions.get(name)) or self.catalog.has_api(name)  # type: ignore[attr-defined]

    def _member_named_like_type(self, e: A.Cast) -> str | None:
        """The name of `N(args)` read as a functional cast when the enclosing object has a member function N
        (not a constructor), which the call means; None otherwise."""
        this = self.frame.this if self.frames else None
        base = e.type.base if e.kind == "functional" and isinstance(e.type, A.TypeRef) else None
        if this is None or not isinstance(base, A.QualifiedName) or len(base.parts) != 1 or e.type.pointers \
                or base.parts[0].template_args or isinstance(e.expr, A.InitList):
            return None
        name = base.parts[0].name
        found = this.find_method(name)
        if found is None or any(getattr(fn, "kind", "function") != "function" for fn in found[1]):
            return None
        return name

    def tensor_cast(self, v: Val, t: C.LocalTensorT | C.GlobalTensorT, node: A.Node) -> Val:
        """`(GlobalTensor<int8_t>&)kCacheGm`: an explicit cast views the tensor as another type, as
        ReinterpretCast does, and is no conversion error (ASC106). A LocalTensor keeps its buffer; another cast
        gives a value the rules do not follow back to its origin."""
        src = v.ctype
        if type(src) is type(t) and (t.elem is None or src.elem == t.elem):
            return v
        if isinstance(src, C.LocalTensorT) and isinstance(t, C.LocalTensorT) and t.elem is not None:
            out = C.LocalTensorT(t.elem, src.position)
            op = asc.ReinterpretCastOp.create(operands=[self.ssa(v, node)], result_types=[C.ir_type(out)])
            return Val(out, self.emit(op, node).results[0])
        return Val(t, self.undef(t, node))
