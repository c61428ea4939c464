"""The parser on the C++ constructs real AscendC uses: the AST shape and the spans it records."""

from __future__ import annotations

import textwrap

import pytest

from frontend import ast as A
from frontend.pipeline import load_text


def parse(src: str) -> A.TranslationUnit:
    program = load_text(textwrap.dedent(src), "t.cpp")
    assert [f"{d.span}: {d.message}" for d in program.diagnostics] == []
    return program.units[0].ast


def first(unit: A.Node, cls: type) -> A.Node:
    return next(n for n in unit.walk() if isinstance(n, cls))


def all_of(unit: A.Node, cls: type) -> list:
    return [n for n in unit.walk() if isinstance(n, cls)]


def test_kernel_entry_with_gm_addr_and_qualifiers() -> None:
    unit = parse("""
        extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {}
    """)
    (kernel,) = list(unit.kernels())
    assert kernel.name.text == "add_custom"
    assert kernel.linkage == "C"
    assert kernel.specifiers == ["__global__", "__aicore__"]
    assert [p.name for p in kernel.params] == ["x", "y", "tiling"]
    assert kernel.params[0].type.address_space == "__gm__" and kernel.params[0].type.pointers == ["*"]
    assert kernel.params[0].type.name == "uint8_t"


def test_member_template_call_and_nested_template_closing_shift() -> None:
    unit = parse("""
        template <typename T>
        class K {
            __aicore__ inline void F() {
                LocalTensor<T> x = inQ.AllocTensor<T>();
                Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>, MatmulType<TPosition::GM, CubeFormat::ND, float>> mm;
                uint32_t s = a >> 2;
            }
            TQue<TPosition::VECIN, 2> inQ;
        };
    """)
    call = next(c for c in all_of(unit, A.Call) if c.callee_name == "AllocTensor")
    assert isinstance(call.callee, A.Member) and call.callee.template_args is not None
    decls = {d.name: d for v in all_of(unit, A.VarDecl) for d in v.declarators}
    mm_type = decls["mm"].type.base
    assert isinstance(mm_type, A.QualifiedName) and mm_type.name == "Matmul"
    assert len(mm_type.parts[-1].template_args or []) == 2
    shift = decls["s"].init
    assert isinstance(shift, A.Binary) and shift.op == ">>"
    queue = decls["inQ"].type.base
    assert isinstance(queue, A.QualifiedName)
    pos_arg = (queue.parts[-1].template_args or [])[0].value
    assert isinstance(pos_arg, A.Name) and pos_arg.qname.text == "TPosition::VECIN"


def test_statement_kinds_and_operator_precedence() -> None:
    unit = parse("""
        void f(int n) {
            int a = 1 + 2 * 3, b[4] = {1, 2, 3, 4};
            for (int i = 0; i < n; ++i) { if (i % 2 == 0) continue; else break; }
            while (n > 0) { n -= 1; }
            do { n++; } while (n < 10);
            switch (n) { case 1: a = 2; break; default: a = 3; }
            a = n > 1 ? (int)a : static_cast<int>(b[0]);
            a <<= sizeof(half) + sizeof a;
            return;
        }
    """)
    init = first(unit, A.Declarator).init
    assert isinstance(init, A.Binary) and init.op == "+" and isinstance(init.rhs, A.Binary) and init.rhs.op == "*"
    kinds = {type(n).__name__ for n in unit.walk()}
    assert {"For", "If", "While", "DoWhile", "Switch", "Case", "Break", "Continue", "Return", "Conditional",
            "Cast", "SizeOf", "IncDec", "InitList", "Index"} <= kinds
    casts = {c.kind for c in all_of(unit, A.Cast)}
    assert casts == {"c", "static_cast"}


def test_if_constexpr_static_assert_and_type_traits() -> None:
    unit = parse("""
        template <typename T, int32_t N = 2>
        __aicore__ inline void g() {
            static_assert(N > 0, "N must be positive");
            if constexpr (std::is_same<T, half>::value) { }
        }
    """)
    tmpl = first(unit, A.TemplateDecl)
    assert [(p.kind, p.name) for p in tmpl.params] == [("type", "T"), ("value", "N")]
    assert first(unit, A.StaticAssert).message == "N must be positive"
    if_stmt = first(unit, A.If)
    assert if_stmt.is_constexpr
    assert isinstance(if_stmt.cond, A.Name) and if_stmt.cond.qname.text == "std::is_same::value"


