"""Templates for the function lowering: choosing a partial specialisation, completing arguments with the
template's defaults, evaluating template arguments and frames that bind a template's parameters. The type traits
that fold to constants (`is_same_v<A, B>`, `IsTypeOneOf<...>`) are in type_traits.py.

Separate from type resolution (lower_types.py), which calls it: matching patterns against arguments is a
self-contained piece of C++'s rules.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from ascendir.dialects import ascendc as asc
from ascendir.lower import ctypes as C
from ascendir.lower import class_bases, enable_if, matmul_callbacks, matmul_config, namespace_lookup, template_values
from ascendir.lower.ast_queries import node_text, type_text
from ascendir.lower.astwalk import walk
from ascendir.lower.ctypes import Scalar
from ascendir.lower.errors import Unsupported
from ascendir.lower.frame import Frame
from ascendir.lower.scope import ClassInfo
from ascendir.lower.template_struct import constant_struct_text
from ascendir.lower.values import FunctionRef, Pack, Val
from frontend import ast as A


class TemplateArguments:
    """Templates: methods of FunctionLowerer (function.py), which inherits them."""

    def _defaults_match(self, primary: ClassInfo | None, written: int, values: Sequence[object]) -> bool:
        """Whether the arguments a pattern leaves out (`CopyGmToL1<AtlasA2, GemmType<E, RowMajor>>`, the primary
        taking a third, `class L1Type = void`) are, in `values`, the primary template's defaults."""
        if written == len(values):
            return True
        if primary is None:
            return False
        completed = self._with_defaults(primary, tuple(values[:written]))
        return len(completed) == len(values) and all(
            _same_template_arg(a, b) for a, b in zip(completed[written:], values[written:]))

    def _match_partial_specialization(self, pattern: Sequence[A.TemplateArg], params: Sequence[A.TemplateParam],
                                      values: Sequence[object], primary: ClassInfo | None = None
                                      ) -> dict[str, object] | None:
        """The bindings of a partial specialisation's parameters that make its pattern (`<T, U, 1>`) the
        arguments `values`, or None when it does not match or an argument it depends on is unknown."""
        names = {p.name for p in params if p.name}
        bound: dict[str, object] = {}
        packed = _parameter_named(pattern[-1].value, names) if pattern and pattern[-1].pack else None
        if packed is not None and len(pattern) - 1 <= len(values):
            # `TupleBase<index_sequence<I...>, T...>` (tla): a pack expansion ending the pattern takes the arguments
            # the others leave, none included (C++ [temp.deduct.type]/9, the trailing pack of P's argument list)
            bound[packed] = Pack(tuple(values[len(pattern) - 1:]))
            pattern, values = pattern[:-1], values[:len(pattern) - 1]
        elif len(pattern) > len(values) or not self._defaults_match(primary, len(pattern), values):
            return None
        sfinae: list[tuple[tuple[A.TemplateArg, A.TemplateArg | None], object]] = []
        for arg, value in zip(pattern, values):
            condition = enable_if.parts_of(arg.value)
            if condition is not None and _mentions(arg.value, names) and "enable_if" not in self.scope.classes:
                sfinae.append((condition, value))  # (decided once the other arguments have bound the parameters)
                continue
            if not self._match_pattern_arg(arg.value, value, names, bound):
                return None
        for p in params:
            # a value parameter (`size_t N`) deduced as a type or a function (an argument the lowering could not
            # evaluate: tla's `make_seq<Layout::rank>` read as a function name): no instance C++ would make. Without
            # this, `MakeIntegerSequenceImpl<IntegerSequence<T, N - 1, Ns...>, T, N - 1>` recursed without end
            held = bound.get(p.name or "")
            if p.kind == "value" and not (p.type is not None and p.type.pointers) and any(
                    _not_a_value(v) for v in (held.items if isinstance(held, Pack) else (held,))):
                return None
        for (cond, picked), value in sfinae:
            # `enable_if_t<isRowMajor<LayoutSrc>::value && ...>`: the specialisation applies where the condition
            # holds for what the other arguments deduced (and names the argument given, void by default); where it
            # fails, C++ drops it (substitution failure), whatever the rest matched
            if any(_mentions(cond.value, {n}) and n not in bound for n in names):
                return None
            given = [bound.get(p.name or "", C.UnknownT(p.name or "?")) for p in params]
            with self._template_frame("enable_if", params, given):
                holds = self._template_arg_value(cond)
                chosen = self._template_arg_value(picked) if picked is not None else C.VoidT()
            if not isinstance(holds, bool | int) or not holds or not _same_template_arg(chosen, value):
                return None
        return bound

    def _match_pattern_arg(self, node: A.Node, value: object, names: set[str], bound: dict[str, object]) -> bool:
        """Deduces the parameters `names` in one argument of a partial specialisation's pattern: a bare
        parameter takes the value; `Policy<FLAG>` matches an instance of the class template Policy whose
        arguments match in turn (`MmadAtlasA2Pingpong<ENABLE_UNIT_FLAG_>` for MmadAtlasA2Pingpong<true>);
        anything else must equal the value."""
        written = node.type if isinstance(node, A.TypeArgExpr) else node
        if isinstance(written, A.TypeRef) and (set(written.qualifiers) & {"const", "volatile"} or any(
                p in ("&", "&&") for p in written.pointers)):
            # `is_constant<n, T const&>` (tla): the lowering's types carry no cv-qualifiers or references, so such
            # a pattern never matches (each of tla's forwarded to is_constant<n, T>, itself matching again)
            return False
        param = _parameter_named(node, names)
        if param is not None:
            if param in bound and not _same_template_arg(bound[param], value):
                return False
            bound[param] = value
            return True
        ref = node.type if isinstance(node, A.TypeArgExpr) else node
        qname = ref.base if isinstance(ref, A.TypeRef) and not ref.pointers else (
            ref.qname if isinstance(ref, A.Name) else None)
        if isinstance(qname, A.QualifiedName) and qname.parts[-1].template_args and any(
                _mentions(a.value, names) for a in qname.parts[-1].template_args):
            last = qname.parts[-1]
            if isinstance(ref, A.TypeRef) and last.name in self.scope.alias_templates and (
                    expanded := class_bases.alias_expanded(self, ref)) is not None:
                # `TupleBase<index_sequence<I...>, T...>`: the alias template is the type it names, its parameters
                # replaced (C++ [temp.alias]/2): IntegerSequence<size_t, I...>
                return self._match_pattern_arg(expanded, value, names, bound)
            if last.name in ("GlobalTensor", "LocalTensor") and isinstance(value, C.GlobalTensorT | C.LocalTensorT):
                # `tla::Tensor<AscendC::GlobalTensor<ElementSrc>, ...>`: the API's tensor types are no classes of
                # the program; their one argument is the element type
                return (isinstance(value, C.GlobalTensorT) == (last.name == "GlobalTensor")
                        and len(last.template_args) == 1 and value.elem is not None
                        and self._match_pattern_arg(last.template_args[0].value, value.elem, names, bound))
            if not isinstance(value, C.ClassT) or value.name.partition("<")[0] != last.name:
                return False
            inner = list(value.args)
            base_name = value.name.partition("<")[0]
            *fixed, tail = last.template_args
            packed = _parameter_named(tail.value, names) if tail.pack else None
            if packed is not None:
                # `tla::tuple<T...>` against tuple<int, int, float>: the pack takes the arguments the others leave
                # (tla's `tuple_size<tla::tuple<T...>>`); a pack already bound must be the same
                if len(inner) < len(fixed) or (packed in bound and bound[packed] != Pack(tuple(inner[len(fixed):]))):
                    return False
                bound[packed] = Pack(tuple(inner[len(fixed):]))
                return all(self._match_pattern_arg(a.value, v, names, bound) for a, v in zip(fixed, inner))
            if len(inner) < len(last.template_args) or not self._defaults_match(
                    self.scope.classes.get(base_name) or self.scope.declared_templates.get(base_name),
                    len(last.template_args), inner):
                return False
            return all(self._match_pattern_arg(a.value, v, names, bound)
                       for a, v in zip(last.template_args, inner))
        if isinstance(value, C.UnknownT) or value is None:
            return False
        return _same_template_arg(self._template_arg_value(A.TemplateArg(node.span, node)), value)

    def _specialisations_in(self, found: Sequence[tuple], namespace: str | None) -> list[tuple]:  # type: ignore[type-arg]
        """The specialisations (entries whose last item is their class key) declared in `namespace`; all of them
        when no namespace is asked for."""
        if namespace is None:
            return list(found)
        return [f for f in found if f[-1] in self.scope.classes
                and self.scope.declared_in.get(id(self.scope.classes[f[-1]].decl), "") == namespace]

    def _static_member_of_type(self, parts: Sequence[A.NamePart], e: A.Node) -> Val | None:
        """`DispatchPolicy::L1_STAGES`, `BlockMmad::DispatchPolicy::ASYNC`, `QuantMode<Arch, float, half>::VALUE`:
        a static constant of the class the qualifier names (through aliases, template parameters or a
        specialisation), declared there or in a base class."""
        head = list(parts[:-1])
        try:
            t = self.resolve_type(A.TypeRef(head[0].span, A.QualifiedName(head[0].span, head)))
        except Unsupported:
            return None
        depth = 0
        while isinstance(t, C.ClassT) and t.name in self.scope.classes and depth < 8:
            info = self.scope.classes[t.name]
            decl = info.static_constants.get(parts[-1].name)
            if decl is not None:
                with self._class_template_frame(info, t.args):
                    return self._constant_decl(decl, e, info)
            bases = info.decl.bases
            if not bases:
                return None
            with self._class_template_frame(info, t.args):
                # `std::integral_constant<size_t, N>` / `decltype(detail::has_tuple_size((T*)0))` (tla's traits)
                held = template_values.base_member(self, bases[0], parts[-1].name, e)
                if held is not None:
                    return held
                t = self.resolve_type(bases[0])  # (the first base: catlass's policies derive from one)
            depth += 1
        return None

    def _with_defaults(self, info: ClassInfo, values: tuple[object, ...]) -> tuple[object, ...]:
        """`values` completed with the defaults of the class template's remaining parameters, each evaluated
        with the parameters before it bound (`class TileCopy = Tile::TileCopy<typename Policy::ArchTag, A>`)."""
        params = info.template_params or []
        out = list(values)
        types = {p.name: v for p, v in zip(params, values) if p.name}
        self.frames.append(Frame(info.name, [{}], None, types, set()))
        try:
            for p in params[len(values):]:
                if p.variadic or p.default is None:
                    break
                v = self._default_template_value(p)
                out.append(v)
                if p.name:
                    types[p.name] = v
        finally:
            self.frames.pop()
        return tuple(out)

    def _template_arg_values(self, args: Sequence[A.TemplateArg]) -> tuple[object, ...]:
        """The values of a template argument list, a pack expansion (`Ns...` of a bound pack) spliced in as its
        elements (tla's `MakeIntegerSequenceImpl<IntegerSequence<T, N - 1, Ns...>, T, N - 1>`)."""
        values: list[object] = []
        for a in args:
            if a.pack and isinstance(a.value, A.TypeRef | A.Name):
                ref = a.value.base if isinstance(a.value, A.TypeRef) else a.value.qname
                names = ref.parts if isinstance(ref, A.QualifiedName) else []
                bound = self.frame.types.get(names[0].name) if len(names) == 1 and self.frames else None
                if isinstance(bound, Pack):
                    values.extend(bound.items)
                    continue
            if a.pack and self.frames and (n := class_bases.pack_length(self, a.value)) is not None:
                # `tla::tuple<tla::Int<Is*0>...>`: the pattern once per element of the packs it names
                for k in range(n):
                    with class_bases.pack_element(self, k, [a.value]):
                        values.append(self._template_arg_value(A.TemplateArg(a.span, a.value)))
                continue
            values.append(self._template_arg_value(a))
        return tuple(values)

    def _template_arg_value(self, a: A.TemplateArg) -> object:
        template = self._class_template_named(a.value)
        if template is not None:
            return template
        if isinstance(a.value, A.TypeRef):
            value = self._value_parameter(a.value)
            return value if value is not None else self.resolve_type(a.value)
        if isinstance(a.value, A.Name) and len(a.value.qname.parts) == 1 and self.frames:
            bound = self.frame.types.get(a.value.qname.parts[0].name)
            if isinstance(bound, C.UnknownT | FunctionRef):
                return bound  # a template parameter whose value is out of reach stays an unknown value
        if isinstance(a.value, A.Name) and len(a.value.qname.parts) >= 2 and a.value.qname.parts[-2].template_args \
                and a.value.qname.parts[-1].name != "value":  # (`Trait<T>::value` is a value: self.expr below)
            # `PolicySelector<b, c>::template type`, a member alias template of the class chosen for <b, c>
            member = self.class_member_type(a.value.qname.parts[-2], a.value.qname.parts[-1].name)  # type: ignore[attr-defined]
            if isinstance(member, C.TemplateNameT):
                return member
        if isinstance(a.value, A.Name) and self._names_function(a.value):
            return FunctionRef(".".join(p.name for p in a.value.qname.parts), a.value)
        try:
            v = self.expr(a.value)
        except Unsupported:
            if isinstance(a.value, A.Name):
                return self.named_type(a.value.qname.parts[-1].name, a.value.qname.parts[-1].template_args)
            return C.UnknownT("template argument")
        if v.const is not None:
            return v.const
        if isinstance(v.ctype, C.UnknownT) and isinstance(a.value, A.Name):
            return self.named_type(a.value.qname.parts[-1].name, a.value.qname.parts[-1].template_args)
        return constant_struct_text(v) or v.ctype

    def _class_template_named(self, value: object) -> C.TemplateNameT | None:
        """`Scale` in `RunIt<float, Scale>` or `ScatterNdUpdate::ScatterNdUpdateKernel` in `Run<..., ScatterNdUpdate::
        ScatterNdUpdateKernel>`: a class template written without arguments is the template itself, the value of a
        template template parameter, which `K<T, false>` then instantiates. (Read as a type it was the class with
        no arguments, so its T was unknown in the instance and `sizeof(T)` did not fold: ops-nn scatter_nd_update.)
        A template template parameter passed on (`Run2<T, K>` in a function taking K) is the template it is bound
        to. Not another name the frame binds, nor the class being lowered (its own name there is the injected
        instance)."""
        parts = None
        if isinstance(value, A.TypeRef) and isinstance(value.base, A.QualifiedName) and not (
                value.pointers or value.qualifiers or value.array_dims):
            parts = value.base.parts
        elif isinstance(value, A.Name):
            parts = value.qname.parts
        if not parts or any(p.template_args is not None for p in parts):
            return None  # (`tuple<>`, an empty argument list, is the instance with no arguments)
        name = parts[-1].name
        if len(parts) > 1 and self._names_a_type(parts[-2].name):
            # `typename Tensor::Layout`: a qualified name is looked up in the class its prefix names
            # ([basic.lookup.qual]/1, [class.qual]/1), here tla::Tensor's `using Layout = Layout_;`, not the
            # class template tla::Layout of the enclosing namespace. (Read as that template, catlass's
            # `is_same_v<typename Tensor::Layout, LayoutInner>` was false and PaddingMatrixBlockND transposed a
            # row-major matrix: its padded copy read 2^31 elements past the input.)
            return None
        if len(parts) == 1 and self.frames and isinstance(self.frame.types.get(name), C.TemplateNameT):
            return self.frame.types[name]  # type: ignore[return-value]  # a template template parameter passed on
        info = self.scope.classes.get(name)
        if info is None or not info.template_params:
            return None
        if self.frames and (name in self.frame.types or self.lookup(name) is not None):
            return None
        this = self.frame.this if self.frames else None
        if this is not None and this.info.decl.name == name:
            return None
        owner = this.info if this is not None else self.frame.owner if self.frames else None
        while len(parts) == 1 and owner is not None:
            if name in owner.aliases and name not in owner.alias_templates:
                # a member alias hides it (tla's Tensor: `using Layout = Layout_;`, then tuple<..., Layout>)
                return None
            owner = owner.outer
        return C.TemplateNameT(name)

    def _names_a_type(self, name: str) -> bool:
        """Whether `name`, written before `::`, names a type here (a type parameter, an alias, a class) rather
        than a namespace."""
        if self.frames and name in self.frame.types:
            return not isinstance(self.frame.types[name], C.TemplateNameT)
        this = self.frame.this if self.frames else None
        owner = this.info if this is not None else self.frame.owner if self.frames else None
        while owner is not None:  # a member alias of the class being lowered or of one enclosing it
            if name in owner.aliases and name not in owner.alias_templates:  # (`using TensorIn = TensorIn_;`)
                return True
            owner = owner.outer
        return name not in self.scope.namespaces and (name in self.scope.aliases or name in self.scope.classes)

    def _value_parameter(self, t: A.TypeRef) -> object:
        """The value a bare name read as a type stands for when it is a non-type template parameter: `T` in
        `typename BlockType<T>::PARAMS` of `template <..., SplitType T> class MatmulCompute` (ops-transformer
        mc2), which the parser reads as a type where a header elsewhere declares a type parameter `T`."""
        if not self.frames or not isinstance(t.base, A.QualifiedName) or len(t.base.parts) != 1 or \
                t.base.parts[0].template_args or t.pointers or t.qualifiers or t.array_dims:
            return None
        bound = self.frame.types.get(t.base.parts[0].name)
        return bound if isinstance(bound, bool | int | float | str) else None

    def _names_function(self, name: A.Name) -> bool:
        """Whether a template argument names a function (a user function or function template instance such as
        `AbsAdapter<half>`, or an API such as Adds) rather than a value or a type: nothing local or in the class
        has the name."""
        last = name.qname.parts[-1]
        if len(name.qname.parts) == 1 and self.frames and (
                self.lookup(last.name) is not None or last.name in self.frame.types):
            return False
        first = name.qname.parts[0].name
        if len(name.qname.parts) >= 2 and ((self.frames and first in self.frame.types) or first in self.scope.classes):
            # `Layout::rank` with Layout a type parameter (tla's `make_seq<Layout::rank>`): a member of that class,
            # not the namespace's function rank
            return False
        if last.name in self.scope.functions:
            return True
        return self.catalog.has_api(last.name) and self.catalog_type_kind(last.name) is None  # type: ignore[attr-defined]

    def _elem_arg(self, args: list[A.TemplateArg], i: int) -> Scalar | None:
        if i >= len(args):
            return None
        v = self._template_arg_value(args[i])
        return v if isinstance(v, Scalar) else None

    def _position_arg(self, args: list[A.TemplateArg], i: int) -> str:
        if i >= len(args):
            return asc.UNKNOWN_POSITION
        v = self._template_arg_value(args[i])
        if isinstance(v, str) and v in asc.POSITIONS:
            return v
        return asc.UNKNOWN_POSITION

    def _int_arg(self, args: list[A.TemplateArg], i: int, default: int) -> int:
        if i >= len(args):
            return default
        v = self._template_arg_value(args[i])
        return int(v) if isinstance(v, int | float) and not isinstance(v, bool) else default

    def _matmul_config(self, t: A.TypeRef, depth: int = 0) -> str:
        """The template arguments of a Matmul declaration as written, aliases spelled out (`using A_TYPE =
        MatmulType<TPosition::GM, CubeFormat::ND, half>;` then `Matmul<A_TYPE, ...>`), so that the simulator sees
        each operand's position and format. Every Matmul object's declared type comes here (depth 0) once, where
        callbacks it gives are reported, at the type (matmul_callbacks: the simulator does not run them)."""
        if depth == 0:
            matmul_callbacks.report_ignored(self, t, t)  # type: ignore[arg-type]
        alias = self._bare_alias(t)
        if alias is not None and depth < 8:
            return self._matmul_config(alias, depth + 1)
        if not isinstance(t.base, A.QualifiedName):
            return type_text(t, full=True)
        bound = self.frame.types.get(t.base.parts[-1].name) if self.frames and len(t.base.parts) == 1 and \
            not t.base.parts[0].template_args else None
        if isinstance(bound, C.MatmulTypeT):
            # a class template parameter bound to a MatmulType (asc-devkit's batch_matmul: a function-local
            # `typedef MatmulType<...> A_TYPE;` passed to `BatchMatmulKernel<A_TYPE, ...>`): its arguments
            return _matmul_type_text(bound)
        if isinstance(bound, str) and (bound.startswith("MatmulConfig{") or
                                       self.catalog.enum_of_value(bound) == "MatmulConfig"):  # type: ignore[attr-defined]
            # `const MatmulConfig& MM_CFG` bound to a config a builder made (matmul_config.py), or to CFG_MDL
            return bound
        made = matmul_config.of_constant(self, t.base.parts[-1].name) if len(t.base.parts) == 1 and \
            not t.base.parts[0].template_args else None
        if made is not None:
            return made  # `MM_CFG_NO_PRELOAD`, a namespace-scope constant made by a builder
        chosen = self._conditional_choice(t.base.parts)
        if chosen is not None and depth < 8:
            return self._matmul_config(chosen, depth + 1)
        parts = []
        for p in t.base.parts:
            text = p.name
            if p.template_args is not None:
                args = []
                for a in p.template_args:
                    inner = a.value.type if isinstance(a.value, A.TypeArgExpr) else a.value
                    if isinstance(inner, A.Name) and not any(q.template_args for q in inner.qname.parts):
                        inner = A.TypeRef(span=inner.span, base=inner.qname)
                    resolved = (self._matmul_config(inner, depth + 1)
                                if isinstance(inner, A.TypeRef) and depth < 8 else node_text(a.value))
                    if p.name == "Matmul" and len(args) == 4:
                        resolved += self._bias_batch_note(resolved)
                    args.append(resolved)
                text += "<" + ", ".join(args) + ">"
            parts.append(text)
        return "::".join(parts) + "".join(t.pointers)

    def _bias_batch_note(self, name: str) -> str:
        """`{isNBatch=true}{isBiasBatch=false}` after a Matmul's MatmulConfig argument when the program builds it as
        `constexpr MatmulConfig CFG = GetMMConfig<...>(batchParams)` from a `constexpr MatmulBatchParams batchParams =
        {isNBatch, batchMode, isBiasBatch, ...}` (asc-devkit matmul_config.h's field order; isNBatch defaults to false,
        isBiasBatch to true): whether IterateNBatch / GetBatchTensorC run at all and whether IterateBatch's bias has a
        batch axis, which the simulator reads from the config text."""
        written = name.split("::")
        found = namespace_lookup.variable(self, written[-1], written[:-1] or None)
        init = found[1].init if found is not None else None
        if not isinstance(init, A.Call) or init.callee_name != "GetMMConfig":
            return ""
        for arg in init.args:
            if not isinstance(arg, A.Name):
                continue
            params = namespace_lookup.variable(self, arg.qname.parts[-1].name, namespace_lookup.qualifier_of(arg.qname))
            if params is None or not isinstance(params[1].init, A.InitList):
                continue
            items = params[1].init.items
            if any(isinstance(i, A.DesignatedInit) for i in items):
                return ""
            note = ""
            for index, field, default in ((0, "isNBatch", 0), (2, "isBiasBatch", 1)):
                value = self.const_eval(items[index]) if len(items) > index else default
                if isinstance(value, int | bool):
                    note += "{" + field + "=" + ("true" if value else "false") + "}"
            return note
        return ""

    def _conditional_choice(self, parts: Sequence[A.NamePart]) -> A.TypeRef | None:
        """The type `[std::|AscendC::]Conditional<b, T, U>::type` / `conditional_t<b, T, U>` names (T when b, else
        U), for a b known here: a Matmul member declared through one (NPUKernelBench's large-head-dim flash
        attention picks its bmm2's C format so) has the chosen type's arguments, not both alternatives'."""
        if len(parts) >= 2 and parts[-1].name == "type" and parts[-2].name in ("conditional", "Conditional"):
            args = parts[-2].template_args
        elif parts and parts[-1].name == "conditional_t":
            args = parts[-1].template_args
        else:
            return None
        if args is None or len(args) != 3:
            return None
        cond = self.const_eval(args[0].value) if not isinstance(args[0].value, A.TypeArgExpr) else None
        if not isinstance(cond, int):
            return None
        inner = args[1 if cond else 2].value
        inner = inner.type if isinstance(inner, A.TypeArgExpr) else inner
        if isinstance(inner, A.Name):
            inner = A.TypeRef(span=inner.span, base=inner.qname)
        return inner if isinstance(inner, A.TypeRef) else None

    def _default_template_value(self, p: A.TemplateParam) -> object:
        if p.kind == "type" and isinstance(p.default, A.TypeRef):
            return self.resolve_type(p.default)
        if isinstance(p.default, A.TemplateArg):
            return self._template_arg_value(p.default)
        v = self.const_eval(p.default)
        return v

    def _member_of_type_argument(self, bound: object, rest: Sequence[A.NamePart], e: A.Node) -> Val | None:
        """`T::NAME` for a class template argument: its static constant if T is a project class, else (a
        library type such as MatmulType, whose static members are not catalogued) an unknown value."""
        if isinstance(bound, C.ClassT) and len(rest) == 1 and bound.name in self.scope.classes:
            info = self.scope.classes[bound.name]
            decl = info.static_constants.get(rest[0].name)
            if decl is None:
                return None
            # read with the class's own template parameters bound to the argument's (`extent = EXTENT` in
            # `template <typename T, int32_t EXTENT> struct ReduceType`)
            with self._class_template_frame(info, bound.args):
                return self._constant_decl(decl, e, info)
        if isinstance(bound, C.MatmulTypeT) and bound.text == "MatmulType" and len(rest) == 1:
            # its static members (asc-devkit matmul_type_def.h): `if constexpr (A_TYPE::layout == LayoutMode::BSNGD)`
            defaults = ("GM", "ND", None, 0, "NONE")
            members = {"pos": (0, "TPosition"), "format": (1, "CubeFormat"), "isTrans": (3, None),
                       "layout": (4, "LayoutMode")}
            found = members.get(rest[0].name)
            if found is not None:
                index, enum = found
                value = bound.args[index] if len(bound.args) > index else defaults[index]
                if enum is None and isinstance(value, int):
                    return Val(C.BOOL, const=int(bool(value)))
                if enum is not None and isinstance(value, str):
                    return Val(C.EnumT(enum), const=value)
        if isinstance(bound, C.ClassT) and len(rest) >= 2 and isinstance(e, A.Name) \
                and len(e.qname.parts) > len(rest):
            # `BlockMmadQK::L1TileShape::M` (catlass 23's kernel): a constant of the class a member alias of the
            # argument names. It was the unknown value below, read as 0 without a word (23's PV L1 buffers then
            # overlapped the QK ones)
            member = self._static_member_of_type(e.qname.parts[-len(rest) - 1:], e)
            if member is not None:
                return member
        if isinstance(bound, C.ObjectT | C.UnknownT | C.ClassT):
            return Val(C.UnknownT("::".join(p.name for p in rest)))
        return None

    @contextmanager
    def _class_template_frame(self, info: ClassInfo, args: Sequence[object]) -> Iterator[None]:
        """Lowers what a class template declares (a static constant's initialiser, a member alias) with its
        template parameters bound to `args`, the arguments of one instantiation."""
        with self._template_frame(info.name, info.scope_params or [], args):
            self.frame.owner = info
            yield

    @contextmanager
    def _template_frame(self, name: str, params: Sequence[A.TemplateParam], args: Sequence[object]) -> Iterator[None]:
        """Lowers what a template declares with its parameters bound to `args` (defaults for the rest)."""
        # (a pack a partial specialisation's pattern deduced arrives whole, one argument per pack parameter)
        types = {p.name: (args[i] if i < len(args) and isinstance(args[i], Pack) else Pack(tuple(args[i:])))
                 if p.variadic else args[i] if i < len(args)
                 else self._default_template_value(p) for i, p in enumerate(params) if p.name}
        self.frames.append(Frame(name, [{}], None, types, set()))
        try:
            yield
        finally:
            self.frames.pop()


