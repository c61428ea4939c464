"""Constructs of real vendor kernels that compile with the vendor compiler and must parse without ASC001:
vendor words from headers we do not read, and C++ declarator and statement forms."""

from __future__ import annotations

import textwrap

from frontend import ast as A
from frontend.pipeline import load_text


def parse(src: str) -> A.TranslationUnit:
    program = load_text(textwrap.dedent(src), "t.cpp")
    assert [f"{d.span}: {d.message}" for d in program.diagnostics] == []
    return program.units[0].ast


def all_of(unit: A.Node, cls: type) -> list:
    return [n for n in unit.walk() if isinstance(n, cls)]


def declared(unit: A.Node) -> dict[str, A.Declarator]:
    return {d.name: d for v in all_of(unit, A.VarDecl) for d in v.declarators}


def function(unit: A.Node, name: str) -> A.FunctionDecl:
    return next(f for f in all_of(unit, A.FunctionDecl) if f.name.name == name)


# ------------------------------------------------------------------ vendor words


def test_vec_scope_is_a_compound_statement_holding_its_declarations() -> None:
    unit = parse("""
        __aicore__ inline void F(__ubuf__ float* x) {
            __VEC_SCOPE__ {
                RegTensor<float> a, b;
                MaskReg m;
            }
        }
    """)
    body = function(unit, "F").body
    (scope,) = body.body
    assert isinstance(scope, A.Compound)
    names = [d.name for v in scope.body for d in v.declarators]
    assert names == ["a", "b", "m"]


def test_the_compilers_address_space_words_on_local_arrays() -> None:
    unit = parse("""
        __aicore__ inline void F() {
            __ca__ half a[256];
            __cc__ float c[256];
            __biasbuf__ float bias[16];
            __fbuf__ uint64_t quant[16];
        }
    """)
    spaces = {name: d.type.address_space for name, d in declared(unit).items()}
    assert spaces == {"a": "__ca__", "c": "__cc__", "bias": "__biasbuf__", "quant": "__fbuf__"}


def test_address_space_words_from_vendor_headers() -> None:
    unit = parse("""
        __aicore__ inline void F(__local_mem__ float* src, __tiling_data_ptr__ MyTiling* t) {
            __local_mem__ half* dst = (__local_mem__ half*)src;
        }
        __BLOCK_LOCAL__ __inline__ uint64_t counter;
    """)
    src, tiling = function(unit, "F").params
    assert src.type.address_space == "__ubuf__"
    assert tiling.type.address_space == "__gm__" and tiling.type.qualifiers == ["const"]
    decls = declared(unit)
    assert decls["dst"].type.address_space == "__ubuf__"
    assert decls["counter"].type.name == "uint64_t"


def test_pipe_annotation_among_function_specifiers() -> None:
    unit = parse("""
        __aicore__ inline __inout_pipe__(MTE2) void CopyB64(__gm__ uint8_t* dst) {}
    """)
    fn = function(unit, "CopyB64")
    assert fn.specifiers == ["__aicore__", "inline"] and fn.return_type.name == "void"


def test_make_const_alias_names_a_struct_with_the_value() -> None:
    unit = parse("""
        template <typename T>
        struct Dag {
            using ConstOne = MAKE_CONST(T, 1);
        };
    """)
    const = next(c for c in all_of(unit, A.ClassDecl) if c.name == "ConstOne")
    assert "value" in declared(const)


# ------------------------------------------------------------------ statements and expressions


def test_likely_attribute_on_if_and_else_branches() -> None:
    unit = parse("""
        void F(int a) {
            if (a > 0) [[likely]] {
                a = 1;
            } else [[unlikely]] {
                a = 2;
            }
        }
    """)
    (stmt,) = function(unit, "F").body.body
    assert isinstance(stmt, A.If)
    assert isinstance(stmt.then, A.Compound) and isinstance(stmt.otherwise, A.Compound)


def test_alternative_operator_spellings() -> None:
    unit = parse("""
        void F(float y, float h, bool z) {
            if (y < -1.0f or y > h and not z) {
                y = 0;
            }
        }
    """)
    cond = function(unit, "F").body.body[0].cond
    assert isinstance(cond, A.Binary) and cond.op == "||"
    assert isinstance(cond.rhs, A.Binary) and cond.rhs.op == "&&"
    assert isinstance(cond.rhs.rhs, A.Unary) and cond.rhs.rhs.op == "!"


