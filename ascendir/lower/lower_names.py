"""Names read in expressions in the function lowering: variables, `this` members, enumerators, static and
global constants, the AscendC headers' constants and enumerators, the SIMT builtins.

Separate from the other expressions because looking a name up is most of what makes C++ hard here: scopes,
classes, namespaces and headers that were not read all take part.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ascendir.chips import load_chip
from ascendir.dialects import ascendc as asc
from ascendir.lower import ctypes as C, gm_statics, host_program, register_moves, simt_launch, ssa_scope, struct_pointer
from ascendir.lower import block_local, code_pointer, namespace_lookup, namespace_writes, type_traits
from ascendir.lower.ctypes import Scalar
from ascendir.lower.errors import Undeclared, Unsupported
from ascendir.lower.frame import Frame
from ascendir.lower.header_names import (
    CHIP_MEMORY_CONSTANTS,
    HEADER_CONSTANTS,
    SIMT_BUILTINS,
    SIMT_INDEX,
    TRANSPARENT_NAMESPACES,
    in_register_api,
)
from ascendir.lower.namespace_lookup import qualifier_of
from ascendir.lower.scope import ClassInfo
from ascendir.lower.values import Binding, Cell, Instance, Val
from frontend import ast as A


class NameLowering:
    """Names read in expressions: methods of FunctionLowerer (function.py), which inherits them."""

    def expr_Name(self, e: A.Name) -> Val:
        if len(e.qname.parts) >= 2 and e.qname.parts[-2].name in register_moves.ENUMS and (
                in_register_api(e.qname) or self.report.api_uncatalogued):
            # an enumerator the register loads and stores select by (a template parameter's default
            # `LoadDist D = LoadDist::DIST_UNPACK_B16`, qualified or after `using namespace MicroAPI`): its name,
            # as enumerator template arguments are bound
            return Val(C.EnumT(e.qname.parts[-2].name), const=e.qname.parts[-1].name)
        if in_register_api(e.qname):  # `Reg::MaskPattern::ALL`, `MicroAPI::LoadDist::DIST_NORM`
            return Val(C.RegisterApiT())
        parts = self.scope.without_namespaces([p for p in e.qname.parts if p.name not in TRANSPARENT_NAMESPACES])
        name = parts[-1].name if parts else e.qname.parts[-1].name
        # `Ns::x`: a name qualified by a namespace is looked up in that namespace only ([basic.lookup.qual]/1,
        # [namespace.qual]), never among the function's locals, parameters or the class's members it would hide
        in_namespace = len(parts) == 1 and len(e.qname.parts) > 1
        if len(parts) >= 2 and self.names_std_homonym(e.qname.parts):
            # `std::is_same<int64_t, U>::value` beside the program's own is_same (ops-nn scatter_add): a trait folded
            # as the library defines it; `std::tuple_size<T>::value` beside tla's own tuple_size: not modelled
            folded = type_traits.value(self, e.qname.parts) if parts[-2].name in type_traits.STANDARD_FOLDS else None
            if folded is not None:
                return folded
            raise Unsupported(f"'{e.qname.text}' (the standard library's, not the program's {parts[-2].name})", e)
        if len(parts) <= 1:
            # (a block-local namespace variable is this core's own storage, made on first use: block_local.py)
            b = block_local.binding(self, name, qualifier_of(e.qname)) if in_namespace else self.lookup(name)
            if b is not None:
                return self.read_binding(b, e)
            if self.host_program is not None and host_program.constant(name) is not None:
                return host_program.constant(name)  # type: ignore[return-value]  # ACL_SUCCESS, ACL_MEMCPY_*
            if name in self.frame.types and not in_namespace:
                bound = self.frame.types[name]
                if isinstance(bound, str):
                    # an enumerator argument (`template <HardEvent evt>`, `template <TPosition pos>`): its enum
                    enum_name = self.catalog.enum_of_value(bound) or "TPosition"  # type: ignore[attr-defined]
                    return Val(C.EnumT(enum_name), const=bound)
                if isinstance(bound, int | float):
                    return Val(C.I32 if isinstance(bound, int) else C.F32, const=bound)
                if isinstance(bound, C.MemberFunctionT):
                    return Val(bound)
                if isinstance(bound, C.UnknownT):
                    # a non-type template parameter whose argument is out of reach (`k<SRC_LEN><<<...>>>` with
                    # SRC_LEN from the build's -D flags): a value, unknown here
                    return Val(C.I64, self.undef(C.I64, e))
        elif len(parts) >= 2 and (part := self.aliased_part(*(p.name for p in parts[:-1]))) is not None:
            # `Base::pipe` with `using Base = KernelBase<T>;`: a member of this object's part of that class
            # (`Base::Base::pipe`: of that part's own base)
            return self._member_of_instance(part, name, e)
        elif len(parts) >= 2 and parts[0].name == "decltype" and len(parts[0].template_args or []) == 1:
            # `decltype(shape<0, 0>(layout))::value` (tla's MakeLayoutTile): a member of the operand's type (the
            # parser keeps the operand as the part's one argument), as `decltype(...)` in a type is read
            operand = self.expr((parts[0].template_args or [])[0].value).ctype  # type: ignore[arg-type]
            member = self._member_of_type_argument(operand, parts[1:], e)
            if member is not None:
                return member
        elif parts[0].name in self.frame.types and not parts[0].template_args:
            # `A_TYPE::isTrans`, `T::value`: a member of a template's type argument
            member = self._member_of_type_argument(self.frame.types[parts[0].name], parts[1:], e)
            if member is not None:
                return member
        qualified = "::".join(p.name for p in parts)
        trait = type_traits.value(self, parts)
        if trait is not None:
            return trait
        # class-scoped constants: `Kernel::TILE`, or a static member used inside the class
        if self.frame.this is not None and len(parts) == 1 and not in_namespace:
            decl = self.frame.this.static_constant(name)
            if decl is not None:
                return self._constant_decl(decl, e)
            outer = self.frame.this.info.outer
            while outer is not None:  # `T list[MAX_COUNT]` in `struct Params` of a kernel class declaring MAX_COUNT
                decl = outer.static_constants.get(name)
                if decl is not None:
                    return self._constant_decl(decl, e, outer)
                outer = outer.outer
        if len(parts) == 1 and self.frame.this is None and self.frame.owner is not None and not in_namespace:
            # a class template's own constant named in what it declares, lowered in its frame (catlass's
            # TileCopyGemvAiv: `using VecCopyUbToGm = VecCopyUBToGm<ArchTag, YType, is_atoadd>;`)
            owner: ClassInfo | None = self.frame.owner
            while owner is not None:
                decl = owner.static_constants.get(name)
                if decl is not None:
                    return self._constant_decl(decl, e, owner)
                owner = owner.outer
        if len(parts) == 1 and self._constant_owners and not in_namespace:
            owner = self._constant_owners[-1]
            decl = owner.static_constants.get(name)
            if decl is not None:
                return self._constant_decl(decl, e, owner)
        if len(parts) == 2 and parts[0].name in self.scope.classes and (
                parts[0].template_args or not self.member_alias_hides(parts[0].name)):
            # (`UBAlignHelper::ALIGN` under `using UBAlignHelper = Gemv::helper::UBAlignHelper<ElementA>;` in the
            # class names the alias's instance, below, not the class template with no arguments)
            info, args = self._owner_class(parts[0])  # type: ignore[misc]
            decl = info.static_constants.get(name)
            if decl is not None:
                if not info.template_params:  # read where it is named, as a constant of a plain class always was
                    return self._constant_decl(decl, e, info)
                with self._class_template_frame(info, args):
                    return self._constant_decl(decl, e, info)
        if len(parts) >= 2:
            member = self._static_member_of_type(parts, e)
            if member is not None:
                return member
        hit = self.scope.enumerators.get(qualified) or (self.scope.enumerators.get(name) if len(parts) <= 2 else None)
        if hit is not None:
            enum_name, enumerator, index = hit
            value = self._enumerator_value(enum_name, enumerator, index)
            return Val(C.EnumT(enum_name) if enum_name else C.I32, const=value) if enum_name is None else Val(C.I32, const=value)
        # `RoundMode::CAST_NONE` is the enumerator even where the project has a `CAST_NONE` constant of its own
        enum_qualified = len(parts) >= 2 and (parts[-2].name in self.scope.enums
                                              or self.catalog_type_kind(parts[-2].name) == "enum")
        const = None if enum_qualified else namespace_lookup.variable(self, name, qualifier_of(e.qname), e)
        if const is not None:
            vd, decl = const
            if gm_statics.is_gm_array(decl):
                return gm_statics.value(self, decl, e)  # `static __gm__ uint32_t flags[16]`: one GM array
            return self._global_constant(vd, decl, e)
        lib = self.catalog_constant(name, parts)
        if lib is not None:
            return lib
        header = HEADER_CONSTANTS.get(name)
        if header is not None:
            t, value = header
            if name in CHIP_MEMORY_CONSTANTS:
                value = load_chip(self.options.chip).memory_size(CHIP_MEMORY_CONSTANTS[name])
            return Val(t, const=value) if value is not None else Val(t, self.undef(t, e))
        if name == "block_idx":  # the CANN 9 global of `.asc` kernels
            op = asc.SystemOp("GetBlockIdx", [], overload=self.catalog.first_overload("GetBlockIdx"),
                              result_type=C.scalar_ir_type(C.I64))
            return Val(C.I64, self.emit(op, e).results[0])
        if len(parts) >= 2 and parts[0].name == "Pattern":  # reduce pattern tags: Pattern::Reduce::RA
            return Val(C.EnumT("Pattern"), const="::".join(p.name for p in parts[1:]))
        if len(parts) == 2 and parts[0].name == "Hardware":
            return Val(C.EnumT("Hardware"), const=name)
        if name == "g_coreType":
            if self.core_type is not None:  # inside one core type's specialisation: that core's
                return Val(C.EnumT("CoreType"), const=self.core_type)
            return Val(C.EnumT("CoreType"), obj="g_coreType")
        if name in ("AIV", "AIC") and len(e.qname.parts) >= 1:
            return Val(C.EnumT("CoreType"), const=name)
        if name in ("nullptr", "NULL"):
            return Val(C.Pointer(C.VoidT()), const=0)
        if len(parts) == 1 and name in SIMT_BUILTINS:
            # the SIMT model's per-thread builtins (Ascend 950 `__simt_vf__` code): values the checker does
            # not model, not undeclared names
            if name == "warpSize":
                if simt_launch.thread_of(self) is not None:
                    return Val(C.I32, const=simt_launch.WARP_SIZE)
                return Val(C.I32, self.undef(C.I32, e))
            if simt_launch.thread_of(self) is not None:
                return Val(C.UnknownT("dim3"), obj=(SIMT_INDEX, name))  # this thread's (simt_launch.member)
            return Val(C.UnknownT("dim3"), obj=SIMT_INDEX)
        if len(parts) >= 2 and name in getattr(self.scope.classes.get(parts[-2].name), "methods", {}):
            return Val(C.MemberFunctionT(parts[-2].name, name))  # `&Kernel::Compute`
        if parts and parts[-1].template_args and name in self.scope.functions and \
                (address := code_pointer.function_address(self, e)) is not None:
            # `Apply<5>(dst, src, Scale<M>)`: the function with its template arguments evaluated here, as `&Scale<M>`
            # ([conv.func]), not the name re-read where the pointer is called (there M may be the callee's own)
            return address
        # a function used as a value; `Apply(dst, a, b, n, Mul)` passes an AscendC one to a template
        if name in self.scope.functions or name in self.scope.classes or (len(parts) <= 1 and self.catalog.has_api(name)):
            return Val(C.UnknownT(name), obj=("function", name, e))  # (e: as written, for a call through it)
        t = self.named_type(name, parts[-1].template_args if parts else None)
        if not isinstance(t, C.UnknownT):
            return Val(t, obj=("type", t))
        if parts and parts[-1].template_args is not None and name.startswith("is_") and name.endswith("_v"):
            member = type_traits.member_function_pointer(self, parts[-1]) \
                if name == "is_member_function_pointer_v" else None
            if member is not None:
                return Val(C.BOOL, const=int(member))
            # a standard type trait the lowering does not fold
            return Val(C.BOOL, self.undef(C.BOOL, e))
        if len(parts) == 2 and self._declared_alias(parts[0].name):
            # `Btype::format` with `using Btype = typename mm1Type::BT;` (ops-transformer ffn): a member of the
            # type the alias names, as for a template's type argument
            member = self._member_of_type_argument(self.named_type(parts[0].name, None), parts[1:], e)
            if member is not None:
                return member
        owner = parts[-2].name if len(parts) >= 2 else ""
        if owner and owner not in self.scope.classes and self.catalog_type_kind(owner) is None \
                and self.catalog.vendor_type(owner):
            # a static member of a vendor struct the catalog does not model (`AscendC::NdDmaConfig::unsetPad`);
            # the members of catalogued enums and structs are checked
            return Val(C.UnknownT(qualified))
        raise Undeclared(e.qname.parts[-1].name if not parts else qualified, e)

    def _enumerator_value(self, enum_name: str | None, enumerator: A.Enumerator, index: int) -> int:
        if enumerator.value is not None:
            v = self.const_eval(enumerator.value)
            if isinstance(v, int):
                return v
        decl = self.scope.enums.get(enum_name) if enum_name else None
        if decl is None:
            return index
        prev = -1
        for en in decl.enumerators:
            v = self.const_eval(en.value) if en.value is not None else prev + 1
            prev = v if isinstance(v, int) else prev + 1
            if en is enumerator:
                return prev
        return index

    def catalog_constant(self, name: str, parts: Sequence[A.NamePart]) -> Val | None:
        """Enumerators of the AscendC headers: `TPosition::VECIN`, `HardEvent::MTE2_V`, `EVENT_ID0`, `PIPE_V`."""
        found = self.catalog.enumerator(name, parts[-2].name if len(parts) >= 2 else None)  # type: ignore[attr-defined]
        if found is None and len(parts) >= 2:
            # `TransposeType::TRANSPOSE_ND2ND_021`: a value of an enum the catalog lists only in part; the
            # headers may declare it (a misspelt member of a completely listed enum stays undeclared)
            enum_name = self.catalog.enum_with_more_values(parts[-2].name)  # type: ignore[attr-defined]
            return Val(C.EnumT(enum_name), const=name) if enum_name is not None else None
        if found is None:
            return None
        enum_name, value, canonical = found
        if enum_name in ("TEventID", "event_t"):
            return Val(C.I32, const=value)
        return Val(C.EnumT(enum_name), const=canonical)

    def _constant_decl(self, decl: A.Declarator, e: A.Node, owner: ClassInfo | None = None) -> Val:
        """The value of a static constant's declarator; `owner`, its class, whose other constants the initialiser
        may name unqualified."""
        if gm_statics.is_gm_array(decl):  # `constexpr static __gm__ T table[N] = {...}`: one GM array per class
            this = self.frame.this if self.frames else None
            holder = owner or (this.info if this is not None else None)
            return gm_statics.value(self, decl, e, holder.name if holder is not None else "")
        t = self.resolve_type(decl.type, decl)
        if decl.init is None:
            raise Unsupported(f"static member '{decl.name}' has no initialiser here", e)
        if owner is not None:
            self._constant_owners.append(owner)
        try:
            v = self.expr(decl.init) if not isinstance(decl.init, A.InitList) else self.init_list(t, decl.init.items, e)
        finally:
            if owner is not None:
                self._constant_owners.pop()
        return self.convert(v, t, e) if isinstance(t, Scalar) else v

    def _global_constant(self, vd: A.VarDecl, decl: A.Declarator, e: A.Node) -> Val:
        if decl.init is None and not decl.ctor_args:
            raise Unsupported(f"global variable '{decl.name}' is not a constant", e)
        t = self.resolve_type(decl.type, decl)
        if decl.init is None:
            # `constexpr TransDataTo5HDParams PARA_ONE(false, false, 1, 0, 0);`: direct-initialisation with
            # parentheses ([dcl.init]/16.6), the constructor's arguments as for a local (lower_decls'
            # _declarator_init); an object of the program's classes would need its constructor run (a gap)
            if isinstance(t, C.ClassT):
                raise Unsupported(f"global object '{decl.name}' of class '{t.name}' made by its constructor", e)
            v = self.init_list(t, decl.ctor_args, e)
        else:
            # the initialiser is written at namespace scope: its names are looked up there, not among the reader's
            # locals or in the reader's namespace (`namespace A { constexpr int M = N * 2; }` reads A::N)
            self.frames.append(Frame(decl.name, [{}], None, {}, set(),
                                     namespace=namespace_lookup.namespace_of(self.scope, decl)))
            try:
                v = self.expr(decl.init) if not isinstance(decl.init, A.InitList) else \
                    self.init_list(t, decl.init.items, e)
            finally:
                self.frames.pop()
        if "constexpr" not in vd.specifiers and "const" not in vd.specifiers and "const" not in decl.type.qualifiers:
            if v.const is None:
                raise Unsupported(f"global variable '{decl.name}' is not a constant", e)
            if namespace_writes.written(self.scope, self.namespace_writes, decl):
                # one copy shared by the cores, written somewhere (not modelled, as the write is not): its
                # initial value would be a guess
                raise Unsupported(f"global variable '{decl.name}', which the program writes (one copy shared by "
                                  "the cores, not modelled)", e)
        return self.convert(v, t, e) if isinstance(t, Scalar) else v

    def read_binding(self, b: Binding, node: A.Node) -> Val:
        if isinstance(b, Cell) and isinstance(b.points_to, struct_pointer.StructTargets):
            return struct_pointer.read(self, b, node) or self.load(b, node)
        if isinstance(b, Cell) and isinstance(b.points_to, Val) and isinstance(b.points_to.ctype, C.Pointer) \
                and isinstance(b.points_to.ctype.pointee, C.TilingT):
            # a pointer variable set to the tiling data (see store); set inside a region the read is not in,
            # its value is rebuilt here
            held = b.points_to
            here = ssa_scope.usable_at(held.ssa, self.builder.insertion_point.block, lambda op: self.emit(op, node),
                                       self.attach_to, self.kernel_block)
            if here is held.ssa:
                return held
            if here is None:
                raise Unsupported("a pointer to the tiling data set inside a block and read after it", node)
            inner = held.obj
            if isinstance(inner, Val) and inner.ssa is held.ssa:
                inner = replace(inner, ssa=here)
            return replace(held, ssa=here, obj=inner)
        if isinstance(b, Cell):
            if isinstance(b.ctype, C.ArrayT):
                return Val(b.ctype, obj=b)
            v = self.load(b, node)
            if v.obj is None:  # (a pointer of code_pointer.py's keeps what it holds)
                v.obj = b
            return v
        if isinstance(b, Instance):
            return Val(b.ctype, obj=b)
        return b
