"""Type resolution for the function lowering: a written type (`TypeRef`, a qualified name, a member alias,
`Config<T>::type`) to the `CType` it names, with template arguments bound.

Separate from function.py because it is the one question every other part asks (declarations, casts,
templates, calls) and reads only the program's declarations, never the IR being built.
"""

from __future__ import annotations

from collections.abc import Sequence

from ascendir.lower import ctypes as C, matmul_callbacks, namespace_lookup, partial_order, register_api
from ascendir.lower.ctypes import CType, Scalar
from ascendir.lower.header_names import (
    DEFAULT_DTYPE,
    OBJECT_TYPES,
    REGISTER_API_TYPES,
    TRANSPARENT_NAMESPACES,
    in_register_api,
)
from ascendir.lower.scope import ClassInfo
from ascendir.lower.values import Instance, Pack
from frontend import ast as A


# <type_traits>' transformations that only drop cv-qualifiers and references ([meta.trans.cv], [meta.trans.ref])
_CV_REF_TRANSFORMS = frozenset({"remove_cv_t", "remove_const_t", "remove_volatile_t", "remove_reference_t",
                                "remove_cvref_t"})


# the standard integral constant classes, whose `value` a program's homonym (tla's) holds alike
_INTEGRAL_CONSTANTS = frozenset({"integral_constant", "bool_constant", "true_type", "false_type"})