def test_less_equal_inside_template_arguments() -> None:
    unit = parse("""
        template <typename T>
        struct S {
            using RangeType = std::conditional_t<sizeof(T) <= sizeof(int16_t), int16_t, int32_t>;
        };
    """)
    alias = next(a for a in all_of(unit, A.AliasDecl) if a.name == "RangeType")
    args = alias.type.base.parts[-1].template_args
    assert len(args) == 3 and isinstance(args[0].value, A.Binary) and args[0].value.op == "<="


# ------------------------------------------------------------------ declarations


def test_inline_after_the_return_type() -> None:
    unit = parse("""
        __aicore__ void inline F() {}
    """)
    assert function(unit, "F").specifiers == ["__aicore__", "inline"]


def test_aicore_after_the_return_type() -> None:
    # ops-nn's conv3d_backprop_filter_v2 winograd helpers: `inline void __aicore__ Init()`
    unit = parse("""
        inline void __aicore__ Init() {}
        void __mix__(1, 2) Run() {}
    """)
    assert function(unit, "Init").specifiers == ["inline", "__aicore__"]
    assert function(unit, "Run").specifiers == ["__mix__(1,2)"]


def test_pointer_to_member_function_template_parameter() -> None:
    unit = parse("""
        template <typename C, void (C::*fn)(const int64_t&), int N = 2>
        __aicore__ inline void Run(C* self) {}
    """)
    params = function(unit, "Run").template_params
    assert [p.name for p in params] == ["C", "fn", "N"]
    assert params[1].kind == "value" and params[1].type.pointers == ["()", "*"]


def test_pointer_to_array_and_function_pointer_declarators() -> None:
    unit = parse("""
        struct Case {
            void (*run)(uint8_t*, int32_t);
        };
        using Callback = void (*)(int);
        __aicore__ inline void F(const int64_t (&axes)[8]) {
            uint64_t (*rows)[16] = nullptr;
        }
    """)
    decls = declared(unit)
    assert decls["run"].type.pointers == ["()", "*"]
    rows = decls["rows"].type
    assert rows.pointers == ["*"] and [d.value for d in rows.array_dims] == [16] and rows.name == "uint64_t"
    alias = next(a for a in all_of(unit, A.AliasDecl) if a.name == "Callback")
    assert alias.type.pointers == ["()", "*"]
    (axes,) = function(unit, "F").params
    assert axes.name == "axes" and axes.type.pointers == ["&"] and [d.value for d in axes.type.array_dims] == [8]


def test_a_pointer_to_an_array_is_told_from_an_array_of_pointers() -> None:
    """C binds a declarator's `*` to the element type unless parentheses bind it to the array: the two forms
    hold the same pointers and dims, and pointers_to_array counts the pointers that are to the array."""
    unit = parse("""
        __aicore__ inline void F(GM_ADDR x, const int64_t (&axes)[8]) {
            uint64_t rows[2][16];
            uint64_t (*row)[16] = rows;
            uint64_t *ptrs[16];
            __gm__ float *gm[2];
            __gm__ float (*gmRow)[4] = (__gm__ float (*)[4])x;
            GM_ADDR addrs[6];
        }
    """)
    decls = declared(unit)
    forms = {name: (decls[name].type.pointers, [d.value for d in decls[name].type.array_dims],
                    decls[name].type.pointers_to_array) for name in ("row", "ptrs", "gm", "gmRow")}
    assert forms == {
        "row": (["*"], [16], 1), "ptrs": (["*"], [16], 0), "gm": (["*"], [2], 0), "gmRow": (["*"], [4], 1),
    }
    assert decls["rows"].type.pointers_to_array == 0 and decls["addrs"].type.pointers_to_array == 0
    cast = next(c for c in all_of(unit, A.Cast) if c.type.array_dims)
    assert cast.type.pointers == ["*"] and cast.type.pointers_to_array == 1  # an abstract `T (*)[N]`
    (_, axes) = function(unit, "F").params
    assert axes.type.pointers == ["&"] and axes.type.pointers_to_array == 1


def test_parenthesised_dereference_stays_an_expression() -> None:
    unit = parse("""
        void F(int64_t* p, void (*f)(int)) {
            int64_t v = int64_t(*p);
            (*f)(3);
        }
    """)
    assert isinstance(declared(unit)["v"].init, A.Cast)
    assert any(isinstance(c.callee, A.Unary) for c in all_of(unit, A.Call))