def _not_a_value(v: object) -> bool:
    """A type (not an unknown value) or a function where a number is meant."""
    return isinstance(v, FunctionRef) or (type(v).__module__ == C.__name__ and not isinstance(v, C.UnknownT))


def _same_template_arg(a: object, b: object) -> bool:
    """Template arguments compared as C++ does: `true` is `1`."""
    if isinstance(a, bool | int) and isinstance(b, bool | int):
        return int(a) == int(b)
    return a == b


def _mentions(node: object, names: set[str]) -> bool:
    """Whether a pattern argument names one of the template parameters `names` anywhere."""
    return any(isinstance(n, A.NamePart) and n.name in names for n in walk(node))


def _parameter_named(node: A.Node, names: set[str]) -> str | None:
    """The template parameter a pattern argument is, when it is one of `names` written bare (`T`, not `T*`)."""
    if isinstance(node, A.TypeArgExpr):
        node = node.type
    if isinstance(node, A.TypeRef):
        if node.pointers or node.array_dims or not isinstance(node.base, A.QualifiedName):
            return None
        node_name = node.base
    elif isinstance(node, A.Name):
        node_name = node.qname
    else:
        return None
    if len(node_name.parts) != 1 or node_name.parts[0].template_args:
        return None
    return node_name.parts[0].name if node_name.parts[0].name in names else None


def _matmul_type_text(t: C.MatmulTypeT) -> str:
    """`MatmulType<TPosition::GM,CubeFormat::ND,half,false,LayoutMode::BSNGD>` from the type's argument values,
    spelled as a declaration writes them (the simulator reads the position, format and layout from the text)."""
    prefixes = ("TPosition::", "CubeFormat::", "", "", "LayoutMode::") if t.text == "MatmulType" else ()
    parts = []
    for i, arg in enumerate(t.args):
        if isinstance(arg, C.Scalar):
            text = arg.name
        elif isinstance(arg, bool) or (i == 3 and isinstance(arg, int)):
            text = "true" if arg else "false"
        else:
            text = f"{prefixes[i] if i < len(prefixes) else ''}{arg}"
        parts.append(text)
    return f"{t.text}<{','.join(parts)}>"