class TypeResolution:
    """Type resolution: methods of FunctionLowerer (function.py), which inherits them."""

    def param_type(self, p: A.Param) -> CType:
        """The type of the value a parameter binds: what a reference refers to (`const X&` resolves to a
        pointer to X), else its declared type."""
        t = self.resolve_type(p.type)
        return t.pointee if isinstance(t, C.Pointer) and "&" in p.type.pointers else t

    def resolve_type(self, t: A.TypeRef | None, node: A.Node | None = None) -> CType:
        if t is None:
            return C.UnknownT()
        base = self._resolve_base(t)
        ub = t.address_space == "__ubuf__" and bool(t.pointers) and all(p == "*" for p in t.pointers)
        # C binds a declarator's `*` to the element type: `__ubuf__ T *list[16]`, `GM_ADDR tensors[6]` are arrays
        # of pointers. Parentheses bind it to the array: `T (*p)[N]` (ops-nn LSTM's `uint64_t (*dstLocalList)[16]`)
        # is a pointer to an array, and the parser counts those pointers (the last ones) in pointers_to_array.
        to_array = t.pointers_to_array if t.array_dims else 0
        element_pointers = t.pointers[:len(t.pointers) - to_array]
        for _ in element_pointers:
            base = C.Pointer(base, ub=True) if ub else C.Pointer(base, gm=t.address_space == "__gm__")
        if t.array_dims:
            for k, dim in reversed(list(enumerate(t.array_dims))):
                # `float A[] = {...}`: the outermost bound comes from the initialiser's length
                n = self.const_eval(dim) if dim is not None else \
                    len(node.init.items) if k == 0 and isinstance(node, A.Declarator) \
                    and isinstance(node.init, A.InitList) else None
                if isinstance(n, int):
                    base = C.ArrayT(base, int(n))
                else:
                    base = C.UnknownT(f"{base}[]") if isinstance(base, C.UnknownT) else C.UnsizedArrayT(f"{base}[]")
        for _ in t.pointers[len(element_pointers):]:
            base = C.Pointer(base, ub=True) if ub else C.Pointer(base, gm=t.address_space == "__gm__")
        return base

    def _resolve_base(self, t: A.TypeRef) -> CType:
        if t.decltype_expr is not None:
            return self.expr(t.decltype_expr).ctype
        if isinstance(t.base, str):
            if t.base == "void":
                return C.VoidT()
            if t.base == "auto":
                return C.UnknownT("auto")
            s = C.scalar_named(t.base)
            return s if s is not None else C.UnknownT(t.base)
        if in_register_api(t.base):
            last = t.base.parts[-1]
            return (register_api.register_type(self, last.name, last.template_args)  # type: ignore[arg-type]
                    if self.report.api_uncatalogued else C.RegisterApiT())
        parts = self.scope.without_namespaces([p for p in t.base.parts if p.name not in TRANSPARENT_NAMESPACES])
        if not parts:
            return C.UnknownT(str(t.base))
        if self.names_std_homonym(t.base.parts):
            return C.UnknownT(t.base.text)  # `typename std::tuple_size<T>::type`: the library's, not tla's
        last = parts[-1]
        if len(parts) >= 2 and last.name == "type" and (parts[-2].name == "conditional" or (
                parts[-2].name == "Conditional" and "Conditional" not in self.scope.classes)):
            # `typename std::conditional<USE_MDL, A, B>::type` (ops-nn fused_patch_mlp), as conditional_t;
            # AscendC's own `AscendC::Conditional<b, T, U>::type` [kernel_utils.h] picks the same way
            return self.named_type("conditional_t", parts[-2].template_args)
        if len(parts) >= 2 and last.name == "type" and parts[-2].name == "enable_if" and \
                "enable_if" not in self.scope.classes:
            # `typename std::enable_if<cond, T>::type`, a return type that drops the overload where cond fails
            # (ops-nn matmul_v3_platform_common.h's IsAdvancedSocVersion): T, void when not given. The lowering
            # calls the function it found, whose condition a compiling program met
            targs = parts[-2].template_args or []
            if len(targs) < 2:
                return C.VoidT()
            picked = self._template_arg_value(targs[1])  # type: ignore[attr-defined]
            return picked if isinstance(picked, CType) else C.UnknownT("enable_if")  # type: ignore[return-value]
        bound = self.frame.types.get(parts[-2].name) if len(parts) == 2 and self.frames else None
        if bound is None and len(parts) == 2 and not parts[0].template_args:
            bound = self._member_alias_class(parts[0].name)
        if bound is None and len(parts) >= 2 and (parts[-2].name in self.scope.classes or parts[-2].template_args and (
                parts[-2].name in self.scope.partial_specializations or parts[-2].name in self.scope.specializations)):
            # (`typename L1ATypeSelector<AType>::L1AType`: of a template defined only by its specialisations too)
            member = self.class_member_type(parts[-2], last.name)
            if isinstance(member, C.TemplateNameT) and last.template_args:
                member = self.named_type(member.name, last.template_args)  # `S<b>::template type<float>`
            if member is not None:
                return member
        if bound is None and len(parts) >= 2 and parts[-2].name in self.scope.alias_templates:
            # `mmQuantType<int8_t, half, int32_t>::MT`: a member of the class an alias template names
            bound = self.named_type(parts[-2].name, parts[-2].template_args)
        if isinstance(bound, C.LocalTensorT | C.GlobalTensorT) and last.name == "PrimType" and bound.elem is not None:
            # `typename BuiltinTensor::PrimType` (tla's Tensor::Element): the tensor's element type, as the
            # library's `using PrimType = PrimT<T>;` gives for the scalar types modelled here
            return bound.elem
        if isinstance(bound, C.MatmulTypeT) and bound.member_type(last.name) is not None:
            return bound.member_type(last.name)  # type: ignore[return-value]  # `typename A_TYPE::T`
        if isinstance(bound, C.ClassT) and bound.name in self.scope.classes:
            # `typename X_TYPE::T` for a class template argument: the alias its class declares, for its arguments
            info = self.scope.classes[bound.name]
            nested = info.nested.get(last.name)
            if nested is not None and not nested.template_params:
                return C.ClassT(nested.name, bound.args)  # `typename MatmulKernel::Params`: with the outer's arguments
            member = self._member_alias(info, bound.args, last.name, targs=last.template_args)
            if member is not None:
                return member
        if bound is None and len(parts) >= 3:
            # `typename BlockMmad::PrologueB::LayoutSrc` (catlass's W8A16Matmul): a member of the class that the
            # member type before it names, itself resolved as a written type
            owner = self._resolve_base(A.TypeRef(t.span, A.QualifiedName(t.base.span, parts[:-1])))
            if isinstance(owner, C.ClassT) and owner.name in self.scope.classes:
                member = self._member_alias(self.scope.classes[owner.name], owner.args, last.name)
                if member is not None:
                    return member
        if last.name in self.scope.homonyms or namespace_lookup.alias_homonym(self.scope, last.name):
            # (the namespaces written choose among classes, or namespace-scope aliases, of one name)
            return self.named_type(last.name, last.template_args, [p.name for p in t.base.parts[:-1]])
        if len(parts) == 1 and len(t.base.parts) > 1 and t.base.parts[-2].name in self.scope.namespaces \
                and t.base.parts[-2].name not in TRANSPARENT_NAMESPACES:
            # `Tile::CopyGm2Ub<ArchTag, GemmType<float, RowMajor>>` written with the program's namespaces names the
            # namespace's class template, never the enclosing class's member alias of that name (catlass's
            # DequantFP8toFP16 declares `using CopyGm2Ub = ...::CopyGm2Ub<ArchTag, GemmType<int8_t, ...>>` and
            # then `using CopyGm2UbFP32 = ...::CopyGm2Ub<ArchTag, GemmType<float, ...>>`, which is no int8 copy)
            return self.named_type(last.name, last.template_args, [p.name for p in t.base.parts[:-1]])
        written = [p.name for p in t.base.parts[:-1] if p.name]
        if len(parts) == 1 and written[:1] == ["AscendC"]:
            # `AscendC::X`: the namespace is kept, so that a program's own X does not hide the library's
            # (named_type, _names_library_type)
            return self.named_type(last.name, last.template_args, written)
        return self.named_type(last.name, last.template_args, [p.name for p in parts[:-1]])

    def _member_alias_class(self, name: str) -> CType | None:
        """The class an alias of the enclosing class names (`typename Tile::Element` in a class declaring
        `using Tile = typename Policy::template Tile<T>;`), which shadows a namespace-scope class of that name."""
        frame = self.frame if self.frames else None
        info = frame.owner if frame is not None and frame.owner is not None else (
            frame.this.info if frame is not None and frame.this is not None else None)
        alias = None
        while info is not None and alias is None:  # (a nested class sees its outer class's aliases)
            alias = info.aliases.get(name)
            info = info.outer
        if alias is None or id(alias) in self._aliases_resolving:
            return None
        self._aliases_resolving.add(id(alias))
        try:
            t = self.resolve_type(alias)
        finally:
            self._aliases_resolving.discard(id(alias))
        return t if isinstance(t, C.ClassT) and t.name in self.scope.classes else None

    def class_member_type(self, owner: A.NamePart, name: str) -> CType | None:
        """`Traits<T>::type`: an alias declared in a (template) class, resolved with its arguments bound."""
        found = self._owner_class(owner)
        if found is None:
            return None
        info, args = found
        return self._member_alias(info, args, name)

    def _member_alias(self, info: ClassInfo, args: Sequence[object], name: str, depth: int = 0,
                      targs: Sequence[A.TemplateArg] | None = None) -> CType | None:
        """The type a member alias `name` of the class (for the arguments `args`) names, looked up in the class
        and then in its bases (`MmadAtlasA2Pingpong<true>::ArchTag`, declared by its base MmadAtlasA2). `targs`:
        the arguments written for a member alias template (`typename TileCopy_::template CopyGmToL1A<TensorA>`)."""
        alias = info.aliases.get(name)
        if alias is not None and name in info.alias_templates and targs:
            # catlass's tla TileCopy: `template <class TensorA> using CopyGmToL1A = TileCopyTla<ArchTag, TensorA,
            # TensorL1A>;`, the alias's parameters bound beside the class's (its other member aliases in scope)
            values = [self._template_arg_value(a) for a in targs]  # (in the frame that writes them)
            params = info.alias_templates[name]
            with self._class_template_frame(info, args):
                for i, p in enumerate(params):
                    if p.name and (p.variadic or i < len(values)):
                        self.frame.types[p.name] = Pack(tuple(values[i:])) if p.variadic else values[i]
                return self.resolve_type(alias)
        if alias is not None and name in info.alias_templates:
            # `PolicySelector<b>::template type` (ops-nn kl_div_loss_grad), a member alias template given as a
            # template template argument: `template <class T> using type = ComputeImpl<T>;` names ComputeImpl
            return _forwarded_template(alias, info.alias_templates[name])
        if alias is not None:
            with self._class_template_frame(info, args):
                return self.resolve_type(alias)
        nested = info.nested.get(name)
        if nested is not None and not nested.template_params:
            # a class nested in a base (`PrologueTraits<Dequant>::Params`, PrologueTraits deriving from Dequant,
            # which declares `struct Params`): that base's, for the base's arguments. The bare name would be
            # whichever class of that name was read last (catlass's W8A16 BlockMmad::Params, which holds a
            # PrologueTraits<...>::Params: an object containing itself, lowered until the recursion limit)
            return C.ClassT(nested.name, tuple(args))
        if depth > 8:
            return None
        for base_ref in info.decl.bases:
            with self._class_template_frame(info, args):
                base = self.resolve_type(base_ref)
            if isinstance(base, C.ClassT) and base.name in self.scope.classes and base.name != info.name:
                found = self._member_alias(self.scope.classes[base.name], base.args, name, depth + 1, targs)
                if found is not None:
                    return found
        return None

    def _owner_class(self, owner: A.NamePart) -> tuple[ClassInfo, Sequence[object]] | None:
        """The class that `Config<T>` in `Config<T>::member` names, and its template arguments: the explicit
        or partial specialisation chosen for the arguments (`template <> struct Config<int16_t>`), else the
        primary template (cann-ops gcd reads `typename GcdConfig<T>::FpType`, which is half for int16_t)."""
        if owner.template_args:
            chosen = self.named_type(owner.name, owner.template_args)
            if isinstance(chosen, C.ClassT) and chosen.name in self.scope.classes:
                return self.scope.classes[chosen.name], chosen.args
        if owner.name not in self.scope.classes:
            return None  # only specialisations are defined, and none is for these arguments
        return self.scope.classes[owner.name], [self._template_arg_value(a) for a in owner.template_args or []]

    def named_type(self, name: str, targs: list[A.TemplateArg] | None, qualifiers: list[str] = ()) -> CType:  # type: ignore[assignment]
        for frame in reversed(self.frames[-1:] if not qualifiers else []):
            # (a name written with namespaces, `Epilogue::Tile::TileCopy<...>`, is never a template parameter or a
            # block-scope alias: catlass's 18_gemv_aic declares `using TileCopy = Gemv::Tile::TileCopyGemvAic<...>;`
            # in the function that then names Epilogue::Tile::TileCopy)
            if name in frame.types:
                bound = frame.types[name]
                if isinstance(bound, C.Scalar | C.LocalTensorT | C.GlobalTensorT | C.ClassT | C.TilingT | C.StructT | C.ObjectT | C.Pointer | C.EnumT | C.VoidT):
                    return bound  # (void too: `if constexpr (!std::is_void_v<PrologueB>)` of catlass's OptimizedMatmul)
                if isinstance(bound, C.MatmulTypeT | C.RegisterApiT | matmul_callbacks.MatmulCallbacksT):
                    return bound  # (a register type, a MatmulCallBackFunc<...>, through a block alias or a parameter)
                if isinstance(bound, C.TemplateNameT) and targs:
                    return self.named_type(bound.name, targs, qualifiers)
                if type(bound) is C.UnknownT:
                    return C.UnresolvedArgT(name)  # a declared parameter whose argument is out of reach
        if not targs and not qualifiers and self.frames and self.frame.this is not None:
            this = self.frame.this
            if this.info.decl.name == name and this.info.template_params:
                return this.ctype  # the injected class name: `Coord c;` in Coord<RANK_, ...> is Coord<2, ...>
            nested = _nested_class(this.info, name)
            if nested is not None:  # `Params` in a method of the kernel class: with the arguments in its scope
                # (from a class template nested in it, KernelParams<...> deriving from ParamsBase, the outer's)
                return C.ClassT(nested.name, this.ctype.args[:len(nested.scope_params or ())])
        if name.startswith("DTYPE_") or name.startswith("ORIG_DTYPE_"):
            return self.dtype_macro(name)
        s = C.scalar_named(name)
        if s is not None:
            return s
        args = targs or []
        if name in ("conditional_t", "Conditional_t") and len(args) == 3:
            # std::conditional_t<cond, A, B> (ops-nn's foreach kernels pick a compute type by it)
            cond = self._template_arg_value(args[0])
            if isinstance(cond, bool | int):
                picked = self._template_arg_value(args[1] if cond else args[2])
                if picked is not None and not isinstance(picked, int | float | str):
                    return picked  # type: ignore[return-value]
            return C.UnknownT("conditional_t")
        if name in _CV_REF_TRANSFORMS and len(args) == 1 and name not in self.scope.classes \
                and name not in self.scope.aliases:
            # std::remove_cv_t<T>, remove_reference_t<T> (tla's remove_cvref_t<T> names both): the lowering's
            # types carry neither cv-qualifiers nor references, so the type given is the result
            held = self._template_arg_value(args[0])
            if not isinstance(held, bool | int | float | str) and held is not None:
                return held  # type: ignore[return-value]
        if name == "PrimT" and len(args) == 1:
            # AscendC's PrimT<T>: the element type of T (T itself for the scalar types modelled here)
            inner = self._template_arg_value(args[0])
            if isinstance(inner, C.LocalTensorT | C.GlobalTensorT) and inner.elem is not None:
                return inner.elem
            if isinstance(inner, Scalar):
                return inner
        if name == "array" and len(args) == 2 and "array" not in self.scope.classes \
                and list(qualifiers) in ([], ["std"]):
            # std::array<T, N> of numbers: the C array T[N] it wraps, whose element reads, brace initialiser and
            # constant folding it shares (catlass 19_mla's tiling picks a tile from a namespace-scope `constexpr
            # std::array<int32_t, NUM6> QN_TILE_LIST = {...}` by an index known only when it runs; an unknown
            # type before, whose read was left out and the tile 0)
            elem, count = self._template_arg_value(args[0]), self._template_arg_value(args[1])
            if isinstance(elem, Scalar) and isinstance(count, int) and not isinstance(count, bool) and count > 0:
                return C.ArrayT(elem, count)
        if name == "LocalTensor":
            return C.LocalTensorT(self._elem_arg(args, 0))
        if name == "GlobalTensor":
            return C.GlobalTensorT(self._elem_arg(args, 0))
        if name in ("TQue", "TQueBind"):
            pos = self._position_arg(args, 0 if name == "TQue" else 1)
            if name == "TQueBind" and (pos == "GM" or pos == "CO2" and self._position_arg(args, 0) == "CO1"):
                # a binding towards GM (CO1 -> CO2 as well) keeps its buffers in the source's memory
                # [asc-devkit impl/basic_api/kernel_event.h GetBufferPos]: TQueBind<CO1, GM> holds L0C tensors
                pos = self._position_arg(args, 0)
            depth = self._int_arg(args, 1 if name == "TQue" else 2, 1)
            source = self._position_arg(args, 0) if name == "TQueBind" else ""
            # TQueBind<VECIN, VECOUT>: a copy through UB (MTE2 in, MTE3 out), not TQue<VECOUT>'s VECOUT -> GM
            ub_to_ub = source in ("VECIN", "VECOUT", "VECCALC") and pos in ("VECIN", "VECOUT", "VECCALC")
            return C.QueueT(pos, depth, source if ub_to_ub else "")
        if name == "TSCM" and args:  # `using TSCM = TQueBind<pos, TPosition::TSCM, depth>` [kernel_tpipe.h]
            return C.QueueT("TSCM", self._int_arg(args, 1, 1))
        if name == "TBuf":
            return C.BufT(self._position_arg(args, 0) if args else "VECCALC")
        if name == "TPipe":
            return C.PipeT()
        if self.frames and (self.frame.this is not None or self.frame.owner is not None) and not qualifiers:
            # a member alias hides a class of the namespace (`using BlockMmad = BlockMmad_;` in a kernel class);
            # in a class template's frame (its aliases resolved for one instantiation), that class's
            info: ClassInfo | None = self.frame.this.info if self.frame.this is not None else self.frame.owner
            while info is not None:  # this class's aliases, then those of the classes it is nested in
                alias = info.aliases.get(name)
                if alias is not None and id(alias) not in self._aliases_resolving:
                    # (`using ArchTag = typename BlockMmad::ArchTag;` where BlockMmad names no class with that
                    # member would name itself again: an unknown type, not an endless lookup)
                    self._aliases_resolving.add(id(alias))
                    try:
                        params = info.alias_templates.get(name)
                        if params and args:
                            # a member alias template written with its arguments (`Tensor<uint8_t>(pos, 0, n)`
                            # under `template <typename T> using Tensor = LocalTensor<T>;`, ops-nn's
                            # transpose_batch_mat_mul utils/mem.h): the aliased type with its parameters bound
                            with self._template_frame(name, params, [self._template_arg_value(a) for a in args]):
                                return self.resolve_type(alias)
                        return self.resolve_type(alias)
                    finally:
                        self._aliases_resolving.discard(id(alias))
                info = info.outer
        if self._names_library_type(name, qualifiers):
            # `AscendC::TransDataTo5HDParams` as a member of the program's own struct TransDataTo5HDParams (ops-math
            # unfold_grad): the library's type; the program's struct of that unqualified name would contain itself
            library = self._library_type(name, args)
            if library is not None:
                return library
        if name in self.scope.tiling_structs and name not in self.scope.classes:
            return C.TilingT(name)
        cls = self.scope.classes.get(name) if not self._alias_of_this_namespace(name, qualifiers) else None
        class_key = name
        namespace: str | None = None  # of the homonym meant: only its specialisations apply
        if name in self.scope.homonyms:
            class_key = self._homonym(name, qualifiers)
            namespace = dict((k, ns) for ns, k in self.scope.homonyms[name])[class_key]
            cls = self.scope.classes.get(class_key)
        if cls is not None or name in self.scope.specializations or name in self.scope.partial_specializations:
            if cls is not None and name in self.scope.tiling_structs and cls.is_plain_struct and \
                    not _constant_record(cls):
                return C.TilingT(name)
            values = self._template_arg_values(args)
            primary = cls or (self.scope.declared_templates.get(name) if namespace is None or self.scope.declared_in.get(
                id(self.scope.declared_templates[name].decl) if name in self.scope.declared_templates else 0) == namespace
                else None)
            if primary is not None and primary.template_params and len(values) < len(primary.template_params):
                # a specialisation is chosen for the whole argument list, defaults of the primary included
                # (`BlockMmad<Policy, L1, L0, A, B, C>` matched against a pattern of nine)
                values = self._with_defaults(primary, values)
            for special_args, key in self._specialisations_in(self.scope.specializations.get(name, ()), namespace):
                if len(special_args) == len(values) and all(
                        self._template_arg_value(a) == v for a, v in zip(special_args, values)):
                    # `template <> class Computer<float>` for Computer<float>
                    return C.ClassT(key, self._enclosing_args(key))
            matches = [((params, key, bound), partial_order.pattern_shapes(pattern, params))
                       for pattern, params, key in self._specialisations_in(
                           self.scope.partial_specializations.get(name, ()), namespace)
                       if (bound := self._match_partial_specialization(pattern, params, values, primary)) is not None]
            if matches:  # the most specialised of those that match, as C++ chooses
                params, key, bound = partial_order.most_specialised(matches)
                return C.ClassT(key, self._enclosing_args(key) + tuple(
                    bound.get(p.name or "", C.UnknownT(p.name or "?")) for p in params))
            if cls is None:
                return C.UnknownT(name)  # only specialisations are defined, and none is for these arguments
            return C.ClassT(class_key, self._enclosing_args(class_key) + values)
        if name in self.scope.aliases:
            target, params = namespace_lookup.alias(self, name, qualifiers)  # (which namespace's: by the lookup)
            if qualifiers and [p.name for p in getattr(target.base, "parts", ())] == [*qualifiers, name]:
                return C.UnknownT("::".join([*qualifiers, name]))  # `using T = ext::T;`, ext unseen: not T again
            if params and targs:
                # `mmType<half, CubeFormat::ND>`: the aliased type with the alias's parameters bound
                # (`Stride<Ts...>` of tla's MakeStride: a pack expansion among the arguments is its elements)
                with self._template_frame(name, params, list(self._template_arg_values(targs))):
                    return self.resolve_type(target)
            return self.resolve_type(target)
        if name in REGISTER_API_TYPES and self.report.api_uncatalogued:
            # (only the uncatalogued architectures have the register API: for a 910B, RegTensor is unknown)
            return register_api.register_type(self, name, args)  # type: ignore[arg-type]
        if name in self.scope.enums:
            underlying = self.scope.enums[name].underlying
            t = self.resolve_type(underlying) if underlying is not None else C.I32
            return t if isinstance(t, Scalar) else C.I32  # user enums are plain integers to us
        library = self._library_type(name, args)
        return library if library is not None else C.UnknownT(name)

    def names_std_homonym(self, written: Sequence[A.NamePart]) -> bool:
        """Whether a name written `std::X<...>::...` names the standard library's X while the program declares a
        class template X of its own in another namespace: tla's `tuple_size<T, void_t<typename
        std::tuple_size<T>::type>> : integral_constant<size_t, std::tuple_size<T>::value>` asks the library's
        trait, which the lowering does not model ([namespace.qual]). Reading it as tla's own made the class its own
        base (an endless lookup)."""
        if len(written) < 2 or written[0].name != "std":
            return False
        named = next((p.name for p in written[1:] if p.name not in self.scope.namespaces), None)
        if named in _INTEGRAL_CONSTANTS:
            # (`std::integral_constant<TPosition, POS>`, catlass's PositionType: the lowering has no class for the
            # library's; a program's homonym of it, tla's, holds the same `value`, so it stands in)
            return False
        info = self.scope.classes.get(named or "") or self.scope.declared_templates.get(named or "")
        return info is not None and not self.scope.declared_in.get(id(info.decl), "").startswith("std")

    def _alias_of_this_namespace(self, name: str, qualifiers: Sequence[str] = ()) -> bool:
        """Whether `name` is the alias a namespace declares rather than a class of that name declared elsewhere:
        written with that namespace (`tla::Coord<tla::_0, tla::_0>` in catlass's tile copies, [namespace.qual]),
        or unqualified in a function of that namespace, where lookup finds the innermost enclosing namespace's
        declaration first ([basic.lookup.unqual]): tla's `MakeCoord` returns `Coord<Ts...>`, tla's alias of its
        tuple, not catlass's class template Coord<RANK, Index, LongIndex>."""
        if name not in self.scope.aliases or name not in self.scope.classes:
            return False
        written = "::".join(q for q in qualifiers if q in self.scope.namespaces)
        here = written or next((f.namespace for f in reversed(self.frames) if f.namespace is not None), None)
        there = self.scope.alias_namespaces.get(name, "")
        cls = self.scope.classes[name]
        return bool(here) and bool(there) and (here == there or here.startswith(f"{there}::")) and \
            self.scope.declared_in.get(id(cls.decl), "") != there

    def _enclosing_args(self, key: str) -> tuple[object, ...]:
        """The arguments of the class template instance that the class `key` is nested in, which an instance of
        it carries before its own (ClassInfo.scope_params): those bound in the nearest frame lowering that
        class or a class nested in it (`using Params = KernelParams<...>;` in OptimizedMatmul<...>). Unknown
        values where no frame does, so that its own arguments keep their places."""
        info = self.scope.classes.get(key)
        outer = info.outer if info is not None else None
        params = outer.scope_params if outer is not None else None
        if not params:
            return ()
        for frame in reversed(self.frames):
            here = frame.this.info if frame.this is not None else frame.owner
            while here is not None and here is not outer:
                here = here.outer
            if here is not None:
                return tuple(frame.types.get(p.name, C.UnknownT(p.name)) if p.name else C.UnknownT("?")
                             for p in params)
        return tuple(C.UnknownT(p.name or "?") for p in params)

    def _names_library_type(self, name: str, qualifiers: Sequence[str]) -> bool:
        """Whether a name written in the AscendC namespace (`AscendC::X`, `::AscendC::X`) means the library's
        type X rather than a class X the program declares outside that namespace (a program may add its own
        classes to namespace AscendC: those it names so are its own)."""
        written = [q for q in qualifiers if q]
        if not written or written[0] != "AscendC":
            return False
        cls = self.scope.classes.get(name)
        if cls is None:
            return name in self.scope.tiling_structs or name in self.scope.aliases
        return not self.scope.declared_in.get(id(cls.decl), "").startswith("AscendC")

    def _library_type(self, name: str, args: Sequence[A.TemplateArg]) -> CType | None:
        """The library's type of this name (catalog structs and enums, tiling structs, the API's object types),
        None for a name the library does not declare."""
        kind = self.catalog_type_kind(name)
        if kind == "struct" and name.endswith("Tiling"):
            return C.TilingT(name)  # TCubeTiling, SoftMaxTiling, ...: filled by the host like any tiling data
        if kind == "struct":
            return C.StructT(self.catalog.struct_name(name))  # type: ignore[attr-defined]
        if kind == "enum":
            return C.EnumT(name)
        if name.endswith(("Tiling", "TilingData")):
            return C.TilingT(name)  # a library tiling struct (LogSoftMaxTiling, ...): filled by the host
        if name == "LocalMemAllocator":
            hw = self._template_arg_value(args[0]) if args else None
            return C.ObjectT(f"LocalMemAllocator<{hw if isinstance(hw, str) else 'UB'}>")
        if name == "TQueSync" and args:  # the pipes are part of its identity (which flags it sets)
            pipes = [self._template_arg_value(a) for a in args]
            return C.ObjectT(f"TQueSync<{','.join(str(p) for p in pipes)}>")
        if name in OBJECT_TYPES:
            return C.ObjectT(name)
        if name == matmul_callbacks.NAME:  # the functions it names, kept for the Matmul declared with it
            return matmul_callbacks.callback_type(args)
        if name in ("MatmulType", "MatmulTypeWithScale") and args:
            return C.MatmulTypeT(name, tuple(self._template_arg_value(a) for a in args))
        if self.catalog.vendor_type(name):  # type: ignore[attr-defined]
            # a parameter struct or library class the catalog does not model: a value whose fields and
            # methods are not followed, not an unknown type
            return C.StructT(name)
        return None

    def _homonym(self, name: str, qualifiers: Sequence[str]) -> str:
        """The key of the class `name` meant where several namespaces declare one: the one whose namespace ends
        with the qualifier written (`Epilogue::Tile::TileCopy`), else the one of the namespace of the class whose
        code names it, else the first declared."""
        found = self.scope.homonyms[name]
        written = "::".join(q for q in qualifiers if q not in TRANSPARENT_NAMESPACES)
        if written:
            for ns, key in found:
                if ns == written or ns.endswith("::" + written):
                    return key
        this = self.frame.this if self.frames else None
        info = this.info if this is not None else (self.frame.owner if self.frames else None)
        while info is not None and info.outer is not None:
            info = info.outer
        here = self.scope.declared_in.get(id(info.decl), None) if info is not None else None
        for ns, key in found:
            if here is not None and ns == here:
                return key
        return found[0][1]

    def dtype_macro(self, name: str) -> CType:
        bound = self.options.dtypes.get(name)  # type: ignore[attr-defined]
        if bound is None:
            # A kernel checked without its op json: the build would instantiate it once per dtype listed
            # there; float is the one every vector API accepts, so it reports no dtype errors of its own.
            bound = DEFAULT_DTYPE
        s = C.scalar_named(bound)
        return s if s is not None else C.UnknownT(bound)

    def catalog_type_kind(self, name: str) -> str | None:
        return self.catalog.type_kind(name)  # type: ignore[attr-defined, no-any-return]

    def _bare_alias(self, t: A.TypeRef) -> A.TypeRef | None:
        """What a name without template arguments aliases, in the enclosing class or the program."""
        if not isinstance(t.base, A.QualifiedName) or any(p.template_args for p in t.base.parts):
            return None
        name = t.base.parts[-1].name  # `mm_kernel::MatmulObj`: aliases are kept by their own name
        alias = self.frame.this.info.aliases.get(name) if self.frames and self.frame.this else None
        return alias or self.scope.aliases.get(name)

    def member_alias_hides(self, name: str) -> bool:
        """Whether a member alias of this object's class (or of a class it is nested in) named `name` hides the
        namespace's class of that name, as named_type takes it."""
        if not self.frames or (self.frame.this is None and self.frame.owner is None):
            return False
        info: ClassInfo | None = self.frame.this.info if self.frame.this is not None else self.frame.owner
        while info is not None:
            if name in info.aliases:
                return True
            info = info.outer
        return False

    def _declared_alias(self, name: str) -> bool:
        """Whether `name` is a type alias the program declares, at namespace scope or in this object's class."""
        if name in self.scope.aliases:
            return True
        this = self.frame.this if self.frames else None
        return this is not None and name in this.info.aliases

    def aliased_part(self, *aliases: str) -> Instance | None:
        """This object's part of the class a type alias names (`using Base = KernelBase<T>;` in a derived
        class template, whose methods write `Base::Init(...)` and `Base::pipe`); with several, each alias is
        looked up in the part the one before named (`Base::Base::pipe`)."""
        part = self.frame.this if self.frames else None
        for alias in aliases:
            if part is None or alias in self.scope.classes:
                return None
            ref = part._nearest(lambda p, alias=alias: p.info.aliases.get(alias))
            bound = self.resolve_type(ref) if ref is not None else None
            part = part.part_named(bound.name) if isinstance(bound, C.ClassT) else None
        return part


