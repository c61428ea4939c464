"""Diagnostics the lowering reports: unknown APIs, calls no overload accepts, names it cannot resolve.

Codes ASC100-ASC109 belong to the lowering. They are errors the vendor compiler would also report
("no matching function for call to", "use of undeclared identifier", "no viable conversion from
'LocalTensor<half>' to 'LocalTensor<float>'"), except ASC103, which says the
lowering met C++ it does not model and that checks of the code after it are incomplete.
"""

from __future__ import annotations

from dataclasses import dataclass

from frontend import ast as A
from frontend.diagnostics import Diagnostic, Note, Severity, Span, error, format_page, warning

UNKNOWN_API = "ASC100"
NO_MATCHING_OVERLOAD = "ASC101"
UNDECLARED = "ASC102"
NOT_MODELLED = "ASC103"
NO_INSTANTIATION = "ASC104"
UNKNOWN_TYPE = "ASC105"
TENSOR_TYPE_MISMATCH = "ASC106"
STATIC_ASSERTION_FAILED = "ASC107"


@dataclass(frozen=True)
class LoweringPage:
    """The page of a lowering diagnostic: these are not rules over the IR but what the lowering reports
    while building it, so `--select`/`--ignore` filter them like rules and `ascendc-check rule` shows them."""

    code: str
    name: str
    severity: Severity
    summary: str
    why: str
    example: str
    instead: str

    def page(self) -> str:
        return format_page(self.code, self.name, f"Family: lowering (reported while the IR is built); default "
                           f"severity: {self.severity.value}", self.summary, self.why, self.example, self.instead)


PAGES: dict[str, LoweringPage] = {p.code: p for p in (
    LoweringPage(
        UNKNOWN_API, "unknown-api", Severity.ERROR,
        "A call of an AscendC API (`AscendC::Name` or a method of an AscendC class) that the API catalog and the "
        "vendor headers do not declare.",
        "The vendor compiler stops with `no member named 'Name' in namespace 'AscendC'`; models invent APIs "
        "(`AscendC::Sigmoid2`, `ReduceSumAll`) or misspell them. The closest declared names come as a "
        "did-you-mean. A free function an include that was not found may declare is only a warning.",
        "AscendC::Exponent(yLocal, xLocal, n);",
        "AscendC::Exp(yLocal, xLocal, n);"),
    LoweringPage(
        NO_MATCHING_OVERLOAD, "no-matching-overload", Severity.ERROR,
        "A call no overload of the API (or of a user function) accepts: wrong argument count, tensor kinds, "
        "element types that do not deduce to one T, or a struct where another is expected.",
        "`no matching function for call to` is the most frequent compile error in generated kernels. Each "
        "candidate is listed with the reason it was rejected (T deduced as both half and float, argument 2 is "
        "a GlobalTensor where a LocalTensor is expected, ...).",
        "AscendC::Add(zLocal /* float */, xLocal /* half */, yLocal /* half */, n);",
        "AscendC::Cast(xFloat, xLocal, AscendC::RoundMode::CAST_NONE, n);\nAscendC::Add(zLocal, xFloat, yFloat, n);"),
    LoweringPage(
        UNDECLARED, "undeclared-identifier", Severity.ERROR,
        "A name that nothing in scope declares: a variable, member, constant or function.",
        "The build stops with `use of undeclared identifier`. Often a member used without `this->` in a "
        "template's dependent base, a tiling field read under another name, or a constant from a header that "
        "is not included. Not reported when a quoted include could not be found (it may declare the name).",
        "for (int32_t i = 0; i < tileNum; i++) { ... }   // tileNum is this->tileNum_",
        "for (int32_t i = 0; i < this->tileNum_; i++) { ... }"),
    LoweringPage(
        NOT_MODELLED, "not-modelled", Severity.WARNING,
        "C++ the lowering does not model (an assignment to an element of a struct array, the register API of "
        "arch35 chips, ...), or a kernel whose loops the queue and capacity analysis gave up on (over its "
        "step budget). A warning about the checker, not the kernel.",
        "The statement is left out of the IR, so the rules after it in that function see less than the "
        "hardware runs: they can miss problems there, and they report nothing on a guess. A kernel given up "
        "gets no ASC2xx/ASC3xx findings from the path analysis at all.",
        "tiling.rowsOf[c] = src[2 + c];   // element of a struct's array member",
        "uint32_t rows = src[2 + c];      // read the value where it is used"),
    LoweringPage(
        NO_INSTANTIATION, "template-kernel-not-instantiated", Severity.WARNING,
        "A `__global__` kernel template that no launch or explicit instantiation gives template arguments.",
        "The build compiles only instantiated templates; the checker checks this one with its default or "
        "first-listed template arguments, which may not be the ones the build uses.",
        "template <typename T> __global__ __aicore__ void add(GM_ADDR x, GM_ADDR y);   // never instantiated",
        "template __global__ __aicore__ void add<half>(GM_ADDR x, GM_ADDR y);"),
    LoweringPage(
        UNKNOWN_TYPE, "unknown-type", Severity.ERROR,
        "A type name that neither the program, the API catalog nor the vendor headers declare.",
        "The build stops with `unknown type name`; typical are AscendC types written without `AscendC::` and "
        "no using-directive, misspelt parameter structs and tiling structs from a header that was not written.",
        "AscendC::DataCopyParam params;",
        "AscendC::DataCopyParams params;"),
    LoweringPage(
        TENSOR_TYPE_MISMATCH, "tensor-type-mismatch", Severity.ERROR,
        "A LocalTensor or GlobalTensor initialised, assigned or passed as an argument from a tensor of another "
        "element type or kind.",
        "`LocalTensor<float>` and `LocalTensor<half>` are different classes with no conversion between them, "
        "and a GlobalTensor is no LocalTensor: the build stops with `no viable conversion`. In generated "
        "kernels it is a dequeued half tensor declared float for the arithmetic that follows, when what it "
        "needs is a Cast into a float buffer.",
        "LocalTensor<float> xLocal = inQueueX.DeQue<half>();",
        "LocalTensor<half> xLocal = inQueueX.DeQue<half>();\n"
        "LocalTensor<float> xFloat = calcBuf.Get<float>();\n"
        "Cast(xFloat, xLocal, RoundMode::CAST_NONE, n);"),
    LoweringPage(
        STATIC_ASSERTION_FAILED, "static-assertion-failed", Severity.ERROR,
        "A static_assert in device code whose condition is false for the code the kernel runs: `false` itself, "
        "or a condition on template arguments that this instantiation fails.",
        "The program is ill-formed ([dcl.pre]/6): the build stops with `static assertion failed`. In a template "
        "it is reported only for an instantiation the kernel makes with arguments the condition rejects.",
        "template <typename T> __aicore__ inline void Run() { static_assert(sizeof(T) == 2, \"half only\"); }\n"
        "Run<float>();",
        "Run<half>();   // or a branch (if constexpr) for the 4-byte types"),
)}


