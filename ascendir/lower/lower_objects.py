"""Objects of user classes in the function lowering: an instance with its base parts and members, its
constructor chosen and inlined (or an aggregate initialiser); copies member by member are object_copy.py's.

Separate because class objects are modelled apart from scalars (one Instance shared by every reference)
and need their own rules for constructors and copies.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Operation

from ascendir.dialects import ascendc as asc
from ascendir.lower import ctypes as C, host_program, host_program_args, host_program_vectors, list_tensor
from ascendir.lower import aggregates, array_init, class_bases, object_arrays, unions
from ascendir.lower.header_names import MATMUL_OBJECTS
from ascendir.lower.object_copy import ObjectCopying, object_parts
from ascendir.lower.ctypes import CType, Scalar
from ascendir.lower.errors import Unsupported
from ascendir.lower.fast_ops import name_hint
from ascendir.lower.frame import Frame
from ascendir.lower.scope import ClassInfo
from ascendir.lower.values import Cell, Instance, Pack, Val
from frontend import ast as A


UNBOUND_REFERENCE = "unbound reference member"  # a class-typed reference member before its constructor binds it


class ObjectLowering(ObjectCopying):
    """Objects of user classes: methods of FunctionLowerer (function.py), which inherits them."""

    def make_object(self, t: CType, name: str, node: A.Node) -> Val:
        props = {"var_name": StringAttr(name)}
        if isinstance(t, C.PipeT):
            op: Operation = asc.TPipeOp.create(properties=props, result_types=[C.ir_type(t)])
        elif isinstance(t, C.QueueT):
            op = asc.TQueOp.create(properties=props, result_types=[C.ir_type(t)])
        elif isinstance(t, C.BufT):
            op = asc.TBufOp.create(properties=props, result_types=[C.ir_type(t)])
        elif isinstance(t, C.GlobalTensorT):
            op = asc.GlobalTensorOp.create(properties=props, result_types=[C.ir_type(t)])
        elif isinstance(t, C.ObjectT) and t.name in MATMUL_OBJECTS:
            t = C.ObjectT("Matmul")  # (`MatmulImpl<...> mm_;` is the same object)
            op = asc.MatmulObjectOp.create(properties={**props, "config": StringAttr("")}, result_types=[C.ir_type(t)])
        else:
            op = asc.ObjectOp.create(properties=props, result_types=[C.ir_type(t)])
        result = self.emit(op, node).results[0]
        result.name_hint = name_hint(name)
        if isinstance(t, C.PipeT):
            self.pipes.append(result)
        return Val(t, result)

    def instantiate(self, t: C.ClassT, name: str, node: A.Node, ctor_args: Sequence[Val] = (),
                    construct: bool = True) -> Instance:
        """A new object of class `t`: its base parts, its members, then its constructor (the one that takes
        `ctor_args`). With `construct=False` only the parts and members are made: the derived class's
        constructor runs the base constructor it names (see _run_constructor)."""
        info = self.scope.classes[t.name]
        types: dict[str, object] = {}
        params = info.scope_params or []  # (a nested class's: those of its outer class, whose arguments it has)
        for i, p in enumerate(params):
            if p.name is None:
                continue
            if p.variadic and i < len(t.args) and isinstance(t.args[i], Pack):
                # a pack a partial specialisation's pattern deduced arrives whole, one per pack parameter (tla's
                # `TupleBase<index_sequence<I...>, T...>` holds two)
                types[p.name] = t.args[i]
                continue
            if p.variadic:  # `template <uint32_t... Dims>`: the rest of the arguments
                types[p.name] = Pack(tuple(t.args[i:]))
                break
            if i < len(t.args):
                value = t.args[i]
            elif p.default is not None:
                value = self._default_template_value(p)
            else:
                value = C.UnknownT(p.name)
            types[p.name] = value
        inst = Instance(info, t, types, {}, name)
        reassigned = self.class_assigned(info)
        frame = Frame(info.name, [{}], inst, dict(types), set())
        self.frames.append(frame)
        try:
            declared_by: dict[str, Instance] = {}  # a base's member name -> the base part that declares it
            for base_t in class_bases.base_types(self, info.decl.bases):  # base parts first: the derived class
                if isinstance(base_t, C.ClassT) and base_t.name in self.scope.classes and base_t.name != info.name:
                    base = self.instantiate(base_t, name, node, construct=False)  # may shadow their members
                    for member, binding in base.members.items():
                        other = declared_by.setdefault(member, base)
                        if other is not base:
                            # two sibling bases both declaring `t_` (tla's EBO<0, T0>, EBO<1, T1>): two subobjects,
                            # each part's code reading its own ([class.mi]); the derived class cannot name it
                            # unqualified (an ambiguous lookup, [class.member.lookup])
                            other.hidden.setdefault(member, inst.members[member])
                            base.hidden[member] = binding
                    inst.members.update(base.members)
                    base.members = inst.members  # one object: base methods see the derived object's state
                    base.whole = inst
                    inst.bases.append(base)
            for part in object_parts(inst):
                for _, d in info.fields:
                    # a member of this class that one of a base part hides from the whole object's code stays
                    # that part's own (the nearest part declaring it, whose binding `members` holds so far)
                    if d.name in inst.members and d.name not in part.hidden and \
                            any(own.name == d.name for _, own in part.info.fields):
                        part.hidden[d.name] = inst.members[d.name]
            for vd, d in info.fields:
                self._last_node = d
                if self.host_program is not None and host_program_args.is_string_type(self, d.type):
                    # `string dataType = "half";` of an options struct: the number of its text
                    inst.members[d.name] = self.new_cell(host_program_args.STRING, d.name, d,
                                                         host_program_args.initial(self, d))
                    continue
                if self.host_program is not None and host_program.is_host_type(d.type,
                                                                                 self.host_program.std_visible):
                    # `std::vector<uint32_t> pads = {0, 0, 0};` of an options struct: the array of its elements
                    listed = host_program_vectors.declare(self, d, f"{name}.{d.name}")
                    # (`std::string HELPER`, and any other host type: host data)
                    inst.members[d.name] = listed if listed is not None else Val(C.UnknownT("host data"))
                    continue
                ft = self.resolve_type(d.type, d)
                if isinstance(ft, C.Pointer) and "&" in d.type.pointers and isinstance(ft.pointee, C.StructT | Scalar):
                    # a reference member to a value (`BinaryRepeatParams &repeatParams;`) is read as that value;
                    # one to an object (`TPipe& pipe_;`, bound to the caller's pipe) or to a type out of reach
                    # (`typename mm2Type::MT &mm2;`) stays the reference it was
                    ft = ft.pointee
                if isinstance(ft, C.Pointer) and "&" in d.type.pointers and isinstance(ft.pointee, C.ClassT):
                    # a reference member to a user class object (`Derived &pred;` bound to `*this` through the
                    # base's constructor, the CRTP idiom): the object the constructor binds it to
                    inst.members[d.name] = Val(ft, obj=UNBOUND_REFERENCE)
                elif isinstance(ft, C.ClassT):
                    inst.members[d.name] = self.instantiate(ft, f"{name}.{d.name}", d, self._member_init_args(ft, d))
                elif list_tensor.is_list_tensor_desc(ft):
                    inst.members[d.name] = list_tensor.declare(self, d.name, d, [])
                elif isinstance(ft, C.GlobalTensorT) and info.is_plain_struct:
                    # a tensor field of a record (catlass's L1TileMmadParams::gmBlockC), which its users assign
                    val = self.make_object(ft, d.name, d)
                    inst.members[d.name] = self.new_cell(ft, d.name, d, val)
                elif isinstance(ft, C.PipeT | C.QueueT | C.BufT | C.GlobalTensorT | C.ObjectT):
                    val = self.make_object(ft, d.name, d)
                    if isinstance(ft, C.ObjectT) and ft.name in MATMUL_OBJECTS:
                        config = self._matmul_config(d.type)
                        val.ssa.owner.properties["config"] = StringAttr(config)  # type: ignore[union-attr]
                    # `xGm = xGm[offset]` somewhere in the class: the member is a variable holding the object
                    inst.members[d.name] = self.new_cell(ft, d.name, d, val) if d.name in reassigned else val
                elif isinstance(ft, C.ArrayT) and (held := object_arrays.declare(self, ft, f"{name}.{d.name}", d)):
                    inst.members[d.name] = held  # `LayoutA layoutAList[32];`: a memref per field, any index
                elif isinstance(ft, C.ArrayT) and self._object_array(ft):
                    # `L1TileMmadParams paramsList[PRELOAD_STAGES];`: one object per element
                    inst.members[d.name] = Val(ft, obj=[
                        Val(ft.elem, obj=self.instantiate(ft.elem, f"{name}.{d.name}[{i}]", d))  # type: ignore[arg-type]
                        for i in range(ft.size)])
                elif isinstance(ft, C.ArrayT):  # (`int64_t sizes[3] = {1, 1, 1};`: its initialiser too)
                    inst.members[d.name] = self.new_array(ft, d.name, d, self._declarator_init(d, ft))
                elif (held := aggregates.record_member(self, ft, f"{name}.{d.name}", d) or unions.of_type(self, ft, d)):
                    inst.members[d.name] = held  # `Param param;` of a struct with arrays: an object; a union
                elif "const" in vd.specifiers and d.init is not None and isinstance(ft, Scalar):
                    inst.members[d.name] = self.convert(self.expr(d.init), ft, d)
                else:
                    init = self._declarator_init(d, ft)
                    if isinstance(ft, C.UnknownT) and ft.reported:
                        self.report.unknown_type(ft.text, d)
                    inst.members[d.name] = self.new_cell(ft, d.name, d, init)
        finally:
            self.frames.pop()
        if construct:
            self.construct(inst, ctor_args, node)
        return inst

    def _aggregate_init(self, inst: Instance, items: Sequence[A.Node], node: A.Node, zero_rest: bool = True) -> None:
        """`Info{a, b}` / `Info{.len = a, .num = b}` for a class without constructors: the data members in
        declaration order, or the ones the designators name, take the values; with `zero_rest`, the others
        without a default member initialiser are value-initialised ([dcl.init.aggr]/5: `S c = {i};` in a loop
        zeroes c.v each time, where the cell kept the last trip's values)."""
        order = [d.name for _, d in inst.info.fields]
        if zero_rest:
            named = {item.field_name if isinstance(item, A.DesignatedInit) else order[i] if i < len(order) else ""
                     for i, item in enumerate(items)}
            aggregates.value_initialise_rest(self, inst, named, node)
        for i, item in enumerate(items):
            if isinstance(item, A.DesignatedInit):
                fname, value_node = item.field_name, item.value
            elif i < len(order):
                fname, value_node = order[i], item
            else:
                continue
            member = inst.members.get(fname)
            if isinstance(member, Cell) and isinstance(member.ctype, C.ArrayT) and isinstance(value_node, A.InitList):
                # `P p = {1, {2, 3}};`: the array member's own list, element by element, the rest zeroed
                # ([dcl.init.aggr]/4.2, /5); stored whole, the list left the array undefined (ASC958)
                array_init.store_list(self, member, self.init_list(member.ctype, value_node.items, value_node).obj,
                                      item)
            elif isinstance(member, Cell):
                value = (self.init_list(member.ctype, value_node.items, value_node)
                         if isinstance(value_node, A.InitList) else self.expr(value_node, expected=member.ctype))
                self.store(member, value, item)
            elif isinstance(member, Instance):
                # a class-typed field (`Params{shape, ptrA, layoutA, ...}`): a copy of the object given, or the
                # object its constructor makes from the braced values
                if isinstance(value_node, A.InitList) and value_node.items and all(
                        c.body is None and not c.init_list for c in member.info.constructors) \
                        and not member.info.decl.bases:
                    # a nested aggregate (`{{}, {scale, zero}, {}}` for a struct of structs without constructors
                    # of their own): its members in order, as the outer ones
                    self._aggregate_init(member, value_node.items, item)
                elif isinstance(value_node, A.InitList):
                    self.construct(member, self._constructor_args(member, value_node.items), item)
                else:
                    value = self.expr(value_node)
                    if isinstance(value.obj, Instance):
                        self._copy_members(member, value.obj, item)
                    else:
                        self.construct(member, [value], item)

    def object_from_values(self, t: C.ClassT, values: Sequence[Val], node: A.Node) -> Val:
        """An object of class `t` from a braced list already lowered to its values, before the type it takes was
        known (`Params{shape, ptrA, ..., {{}, {scale, zero}, {}}, workspace}`: the inner list is the argument of a
        constructor parameter `MmadParams const &`): made by the constructor taking the values, or for an
        aggregate, its members in order (nested lists fill nested aggregates)."""
        info = self.scope.classes[t.name]
        if values and _aggregate(info):
            inst = self.instantiate(t, "", node)
            self._fill_from_values(inst, values, node)
        else:
            inst = self.instantiate(t, "", node, values)
        return Val(t, obj=inst)

    def _fill_from_values(self, inst: Instance, values: Sequence[Val], node: A.Node) -> None:
        order = [d.name for _, d in inst.info.fields]
        for fname, v in zip(order, values):
            member = inst.members.get(fname)
            listed = v.obj if _lowered_list(v) else None
            if isinstance(member, Cell) and listed is not None:
                if isinstance(member.ctype, Scalar):  # `{x}` of a number; `{}` is zero
                    self.store(member, self.convert(listed[0], member.ctype, node) if listed
                               else Val(member.ctype, const=0), node)
            elif isinstance(member, Cell):
                self.store(member, self.convert(v, member.ctype, node) if isinstance(member.ctype, Scalar)
                           and isinstance(v.ctype, Scalar) else v, node)
            elif isinstance(member, Instance) and listed is not None:
                if listed and _aggregate(member.info):
                    self._fill_from_values(member, listed, node)
                elif listed:
                    self.construct(member, listed, node)
            elif isinstance(member, Instance) and isinstance(v.obj, Instance):
                self._copy_members(member, v.obj, node)
            elif isinstance(member, Instance):
                self.construct(member, [v], node)

    def construct(self, inst: Instance, args: Sequence[Val], node: A.Node) -> None:
        """Runs the constructor of `inst` that takes `args`; without a user-written one, the default
        constructors of the base parts."""
        if len(args) == 1 and isinstance(args[0].ctype, C.UnknownT) and args[0].ctype.text == "init-list" \
                and isinstance(args[0].obj, list):
            # `return {m, n};` from a function returning the class (tla's MakeShape `return {t...};`): the
            # braced list's items are the constructor's arguments, as copy-list-initialisation takes them
            args = args[0].obj
        ctor = self._pick_constructor(inst.info, len(args), inst, args)
        if ctor is not None and len(args) == 1 and isinstance(args[0].obj, Instance) and \
                args[0].obj.info is inst.info and args[0].ctype == inst.ctype and not self._copies(inst, ctor):
            # an object of the class itself: its copy constructor binds it directly, an exact match
            # ([over.ics.ref]/1), where any other constructor needs a conversion and loses ([over.ics.rank]/3.2,
            # /4.4). tla's Layout(Shape const & = {}, Stride const & = {}), with Layout deriving from
            # tuple<Shape, Stride>, took a copied layout as its shape and left the copy's elements undefined
            ctor = None
        if len(args) == 1 and isinstance(args[0].obj, Instance) and (ctor is None or not self._frame_takes(
                inst, ctor, args)):
            source = args[0].obj.outermost() if args[0].obj.info is not inst.info else args[0].obj
            part = source if source.info is inst.info else next(
                (b for b in object_parts(source) if b.info is inst.info), None)
            if part is not None:
                # the implicit copy constructor (`Base(coord)` with a Coord<3>, or a GemmCoord's Coord<3> part)
                self._copy_members(inst, part, node)
                return
        if ctor is None and aggregates.construct_from_struct(self, inst, args, node):
            return  # a record made from a struct value (`tiling(t)`): every field
        if ctor is not None:
            self._run_constructor(ctor, inst, args, node)
        elif args and (base := _inheriting_base(inst)) is not None:
            # `using Prologue::Prologue;`: the base's constructors are the class's own (catlass's
            # PrologueTraits<Dequant> is built with Dequant's (resource, params)); the other bases by default
            for other in inst.bases:
                self.construct(other, args if other is base else (), node)
        else:
            for base in inst.bases:
                self.construct(base, (), node)

    def class_assigned(self, info: ClassInfo) -> set[str]:
        """Members some method of the class assigns to (they need cells even when they hold objects)."""
        names: set[str] = set()
        for fn in [*(m for ms in info.methods.values() for m in ms), *info.constructors]:
            if fn.body is not None:
                names |= self.assigned_names(fn.body)
        return names

    def _pick_constructor(self, info: ClassInfo, nargs: int, inst: Instance | None = None,
                          args: Sequence[Val] = ()) -> A.FunctionDecl | None:
        """The constructor taking `nargs` arguments; among several, the first whose parameters take the
        arguments' kinds (`Coord(Index const (&)[RANK])` for an array beside `Coord(Index value = 0)`)."""
        # (a function parameter pack, `tuple(T const&... t)` of tla, takes any number of arguments; a constructor
        # without one is preferred where both take them, as a pack of none is the worse match)
        viable = sorted((c for c in info.constructors if sum(
            1 for p in c.params if p.default is None and p.name is not None and not p.variadic) <= nargs and (
            nargs <= len(c.params) or any(p.variadic for p in c.params))),
            key=lambda c: any(p.variadic for p in c.params))
        if len(viable) > 1 and inst is not None and args:
            self.frames.append(Frame(info.name, [{}], inst, dict(inst.types), set()))
            try:
                fitting = [c for c in viable if all(self._parameter_takes(p, a) for p, a in zip(c.params, args))]
            finally:
                self.frames.pop()
            if fitting:
                return fitting[0]
        return viable[0] if viable else None

    def _member_init_args(self, t: C.ClassT, d: A.Declarator) -> list[Val]:
        """The constructor arguments of a class-typed member's default initialiser (`CrossCoreFlag flag{ID};`)."""
        info = self.scope.classes.get(t.name)
        if info is None or not info.constructors:
            return []
        items = d.init.items if isinstance(d.init, A.InitList) else [d.init] if d.init is not None else d.ctor_args
        return [self.expr(i) for i in items or []]

    def _object_array(self, t: C.ArrayT) -> bool:
        """Whether `t` is a small array of user-class objects, modelled as one object per element."""
        return isinstance(t.elem, C.ClassT) and t.elem.name in self.scope.classes and 0 < t.size <= 16

    def _frame_takes(self, inst: Instance, ctor: A.FunctionDecl, args: Sequence[Val]) -> bool:
        """Whether `ctor` of `inst`'s class takes `args` by their kinds (see _parameter_takes)."""
        self.frames.append(Frame(inst.info.name, [{}], inst, dict(inst.types), set()))
        try:
            return all(self._parameter_takes(p, a) for p, a in zip(ctor.params, args))
        finally:
            self.frames.pop()

    def _copies(self, inst: Instance, ctor: A.FunctionDecl) -> bool:
        """Whether `ctor` is a copy constructor of `inst`'s class: its first parameter a reference to the class
        itself, any others defaulted ([class.copy.ctor]/2)."""
        if not ctor.params or any(p.default is None for p in ctor.params[1:]) or ctor.params[0].variadic:
            return False
        self.frames.append(Frame(inst.info.name, [{}], inst, dict(inst.types), set()))
        try:
            t = self.param_type(ctor.params[0])
        finally:
            self.frames.pop()
        if isinstance(t, C.Pointer) and "&" in ctor.params[0].type.pointers:
            t = t.pointee
        return t == inst.ctype

    def _parameter_takes(self, param: A.Param, arg: Val) -> bool:
        """Whether a constructor parameter can take the argument, by kind: an array for an array reference, a
        scalar for a scalar, an object of the class a class parameter names (conversions are not followed)."""
        if param.variadic:
            return True
        t = self.param_type(param)
        if isinstance(t, C.Pointer) and "&" in param.type.pointers:
            t = t.pointee
        got = arg.ctype
        if isinstance(t, C.ArrayT) or isinstance(got, C.ArrayT):
            return isinstance(t, C.ArrayT) and isinstance(got, C.ArrayT | C.UnknownT)
        if isinstance(t, Scalar) and isinstance(got, C.ClassT | C.LocalTensorT | C.GlobalTensorT):
            return False
        if isinstance(t, C.ClassT) and isinstance(got, Scalar):
            info = self.scope.classes.get(t.name)  # a converting constructor from a scalar may take it
            return info is not None and any(len(c.params) >= 1 for c in info.constructors)
        if isinstance(t, C.ClassT) and isinstance(got, C.ClassT):
            return t.name.partition("<")[0] == got.name.partition("<")[0] or self._derives_from(got, t)
        return True

    def _derives_from(self, derived: C.ClassT, base: C.ClassT) -> bool:
        info = self.scope.classes.get(derived.name)
        if info is None:
            return False
        for ref in info.decl.bases:
            name = ref.base.parts[-1].name if isinstance(ref.base, A.QualifiedName) else None
            if name == base.name.partition("<")[0]:
                return True
        return False

    def _run_constructor(self, ctor: A.FunctionDecl, inst: Instance, args: Sequence[Val], node: A.Node) -> None:
        frame = Frame(inst.info.name, [{}], inst, dict(inst.types), self.written_names(ctor.body) if ctor.body else set())
        self.frames.append(frame)
        try:
            self._bind_params(ctor, args, node)
            # base parts first, each with the constructor its init-list entry names (`: Base<T>(n, pipe)`),
            # else its default one, as C++ does before the members' initialisers
            named_bases = {mi.target: mi for mi in ctor.init_list}
            for mi in ctor.init_list:
                alias = inst.info.aliases.get(mi.target) if mi.target not in inst.members else None
                if alias is not None:  # `using Base = KernelBase<T>;` then `: Base(n)`
                    aliased = self.resolve_type(alias)
                    if isinstance(aliased, C.ClassT):
                        named_bases.setdefault(aliased.name, mi)
                elif mi.target not in inst.members:
                    # `: NormModulate::ModulateBase<T>(pipe, tiling)` (ops-nn modulate): a base named with its
                    # namespace, which the class keys leave out; its name alone finds it
                    named_bases.setdefault(_template_name(mi.target), mi)
            elements: dict[str, int] = {}  # the bases a pack expansion initialises, counted in order
            for base in inst.bases:
                mi = named_bases.get(base.info.name) or named_bases.get(base.info.name.rsplit("::", 1)[-1]) or \
                    named_bases.get(_template_name(base.info.name))  # an explicit specialisation's, `CopyBase<float>`
                if mi is not None and mi.pack:
                    # `: EBO<I, T>(t)...` (tla's TupleBase): the k-th base of the expansion from the packs' k-th
                    # elements (C++ [temp.variadic]/5, a pack expansion in a mem-initializer-list)
                    k = elements[mi.target] = elements.get(mi.target, -1) + 1
                    with class_bases.pack_element(self, k, mi.args):
                        args = [self.expr(a) for a in mi.args]
                    self.construct(base, args, mi)
                elif mi is not None:  # (`: TupleBase<...>(t...)`: a pack expanded among the arguments)
                    self.construct(base, [self.expr(a) for a in self.expand_packs(mi.args, mi)], mi)
                else:
                    self.construct(base, (), node)
            for mi in ctor.init_list:
                member = inst.member(mi.target)
                if isinstance(member, Val) and member.obj is UNBOUND_REFERENCE and len(mi.args) == 1:
                    source = self.expr(mi.args[0])
                    if isinstance(source.obj, Instance):
                        inst.members[mi.target] = source.obj  # the members are shared with the whole object
                elif isinstance(member, Val) and isinstance(member.ctype, C.GlobalTensorT | C.LocalTensorT) and mi.args:
                    # `t_{t}` of a tensor member (tla's EBO holding a tuple's GlobalTensor): the member is that
                    # tensor (a copy of a tensor is another handle on the same memory)
                    (inst.hidden if mi.target in inst.hidden else inst.members)[mi.target] = \
                        self._tensor_member_init(member, mi)
                elif isinstance(member, Cell) and mi.args:
                    arg = mi.args[0]
                    if isinstance(arg, A.InitList) and len(mi.args) == 1:
                        # `pipe_{pipe}`: a braced initialiser; of a pointer or tensor, its one value (not an
                        # aggregate of the braces, which would leave the member undefined)
                        one = len(arg.items) == 1 and isinstance(member.ctype, C.Pointer | C.LocalTensorT |
                                                                 C.GlobalTensorT)
                        value = self.expr(arg.items[0]) if one else self.init_list(member.ctype, arg.items, arg)
                    else:
                        value = self.expr(arg)
                    self.store(member, value, mi)
                elif isinstance(member, Instance) and len(mi.args) == 1 and (
                        not isinstance(mi.args[0], A.InitList)
                        or len(mi.args[0].items) == 1 and not isinstance(mi.args[0].items[0], A.InitList)):
                    # `m(x)`, and `m{x}` of one expression: an object of the member's class initialises it by copy
                    # (tla's EBO `t_{t}`, [dcl.init.list]/3.2), another value goes to its constructor. The
                    # expression is lowered once, here: a call in it (`a_{Next(g)}`) runs once
                    braced = isinstance(mi.args[0], A.InitList)
                    source = self.expr(mi.args[0].items[0] if braced else mi.args[0])  # type: ignore[union-attr]
                    if isinstance(source.obj, Instance) and source.obj.info is member.info:
                        self._copy_members(member, source.obj, mi)  # `ti(ti)`: a copy of a struct argument
                    elif member.info.constructors or braced or isinstance(source.ctype, C.TilingT):
                        self.construct(member, [source], mi)  # (`tiling(t)` of a struct value: construct copies)
                elif isinstance(member, Instance) and mi.args:
                    # `helper({tiling.a, tiling.b}, pipe)`: the member's own constructor (an InitBuffer of
                    # its queues, typically) runs with these arguments
                    self.construct(member, self._constructor_args(member, mi.args), mi)
            if ctor.body is not None:
                self.begin_function_body(ctor.body.body, node)
                self.lower_stmts(ctor.body.body, top="function")
        finally:
            self.frames.pop()

    def _tensor_member_init(self, member: Val, mi: A.MemberInit) -> Val:
        """The tensor a tensor member's mem-initializer gives it. A tensor of another class or element type does
        not convert ([dcl.init]/17.6.2: GlobalTensor<half>'s constructors take no GlobalTensor<int32_t>, and no
        conversion function makes one; a view of the bytes is ReinterpretCast<T>()): reported as the compiler
        does, and the member left undefined (an access through it is an error at run time, ASC950). Before, it
        became the other tensor (its element type silently changed) or, of another class, kept its unset handle
        with no finding."""
        t = member.ctype
        if all(isinstance(a, A.InitList) and not a.items for a in mi.args):
            return member  # `t_{}` (tla's EBO()): the default constructor's tensor, with no memory yet, as made
        what = f"the initialisation of member '{mi.target}'"
        given = _one_value(self, mi.args)
        if given is None or not isinstance(given.ctype, C.GlobalTensorT | C.LocalTensorT):
            if given is None or not isinstance(given.ctype, C.UnknownT):  # (an unknown value: reported already)
                shown = f"a {given.ctype}" if given is not None else f"{len(mi.args)} arguments"
                self.report.failed(Unsupported(f"{what} ({t}) from {shown}", mi))
            return Val(t, self.undef(t, mi))
        if not self.check_tensor_conversion(given, t, mi, what):
            return Val(t, self.undef(t, mi))
        return given

    def _constructor_args(self, inst: Instance, nodes: Sequence[A.Node]) -> list[Val]:
        """The arguments of a constructor call on `inst`, a braced list taking the type of its parameter."""
        ctor = self._pick_constructor(inst.info, len(nodes))
        args = []
        for i, item in enumerate(nodes):
            if isinstance(item, A.InitList) and ctor is not None and i < len(ctor.params):
                # the parameter's type is spelled in the class's terms (`const tilingStruct &ti`)
                self.frames.append(Frame(inst.info.name, [{}], inst, dict(inst.types), set()))
                try:
                    ptype = self.param_type(ctor.params[i])
                finally:
                    self.frames.pop()
                args.append(self.init_list(ptype, item.items, item))
            else:
                args.append(self.expr(item))
        return args

def destructor_of(inst: Instance) -> A.FunctionDecl | None:
    """The user-written destructor of the object's class."""
    return inst.info.destructor


def _template_name(key: str) -> str:
    """`CopyBase` for the class key `NS::CopyBase<float>` (an explicit specialisation, Scope's key for it), the
    name a constructor's init-list entry `: CopyBase<float>(pipe)` gives (ops-nn mse_loss_v2's MSELossV2Base)."""
    return key.partition("<")[0].rsplit("::", 1)[-1]


def _inheriting_base(inst: Instance) -> Instance | None:
    """The base part whose constructors the class inherits with `using Base::Base;` (the last two names of the
    using-declaration the same: the base's constructors), None when it declares none."""
    for m in inst.info.decl.members:
        if not isinstance(m, A.UsingDecl):
            continue
        for q in m.names:
            if len(q.parts) < 2 or q.parts[-1].name != q.parts[-2].name:
                continue
            if len(inst.bases) == 1:
                return inst.bases[0]
            written = q.parts[-2].name
            found = [b for b in inst.bases if b.info.name.partition("<")[0].rsplit("::", 1)[-1] == written]
            if len(found) == 1:
                return found[0]
    return None


def _one_value(lw: ObjectLowering, args: Sequence[A.Node]) -> Val | None:
    """The value of a mem-initializer's one argument, `(x)` or `{x}`; None for any other."""
    if len(args) != 1:
        return None
    node = args[0]
    if isinstance(node, A.InitList):
        if len(node.items) != 1:
            return None
        node = node.items[0]
    return lw.expr(node)  # type: ignore[attr-defined, no-any-return]


def _aggregate(info: ClassInfo) -> bool:
    """A class initialised member by member from a braced list: no base, no constructor with code of its own."""
    return not info.decl.bases and all(c.body is None and not c.init_list for c in info.constructors)


def _lowered_list(v: Val) -> bool:
    """A braced list lowered before its type was known: its items' values (lower_exprs.expr_InitList)."""
    return isinstance(v.ctype, C.UnknownT) and v.ctype.text == "init-list" and isinstance(v.obj, list)
