"""Expressions in the function lowering: the dispatch on the node's kind, literals, members, indexing,
unary and binary operators, `?:`, `sizeof`, braced lists; calls go to calls.py.

Separate from function.py (the state and the IR building blocks every part uses); conversions,
assignments, names, tiling fields and packs have modules of their own.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import ArrayAttr, IndexType, MemRefType, StringAttr
from xdsl.ir import Block, Region, SSAValue

from ascendir.dialects import ascendc as asc
from ascendir.lower import ctypes as C, array_pointer, object_arrays, object_layout, unions
from ascendir.lower import code_pointer, free_operators, host_program, lambdas, register_api, simt_launch, ub_pointer
from ascendir.lower import library_structs
from ascendir.lower.ast_queries import node_text
from ascendir.lower.astwalk import facts, walk
from ascendir.lower.const_fold import wrap_to_type
from ascendir.lower.ctypes import const_fits, CType, Scalar
from ascendir.lower.errors import Unsupported
from ascendir.lower.fast_ops import erase_ops, load_op
from ascendir.lower.frame import Frame
from ascendir.lower.header_names import SIMT_INDEX
from ascendir.lower.values import Cell, Instance, Val
from frontend import ast as A
from frontend.preprocess_conditions import char_value
from frontend.preprocess_types import PPError


class ExpressionLowering:
    """Expressions: methods of FunctionLowerer (function.py), which inherits them."""

    def expr(self, e: A.Node, expected: CType | None = None) -> Val:
        method = getattr(self, "expr_" + type(e).__name__, None)
        if method is None:
            raise Unsupported(f"{type(e).__name__} expressions are not supported in device code", e)
        return method(e, expected) if expected is not None and type(e) in (A.Call, A.InitList, A.Conditional) else method(e)  # type: ignore[no-any-return]

    def expr_IntLit(self, e: A.IntLit) -> Val:
        text = e.text.lower()
        unsigned = "u" in text
        long = "l" in text or e.value > 0x7FFFFFFF
        t = C.U64 if unsigned and long else C.U32 if unsigned else C.I64 if long else C.I32
        return Val(t, const=e.value)

    def expr_FloatLit(self, e: A.FloatLit) -> Val:
        return Val(C.F32 if e.text.lower().endswith("f") else C.F64, const=e.value)

    def expr_BoolLit(self, e: A.BoolLit) -> Val:
        return Val(C.BOOL, const=int(e.value))

    def expr_CharLit(self, e: A.CharLit) -> Val:
        try:
            code = char_value(e.text)  # escapes decoded: '\0' is 0, not the code of its last character '0'
        except PPError as exc:
            raise Unsupported(f"character constant {e.text}: {exc}", e) from None
        return Val(Scalar("int8_t"), const=code - 256 if code > 127 else code)  # (char is signed here)

    def expr_NullLit(self, e: A.NullLit) -> Val:
        return Val(C.Pointer(C.VoidT()), const=0)

    def expr_StringLit(self, e: A.StringLit) -> Val:
        return Val(C.UnknownT("string"), const=e.value)

    def expr_This(self, e: A.This) -> Val:
        if self.frame.this is None:
            raise Unsupported("'this' outside a member function", e)
        return Val(self.frame.this.ctype, obj=self.frame.this)

    def expr_Member(self, e: A.Member) -> Val:
        if isinstance(e.obj, A.This):
            this = self.frame.this
            if this is None:
                raise Unsupported("'this' outside a member function", e)
            return self._member_of_instance(this, e.member, e)
        obj = self.expr(e.obj)
        if isinstance(obj.obj, Instance):
            return self._member_of_instance(obj.obj, e.member, e)
        if isinstance(obj.obj, unions.UnionObject):
            return unions.read(self, obj.obj, e.member, e)  # `c.u` after `c.f = x`: the bits (unions.py)
        if code_pointer.is_pointer(obj):  # `ptr->flag` with `Kernel *ptr = this` (code_pointer.py)
            return code_pointer.member_of_objects(self, obj, e,
                                                  lambda held: self._member_of_instance(held, e.member, e))
        if e.member == "reg" and (parts := register_api.parts_of(obj)) is not None:
            return parts  # `res.reg[1]` of a two-register RegTensor (RegTraitNumTwo): its high register
        if isinstance(obj.obj, tuple) and obj.obj[0] == SIMT_INDEX and e.member in ("x", "y", "z"):
            held = simt_launch.member(self, obj.obj[1], e.member, e)  # in a SIMT launch: this thread's
            if held is not None:
                return held
        if obj.obj == SIMT_INDEX and e.member in ("x", "y", "z"):
            return Val(C.U32, self.undef(C.U32, e))  # threadIdx.x: one thread's index, unknown here
        t = obj.ctype
        if isinstance(t, C.Pointer) and isinstance(t.pointee, C.TilingT):
            tiling = self.tiling_from_pointer(obj, t.pointee, e)
            return self.tiling_field(tiling, e.member, e)
        if isinstance(t, C.TilingT):
            return self.tiling_field(obj, e.member, e)
        view = self.tiling_view(obj)
        if view is not None:
            return self.tiling_field(view, e.member, e)
        if isinstance(t, C.StructT) and (array := self._struct_array_member(obj, t.name, e)) is not None:
            return array
        if isinstance(t, C.StructT) and (inner := self._struct_struct_member(t.name, e.member)) is not None:
            # `params.loopInfo` (MultiCopyParams' MultiCopyLoopInfo): a struct value, whose array members
            # `params.loopInfo.loopSize[i] = v` then stores into (the simulator keeps them in the outer struct)
            op = self.emit(asc.StructGetOp.create(operands=[self.ssa(obj, e)],
                                                  properties={"field": StringAttr(e.member)},
                                                  result_types=[C.ir_type(inner)]), e)
            return Val(inner, op.results[0])
        if isinstance(t, C.StructT | C.ObjectT):
            op = self.emit(asc.StructGetOp.create(
                operands=[self.ssa(obj, e)], properties={"field": StringAttr(e.member)},
                result_types=[C.scalar_ir_type(self._struct_field_type(t.name, e.member))]), e)
            return Val(self._struct_field_type(t.name, e.member), op.results[0])
        raise Unsupported(f"member '{e.member}' of a value of type {t}", e)

    def _member_of_instance(self, inst: Instance, name: str, e: A.Node) -> Val:
        b = inst.member(name)
        if b is None:
            # a static constant of the class or of a base class (`this->scalarOne` with `constexpr static float
            # scalarOne` in a class template's base), evaluated with that class's template arguments
            parts = [inst]
            while parts:
                part = parts.pop(0)
                decl = part.info.static_constants.get(name)
                if decl is not None:
                    self.frames.append(Frame(part.info.name, [{}], part, dict(part.types), set()))
                    try:
                        return self._constant_decl(decl, e)
                    finally:
                        self.frames.pop()
                parts += part.bases
            raise Unsupported(f"'{inst.info.name}' has no member '{name}'", e)
        return self.read_binding(b, e)

    def _struct_array_member(self, obj: Val, struct: str, e: A.Member) -> Val | None:
        """`p.padList` of a catalogued struct whose member is a C array (`uint8_t padList[4]`): the struct's own
        array, as a memref the struct_get names, which `p.padList[i] = v` stores into and `p.padList[i]` reads
        (the simulator gives each struct value its own copy: passes/sim/struct_arrays.py)."""
        text = self.catalog.struct_field_type(struct, e.member)  # type: ignore[attr-defined]
        if not text or "[" not in text or "<" in text:
            return None
        name, _, rest = text.partition("[")
        elem = C.scalar_named(name.replace("const ", "").strip())
        size = rest.split("]", 1)[0].strip()
        if elem is None or not size.isdigit() or "[" in rest:
            return None
        arr = C.ArrayT(elem, int(size))
        op = asc.StructGetOp.create(operands=[self.ssa(obj, e)], properties={"field": StringAttr(e.member)},
                                    result_types=[MemRefType(C.ir_type(elem), [int(size)])])
        return Val(arr, obj=Cell(arr, self.emit(op, e).results[0], e.member))

    def _struct_struct_member(self, struct: str, field_name: str) -> C.StructT | None:
        """The catalogued struct a member of catalogued struct `struct` is, else None."""
        text = self.catalog.struct_field_type(struct, field_name)  # type: ignore[attr-defined]
        found = self.catalog.catalog.struct(text) if text else None  # type: ignore[attr-defined]
        return C.StructT(found.name) if found is not None else None

    def _member_from_list(self, struct: str, field_name: str, e: A.InitList) -> SSAValue | None:
        """Member `field_name` of catalogued struct `struct` built from brace list `e`: a C array of scalars (its
        memref, elements not given 0) or a catalogued struct; None for anything else."""
        inner = self._struct_struct_member(struct, field_name)
        if inner is not None:
            return self.ssa(self.init_list(inner, e.items, e), e)
        text = self.catalog.struct_field_type(struct, field_name)  # type: ignore[attr-defined]
        if not text or "[" not in text or "<" in text:
            return None
        name, _, rest = text.partition("[")
        elem = C.scalar_named(name.replace("const ", "").strip())
        size = rest.split("]", 1)[0].strip()
        if elem is None or not size.isdigit() or "[" in rest or len(e.items) > int(size):
            return None
        items = Val(C.UnknownT("init-list"), obj=[self.expr(i) for i in self.expand_packs(e.items, e)])
        return self.new_array(C.ArrayT(elem, int(size)), "", e, items).ref  # type: ignore[attr-defined]

    def _struct_field_type(self, struct: str, field_name: str) -> Scalar:
        t = self.catalog.struct_field_type(struct, field_name)  # type: ignore[attr-defined]
        return C.scalar_named(t) or C.U32 if t else C.U32

    def expr_Index(self, e: A.Index) -> Val:
        if isinstance(viewed := object_layout.reinterpreted_array(self, e.base), tuple) and \
                isinstance(viewed[0], object_arrays.ObjectArray):
            # `reinterpret_cast<uint64_t *>(objects)[i]` read: the objects are cells here, not bytes
            raise Unsupported("reading an array of objects through a pointer of another type is not modelled", e)
        base = self.expr(e.base)
        if isinstance(base.obj, Instance) and base.obj.find_method("operator[]") is not None:
            return self._operator_call(base.obj, "operator[]", e, [e.index])  # a user class's `coord[1]`
        index = self.expr(e.index)
        t = base.ctype
        if isinstance(base.obj, tuple) and base.obj[0] == "tiling_row" and isinstance(index.ctype, Scalar):
            return self.tiling_row_element(base, index, e)  # `td->strides[s][d]` (lower_tiling.py)
        if isinstance(t, C.LocalTensorT | C.GlobalTensorT):
            op = asc.SubTensorOp.create(operands=[self.ssa(base, e), self.ssa(index, e)], result_types=[C.ir_type(t)])
            return Val(t, self.emit(op, e).results[0])
        if isinstance(t, C.Pointer) and t.gm:
            elem = t.pointee if isinstance(t.pointee, Scalar) else C.U8
            op = asc.GmLoadOp.create(operands=[self.ssa(base, e), self.ssa(index, e)], result_types=[C.scalar_ir_type(elem)])
            return Val(elem, self.emit(op, e).results[0], obj=("gm_elem", base, index))
        if ub_pointer.is_ub_pointer(t) and isinstance(index.ctype, Scalar):
            return ub_pointer.load(self, base, index, e)  # `src[idx]` through a `__ubuf__ T *`
        if isinstance(base.obj, object_arrays.ObjectArray):
            return object_arrays.element(self, base.obj, index, e)  # `layoutAList[groupIdx]`
        if isinstance(t, C.ArrayT) and isinstance(base.obj, list) and isinstance(index.const, int):
            if 0 <= index.const < len(base.obj):
                return base.obj[index.const]  # type: ignore[no-any-return]
        if isinstance(t, C.ArrayT) and isinstance(base.obj, list) and len(base.obj) == 1 and self._object_array(t):
            return base.obj[0]  # type: ignore[no-any-return]  # an array of one object: any valid index is 0
        if isinstance(t, C.ArrayT) and not (isinstance(base.obj, tuple) and base.obj[0] == "tiling_array"):
            found = self.array_element(base, index, e)
            if found is not None:
                cell, indices, elem = found
                if isinstance(elem, C.ArrayT):
                    return Val(elem, obj=("array_view", cell, indices))
                op = load_op(cell.ref, indices)
                return Val(elem, self.emit(op, e).results[0], obj=("array_elem", cell, indices))
        # an array field of tiling data, read element-wise: one of a known layout, or `td->inputShapes[D_DIM]`
        # of a struct whose definition is out of reach (TILING_DATA_FIELD_DEF_ARR in op_host), of the type
        # fields default to
        if isinstance(base.obj, Cell) and isinstance(base.obj.points_to, Val) and isinstance(index.ctype, Scalar):
            base = base.obj.points_to  # `counts[i]` with `counts = tiling->countList`: the field's element
            t = base.ctype
        if isinstance(base.obj, tuple) and (base.obj[0] == "tiling_array" and isinstance(t, C.ArrayT)
                                            or base.obj[0] == "tiling_path" and isinstance(index.ctype, Scalar)):
            _, tiling, path = base.obj
            root = Val(C.TilingT(tiling.ctype.name), tiling.ssa)
            return self.tiling_field(root, path, e, index)
        raise Unsupported(f"indexing a value of type {t}", e)

    def set_tensor_element(self, tensor: Val, index: Val, value: Val, node: A.Node) -> None:
        """`t.SetValue(i, v)`, and `t(i) = v` written through the tensor's operator()."""
        assert isinstance(tensor.ctype, C.LocalTensorT | C.GlobalTensorT)
        v = self.convert(value, tensor.ctype.elem, node)
        operands = [self.ssa(tensor, node), self.ssa(index, node), self.ssa(v, node)]
        self.emit(asc.SetValueOp.create(operands=operands), node)

    def index_value(self, v: Val, node: A.Node) -> SSAValue:
        if v.const is not None and not isinstance(v.const, str):
            return self.index_const(int(v.const), node)
        v = self.convert(v, C.I64, node)
        return self.emit(arith.IndexCastOp(self.ssa(v, node), IndexType()), node).results[0]

    def expr_Unary(self, e: A.Unary) -> Val:
        if e.op == "&":
            function = (code_pointer.function_address(self, e.operand)
                        or code_pointer.element_address(self, e.operand))
            if function is not None:
                return function  # `&Wrapper<Func>`, `&funcList[stageId]`
            unions.no_member_address(self, e.operand, e)  # `&c.u` of a union: reported (unions.py)
            v = self.expr(e.operand)
            if isinstance(v.ctype, C.MemberFunctionT):
                return v
            if isinstance(v.obj, tuple) and v.obj[0] == "gm_elem":
                # `&gm[i]`: the element's address, not its value (the load made for the value goes again)
                _, base, index = v.obj
                if v.ssa is not None and not v.ssa.uses and v.ssa.owner is not None:
                    v.ssa.owner.detach()  # type: ignore[union-attr]
                    v.ssa.owner.erase()  # type: ignore[union-attr]
                return self.pointer_offset(base, index, e)
            if isinstance(v.obj, tuple) and v.obj[0] == "ub_elem":
                # `&ub[i]`: the element's address, not its value (the read made for the value goes again)
                _, base, index = v.obj
                read = v.ssa.owner if v.ssa is not None and not v.ssa.uses else None
                if isinstance(read, asc.GetValueOp):
                    tensor = read.tensor.owner
                    read.detach()
                    read.erase(safe_erase=False)
                    if isinstance(tensor, asc.UbPtrTensorOp) and not tensor.result.uses:
                        tensor.detach()
                        tensor.erase(safe_erase=False)
                return ub_pointer.offset(self, base, index, e)
            # The address of an object (a tensor, a tiling struct) is the object to us, with its SSA value; the
            # address of a scalar keeps the scalar in `obj` for `*p`, but not as its SSA value, which would pass
            # for a pointer (used as an operand, it is an address the lowering does not follow)
            ssa = None if isinstance(v.ctype, Scalar) else v.ssa
            return Val(C.Pointer(v.ctype), ssa, obj=v.obj if v.obj is not None else v)
        if e.op == "*":
            v = self.expr(e.operand)
            t = v.ctype
            if isinstance(t, C.Pointer) and isinstance(t.pointee, C.TilingT):
                return self.tiling_from_pointer(v, t.pointee, e)
            if isinstance(t, C.Pointer) and isinstance(t.pointee, Scalar) and isinstance(v.obj, Val | Cell):
                source = v.obj if isinstance(v.obj, Val) else self.load(v.obj, e)
                if isinstance(source.ctype, Scalar) and source.ctype != t.pointee:
                    value = self.ssa(source, e)
                    if source.ctype.bits > t.pointee.bits and not source.ctype.is_float:
                        # `*reinterpret_cast<float *>(&accVal)` on a uint64_t: the first bytes, its low bits
                        narrow = C.Scalar(f"uint{t.pointee.bits}_t")
                        value = self.emit(arith.TruncIOp(value, C.scalar_ir_type(narrow)), e).results[0]
                    elif source.ctype.bits != t.pointee.bits:
                        raise Unsupported(f"reading a {source.ctype} as {t.pointee} through a pointer", e)
                    op = arith.BitcastOp(value, C.scalar_ir_type(t.pointee))
                    return Val(t.pointee, self.emit(op, e).results[0])
                return source
            if ub_pointer.is_ub_pointer(t) and v.obj is None:
                return ub_pointer.load(self, v, Val(C.I64, const=0), e)  # `*p` through a `__ubuf__ T *`
            if isinstance(t, C.Pointer) and isinstance(v.obj, Val | Instance):
                return v.obj if isinstance(v.obj, Val) else Val(v.obj.ctype, obj=v.obj)
            if code_pointer.is_pointer(v):  # `*static_cast<F const *>(p)`: the object p holds
                inst = code_pointer.object_at(self, v, e)
                return Val(inst.ctype, obj=inst)
            if isinstance(e.operand, A.This) and isinstance(v.obj, Instance):
                return v  # `*this`: the object (`this` is read as the object already)
            if isinstance(t, C.ClassT) and isinstance(v.obj, Instance) and v.obj.find_method("operator*") is None:
                # a pointer to an object held as the object (`auto p = reinterpret_cast<const T *>(...)`, ops-nn
                # mat_mul_v3's compile info): `*p` is that object (C++ has no `*` on a class without operator*)
                return v
            if array_pointer.is_pointer_operand(v):  # `*(start + i)`: the element the array pointer points at
                return self.expr_Index(A.Index(e.span, e.operand, A.IntLit(e.span, "0", 0)))
            if isinstance(t, C.Pointer) and t.gm:
                return self.expr_Index(A.Index(e.span, e.operand, A.IntLit(e.span, "0", 0)))
            if isinstance(t, C.Pointer) and isinstance(t.pointee, C.LocalTensorT | C.GlobalTensorT) \
                    and v.ssa is not None and v.ssa.type == C.ir_type(t.pointee):
                # `(*xGm_)[off]` with `xGm_ = &xGm;` (ops-nn in_training_reduce_v2): a tensor's address is held as
                # the tensor's handle (expr_Unary `&`), so the pointer variable holds the handle; `*` is the tensor
                return Val(t.pointee, v.ssa)
            raise Unsupported(f"dereferencing a value of type {t}", e)
        v = self.expr(e.operand)
        if e.op == "!":
            b = self.to_bool(v, e)
            if b.const is not None:
                return Val(C.BOOL, const=int(not b.const))
            return Val(C.BOOL, self.emit(arith.XOrIOp(self.ssa(b, e), self.const_ssa(1, C.BOOL, e)), e).results[0])
        if not isinstance(v.ctype, Scalar):
            raise Unsupported(f"unary '{e.op}' on a value of type {v.ctype}", e)
        t = C.promote(v.ctype)
        v = self.convert(v, t, e)
        if e.op == "+":
            return v
        if e.op == "-":
            if v.const is not None:
                return Val(t, const=wrap_to_type(-v.const, t))  # type: ignore[operator]
            if t.is_float:
                return Val(t, self.emit(arith.NegfOp(self.ssa(v, e)), e).results[0])
            return self.arith("-", Val(t, const=0), v, e)
        if e.op == "~":
            return self.arith("^", v, Val(t, const=-1), e)
        raise Unsupported(f"unary operator '{e.op}'", e)

    def expr_Binary(self, e: A.Binary) -> Val:
        if e.op in ("&&", "||"):
            lhs = self.to_bool(self.expr(e.lhs), e)
            if lhs.const is not None:
                if (e.op == "&&") != bool(lhs.const):
                    return Val(C.BOOL, const=lhs.const)
                return self.to_bool(self.expr(e.rhs), e)
            if _has_call(e.rhs):
                return self._short_circuit(e, lhs)
            rhs = self.to_bool(self.expr(e.rhs), e)
            return self.logical(e.op, lhs, rhs, e)
        lhs = self.expr(e.lhs)
        if isinstance(lhs.obj, Instance) and lhs.obj.find_method(f"operator{e.op}") is not None:
            return self._operator_call(lhs.obj, f"operator{e.op}", e, [e.rhs])  # `coordA + coordB`
        rhs = self.expr(e.rhs)
        if (chosen := free_operators.call(self, e, lhs, rhs)) is not None:
            return chosen  # `C<1>{} + C<2>{}`: tla's `operator+(C<t>, C<u>)`, a C<3> (free_operators.py)
        if isinstance(lhs.obj, Instance) != isinstance(rhs.obj, Instance) or (
                isinstance(lhs.obj, Instance) and isinstance(rhs.obj, Instance)
                and rhs.obj.find_method(f"operator{e.op}") is None):
            # a number and an object of a class converting to one (tla's `val + align` with align a C<16>, whose
            # `operator value_type()` gives 16): the object through its conversion operator, as C++ does
            lhs, rhs = self._converted(lhs, e.lhs), self._converted(rhs, e.rhs)
        # (each operand's implicit conversion is placed at the operand: `(float)1.0 / n` converts n, not a cast)
        if e.op in ("==", "!=", "<", ">", "<=", ">="):
            return self.compare(e.op, lhs, rhs, e, (e.lhs, e.rhs))
        return self.arith(e.op, lhs, rhs, e, (e.lhs, e.rhs))

    def _converted(self, v: Val, node: A.Node) -> Val:
        """`v` through its class's one conversion operator to a type (the parser names it `operator<type>`:
        "operatorvalue_type"); `v` itself when it is no object or its class has none or several."""
        if not isinstance(v.obj, Instance):
            return v
        names = {name for part in (v.obj, *v.obj.bases) for name in part.info.operators
                 if (name[len("operator"):][:1].isalpha() or name[len("operator"):][:1] == "_")
                 and name not in ("operatornew", "operatordelete")}
        if len(names) != 1 or "operatorbool" in names:
            return v  # (`operator bool` is a test, not a number: to_bool takes it)
        return self._operator_call(v.obj, names.pop(), node, [])

    def _short_circuit(self, e: A.Binary, lhs: Val) -> Val:
        evaluate, skip = Block(), Block()
        with self.detached(evaluate):
            rhs = self.to_bool(self.expr(e.rhs), e)
            self.emit(scf.YieldOp(self.ssa(rhs, e)), e)
        with self.detached(skip):
            self.emit(scf.YieldOp(self.const_ssa(int(e.op == "||"), C.BOOL, e)), e)
        then, otherwise = (evaluate, skip) if e.op == "&&" else (skip, evaluate)
        if_op = scf.IfOp(self.ssa(lhs, e), [C.scalar_ir_type(C.BOOL)], Region(then), Region(otherwise))
        return Val(C.BOOL, self.emit(if_op, e).results[0])

    def logical(self, op: str, a: Val, b: Val, node: A.Node) -> Val:
        if a.const is not None and b.const is not None:
            return Val(C.BOOL, const=int(bool(a.const) and bool(b.const)) if op == "&&" else int(bool(a.const) or bool(b.const)))
        # one constant operand that decides the result: `useInitCH && std::is_same<T, half>::value` is false for
        # a float T whatever the flag holds (both operands are evaluated by now; only the value is folded)
        deciding = op == "||"
        if any(v.const is not None and bool(v.const) == deciding for v in (a, b)):
            return Val(C.BOOL, const=int(deciding))
        cls = arith.AndIOp if op == "&&" else arith.OrIOp
        return Val(C.BOOL, self.emit(cls(self.ssa(a, node), self.ssa(b, node)), node).results[0])

    def _poisoned(self, a: Val, b: Val, node: A.Node) -> Val:
        """An operand whose lowering already failed (and was reported): the result is unknown, quietly."""
        known = b.ctype if isinstance(a.ctype, C.UnknownT) else a.ctype
        t = known if isinstance(known, Scalar) else C.F32
        return Val(t, self.undef(t, node))

    def expr_SizeOf(self, e: A.SizeOf) -> Val:
        if e.kind == "sizeof...":
            pack = self._pack_named(e.operand.name if isinstance(e.operand, A.Name) else "")
            if pack is None:
                raise Unsupported(f"sizeof...({node_text(e.operand)}) of a pack the lowering has not bound", e)
            return Val(C.U64, const=len(pack.items))
        if isinstance(e.operand, A.TypeRef):
            t = self.resolve_type(e.operand)
        else:
            mark = self._mark()
            t = self.expr(e.operand).ctype
            self._rollback(mark)
        size = C.size_of(t)
        if size is None and isinstance(t, C.ClassT | C.TilingT):
            # a class of the program's holding numbers (`sizeof(GemmCoord)`): its C layout, base classes included
            size = object_layout.size_of(self, t, e)
        if size is None and isinstance(t, C.ClassT | C.TilingT):
            size = self.tiling_size(t.name)  # a tiling struct (scope.tiling_structs), or a library one
        if size is None:
            raise Unsupported(f"sizeof({t}) is not known", e)
        return Val(C.U64, const=size)

    def expr_Conditional(self, e: A.Conditional, expected: CType | None = None) -> Val:
        cond = self.to_bool(self.expr(e.cond), e)
        if cond.const is not None:
            return self.expr(e.then if cond.const else e.otherwise)
        if not _evaluated_only_if_chosen(e.then) and not _evaluated_only_if_chosen(e.otherwise):
            a, b = self.expr(e.then), self.expr(e.otherwise)
            if isinstance(a.ctype, Scalar) and isinstance(b.ctype, Scalar):
                t = C.common_type(a.ctype, b.ctype)
                a, b = self.convert(a, t, e), self.convert(b, t, e)
                op = arith.SelectOp(self.ssa(cond, e), self.ssa(a, e), self.ssa(b, e))
                return Val(t, self.emit(op, e).results[0])
            if a.ctype == b.ctype and a.ssa is not None and b.ssa is not None:
                return Val(a.ctype, self.emit(arith.SelectOp(self.ssa(cond, e), a.ssa, b.ssa), e).results[0])
        # branches with calls: evaluate only the chosen one, in an scf.if with the common type
        blocks, values = [Block(), Block()], []
        try:
            for block, branch in zip(blocks, (e.then, e.otherwise)):
                with self.detached(block):
                    values.append(self.expr(branch))
        except Exception:
            erase_ops(blocks[0])  # the branch that did lower holds uses of live values
            raise
        a, b = values
        t = C.common_type(a.ctype, b.ctype) if isinstance(a.ctype, Scalar) and isinstance(b.ctype, Scalar) else a.ctype
        if isinstance(a.ctype, C.UnknownT) and isinstance(b.ctype, Scalar):
            # `c ? Ops::Base::CeilAlign(k, 64) : k` with the call not resolved: the other arm's type, the unknown arm
            # an undefined value of it (its call stays the gap), not a result of type none
            t = b.ctype
        elif isinstance(a.ctype, C.UnknownT) and isinstance(b.ctype, C.UnknownT) and isinstance(expected, Scalar):
            # both arms unresolved calls (dual_level_quant's `c ? Ops::Base::CeilDiv(a, g) : Ops::Base::CeilDiv(b,
            # g)` initialising a uint64_t): the type the value is wanted as, each call its own gap
            t = expected
        for block, v in zip(blocks, values):
            with self.detached(block):
                self.emit(scf.YieldOp(self.ssa(self.convert(v, t, e), e)), e)
        if_op = scf.IfOp(self.ssa(cond, e), [C.ir_type(t)], Region(blocks[0]), Region(blocks[1]))
        return Val(t, self.emit(if_op, e).results[0])

    def expr_Noexcept(self, e: A.Noexcept) -> Val:
        raise Unsupported("noexcept(...) of an expression is not modelled", e)

    def expr_Comma(self, e: A.Comma) -> Val:
        self.expr(e.lhs)
        return self.expr(e.rhs)

    def expr_InitList(self, e: A.InitList, expected: CType | None = None) -> Val:
        if expected is not None:
            return self.init_list(expected, e.items, e)
        # (`return {t...};` of tla's MakeShape: the list's pack expanded, as in a list of a known type)
        return Val(C.UnknownT("init-list"), obj=[self.expr(i) for i in self.expand_packs(e.items, e)])

    def init_list(self, t: CType, items: Sequence[A.Node], node: A.Node) -> Val:
        items = self.expand_packs(items, node)
        if isinstance(t, Scalar):
            if not items:
                return Val(t, const=0)
            return self.convert(self.expr(items[0]), t, node)
        if isinstance(t, C.StructT) and (copied := library_structs.list_or_copy(self, t, items, node)) is not None:
            return copied
        if isinstance(t, C.StructT | C.TilingT | C.ObjectT):
            names = list(self.catalog.struct_fields(t.name) or []) if isinstance(t, C.StructT) else [  # type: ignore[attr-defined]
                f[0] for f in (self.scope.tiling_structs[t.name].fields if t.name in self.scope.tiling_structs else [])]
            if isinstance(t, C.StructT) and not any(isinstance(i, A.DesignatedInit) for i in items):
                # a constructor whose parameters are not the fields in order (`ShapeInfo(2, shape, format)`)
                names = self.catalog.struct_constructor_fields(t.name, len(items)) or names  # type: ignore[attr-defined]
            fields: list[str] = []
            values: list[SSAValue] = []
            for i, item in enumerate(items):
                if isinstance(item, A.DesignatedInit):
                    fname, value_node = item.field_name, item.value
                else:
                    fname, value_node = (names[i] if i < len(names) else f"_{i}"), item
                if isinstance(t, C.StructT) and isinstance(value_node, A.InitList):
                    # a brace list for a C array or struct member (`NdDmaLoopInfo<2> l{{1, 32}, {1, 64}, ...}`):
                    # an array of the member's type, or the member struct, built from it
                    nested = self._member_from_list(t.name, fname, value_node)
                    if nested is not None:
                        fields.append(fname)
                        values.append(nested)
                        continue
                v = self.expr(value_node)
                if isinstance(t, C.TilingT) and not t.path and isinstance(v.ctype, Scalar) and \
                        isinstance(ft := self.tiling_field_type(t.name, fname), Scalar) and fname in {
                            decl.name for _, decl in getattr(self.scope.classes.get(t.name), "fields", [])}:
                    v = self.convert(v, ft, node)  # (a field read gives the item only at the field's type)
                if isinstance(t, C.StructT):
                    ft = self.catalog.struct_field_type(t.name, fname)  # type: ignore[attr-defined]
                    fs = C.scalar_named(ft) if ft else None
                    if fs is not None and const_fits(v.const, fs):  # out-of-range constants stay as written
                        v = self.convert(v, fs, node)
                fields.append(fname)
                values.append(self.ssa(v, node))
            if isinstance(t, C.TilingT):
                # the fields the list leaves out: their default member initialisers, else 0 (`S s{};`)
                rest, rest_values = self.member_defaults(t, fields, node, zero_rest=True)
                fields += rest
                values += rest_values
            op = asc.StructInitOp.create(operands=values, properties={"fields": ArrayAttr([StringAttr(f) for f in fields])},
                                         result_types=[C.ir_type(t)])
            return Val(t, self.emit(op, node).results[0])
        if isinstance(t, C.ArrayT):
            return Val(t, obj=[self.expr(i) for i in items])
        if isinstance(t, C.LocalTensorT | C.GlobalTensorT) and not items:
            return Val(t, self.undef(t, node))
        if isinstance(t, C.LocalTensorT) and len(items) == 3:  # LocalTensor<T>(TPosition::X, addr, count)
            pos = self.expr(items[0])
            position = str(pos.const) if isinstance(pos.ctype, C.EnumT) and pos.const in asc.POSITIONS else "?"
            placed = C.LocalTensorT(t.elem, position)
            addr = self.convert(self.expr(items[1]), C.U32, node)
            count = self.convert(self.expr(items[2]), C.U32, node)
            op = asc.LocalTensorAtOp.create(operands=[self.ssa(addr, node), self.ssa(count, node)],
                                            result_types=[C.ir_type(placed)])
            return Val(placed, self.emit(op, node).results[0])
        if isinstance(t, C.ClassT):
            info = self.scope.classes.get(t.name)
            # an aggregate: no constructor of its own, or only defaulted ones (`AicWaitFunc() = default;`, a
            # declaration without a body that no out-of-class definition completed)
            if info is not None and items and not info.decl.bases and all(
                    c.body is None and not c.init_list for c in info.constructors):
                inst = self.instantiate(t, "", node)
                self._aggregate_init(inst, items, node)
                return Val(t, obj=inst)
            inst = self.instantiate(t, "", node, [self.expr(i) for i in items])
            return Val(t, obj=inst)
        if isinstance(t, C.UnknownT) and t.text != "auto":
            # `Helper op(pipe);` of a class from a header that was not read: op is not its argument
            for item in items:
                try:
                    self.expr(item)
                except Unsupported:
                    pass
            return Val(t)
        if len(items) == 1:
            return self.expr(items[0])
        raise Unsupported(f"brace initialisation of {t}", node)

    def expr_KernelLaunch(self, e: A.KernelLaunch) -> Val:
        if self.host_program is not None:  # main lowered as the entry: the launch is a call (host_program.py)
            return host_program.launch(self, e)  # type: ignore[arg-type]
        raise Unsupported("kernel launches belong to host code", e)

    def expr_TypeArgExpr(self, e: A.TypeArgExpr) -> Val:
        t = self.resolve_type(e.type)
        return Val(t, obj=("type", t))

    def expr_Lambda(self, e: A.Lambda) -> Val:
        return lambdas.make(self, e)  # type: ignore[arg-type]  # the closure, called by lambdas.call

    def expr_Call(self, e: A.Call, expected: CType | None = None) -> Val:
        from ascendir.lower.calls import lower_call

        return lower_call(self, e, expected)


def _evaluated_only_if_chosen(e: A.Node) -> bool:
    """Whether an arm of `?:` must not run unless chosen: a call, or an element read, which the other arm may
    guard (`i == 0 ? 0 : ends[i - 1]`: evaluated for i = 0, the read is past the array's start, where C++ never
    reads)."""
    return _has_call(e) or any(isinstance(n, A.Index) for n in walk(e))


def _has_call(e: A.Node) -> bool:
    if isinstance(e, A.Node):
        return facts(e).callish
    return any(isinstance(n, A.Call | A.Assign | A.IncDec) for n in walk(e))