def test_constructor_spelled_with_template_arguments_and_out_of_class_destructor() -> None:
    unit = parse("""
        template <typename T>
        class Icamin {
        public:
            __aicore__ inline Icamin<T>() {}
            __aicore__ inline ~Icamin();
        };
        template <typename T>
        __aicore__ inline Icamin<T>::~Icamin() {}
    """)
    kinds = [(f.kind, f.name.name) for f in all_of(unit, A.FunctionDecl)]
    assert ("constructor", "Icamin") in kinds
    assert sum(1 for k, _ in kinds if k == "destructor") == 2


def test_namespace_scope_variable_with_literal_constructor_arguments() -> None:
    unit = parse("""
        const TransDataTo5HDParams PARA_ONE(false, false, 1, 0, 0);
        int Twice(int x);
    """)
    para = declared(unit)["PARA_ONE"]
    assert para.init_style == "()" and len(para.ctor_args) == 5
    assert function(unit, "Twice").body is None


def test_pointer_to_member_call_operators() -> None:
    unit = parse("""
        template <typename C>
        __aicore__ inline void Call(C* obj, C& ref, void (C::*fn)(int)) {
            (obj->*fn)(1);
            (ref.*fn)(2);
        }
    """)
    callees = [c.callee for c in all_of(unit, A.Call)]
    assert [c.op for c in callees if isinstance(c, A.Binary)] == ["->*", ".*"]


def test_compound_literal_builds_the_type_from_braces() -> None:
    unit = parse("""
        namespace N { struct False { int v; }; }
        __aicore__ inline N::False Make() { return (N::False){0}; }
    """)
    value = next(r for r in all_of(unit, A.Return)).value
    assert isinstance(value, A.Cast) and value.kind == "functional" and isinstance(value.expr, A.InitList)


def test_template_friend_and_specialisation_of_a_namespaced_template() -> None:
    unit = parse("""
        namespace Ns { template <typename T> class Kernel {}; }
        template <typename T>
        class Base {
            template <typename A, typename B>
            friend class Other;
        };
        template <>
        class Ns::Kernel<half> {
        public:
            int tail;
        };
    """)
    assert len(all_of(unit, A.FriendDecl)) == 1
    spec = next(c for c in all_of(unit, A.ClassDecl) if c.name == "Kernel" and c.specialization_args)
    assert "tail" in declared(spec)


def test_elaborated_type_specifiers_outside_blocks_and_in_sizeof() -> None:
    unit = parse("""
        struct Tile { int n; };
        class K {
            struct Tile local;
        };
        __gm__ uint8_t* Next(__gm__ uint8_t* p) { return p + sizeof(struct Tile); }
    """)
    assert declared(unit)["local"].type.name == "Tile"
    size = next(s for s in all_of(unit, A.SizeOf))
    assert isinstance(size.operand, A.TypeRef) and size.operand.name == "Tile"


def test_elaborated_type_specifiers_of_parameters() -> None:
    unit = parse("""
        struct Tile { int n; };
        __aicore__ inline void Fill(struct Tile& tile, const struct Tile* other, struct Tile copy) {}
    """)
    params = function(unit, "Fill").params
    assert [(p.name, p.type.name, p.type.pointers) for p in params] == [
        ("tile", "Tile", ["&"]), ("other", "Tile", ["*"]), ("copy", "Tile", [])]
    assert params[1].type.qualifiers == ["const"]


def test_if_on_a_macro_that_brings_its_own_parentheses() -> None:
    unit = parse("""
        __global__ __aicore__ void k() {
            if TILING_KEY_IS (1) {
                int a = 1;
            } else if TILING_KEY_IS(2) {
                int b = 2;
            }
        }
    """)
    outer = next(iter(all_of(function(unit, "k"), A.If)))
    assert isinstance(outer.cond, A.Call) and outer.cond.callee_name == "TILING_KEY_IS"
    assert isinstance(outer.otherwise, A.If) and isinstance(outer.otherwise.cond, A.Call)


def test_a_base_member_called_through_this_is_the_qualified_call() -> None:
    unit = parse("""
        template <class T> struct Base { __aicore__ inline void Init(int a) {} };
        template <class T> struct Derived : public Base<T> {
            __aicore__ inline void Init(int a) { this->Base<T>::Init(a); other.Base<T>::Init(a); }
            Base<T> other;
        };
    """)
    own, on_other = [c.callee for c in all_of(unit, A.Call)]
    assert isinstance(own, A.Name) and [p.name for p in own.qname.parts] == ["Base", "Init"]
    assert isinstance(on_other, A.Member) and on_other.member == "Init"


