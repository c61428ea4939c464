"""Declarations in the function lowering: a local variable bound as an SSA value, a cell or an object, its
initialiser converted, and C arrays with their brace initialisers.

Separate from objects (lower_objects.py): this decides how a declared name is held; building a class
object is the objects module's work.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from dataclasses import replace

from xdsl.dialects import memref
from xdsl.dialects.builtin import ArrayAttr, StringAttr
from xdsl.ir import SSAValue

from ascendir.dialects import ascendc as asc
from ascendir.lower import ctypes as C, array_init, array_pointer, list_tensor, object_arrays, register_api
from ascendir.lower import aggregates, unions
from ascendir.lower.ctypes import CType, Scalar
from ascendir.lower.errors import Unsupported
from ascendir.lower.fast_ops import name_hint
from ascendir.lower.header_names import MATMUL_OBJECTS
from ascendir.lower.lower_objects import destructor_of
from ascendir.lower.values import Cell, Instance, Val
from frontend import ast as A

_MAX_TENSOR_ARRAY = 64  # elements of an array of GlobalTensors given objects of their own (ping-pong lists)


class DeclarationLowering:
    """Declarations: methods of FunctionLowerer (function.py), which inherits them."""

    def _declare_with_local_type(self, st: A.ClassDecl | A.EnumDecl, d: A.Declarator) -> None:
        if isinstance(st, A.ClassDecl) and (union := unions.declare(self, st, d)) is not None:
            self.bind(d.name, union)  # `union { float f; uint32_t u; } c;`: one storage (unions.py)
            return
        if st.name:
            typed = replace(d, type=replace(d.type, base=A.QualifiedName(st.span, [A.NamePart(st.span, st.name)])))
            if not isinstance(self.resolve_type(typed.type), C.UnknownT):
                self.declare(A.VarDecl(st.span, [], [typed]))
                return
        # an anonymous union or struct, or a class local to the function: what its members hold is not
        # modelled (a union reinterprets bits); the variable exists, and what is read from it is unknown
        self.bind(d.name, Val(C.UnknownT(st.name or "anonymous class"), None))

    def declare(self, st: A.VarDecl) -> None:
        for d in st.declarators:
            self._last_node = d
            t = self.resolve_type(d.type, d)
            # (`auto &&cfg = this->tilingData_->param;`, ops-transformer mc2: a forwarding reference binds as `&`)
            is_ref = "&" in d.type.pointers or "&&" in d.type.pointers
            if isinstance(t, C.Pointer) and is_ref:
                t = t.pointee
            if (union := unions.of_type(self, t, d)) is not None:
                self.bind(d.name, union)  # a variable of a named union of numbers (unions.py)
                continue
            if register_api.is_mode_struct(self, d):  # `constexpr Reg::CastTrait k = {...}`: read where it is used
                self.bind(d.name, Val(t, obj=d))
                continue
            record = aggregates.record_type(self, t) if not is_ref and isinstance(d.init, A.InitList) else None
            if record is not None:
                # `TilingParam p = {.n = td.n};` of a plain struct with C array members: an object of its class,
                # whose arrays its element stores and reads use (aggregates.py)
                self.bind(d.name, self._record_object(record, d.name, d.init, d))
                continue
            try:
                init = self._declarator_init(d, t)
            except Unsupported as exc:
                # report it, and declare the name anyway so its uses do not cascade into more errors
                self.report.failed(exc)
                if isinstance(t, C.UnknownT | C.VoidT):
                    self.bind(d.name, Val(t))
                elif d.name in self.frame.assigned and isinstance(t, Scalar | C.LocalTensorT | C.StructT | C.TilingT):
                    self.bind(d.name, self.new_cell(t, d.name, d))
                else:
                    self.bind(d.name, Val(t, self.undef(t, d)))
                continue
            if isinstance(t, C.UnknownT) and t.text == "auto" and init is not None:
                t = init.ctype
            if init is not None and isinstance(init.obj, unions.UnionObject):
                # `auto b = a;` a copy; `auto &r = a;`, `Word *p = &a;` the union itself (unions.py)
                self.bind(d.name, init if is_ref else unions.copy(self, init, d.name, d))
                continue
            try:
                self.bind_local(d.name, t, init, d, st, is_ref)
            except Unsupported as exc:
                # `Kernel<T> op;` whose constructor or member initialisers fail: one report, and `op.Init()`
                # below is not `use of undeclared identifier 'op'`
                self.report.failed(exc)
                if d.name not in self.frame.scopes[-1]:
                    self.bind(d.name, Val(C.UnknownT(t.text if isinstance(t, C.UnknownT) else str(t))))

    def _record_object(self, t: C.ClassT, name: str, init: A.InitList, d: A.Node) -> Instance:
        """The object a brace list initialises as an aggregate (aggregates.initialise)."""
        inst = self.instantiate(t, name, d)
        aggregates.initialise(self, inst, self.expand_packs(init.items, d), d)
        return inst

    def _declarator_init(self, d: A.Declarator, t: CType) -> Val | None:
        if d.init is not None:
            if isinstance(d.init, A.InitList):
                return self.init_list(t, d.init.items, d)
            return self.expr(d.init, expected=t)
        if d.ctor_args:
            if isinstance(t, C.ClassT):
                return None  # constructor arguments: handled when the instance is made
            if list_tensor.is_list_tensor_desc(t):  # `ListTensorDesc desc(data)`
                return list_tensor.declare(self, d.name, d, [self.expr(a) for a in d.ctor_args
                                                             if not isinstance(a, A.InitList)])
            return self.init_list(t, d.ctor_args, d)
        return None

    def check_tensor_conversion(self, v: Val, t: CType, node: A.Node, what: str) -> bool:
        """`LocalTensor<float> x = q.DeQue<half>();`: a tensor class does not convert to another element type
        or from a GlobalTensor (reported; False). Unknown element types (an unbound template parameter) are not
        judged."""
        tensor_types = (C.LocalTensorT, C.GlobalTensorT)
        s = v.ctype
        if not isinstance(t, tensor_types) or not isinstance(s, tensor_types):
            return True
        if type(s) is not type(t) or (s.elem is not None and t.elem is not None and s.elem != t.elem):
            self.report.tensor_type_mismatch(str(t), str(s), node, what)
            return False
        return True

    def bind_local(self, name: str, t: CType, init: Val | None, d: A.Node, st: A.Node, is_ref: bool = False) -> None:
        if register_api.declare(self, name, t, init, d):  # `RegTensor<float> x;`: a register of the core's file
            return
        if init is not None:
            self.check_tensor_conversion(init, t, d, f"the initialisation of '{name}'")
        if init is not None and isinstance(t, Scalar) and isinstance(init.obj, Instance):
            # `uint32_t n = Int<7>{};`: a number, by the class's conversion operator ([dcl.init]/17.6.3), not
            # the object (whose type `MakeShape(n)` would then take), as for a parameter (lower_inline)
            init = self._converted(init, d)
        if init is not None and isinstance(init.obj, Instance) and not is_ref:
            # `MatrixCoord offset = blockCoord * blockShape;`: a Coord<2> made a MatrixCoord by its constructor
            given = init.obj
            init = self._converted_to_class(init, t, name, d)
            if init.obj is given and isinstance(d, A.Declarator) and aggregates.designates_object(d.init):
                init = aggregates.copy(self, init, t, name, d)  # `S b = a;`: an object of its own
        if init is not None and (isinstance(init.obj, Instance) or (is_ref and isinstance(init.obj, Cell))):
            self.bind(name, init.obj)  # type: ignore[arg-type]
            return
        if isinstance(t, C.ClassT):
            ctor_args = [self.expr(a) for a in d.ctor_args] if isinstance(d, A.Declarator) else []  # type: ignore[arg-type]
            inst = self.instantiate(t, name, d, ctor_args)
            self.bind(name, inst)
            if destructor_of(inst) is not None:
                self._owned.setdefault(id(self.frame.scopes[-1]), []).append(inst)
            return
        if list_tensor.is_list_tensor_desc(t):
            is_desc = init is not None and isinstance(init.obj, tuple) and init.obj[0] == "list_tensor_desc"
            self.bind(name, init if is_desc else list_tensor.declare(self, name, d, []))  # type: ignore[arg-type]
            return
        if isinstance(t, C.PipeT | C.QueueT | C.BufT | C.GlobalTensorT | C.ObjectT) and init is None:
            obj = self.make_object(t, name, d)
            if isinstance(t, C.ObjectT) and t.name in MATMUL_OBJECTS and isinstance(d, A.Declarator):
                obj.ssa.owner.properties["config"] = StringAttr(self._matmul_config(d.type))  # type: ignore[union-attr]
            self.bind(name, obj)
            return
        if isinstance(t, C.ArrayT):
            held = object_arrays.declare(self, t, name, d) if init is None else None
            self.bind(name, held if held is not None else self.new_array(t, name, d, init))  # type: ignore[arg-type]
            return
        mutable = name in self.frame.assigned
        if isinstance(t, Scalar):
            if init is not None:
                init = self.convert(init, t, d)
            if not mutable and init is not None:
                if init.ssa is not None:
                    init.ssa.name_hint = init.ssa.name_hint or name_hint(name)
                self.bind(name, init)
            else:
                self.bind(name, self.new_cell(t, name, d, init))
            return
        if init is None:
            if isinstance(t, C.StructT):
                init = Val(t, self.emit(asc.StructInitOp.create(
                    properties={"fields": ArrayAttr([])}, operands=[], result_types=[C.ir_type(t)]), d).results[0])
            elif isinstance(t, C.TilingT) and not is_ref:
                # a plain struct declared without an initialiser starts with its default member initialisers
                names, values = self.member_defaults(t, (), d, zero_rest=False)
                if names:
                    init = Val(t, self.emit(asc.StructInitOp.create(
                        properties={"fields": ArrayAttr([StringAttr(f) for f in names])}, operands=values,
                        result_types=[C.ir_type(t)]), d).results[0])
            elif isinstance(t, C.UnknownT):
                if t.reported:
                    self.report.unknown_type(t.text, d)
                self.bind(name, Val(t))
                return
        if mutable:
            self.bind(name, self.new_cell(t, name, d, init))
        else:
            self.bind(name, init if init is not None else Val(t, self.undef(t, d)))

    def new_array(self, t: C.ArrayT, name: str, node: A.Node, init: Val | None) -> Cell:
        """A C array (of any rank) in one memref; brace initialisers are stored element by element."""
        dims, elem = C.array_shape(t)
        ref = self.emit(memref.AllocaOp.get(C.ir_type(elem), shape=dims), node).results[0]
        ref.name_hint = name_hint(name)
        cell = Cell(t, ref, name)
        if init is not None and isinstance(init.obj, list):
            array_init.store_list(self, cell, init.obj, node)
        elif init is None and isinstance(elem, C.GlobalTensorT) and math.prod(dims) <= _MAX_TENSOR_ARRAY:
            # `GlobalTensor<float> mm1Res[2];`: an object per element (as a `GlobalTensor<float> x;` is one), so that
            # `mm1Res[0].SetGlobalBuffer(p)` sets the tensor a later `mm1Res[i]` reads; the memory held nothing
            for position in itertools.product(*(range(d) for d in dims)):
                tensor = self.make_object(elem, f"{name}[{']['.join(map(str, position))}]", node)
                self.store_element(self.ssa(tensor, node), ref, [self.index_const(i, node) for i in position], node)
        return cell

    def array_element(self, base: Val, index: Val, node: A.Node) -> tuple[Cell, list[SSAValue], CType] | None:
        """(array cell, indices so far, element type) for `base[index]` on an array (or a row of one)."""
        t = base.ctype
        assert isinstance(t, C.ArrayT)
        if isinstance(base.obj, Cell):
            cell, indices = base.obj, list(base.obj.at)
        elif isinstance(base.obj, tuple) and base.obj[0] == "array_view":
            _, cell, indices = base.obj
        elif isinstance(base.obj, list):  # a constant array indexed at run time: give it memory
            cell, indices = self.new_array(t, "", node, base), []
        elif (at := array_pointer.element_index(self, base, index, node)) is not None:
            return at[0], at[1], t.elem  # `p[i]` with `p = arr + k`
        else:
            return None
        return cell, [*indices, self.index_value(index, node)], t.elem
