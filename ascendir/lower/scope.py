"""What a program declares at namespace scope: classes, functions, enums, constants, aliases, tiling structs.

Collected once per translation unit before any function is lowered, so a kernel can call a helper
defined below it, and a method defined out of class (`void K<T>::Init(...)`) finds its class.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ascendir.lower.astwalk import walk
from ascendir.lower import tiling_framework
from frontend import ast as A


@dataclass
class ClassInfo:
    name: str
    decl: A.ClassDecl
    template_params: list[A.TemplateParam] | None
    fields: list[tuple[A.VarDecl, A.Declarator]] = field(default_factory=list)
    methods: dict[str, list[A.FunctionDecl]] = field(default_factory=dict)
    constructors: list[A.FunctionDecl] = field(default_factory=list)
    nested: dict[str, ClassInfo] = field(default_factory=dict)
    enums: list[A.EnumDecl] = field(default_factory=list)
    aliases: dict[str, A.TypeRef] = field(default_factory=dict)
    # member alias templates (`template <class T> using type = ComputeImpl<T>;`), by name: their parameters
    alias_templates: dict[str, list[A.TemplateParam]] = field(default_factory=dict)
    static_constants: dict[str, A.Declarator] = field(default_factory=dict)
    # `template <> void K<float>::CopyIn(...)`: a method of one instantiation, by name, with its template
    # arguments as text (see _arg_text)
    member_specializations: dict[str, list[tuple[list[str | None], A.FunctionDecl]]] = field(default_factory=dict)
    # member operators by name (`operator()`, `operator[]`): called explicitly (`x.operator[](0)`) or as an
    # object's call (`op(params)`); kept apart from `methods`, which make a struct more than a record
    operators: dict[str, list[A.FunctionDecl]] = field(default_factory=dict)
    # explicit specialisations of member function templates, by name, with their template arguments:
    # `template <> void operator()<AscendC::AIC>(Params const &)` (catlass kernels, one per core type)
    function_specializations: dict[str, list[tuple[list[A.TemplateArg], A.FunctionDecl]]] = field(
        default_factory=dict)
    # the class this one is nested in (`struct Params` of a kernel class template): its aliases and template
    # parameters are in scope in this one's members, and an instance of this one carries the outer's arguments
    outer: ClassInfo | None = None
    # `~K() {...}`: run when an object of the class declared in a block leaves it (catlass's BlockMmad waits
    # there for the flags its constructor set)
    destructor: A.FunctionDecl | None = None

    @property
    def scope_params(self) -> list[A.TemplateParam] | None:
        """The template parameters in scope in this class: those of the class templates it is nested in, then
        its own. An instance's arguments are in this order: a class template nested in a class template
        (catlass's `template <bool IsPaddingA, ...> struct KernelParams : public ParamsBase` in OptimizedMatmul)
        carries the enclosing instance's arguments before its own, so that its members and its base see
        PrologueA as the instance of the outer class has it."""
        outer = self.outer.scope_params if self.outer is not None else None
        if not self.template_params:
            return outer
        return [*outer, *self.template_params] if outer else self.template_params

    @property
    def is_plain_struct(self) -> bool:
        """Only data members: used as a tiling struct or a record, never inlined as an object."""
        # (a constructor with member initialisers, `Params(...) : problemShape(s), ptrA(a) {}`, makes an object)
        return not self.methods and not self.operators and not any(
            c.body and c.body.body or c.init_list for c in self.constructors)


@dataclass
class TilingStruct:
    """A tiling layout: legacy BEGIN_TILING_DATA_DEF or a plain struct. Fields in declaration order."""

    name: str
    fields: list[tuple[str, A.TypeRef, A.Expr | None, str]]  # (name, type, array count, kind)
    span: object = None
    align: int | None = None  # a plain struct's alignas(N): its alignment is at least N, its size a multiple of it


@dataclass
class Scope:
    classes: dict[str, ClassInfo] = field(default_factory=dict)
    functions: dict[str, list[A.FunctionDecl]] = field(default_factory=dict)
    # free functions declared without a definition here (`extern __aicore__ float f(float);`, defined in
    # another translation unit of a separate compile): name -> declarations
    prototypes: dict[str, list[A.FunctionDecl]] = field(default_factory=dict)
    enumerators: dict[str, tuple[str | None, A.Enumerator, int]] = field(default_factory=dict)  # name -> (enum, node, index)
    enums: dict[str, A.EnumDecl] = field(default_factory=dict)
    # namespace-scope variables and constants by qualified name ('x' global, 'A::B::x'): looked up by the C++
    # rules in namespace_lookup.py, never by the bare name (two namespaces' `cnt` are two variables)
    constants: dict[str, tuple[A.VarDecl, A.Declarator]] = field(default_factory=dict)
    # the namespaces declaring a variable of each bare name, in the order first seen
    variable_namespaces: dict[str, list[str]] = field(default_factory=dict)
    # every namespace the program opens, by its full name ('A', 'A::B'): what a qualifier may name
    namespace_paths: set[str] = field(default_factory=set)
    # `using A::cnt;` at namespace scope: the namespace it is written in -> name -> the qualifier as written
    using_declarations: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    aliases: dict[str, A.TypeRef] = field(default_factory=dict)
    # the namespace each of those aliases is declared in (tla's `Coord<Ts...>`, an alias in namespace tla beside
    # catlass's class template Coord in namespace Catlass)
    alias_namespaces: dict[str, str] = field(default_factory=dict)
    # the same aliases by qualified name ('A::T'), with their template parameters, and the namespaces declaring
    # each bare name: where several do, namespace_lookup.alias chooses by the lookup rules
    qualified_aliases: dict[str, tuple[A.TypeRef, list[A.TemplateParam] | None]] = field(default_factory=dict)
    alias_declared_in: dict[str, list[str]] = field(default_factory=dict)
    # the template parameters of alias templates (`template <typename T> using aType = MatmulType<..., T>;`)
    alias_templates: dict[str, list[A.TemplateParam]] = field(default_factory=dict)
    # and of variable templates (tla's `template <class Tuple> constexpr auto rank_v = rank_t<Tuple>::value;`)
    variable_templates: dict[str, list[A.TemplateParam]] = field(default_factory=dict)
    tiling_structs: dict[str, TilingStruct] = field(default_factory=dict)
    kernels: list[tuple[A.FunctionDecl, list[A.TemplateParam] | None]] = field(default_factory=list)
    function_templates: dict[int, list[A.TemplateParam]] = field(default_factory=dict)  # id(FunctionDecl) -> params
    launches: list[tuple[A.KernelLaunch, A.FunctionDecl | None]] = field(default_factory=list)  # with the caller
    registered_tiling: dict[str, str] = field(default_factory=dict)  # op type -> tiling struct name
    default_tiling: str | None = None  # REGISTER_TILING_DEFAULT(S)
    # Project-defined `is_same` traits: `template <class A, class B> struct IsSame : false_type {};` with the
    # partial specialisation `IsSame<T, T> : true_type {}`; `IsSame<X, Y>::value` folds like std::is_same.
    same_type_traits: set[str] = field(default_factory=set)
    # explicit (full) specialisations of class templates: name -> [(their template arguments, class key)]
    specializations: dict[str, list[tuple[list[A.TemplateArg], str]]] = field(default_factory=dict)
    # partial specialisations: name -> [(their argument pattern, their template parameters, class key)]
    partial_specializations: dict[str, list[tuple[list[A.TemplateArg], list[A.TemplateParam], str]]] = field(
        default_factory=dict)
    # the program's own namespaces: what they declare is collected as if at global scope, so a name qualified
    # by one (`NsApplyKerasMomentum::SchModeTrait<T>::value`) is looked up without it
    namespaces: set[str] = field(default_factory=set)
    # vendor libraries the kernel sources include, whose implementation's free functions are declared for them:
    # "matmul" for lib/matmul_intf.h (its AscendC::CeilDiv, CeilAlign ...)
    libraries: set[str] = field(default_factory=set)
    # FunctionLowerer._may_use_flags, remembered: (id of a statement or body, depth) -> whether it reaches a flag call
    flag_users: dict[tuple[int, int], bool] = field(default_factory=dict)
    # the namespace a namespace-scope class or function is declared in ('' for the global one, 'A::B'), by id of
    # its declaration: what the lookup falls back on where two of one name live in different namespaces
    declared_in: dict[int, str] = field(default_factory=dict)
    # `using namespace N;` at namespace scope: the namespace it is written in ('' for the global one) -> the
    # names it nominates, as written; see `nominated`
    using_directives: dict[str, set[str]] = field(default_factory=dict)
    # class templates declared but not defined (`template <class P, ..., class TileCopy = ...> struct BlockMmad;`,
    # then only specialisations): their parameters' defaults complete the arguments a specialisation is chosen by
    declared_templates: dict[str, ClassInfo] = field(default_factory=dict)
    # classes of one name in different namespaces (catlass's Gemm::Tile::TileCopy and Epilogue::Tile::TileCopy):
    # name -> [(namespace, key in `classes`)], the first one keyed by its bare name, the others by their full one
    homonyms: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    # REGISTER_TILING_TEMPLATE("Op", Class, priority) registrations (ascendir/lower/tiling_framework.py)
    tiling_templates: list[A.MacroDecl] = field(default_factory=list)
    # ASCENDC_TPL_ARGS_DECL(Op, ...) declarations of the template tiling key, with their namespace
    # (ascendir/lower/tpl_tiling_key.py); the kernel build defines the macro to nothing, so host code has them
    tpl_declarations: list[tuple[str, A.MacroDecl]] = field(default_factory=list)
    # the translation units (their main files) that reach each of them, by where the declaration is written
    tpl_units: dict[tuple[str, int, int], set[str]] = field(default_factory=dict)

    def nominated(self, here: str) -> set[str]:
        """The namespaces whose members an unqualified name used in namespace `here` ('' global, 'A::B') also
        finds through using-directives ([namespace.udir]/2): those nominated in `here` and in each namespace
        enclosing it, and, transitively, those the nominated namespaces nominate themselves ([namespace.udir]/4).
        A directive's name is looked up from where it is written, so `using namespace Base;` inside `Ops` may
        nominate `Ops::Base` or `::Base`: every such reading is in the set (the vendor's namespaces are not
        declared here, so which one exists is not known). A directive counts in its whole namespace, the text
        before it included: the order of declarations is not kept."""
        found: set[str] = set()
        # (namespace, whether the name is used there, so its enclosing namespaces' directives count too)
        todo = [(here, True)]
        while todo:
            scope, used_here = todo.pop()
            enclosing = scope.split("::") if scope else []
            for depth in range(len(enclosing), -1 if used_here else len(enclosing) - 1, -1):
                for written in self.using_directives.get("::".join(enclosing[:depth]), ()):
                    readings = ([written[2:]] if written.startswith("::")
                                else ["::".join(enclosing[:k] + [written]) for k in range(depth + 1)])
                    for name in readings:
                        if name not in found:
                            found.add(name)
                            todo.append((name, False))  # its own directives nominate further ([namespace.udir]/4)
        return found

    def without_namespaces(self, parts: list[A.NamePart]) -> list[A.NamePart]:
        """`parts` less its leading names of the program's namespaces (a class of the same name stays)."""
        k = 0
        while k < len(parts) - 1 and parts[k].name in self.namespaces and parts[k].name not in self.classes:
            k += 1
        return parts[k:] if k else parts


def collect(units: list[A.TranslationUnit]) -> Scope:
    scope = Scope()
    for unit in units:
        first = len(scope.tpl_declarations)
        _collect_decls(scope, unit.decls, None)
        for _, d in scope.tpl_declarations[first:]:
            if d.span is not None:
                scope.tpl_units.setdefault((d.span.file, d.span.line, d.span.col), set()).add(unit.file)
    derived = any(tiling_framework.BASE_CLASS in (_base_name(b) for b in info.decl.bases)
                  for info in scope.classes.values())
    if (scope.tiling_templates or derived) and tiling_framework.BASE_CLASS not in scope.classes:
        framework = tiling_framework.unit_for(scope.tiling_templates, derived,
                                              tiling_framework.PARAMS_STRUCT not in scope.classes)
        if framework is not None:
            _collect_decls(scope, framework.decls, None)
    return scope


def _collect_decls(scope: Scope, decls: list[A.Node], template: list[A.TemplateParam] | None,
                   namespace: str = "") -> None:
    for d in decls:
        if isinstance(d, A.TemplateDecl):
            _collect_decls(scope, [d.decl], d.params, namespace)
        elif isinstance(d, A.NamespaceDecl) or isinstance(d, A.LinkageSpec):
            inner = namespace
            if isinstance(d, A.NamespaceDecl) and d.name:
                scope.namespaces.update(d.name.split("::"))  # `namespace A::B {`
                inner = f"{namespace}::{d.name}" if namespace else d.name
                steps = inner.split("::")
                scope.namespace_paths.update("::".join(steps[:k]) for k in range(1, len(steps) + 1))
            _collect_decls(scope, d.decls, None, inner)
        elif isinstance(d, A.UsingDirective):
            scope.using_directives.setdefault(namespace, set()).add("::".join(p.name for p in d.namespace.parts))
        elif isinstance(d, A.ClassDecl):
            scope.declared_in[id(d)] = namespace
            _collect_class(scope, d, template)
        elif isinstance(d, A.FunctionDecl):
            scope.declared_in[id(d)] = namespace
            _collect_function(scope, d, template)
        elif isinstance(d, A.EnumDecl):
            collect_enum(scope, d)
        elif isinstance(d, A.UsingDecl):
            for used in d.names:
                if len(used.parts) > 1:
                    scope.using_declarations.setdefault(namespace, {})[used.parts[-1].name] = [
                        p.name for p in used.parts[:-1]]
        elif isinstance(d, A.VarDecl):
            for decl in d.declarators:
                scope.constants[f"{namespace}::{decl.name}" if namespace else decl.name] = (d, decl)
                declaring = scope.variable_namespaces.setdefault(decl.name, [])
                if namespace not in declaring:
                    declaring.append(namespace)
                if template:
                    scope.variable_templates[decl.name] = template
        elif isinstance(d, A.AliasDecl):
            scope.aliases[d.name] = d.type
            scope.alias_namespaces[d.name] = namespace
            scope.qualified_aliases[f"{namespace}::{d.name}" if namespace else d.name] = (d.type, template or None)
            declaring = scope.alias_declared_in.setdefault(d.name, [])
            if namespace not in declaring:
                declaring.append(namespace)
            if template:
                scope.alias_templates[d.name] = template
            else:
                scope.alias_templates.pop(d.name, None)
        elif isinstance(d, A.TilingDataDef):
            scope.tiling_structs[d.name] = TilingStruct(
                d.name, [(f.name, f.type, f.count, f.kind) for f in d.fields], d.span
            )
        elif isinstance(d, A.RegisterTilingData):
            scope.registered_tiling[d.op_type] = d.struct_name
        elif tiling_framework.is_registration(d):
            scope.tiling_templates.append(d)  # type: ignore[arg-type]
        elif isinstance(d, A.MacroDecl) and d.name == "ASCENDC_TPL_ARGS_DECL":
            scope.tpl_declarations.append((namespace, d))
        elif isinstance(d, A.MacroDecl) and d.name == "REGISTER_TILING_DEFAULT" and d.args:
            scope.default_tiling = _arg_text(d.args[0])
        elif isinstance(d, A.ExprStmt) and isinstance(d.expr, A.KernelLaunch):
            scope.launches.append((d.expr, None))


def _arg_key(node: A.Node) -> str:
    """A specialisation argument as the key of its class: `GemmType<Element, RowMajor>` in full, so that the
    specialisations for RowMajor and ColumnMajor operands stay two classes."""
    ref = node.type if isinstance(node, A.TypeArgExpr) else node
    if isinstance(ref, A.TypeRef) and isinstance(ref.base, A.QualifiedName) and ref.base.parts[-1].template_args:
        last = ref.base.parts[-1]
        return f"{last.name}<{', '.join(_arg_key(a.value) for a in last.template_args or [])}>" + "".join(ref.pointers)
    return _arg_text(node) or "?"


def _arg_text(node: A.Node) -> str | None:
    if isinstance(node, A.TypeRef) and isinstance(node.base, A.QualifiedName):
        return node.base.parts[-1].name
    if isinstance(node, A.TypeRef) and isinstance(node.base, str) and not node.pointers:
        return node.base  # a builtin type: `float`, `unsigned int`
    if isinstance(node, A.TypeArgExpr):
        return _arg_text(node.type)
    if isinstance(node, A.Name):
        return node.qname.parts[-1].name
    if isinstance(node, A.IntLit):
        return str(node.value)
    if isinstance(node, A.BoolLit):
        return "true" if node.value else "false"
    return None


_FALSE_BASES = frozenset({"false_type", "falseType"})
_TRUE_BASES = frozenset({"true_type", "trueType"})


def _base_name(ref: A.TypeRef) -> str | None:
    return ref.base.parts[-1].name if isinstance(ref.base, A.QualifiedName) else None


def _is_same_type_specialisation(primary: A.ClassDecl, special: A.ClassDecl) -> bool:
    """`struct S : false_type {}` specialised as `S<T, T> : true_type {}`: the is_same trait, spelled out."""
    args = [_arg_text(a.value) for a in special.specialization_args or []]
    return (len(args) == 2 and args[0] is not None and args[0] == args[1]
            and [_base_name(b) for b in primary.bases] in ([n] for n in _FALSE_BASES)
            and [_base_name(b) for b in special.bases] in ([n] for n in _TRUE_BASES))


def _collect_class(scope: Scope, d: A.ClassDecl, template: list[A.TemplateParam] | None,
                   outer: ClassInfo | None = None) -> ClassInfo | None:
    if d.name is not None and not d.is_definition and template and d.specialization_args is None:
        scope.declared_templates.setdefault(d.name, ClassInfo(d.name, d, template))
    if d.name is None or not d.is_definition:
        return None
    key = d.name
    namespace = scope.declared_in.get(id(d), "")
    first = scope.classes.get(d.name) or scope.declared_templates.get(d.name)
    if outer is None and d.specialization_args is None and first is not None and first.outer is None \
            and scope.declared_in.get(id(first.decl), "") != namespace:
        # the same name in another namespace: a class of its own, found by the namespace it is named with
        found = scope.homonyms.setdefault(d.name, [(scope.declared_in.get(id(first.decl), ""), d.name)])
        key = f"{namespace}::{d.name}"
        found.append((namespace, key))
    if outer is not None and d.specialization_args is None:
        # a nested class is its outer class's (two kernels' `Params` differ); the bare name stays for the
        # lookups that do not say which
        key = f"{outer.name}::{d.name}"
    if d.specialization_args is not None:
        # (the primary template may be declared only: `template <class T, int A> class K;` and then
        # nothing but specialisations)
        if d.name in scope.classes and _is_same_type_specialisation(scope.classes[d.name].decl, d):
            scope.same_type_traits.add(d.name)
        if any(a.value is None for a in d.specialization_args):
            return None
        key = f"{d.name}<{', '.join(_arg_key(a.value) for a in d.specialization_args)}>"
        if namespace != "" and first is not None and scope.declared_in.get(id(first.decl), "") != namespace and \
                any(ns == namespace for ns, _ in scope.homonyms.get(d.name, ())):
            # a specialisation of the homonym declared in this namespace (catlass's Gemm::helper and
            # Gemv::helper each have an L1AlignHelper<Element, layout::RowMajor>): a key of its own, or the later
            # one would take the first's place and the first's family would lose it
            key = f"{namespace}::{key}"
        if template:
            # `template <class T> class Computer<T, 1> {...}`: chosen when the arguments match its pattern.
            # Patterns told apart only by what the key leaves out (catlass's four TileCopyTla<AtlasA2,
            # Tensor<GlobalTensor<S>, LS, CS, GM>, Tensor<LocalTensor<D>, LD, CD, A1>, enable_if_t<...>>, one per
            # layout condition) are classes of their own: numbered after the first
            spelt, n = key, 1
            while key in scope.classes and scope.classes[key].decl.span != d.span:
                n += 1
                key = f"{spelt}#{n}"
            scope.partial_specializations.setdefault(d.name, []).append((d.specialization_args, template, key))
        else:
            # `template <> class Computer<float> {...}`: a class of its own, chosen for those arguments
            scope.specializations.setdefault(d.name, []).append((d.specialization_args, key))
    seen = scope.classes.get(key)
    if seen is not None and seen.decl is not d and d.span is not None and seen.decl.span == d.span:
        # the same definition again: a header that is a unit of its own and is also #included by another
        # unit. Keep the first collection, which may already hold the methods a unit defines out of class
        # (`ge::graphStatus QTiling::Run() {...}` after the header's `ge::graphStatus Run();`)
        return seen
    info = ClassInfo(key, d, template, outer=outer)
    for m in d.members:
        inner_template = None
        if isinstance(m, A.TemplateDecl):
            inner_template, m = m.params, m.decl
        if isinstance(m, A.VarDecl):
            is_static = "static" in m.specifiers
            for decl in m.declarators:
                if is_static or "constexpr" in m.specifiers:
                    info.static_constants[decl.name] = decl
                    if decl.init is None:
                        continue
                if not is_static:
                    info.fields.append((m, decl))
        elif isinstance(m, A.FunctionDecl):
            last = m.name.parts[-1]
            if inner_template == [] and last.template_args and m.kind in ("function", "operator"):
                info.function_specializations.setdefault(last.name, []).append((last.template_args, m))
                continue
            if m.kind == "destructor":
                if m.body is not None:
                    info.destructor = m
                continue
            if m.kind == "constructor":
                info.constructors.append(m)
            elif m.kind == "function":
                info.methods.setdefault(last.name, []).append(m)
            elif m.kind == "operator":
                info.operators.setdefault(last.name, []).append(m)
            if inner_template is not None:
                scope.function_templates[id(m)] = inner_template
        elif isinstance(m, A.ClassDecl):
            nested = _collect_class(scope, m, inner_template, info)
            if nested is not None and m.specialization_args is not None:
                # `template <> struct LayoutHelper<void>` inside a class: registered among the specialisations;
                # the primary stays the nested class of that name
                continue
            if nested is not None:
                info.nested[m.name or nested.name] = nested
                if nested.name != m.name and m.name:
                    scope.classes[m.name] = nested
        elif isinstance(m, A.EnumDecl):
            info.enums.append(m)
            collect_enum(scope, m)
        elif isinstance(m, A.AliasDecl):
            info.aliases[m.name] = m.type
            if inner_template:
                info.alias_templates[m.name] = inner_template
    scope.classes[key] = info
    if d.specialization_args is not None:
        return info
    if template is None and not (outer is not None and outer.scope_params) and holds_tiling_data(scope, info):
        # (a struct nested in a class template, `Params` of a catlass kernel, or one holding class objects, is a
        # record of objects, never tiling data; nor is one holding a host pointer, which means nothing copied to
        # a device: catlass 19_mla's `struct MLAInfo { ...; int32_t *qSeqLen{nullptr}; }`)
        scope.tiling_structs.setdefault(
            d.name,
            TilingStruct(d.name, [(decl.name, decl.type, None, "scalar") for _, decl in info.fields], d.span,
                         d.align),
        )
    return info


def holds_tiling_data(scope: Scope, info: ClassInfo) -> bool:
    """Whether a struct's fields could be tiling data the host copied to GM: a plain struct of numbers, arrays and
    such structs, no objects, references or host pointers (a class template's too, once instantiated:
    lower_tiling.instantiated_tiling_struct)."""
    return info.is_plain_struct and bool(info.fields) and not any(
        _is_object_type(decl.type) or "&" in decl.type.pointers or _host_pointer(decl.type)
        or _names_object_class(scope, decl.type) for _, decl in info.fields)


def _host_pointer(t: A.TypeRef) -> bool:
    """A pointer into host memory (no address space: not GM_ADDR, `__gm__ T *`)."""
    return "*" in t.pointers and t.address_space is None


# Member types that make a struct a bundle of kernel objects (`struct Bufs { LocalTensor<float> a; }`), which is
# lowered as an object, never as a tiling layout of scalars; so does a reference member (`BinaryRepeatParams&
# repeatParams;`): tiling data is copied from GM and holds none.
_OBJECT_TYPES = frozenset({"LocalTensor", "GlobalTensor", "TQue", "TQueBind", "TBuf", "TPipe", "TBufPool"})


def _names_object_class(scope: Scope, t: A.TypeRef) -> bool:
    """Whether a field's type names a class of the program with methods or constructors (GemmCoord, a layout)."""
    if not isinstance(t.base, A.QualifiedName) or t.pointers:
        return False
    info = scope.classes.get(t.base.parts[-1].name)
    return info is not None and not info.is_plain_struct


def _is_object_type(t: A.TypeRef) -> bool:
    return isinstance(t.base, A.QualifiedName) and t.base.parts[-1].name in _OBJECT_TYPES


def _launches_in(body: A.Node) -> list[A.KernelLaunch]:
    """Kernel launches inside a (host) function body: `k<half><<<n, nullptr, stream>>>(...)`."""
    return [n for n in walk(body) if isinstance(n, A.KernelLaunch)]


def _collect_function(scope: Scope, d: A.FunctionDecl, template: list[A.TemplateParam] | None) -> None:
    if d.body is not None and not d.is_kernel:
        scope.launches.extend((launch, d) for launch in _launches_in(d.body))
    if template is not None:
        scope.function_templates[id(d)] = template
    parts = d.name.parts
    if len(parts) >= 2 and parts[-2].name in scope.classes and d.body is not None:
        # `void KernelAdd<T>::Init(...) { ... }`: a method defined out of its class
        info = scope.classes[_owner_key(scope, d, parts)]
        name = parts[-1].name
        special = parts[-2].template_args
        if special and not template:
            # `void K<bfloat16_t>::Init(...)` with no `template <>`: a member of the explicit specialisation
            # `template <> class K<bfloat16_t> {...}` (ops-nn huber_loss_grad), when the program has one
            key = f"{parts[-2].name}<{', '.join(_arg_key(a.value) for a in special)}>"
            if key in scope.classes:
                info = scope.classes[key]
        if template == [] and parts[-1].template_args and d.kind in ("function", "operator"):
            # `template <> void K::Run<AscendC::AIC>(...) {...}`: a specialisation of a member function template
            info.function_specializations.setdefault(name, []).append((parts[-1].template_args, d))
            return
        if template == [] and special and d.kind != "constructor" and name != info.name:
            info.member_specializations.setdefault(name, []).append(([_arg_text(a.value) for a in special], d))
            return
        if d.kind == "destructor":
            info.destructor = d
            return
        if d.kind == "constructor" or name == info.name:
            info.constructors = [c for c in info.constructors if c.body is not None] + [d]
        else:
            existing = info.methods.setdefault(name, [])
            for decl in existing:
                if decl.body is None and len(decl.params) == len(d.params):
                    _inherit_template_defaults(scope, decl, d)
                    _inherit_argument_defaults(decl, d)
            existing[:] = [m for m in existing if m.body is not None or len(m.params) != len(d.params)]
            existing.append(d)
        return
    if d.is_kernel:
        scope.kernels.append((d, template))
        return
    if d.body is not None:
        scope.functions.setdefault(parts[-1].name, []).append(d)
    elif len(parts) == 1 and d.kind == "function":
        scope.prototypes.setdefault(parts[-1].name, []).append(d)


def _owner_key(scope: Scope, d: A.FunctionDecl, parts: list[A.NamePart]) -> str:
    """The class an out-of-class method definition belongs to: where several namespaces declare a class of its
    name (ops-nn ascend_quant_v2: the OpDef `ops::AscendQuantV2` and the tiling class
    `optiling::ascendquantv2::AscendQuantV2`), the one of the namespace the definition is written in, with the
    qualifiers it names."""
    name = parts[-2].name
    if name not in scope.homonyms:
        return name
    written = "::".join(p.name for p in parts[:-2])
    here = scope.declared_in.get(id(d), "")
    full = "::".join(n for n in (here, written) if n)
    for ns, key in scope.homonyms[name]:
        if ns == full and key in scope.classes:
            return key
    return name


def _inherit_template_defaults(scope: Scope, decl: A.FunctionDecl, definition: A.FunctionDecl) -> None:
    """Default template arguments live on the in-class declaration, not on the out-of-class definition."""
    declared = scope.function_templates.get(id(decl))
    defined = scope.function_templates.get(id(definition))
    if not declared or not defined or len(declared) != len(defined):
        return
    scope.function_templates[id(definition)] = [
        A.TemplateParam(p.span, p.kind, p.name, p.type, p.default if p.default is not None else q.default, p.variadic)
        for p, q in zip(defined, declared)
    ]


def _inherit_argument_defaults(decl: A.FunctionDecl, definition: A.FunctionDecl) -> None:
    """Default arguments, too, are written on the in-class declaration only (`void BaseInit(..., bool
    isLastBig = false);` then `void K<T>::BaseInit(..., bool isLastBig) {...}`, NPUKernelBench GeGluV2): the
    definition takes them, as C++ merges the declarations of one function."""
    if any(q.default is not None and p.default is None for p, q in zip(definition.params, decl.params)):
        definition.params = [p if p.default is not None or q.default is None else
                             A.Param(p.span, p.type, p.name, q.default, p.variadic)
                             for p, q in zip(definition.params, decl.params)]


def collect_enum(scope: Scope, d: A.EnumDecl) -> None:
    if d.name:
        scope.enums[d.name] = d
    for index, e in enumerate(d.enumerators):
        scope.enumerators.setdefault(e.name, (d.name, e, index))
        if d.name:
            scope.enumerators[f"{d.name}::{e.name}"] = (d.name, e, index)