def test_constexpr_lambda_parenthesised_declarator_name_and_a_long_template_list() -> None:
    placeholders = ",\n".join(f"    Placeholder::In{i}<T, Placeholder::ScalarAttr<true>>" for i in range(12))
    unit = parse(f"""
        template <class T>
        struct Dag {{
            using Op = Ops::Base::Bind<Vec::Calc<T>,
            {placeholders}>;
        }};
        __aicore__ inline void F(__gm__ uint8_t* tiling) {{
            constexpr int n = [=]() constexpr {{ return 4; }}();
            __gm__ uint8_t*(base) = tiling + n;
        }}
    """)
    assert len(placeholders) > 600  # longer than the template-list scan once looked
    assert declared(unit)["base"].type.pointers == ["*"]
    assert any(isinstance(n, A.Lambda) for n in unit.walk())


def test_class_template_arguments_with_logic_and_template_template_argument() -> None:
    unit = parse("""
        template <typename T, bool Merge>
        class Sort : public Base<Sort<T, Merge>, std::conditional_t<Merge && std::is_same_v<T, half>, float, T>> {
            Matmul<A, Selector<T>::template Result> mm;
        };
        template <typename T>
        __aicore__ inline std::enable_if_t<std::is_same_v<T, half>> Relu(LocalTensor<T>& y) {}
    """)
    sort = next(c for c in all_of(unit, A.ClassDecl) if c.name == "Sort")
    assert [b.name for b in sort.bases] == ["Base"]
    assert declared(unit)["mm"].type.name == "Matmul"
    assert function(unit, "Relu").return_type.name == "std::enable_if_t"


def test_unknown_class_template_before_a_declarator() -> None:
    unit = parse("""
        __aicore__ inline void Run() {
            FullLoad<DTYPE_X, static_cast<uint32_t>(2), Flag<1>::value> op(&pipe);
        }
    """)
    op = declared(unit)["op"]
    assert op.type.name == "FullLoad" and op.init_style == "()"


def test_constexpr_after_the_type_and_the_compilers_aicore_spelling() -> None:
    unit = parse("""
        #define __aicore__ [aicore]
        int32_t constexpr Mask(int32_t a) { return a; }
        extern "C" __global__ __aicore__ void kernel(GM_ADDR x) {}
        extern __global__ __aicpu__ uint32_t cpu_kernel(void* args);
    """)
    assert function(unit, "Mask").specifiers == ["constexpr"]
    assert function(unit, "kernel").specifiers == ["__global__", "__aicore__"]
    assert function(unit, "cpu_kernel").specifiers == ["extern", "__global__", "__aicpu__"]


def test_function_template_names_as_values_in_braced_lists() -> None:
    unit = parse("""
        struct Case { int n; void (*run)(); };
        Case cases[] = {Case{256, Run<half, float>}, Case{1, Run<float>}};
    """)
    # A braced functional cast holds its list as `expr` and as `args`: count each name once.
    names = {id(n): n for n in all_of(unit, A.Name) if n.name == "Run"}.values()
    assert sorted(len(n.qname.parts[-1].template_args or []) for n in names) == [1, 2]


def test_matmul_policy_template_parameter_macro() -> None:
    unit = parse("""
        template <class A_TYPE, const MatmulConfig& MM_CFG, class MM_CB = MatmulCallBackFunc<nullptr, nullptr, nullptr>,
                  MATMUL_POLICY_DEFAULT_OF(MatmulPolicy)>
        class MyMatmul {};
    """)
    params = all_of(unit, A.TemplateDecl)[0].params
    assert [p.name for p in params] == ["A_TYPE", "MM_CFG", "MM_CB", "MATMUL_POLICY"]
    assert params[-1].kind == "template"


def test_kernel_task_type_needs_no_semicolon() -> None:
    # the device build expands it to nothing (kernel_utils_macros.h); ops-math stateless_random_uniform_v2 writes
    # it bare before the next declaration, most kernels with a `;`
    unit = parse("""
        extern "C" __global__ __aicore__ void k(GM_ADDR x) {
            KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY)
            TPipe pipe;
            KERNEL_TASK_TYPE(1, KERNEL_TYPE_MIX_AIC_1_2);
        }
    """)
    assert [c.callee_name for c in all_of(unit, A.Call)] == ["KERNEL_TASK_TYPE_DEFAULT", "KERNEL_TASK_TYPE"]