def span_of(node: A.Node) -> Span:
    s = node.span
    return s if isinstance(s, Span) else s.resolve()


class Reporter:
    """Collects the lowering's diagnostics; one per (code, location, message)."""

    def __init__(self, names_incomplete: bool = False, api_uncatalogued: bool = False) -> None:
        self.diagnostics: list[Diagnostic] = []
        self._seen: set[tuple[str, Span, str]] = set()
        # A quoted #include was not found: names it would declare cannot be told from typos, so
        # "undeclared identifier" and "unknown type" are not reported at all rather than guessed.
        self.names_incomplete = names_incomplete
        # The target architecture is one the API catalog does not describe (3510): its APIs, types and
        # overloads differ from the catalogued ones, so "unknown API", "unknown type" and "no matching
        # overload" are not reported.
        self.api_uncatalogued = api_uncatalogued
        self.suppressed = 0
        self._register_api_seen = False
        # every construct the lowering left out (an Unsupported raised: `failed`), in order, even one reported
        # before (a function inlined twice): (message, span). The function lowering marks each where its
        # statement was (ascendc.left_out), for the run. A caveat reported of code that was lowered (a temporary
        # discarded at once, `unsupported` called directly) is not one: nothing of it is missing from the IR.
        self.gaps: list[tuple[str, Span]] = []

    def add(self, d: Diagnostic) -> None:
        assert d.span is not None
        key = (d.code, d.span, d.message)
        if key not in self._seen:
            self._seen.add(key)
            self.diagnostics.append(d)

    def mark(self) -> int:
        """Where the diagnostics end now, for rollback."""
        return len(self.diagnostics)

    def rollback(self, mark: int) -> None:
        """Forgets the diagnostics added since `mark` (a lowering rolled back to be done again)."""
        for d in self.diagnostics[mark:]:
            self._seen.discard((d.code, d.span, d.message))  # type: ignore[arg-type]
        del self.diagnostics[mark:]

    def unknown_api(self, name: str, node: A.Node, closest: list[str]) -> None:
        if self.api_uncatalogued:
            self.suppressed += 1
            return
        notes = [Note(f"did you mean {', '.join(repr(c) for c in closest)}?", kind="help")] if closest else []
        message = f"unknown AscendC API '{name}'"
        if self.names_incomplete and "::" not in name:
            # a free function the missing header may declare (a project's CeilDiv): a warning; methods of
            # the AscendC classes stay errors, since no project header can add one
            self.add(warning(UNKNOWN_API, message, span_of(node), *notes,
                             Note("it may be declared in an include that was not found")))
            return
        self.add(error(UNKNOWN_API, message, span_of(node), *notes))

    def no_match(self, name: str, node: A.Node, message: str, candidates: list[str]) -> None:
        if self.api_uncatalogued:
            self.suppressed += 1
            return
        notes = [Note(f"candidate: {c}") for c in candidates]
        self.add(error(NO_MATCHING_OVERLOAD, message or f"no matching function for call to '{name}'",
                       span_of(node), *notes))

    def undeclared(self, name: str, node: A.Node, closest: list[str] | None = None) -> None:
        if self.names_incomplete:
            self.suppressed += 1
            return
        notes = [Note(f"did you mean {', '.join(repr(c) for c in closest)}?", kind="help")] if closest else []
        self.add(error(UNDECLARED, f"use of undeclared identifier '{name}'", span_of(node), *notes))

    def unknown_type(self, name: str, node: A.Node) -> None:
        # (on an uncatalogued architecture the name may be one of its API types: RegTensor, MaskReg)
        if self.names_incomplete or self.api_uncatalogued:
            self.suppressed += 1
            return
        self.add(error(UNKNOWN_TYPE, f"unknown type name '{name}'", span_of(node)))

    def tensor_type_mismatch(self, target: str, value: str, node: A.Node, what: str) -> None:
        """A tensor initialised or assigned from a tensor of another kind or element type: the classes are
        distinct templates with no conversion between them."""
        if self.api_uncatalogued:
            self.suppressed += 1
            return
        self.add(error(TENSOR_TYPE_MISMATCH, f"no viable conversion from '{value}' to '{target}' in {what}",
                       span_of(node), Note("tensors of different element types are different classes; to view the "
                                           "same bytes as another type use ReinterpretCast<T>(), to convert the "
                                           "values use Cast", kind="help")))

    def failed(self, exc: Exception) -> None:
        """Reports why a statement could not be lowered (an `Unsupported`, or its `Undeclared` and
        `TooFewArguments` kinds, which are the compiler's errors)."""
        name = getattr(exc, "name", None)
        node = exc.node  # type: ignore[attr-defined]
        callee = getattr(exc, "callee", None)
        if isinstance(callee, str) and not self.api_uncatalogued:
            # a call C++ rejects (errors.TooFewArguments): the build's error, not a gap a run would reach
            self.no_match(callee, node, str(exc), list(getattr(exc, "candidates", [])))
        elif isinstance(name, str):
            self.undeclared(name, node)
        else:
            self.unsupported(str(exc), node)
            self.gaps.append((str(exc), span_of(node)))

    def register_api(self, node: A.Node) -> None:
        """A call into the register API of arch35 chips: reported once per program, at its first call."""
        if self._register_api_seen:
            return
        self._register_api_seen = True
        self.add(warning(NOT_MODELLED, "this code uses the register API (AscendC::Reg / MicroAPI) of arch35 chips, "
                         "which is not modelled: its calls and register types are not checked", span_of(node)))

    def unsupported(self, message: str, node: A.Node) -> None:
        self.add(warning(NOT_MODELLED, f"{message}; later checks of this function are incomplete", span_of(node)))

    def static_assertion_failed(self, message: str | None, node: A.Node) -> None:
        self.add(error(STATIC_ASSERTION_FAILED, "static assertion failed" + (f": {message}" if message else ""),
                       span_of(node)))

    def no_instantiation(self, kernel: str, node: A.Node) -> None:
        self.add(warning(NO_INSTANTIATION,
                         f"template kernel '{kernel}' is never instantiated; it was checked with its default "
                         "or first-listed template arguments", span_of(node)))