def _constant_record(info: ClassInfo) -> bool:
    """A plain struct with a `const` member given its value in the class (`struct ConstData { const float pi =
    PI; ... };`, ops-math angle_v2's kernel): a record of constants, an object made with those values, never
    tiling data (the host fills tiling data; a const member with an initialiser is fixed at compile time).
    As tiling data its fields were read from the host's tiling, which never sets them (ASC958, read as 0)."""
    return any("const" in d.type.qualifiers + vd.specifiers and d.init is not None for vd, d in info.fields)


def _nested_class(info: ClassInfo, name: str) -> ClassInfo | None:
    """The class `name` nested in `info` or in a class `info` is nested in."""
    scope: ClassInfo | None = info
    while scope is not None:
        if name in scope.nested and not scope.nested[name].template_params:
            return scope.nested[name]
        scope = scope.outer
    return None


def _forwarded_template(alias: A.TypeRef, params: list[A.TemplateParam]) -> C.TemplateNameT | None:
    """The template an alias template forwards its parameters to unchanged (`template <class T> using type =
    ComputeImpl<T>;`: ComputeImpl), which a template template parameter bound to the alias names; None for any
    other alias template (its arguments rearranged, a pointer to, ...), which stays unresolved."""
    if not isinstance(alias.base, A.QualifiedName) or alias.pointers or alias.array_dims:
        return None
    last = alias.base.parts[-1]
    written = [a.value.base.parts[0].name if isinstance(a.value, A.TypeRef) and isinstance(a.value.base, A.QualifiedName)
               and len(a.value.base.parts) == 1 and not a.value.base.parts[0].template_args
               else a.value.qname.parts[0].name if isinstance(a.value, A.Name) and len(a.value.qname.parts) == 1
               else None for a in last.template_args or []]
    if not written or written != [p.name for p in params]:
        return None
    return C.TemplateNameT(last.name)