def test_a_using_declaration_of_a_global_name() -> None:
    unit = parse("int PEnd;\nusing ::PEnd;\nnamespace N { int f(); }\nusing ::N::f;\n")
    assert [[p.name for p in n.parts] for u in all_of(unit, A.UsingDecl) for n in u.names] == [["PEnd"], ["N", "f"]]


def test_matmul_impl_imports_its_modules_as_bases() -> None:
    # asc-devkit's Matmul module tests re-declare MatmulImpl over the policy's (or private) modules
    unit = parse("""
        template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE, const auto& MM_CFG,
                  class MM_CB = MatmulCallBackFunc<nullptr, nullptr, nullptr>, MATMUL_POLICY_DEFAULT_OF(MatmulPolicy)>
        class MatmulImpl : MATMUL_IMPORT_MODULE(CubeInBufferA), MATMUL_IMPORT_MODULE_PRIVATE(DataCopyUtilsScaleA) {};
    """)
    (impl,) = all_of(unit, A.ClassDecl)
    assert [b.name.rsplit("::", 1)[-1] for b in impl.bases] == ["CubeInBufferA", "DataCopyUtilsScaleA"]


def test_an_access_declaration_reads_as_a_using_declaration() -> None:
    # `CubeOutBuffer::Init;` in asc-devkit's Matmul module tests: pre-C++11, which clang still takes
    unit = parse("struct B { void Init(); };\nstruct D : B {\n    B::Init;\n    int x;\n};\n")
    assert [[p.name for p in n.parts] for u in all_of(unit, A.UsingDecl) for n in u.names] == [["B", "Init"]]


def test_globally_qualified_base_and_attribute_after_a_class_body() -> None:
    unit = parse("""
        class AddTest : public ::testing::Test {};
        struct Half { uint16_t bits; } __attribute__((__may_alias__));
    """)
    classes = {c.name: c for c in all_of(unit, A.ClassDecl)}
    assert [b.name for b in classes["AddTest"].bases] == ["testing::Test"]
    assert "bits" in declared(classes["Half"])


# ------------------------------------------------------------------ host code of the vendor op repositories


def test_aten_dispatch_macros_run_their_lambda_per_case() -> None:
    unit = parse("""
        void launch(const at::Tensor& x, float* p) {
            AT_DISPATCH_SWITCH(x.scalar_type(), "add_npu",
                AT_DISPATCH_CASE(torch::kFloat32, [&] { using scalar_t = float; run<scalar_t>(p); })
                AT_DISPATCH_CASE(torch::kFloat16, [&] { using scalar_t = half; run<scalar_t>(p); }));
            AT_DISPATCH_FLOATING_TYPES_AND_HALF(x.scalar_type(), "f", [&] { run<scalar_t>(p); });
        }
    """)
    assert len(all_of(unit, A.Case)) == 3  # two dtype cases and the default


def test_api_macro_before_a_declaration_is_an_attribute() -> None:
    # ACLNN_API (aclnn_base.h) and ASCENDC_EXTERN_C come from headers we do not read
    unit = parse("""
        extern "C" {
        ACLNN_API aclnnStatus aclnnScaleGetWorkspaceSize(const aclTensor* self, uint64_t* workspaceSize,
                                                         aclOpExecutor** executor);
        }
        namespace optiling {
        ASCENDC_EXTERN_C ge::graphStatus TilingScale(gert::TilingContext* context);
        }
    """)
    functions = {f.name.name: f for f in all_of(unit, A.FunctionDecl)}
    assert set(functions) == {"aclnnScaleGetWorkspaceSize", "TilingScale"}
    assert [p.name for p in functions["aclnnScaleGetWorkspaceSize"].params] == ["self", "workspaceSize", "executor"]