def test_out_of_class_member_constructor_init_list_and_enum() -> None:
    unit = parse("""
        enum class Mode : uint8_t { A, B = 2 };
        class KernelX {
        public:
            __aicore__ inline KernelX() : len(0), mode(Mode::A) {}
            __aicore__ inline void Process();
        private:
            uint32_t len;
            Mode mode;
        };
        __aicore__ inline void KernelX::Process() { len = 1; }
    """)
    enum = first(unit, A.EnumDecl)
    assert enum.scoped and [e.name for e in enum.enumerators] == ["A", "B"]
    fns = {f.name.text: f for f in unit.functions()}
    assert fns["KernelX"].kind == "constructor" and [i.target for i in fns["KernelX"].init_list] == ["len", "mode"]
    assert fns["KernelX::Process"].body is not None
    access = [m.access for m in first(unit, A.ClassDecl).members if isinstance(m, A.AccessSpec)]
    assert access == ["public", "private"]


def test_kernel_launch_and_cpu_debug_branch() -> None:
    unit = parse("""
        #ifndef ASCENDC_CPU_DEBUG
        void launch(uint32_t blockDim, void* stream, uint8_t* x) {
            add_custom<<<blockDim, nullptr, stream>>>(x);
            k<20, float><<<8, nullptr, stream>>>(x);
        }
        #else
        this is not parsed at all
        #endif
    """)
    launches = all_of(unit, A.KernelLaunch)
    assert len(launches) == 2
    assert len(launches[0].config) == 3 and len(launches[0].args) == 1
    assert isinstance(launches[1].kernel, A.Name) and launches[1].kernel.qname.parts[0].template_args


def test_tiling_data_definition_and_registration() -> None:
    unit = parse("""
        namespace optiling {
        BEGIN_TILING_DATA_DEF(AddTilingData)
          TILING_DATA_FIELD_DEF(uint32_t, totalLength);
          TILING_DATA_FIELD_DEF_ARR(uint32_t, 8, shape);
          TILING_DATA_FIELD_DEF_STRUCT(SoftMaxTiling, softmaxTiling);
        END_TILING_DATA_DEF;
        REGISTER_TILING_DATA_CLASS(AddCustom, AddTilingData)
        }
    """)
    tiling = first(unit, A.TilingDataDef)
    assert tiling.name == "AddTilingData"
    assert [(f.kind, f.name) for f in tiling.fields] == [("scalar", "totalLength"), ("array", "shape"),
                                                          ("struct", "softmaxTiling")]
    reg = first(unit, A.RegisterTilingData)
    assert (reg.op_type, reg.struct_name) == ("AddCustom", "AddTilingData")


def test_tiling_field_macros_without_semicolons() -> None:
    # vendor op projects (cann-ops reshape) leave the `;` out after the field macros; it compiles, since
    # each macro ends in a member function body
    unit = parse("""
        namespace optiling {
          BEGIN_TILING_DATA_DEF(ReshapeTilingData)
            TILING_DATA_FIELD_DEF(uint32_t, tileLength)
            TILING_DATA_FIELD_DEF_ARR(uint32_t, 4, dims)
            TILING_DATA_FIELD_DEF(uint32_t, reminder);
          END_TILING_DATA_DEF;
        REGISTER_TILING_DATA_CLASS(Reshape, ReshapeTilingData)
        }
    """)
    tiling = first(unit, A.TilingDataDef)
    assert [(f.kind, f.name) for f in tiling.fields] == [("scalar", "tileLength"), ("array", "dims"),
                                                          ("scalar", "reminder")]