def test_check_macros_take_statements_and_empty_arguments() -> None:
    unit = parse("""
        int F(int x) {
            OP_CHECK_IF(x == 0, OP_LOGE(ctx, "zero"), return ge::GRAPH_FAILED;);
            OP_CHECK_IF(x == 1, , return ge::GRAPH_FAILED);
            OP_CHECK_IF(x == 2, OP_LOGE(ctx, "two"), ;);
            return x;
        }
    """)
    checks = [c for c in all_of(unit, A.Call) if c.callee_name == "OP_CHECK_IF"]
    assert [len(c.args) for c in checks] == [3, 2, 2]
    assert [type(c.args[-1]).__name__ for c in checks] == ["ReturnArg", "ReturnArg", "Call"]


def test_empty_arguments_of_a_function_call_stay_syntax_errors() -> None:
    program = load_text("void F(int a) {\n  g(a, , 1);\n  h(a, );\n  k(a, ;);\n  M(a, , 1);\n}\n", "t.cpp")
    found = [(d.span.line, d.message) for d in program.diagnostics]
    assert found == [(2, "expected expression before ','"), (3, "expected expression before ')'"),
                     (4, "expected expression before ';'")]


def test_structured_bindings_declare_an_unnamed_object_and_its_names() -> None:
    unit = parse("""
        void F() {
            auto [perCore, tail] = SplitLength(total, cores);
            for (const auto& [key, name] : names) {
                Use(key);
            }
        }
    """)
    (binding,) = all_of(unit, A.VarDecl)
    assert [d.name for d in binding.declarators] == ["", "perCore", "tail"]
    assert isinstance(binding.declarators[0].init, A.Call) and binding.declarators[1].init is None
    (loop,) = all_of(unit, A.RangeFor)
    assert loop.var.name == "" and loop.var.type.pointers == ["&"]


def test_global_scope_types_enum_parameters_and_attributes_on_structs() -> None:
    unit = parse("""
        struct __attribute__((aligned(8))) ScaleTilingData { int64_t totalLength = 0; };
        enum ScaleMode { SCALE_PLAIN, SCALE_BIAS };
        int64_t TileFor(enum ScaleMode mode, int64_t length) { return length; }
        class Tiling {
            ::ScaleTilingData tilingData_;
        };
        void G() { ::ScaleTilingData local; }
    """)
    assert {c.name for c in all_of(unit, A.ClassDecl)} == {"ScaleTilingData", "Tiling"}
    mode = function(unit, "TileFor").params[0]
    assert (mode.name, mode.type.base.text) == ("mode", "ScaleMode")
    decls = declared(unit)
    assert decls["tilingData_"].type.base.text == decls["local"].type.base.text == "ScaleTilingData"


def test_declarations_split_over_lines_attributes_after_the_type_and_direct_initialisers() -> None:
    unit = parse("""
        ACLNN_API aclnnStatus
        aclnnAcosGetWorkspaceSize(const aclTensor* input, aclTensor* out, uint64_t* workspaceSize);
        extern "C" void __attribute__((weak)) NnopbaseSetServerType(void* executor, int type);
        const std::vector<ge::DataType> VALUE_TYPES = {ge::DT_FLOAT, ge::DT_INT32};
        const std::vector<ge::Format> FORMATS(VALUE_TYPES.size(), ge::FORMAT_ND);
    """)
    assert {f.name.name for f in all_of(unit, A.FunctionDecl)} == {"aclnnAcosGetWorkspaceSize", "NnopbaseSetServerType"}
    formats = declared(unit)["FORMATS"]
    assert formats.init_style == "()" and len(formats.ctor_args) == 2


def test_assert_of_kernel_macros_is_nothing_in_the_npu_build() -> None:
    # cann-ops asserts on names it never declares, and even writes the macro where a ';' belongs
    unit = parse("""
        __aicore__ inline void Init(uint32_t tileNum) {
            ASSERT(GetBlockNum() != 0 && "block dim can not be zero!");
            uint32_t n =
                tileNum ASSERT(tileNum != 0 && "tile num can not be zero!");
        }
    """)
    assert not [c for c in all_of(unit, A.Call) if c.callee_name in ("ASSERT", "GetBlockNum")]


def test_attribute_macro_after_the_aicore_specifier() -> None:
    # ops-nn gemm_v3: FORCE_INLINE comes from a header of another op
    unit = parse("""
        class GemmKernel {
        public:
            __aicore__ FORCE_INLINE void Init(__gm__ uint8_t* __restrict__ a);
            __aicore__ FORCE_INLINE void Process() {}
        };
    """)
    assert {f.name.name for f in all_of(unit, A.FunctionDecl)} == {"Init", "Process"}


def test_static_member_defined_at_namespace_scope() -> None:
    # the op repositories' kernel unit tests: `const std::string Fixture::rootPath = "../../../../";`
    unit = parse("""
        class Col2ImTest {
        public:
            static std::string rootPath;
        };
        const std::string Col2ImTest::rootPath = "../../../../";
        int64_t Col2ImTest::count(4);
    """)
    assert "rootPath" in declared(unit)


def test_host_and_aicore_spelling_bit_fields_and_value_templates_before_logic() -> None:
    # catlass's `#define CATLASS_HOST_DEVICE __forceinline__ [host, aicore]`; prompt_flash_attention's
    # PAFlagData bit-fields; `IsSameTypeV<A, B> && AscendC::...` is no declaration of a `T&&` named AscendC
    unit = parse("""
        #define HOST_DEVICE __forceinline__ [host, aicore]
        struct Coord {
            HOST_DEVICE constexpr explicit Coord(int value = 0) : v(value) {}
            HOST_DEVICE int Get() const { return v; }
            int v;
        };
        struct PAFlagData {
            int32_t bIdx : 32;
            uint32_t : 16;
            uint64_t tensorBAddr : 64;
        };
        template <typename L0cT, typename CType>
        __aicore__ inline bool Supported() {
            if constexpr (AscendC::IsSameTypeV<L0cT, int32_t> && AscendC::IsTypeOneOfV<CType, half, int8_t>) {
                return true;
            }
            return false;
        }
    """)
    assert function(unit, "Get").specifiers == ["__forceinline__", "__aicore__"]
    flag = next(c for c in all_of(unit, A.ClassDecl) if c.name == "PAFlagData")
    assert [d.name for v in all_of(flag, A.VarDecl) for d in v.declarators] == ["bIdx", "tensorBAddr"]
    cond = all_of(function(unit, "Supported"), A.If)[0].cond
    assert isinstance(cond, A.Binary) and cond.op == "&&"


def test_attribute_macros_without_an_underscore_and_a_launch_bound_against_aicore() -> None:
    # fast_hadamard_quant's `AICORE void f()` (its header out of reach) and radix sort's
    # `__simt_vf__ LAUNCH_BOUND(N)__aicore__ void f()`
    unit = parse("""
        namespace {
        template <typename T>
        AICORE void Apply(T& x, float scale) {}
        DEVICE static int Twice(int a) { return 2 * a; }
        }
        template <typename T3>
        __simt_vf__ LAUNCH_BOUND(128)__aicore__
            void SimtOffset(uint32_t n, __gm__ T3* out) {}
    """)
    assert function(unit, "Apply").specifiers == ["AICORE"]
    assert function(unit, "Twice").specifiers == ["DEVICE", "static"]
    assert "__aicore__" in function(unit, "SimtOffset").specifiers


def test_conversion_functions_and_pack_expansions_in_braced_lists() -> None:
    # rain_fusion_attention's attn_infra/coord.hpp
    unit = parse("""
        template <int RANK>
        struct Coord {
            __aicore__ explicit operator bool() const { return idx[0] != 0; }
            operator float() const;
            template <int... Is>
            __aicore__ auto GetCoordByAxis() const
            {
                int picked[sizeof...(Is)]{idx[Is]...};
                return picked[0];
            }
            int idx[RANK];
        };
    """)
    conversions = [f for f in all_of(unit, A.FunctionDecl) if f.kind == "operator"]
    assert [(f.name.name, f.specifiers, f.qualifiers, f.body is not None) for f in conversions] == [
        ("operatorbool", ["__aicore__", "explicit"], ["const"], True), ("operatorfloat", [], ["const"], False)]
    assert [type(n).__name__ for n in all_of(unit, A.InitList)[0].items] == ["PackExpansion"]


def test_a_globally_qualified_function_template_call() -> None:
    # the op repositories' kernel unit tests: `::dual_level_quant_batch_matmul<A, B, false>(x, ...)`
    unit = parse("""
        template <int A, bool B>
        __aicore__ inline void dlq(GM_ADDR x) {}
        void run(GM_ADDR x) { ::dlq<1, false>(x); }
    """)
    call = all_of(function(unit, "run"), A.Call)[0]
    parts = call.callee.qname.parts
    assert [p.name for p in parts] == ["", "dlq"] and len(parts[-1].template_args) == 2