def test_host_tiling_function_and_opdef_chain() -> None:
    unit = parse("""
        namespace optiling {
        static ge::graphStatus TilingFunc(gert::TilingContext* context) {
            auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
            uint32_t total = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
            const float* alpha = context->GetAttrs()->GetAttrPointer<float>(0);
            context->SetBlockDim(plat.GetCoreNumAiv());
            return ge::GRAPH_SUCCESS;
        }
        }
        namespace ops {
        class AddCustom : public OpDef {
        public:
            explicit AddCustom(const char* name) : OpDef(name) {
                this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND});
                this->AICore().SetTiling(optiling::TilingFunc);
            }
        };
        OP_ADD(AddCustom);
        }
    """)
    fn = next(f for f in unit.functions() if f.name.text == "TilingFunc")
    assert fn.return_type is not None and fn.return_type.name == "ge::graphStatus"
    assert fn.params[0].type.name == "gert::TilingContext" and fn.params[0].type.pointers == ["*"]
    assert first(unit, A.MacroDecl).name == "OP_ADD"
    assert first(unit, A.ClassDecl).bases[0].name == "OpDef"
    assert any(c.callee_name == "Format" for c in all_of(unit, A.Call))


def test_memalloc_style_flags_and_mix_qualifier() -> None:
    unit = parse("""
        __global__ __mix__(1, 2) void k(__gm__ float* x) {
            LocalMemAllocator<Hardware::UB> ub;
            auto t = ub.Alloc<float, 256>();
            SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
            WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
            PipeBarrier<PIPE_ALL>();
        }
    """)
    (kernel,) = list(unit.kernels())
    assert kernel.specifiers == ["__global__", "__mix__(1,2)"]
    names = [c.callee_name for c in all_of(unit, A.Call)]
    assert names == ["Alloc", "SetFlag", "WaitFlag", "PipeBarrier"]


def test_spans_point_at_the_original_lines_through_macros() -> None:
    src = "#define TILE 256\n\nvoid f() {\n    int x = TILE;\n}\n"
    program = load_text(src, "s.cpp")
    decl = first(program.units[0].ast, A.Declarator)
    assert (decl.span.line, decl.span.col) == (4, 9)
    assert isinstance(decl.init, A.IntLit) and decl.init.value == 256
    assert (decl.init.span.line, decl.init.span.col) == (4, 13)


@pytest.mark.parametrize(
    "src, line, message",
    [
        ("void f() {\n  int x = 1\n  return;\n}\n", 2, "expected ';'"),
        ("void f() {\n  g(1, 2;\n}\n", 2, "expected ')'"),
        ("void f() {\n  int x = ;\n}\n", 2, "expected expression before ';'"),
        ("void f() {\n  int x = 1;\n", 2, "expected '}' at end of input"),
        ("void f() {\n  x = 1 @ 2;\n}\n", 2, "invalid character '@'"),
    ],
)
def test_syntax_errors_are_located_diagnostics(src: str, line: int, message: str) -> None:
    program = load_text(src, "e.cpp")
    (diag,) = program.diagnostics
    assert diag.code == "ASC001" and message in diag.message and diag.span is not None and diag.span.line == line


def test_parser_resynchronises_and_reports_independent_errors() -> None:
    src = "void a() {\n  int x = 1\n  x++;\n}\nvoid b() {\n  g(;\n}\nvoid c() { ok(); }\n"
    program = load_text(src, "r.cpp")
    assert [d.span.line for d in program.diagnostics if d.span] == [2, 6]
    assert "c" in {f.name.text for f in program.units[0].ast.functions()}


@pytest.mark.parametrize(
    "snippet",
    [
        # names whose type/variable reading only the headers would tell
        "class C { bool Analyze(const nlohmann::json &info); const ge::char_t *name_; };",
        "uint32_t f(uint32_t q, uint32_t half) { return q + 1 * half; }",
        "using CompileInfo = optiling::Conv3DBackPropInputCompileInfo;",
        "class X : public TilingBaseClass { public: ~X() override {} };",
        "class Y : virtual public TilingBaseClass {};",
        # CANN host idioms
        "ge::graphStatus F(gert::TilingContext* c) { OP_CHECK(c == nullptr, LOGE(\"x\"), return ge::GRAPH_FAILED); return 0; }",
        "IMPL_OP_OPTILING(AddCustom).Tiling(TilingFunc).TilingParse<CompileInfo>(TilingParse);",
        "ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_BOOL_SEL(IS_SPLIT, 0, 1), );",
        "void g() { try { f(); } catch (const std::exception& e) { h(); } catch (...) {} }",
        "void g() { auto p = std::unique_ptr<int>(new (std::nothrow) int(3)); ::std::nullopt; ::Muls(a, b, c, d); }",
        "bool R(const std::string& p) { struct stat sBuf; return stat(p.data(), &sBuf) == 0; }",
        # device-side C++ of newer kernels
        "CATLASS_DEVICE\nvoid ReadTiling(uint8_t* dst, __gm__ uint8_t* src) {}",
        "__simt_vf__ LAUNCH_BOUND(256) inline void Simt(int x) {}",
        "__simt_vf__ __aicore__ LAUNCH_BOUND((1024)) inline void Simt2(int x) {}",  # a macro argument `(1024)`
        "__aicore__ inline void Init(const TD &__restrict td, __kfc_workspace__ __gm__ uint8_t* ws) {}",
        "template <class Config_, template <typename, class> class Impl> struct S {};",
        "template <typename Tp, const Tp& traits> struct A {};",
        "void k() { if constexpr (std::is_same_v<B, float> || std::is_same_v<B, half>) {} }",
        "void k() { q.template EnQue(x); auto v = Mmad(MmadAtom<Traits<A, B>>{}.with(p), c); }",
        "decltype(auto) Get(T&& t) { return t; }",
        "void k() { if (ORIG_DTYPE_Y == DT_INT4) {} auto n = CeilDiv(a * DTYPE_LEN_FP32, 32); }",
        "void k() { auto f = [&](float a, float b) { return a < b; }; }",
        "namespace AscendC::Te { int x; }",
        "typedef struct { uint32_t n; } TilingDataDef;",
        "extern __gm__ struct Cfg g_cfg; void f(GM_ADDR t) { auto p = (__gm__ struct K::Info*)t; }",
        # a macro from a header out of reach that brings its whole `constexpr (...)` condition
        "void k() { if ASCEND_IS_AIC_CONV { g(); } else { h(); } }",
        "using TypeFalse = const struct { __uint128_t _[1024]; };",
    ],
)
def test_real_world_constructs_parse(snippet: str) -> None:
    program = load_text(snippet, "r.cpp")
    assert [f"{d.span}: {d.message}" for d in program.diagnostics] == []


def test_function_type_alias_and_asc_is_aiv() -> None:
    unit = parse("""
        using BinaryOp = void (const LocalTensor<T>&, const LocalTensor<T>&, const int32_t&);
        __global__ __aicore__ void k() { if ASC_IS_AIV { g(); } }
    """)
    alias = first(unit, A.AliasDecl)
    assert alias.name == "BinaryOp" and alias.type.pointers == ["()"]
    assert first(unit, A.If).is_constexpr


def test_sizeof_of_a_parenthesised_type_binds_tighter_than_a_following_operator() -> None:
    """`sizeof(float) * 2` is sizeof(float) times 2, not sizeof of the cast `(float)*2` (a real
    LLM answer's InitBuffer length was read as a dereference before this)."""
    unit = parse("""
        void f(int n) {
            int a = n - sizeof(float) * 2 - 1;
            int b = sizeof (n) + sizeof n + sizeof(half) - 1;
        }
    """)
    a, b = (d.init for d in all_of(unit, A.Declarator) if d.name in ("a", "b"))
    assert isinstance(a, A.Binary) and a.op == "-" and isinstance(a.lhs, A.Binary) and a.lhs.op == "-"
    product = a.lhs.rhs
    assert isinstance(product, A.Binary) and product.op == "*"
    assert isinstance(product.lhs, A.SizeOf) and isinstance(product.lhs.operand, A.TypeRef)
    assert not all_of(unit, A.Cast) and not all_of(unit, A.Unary)
    assert isinstance(b, A.Binary) and b.op == "-"