def test_a_class_key_before_a_template_type_in_a_local_declaration() -> None:
    # ops-math non_finite_check: `struct DataCopyPadExtParams<T> padParams = {true, 0, 0, 0};` was a parse error
    unit = parse("""
        template <typename T>
        __aicore__ inline void F() {
            struct AscendC::DataCopyPadExtParams<T> pad = {true, 0, 0, 0};
            struct DataCopyPadExtParams<T> a, b;
        }
    """)
    names = declared(unit)
    assert list(names) == ["pad", "a", "b"]
    base = names["pad"].type.base
    assert [p.name for p in base.parts] == ["AscendC", "DataCopyPadExtParams"]
    assert base.parts[-1].template_args is not None


def test_a_using_declaration_names_several_members() -> None:
    # C++17: ops-nn's arch35 vector functions write `using AscendC::Reg::Add, AscendC::Reg::Muls;` in a body
    unit = parse("""
    using AscendC::TPipe, AscendC::TQue;
    __aicore__ inline void F() {
        using AscendC::Reg::Add, AscendC::Reg::Muls, typename AscendC::Reg::Sub;
    }
    """)
    names = [["::".join(p.name for p in n.parts) for n in u.names] for u in all_of(unit, A.UsingDecl)]
    assert names == [["AscendC::TPipe", "AscendC::TQue"],
                     ["AscendC::Reg::Add", "AscendC::Reg::Muls", "AscendC::Reg::Sub"]]


def test_the_workspace_mark_on_a_kernel_parameter() -> None:
    # asc-devkit's Matmul examples: `__kfc_workspace__ __gm__ uint8_t* workspace` and `uint8_t* __kfc_workspace__ w`
    unit = parse("""
        extern "C" __global__ __aicore__ void mm(__gm__ uint8_t* a, __kfc_workspace__ __gm__ uint8_t* workspace,
                                                 __gm__ uint8_t* __kfc_workspace__ other) {}
    """)
    params = function(unit, "mm").params
    assert [p.name for p in params] == ["a", "workspace", "other"]
    assert [p.type.address_space for p in params] == ["__gm__"] * 3


def test_a_local_that_shadows_a_function_template_is_compared() -> None:
    # ops-nn's index kernel entry is `template <...> void index(...)`; its helpers declare `T index` and write
    # `index < 0 || index > bound`, which is no template argument list; `Pick<N, A && B>(x)` still is one
    unit = parse("""
    template <int N, bool B> __aicore__ inline int Pick(int x) { return x + N; }
    template <int N> __global__ __aicore__ void index(int x) {}
    __aicore__ inline bool F(int index, int bound, bool a, bool b) {
        int y = Pick<2, a && b>(bound);
        return index < 0 || index > bound;
    }
    """)
    ret = all_of(function(unit, "F"), A.Return)[0].value
    assert isinstance(ret, A.Binary) and ret.op == "||"
    (call,) = all_of(function(unit, "F"), A.Call)
    assert call.callee.name == "Pick" and call.callee.qname.parts[-1].template_args is not None


def test_rvalue_reference_types_in_the_reference_traits() -> None:
    # asc-devkit's type_traits example: `AscendC::Std::is_reference<int&&>::value` (unexpected '&&')
    unit = parse("""
    constexpr bool a = AscendC::Std::is_reference<int&&>::value;
    constexpr bool b = AscendC::Std::is_rvalue_reference<volatile double&&>::value;
    using R = AscendC::Std::add_rvalue_reference_t<float>;
    """)
    assert [d.name for v in all_of(unit, A.VarDecl) for d in v.declarators] == ["a", "b"]


def test_l0_dfx_without_its_semicolon_is_a_statement() -> None:
    # opdev/op_dfx.h's L0_DFX ends in its own `;`, so aclnn's l0op functions leave it out (NPUKernelBench's
    # MseLossGradV2, mse_loss_grad.cpp)
    unit = parse("""
        const aclTensor* MseLossGradV2(const aclTensor* self, const aclTensor* out, aclOpExecutor* executor) {
            L0_DFX(MseLossGradV2, self, out)
            auto ret = ADD_TO_LAUNCHER_LIST_AICORE(MseLossGradV2, OP_INPUT(self), OP_OUTPUT(out));
            return out;
        }
    """)
    body = function(unit, "MseLossGradV2").body
    assert [type(s).__name__ for s in body.body] == ["ExprStmt", "VarDecl", "Return"]
