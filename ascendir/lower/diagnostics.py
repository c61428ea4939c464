"""Diagnostics the lowering reports: unknown APIs, calls no overload accepts, names it cannot resolve.

Codes ASC100-ASC109 belong to the lowering. They are errors the vendor compiler would also report
("no matching function for call to", "use of undeclared identifier", "no viable conversion from
'LocalTensor<half>' to 'LocalTensor<float>'"), except ASC103, which says the
lowering met C++ it does not model and that checks of the code after it are incomplete.
"""

from __future__ import annotations

from frontend import ast as A
from frontend.diagnostics import Diagnostic, Note, Span, error, warning

UNKNOWN_API = "ASC100"
NO_MATCHING_OVERLOAD = "ASC101"
UNDECLARED = "ASC102"
NOT_MODELLED = "ASC103"
NO_INSTANTIATION = "ASC104"
UNKNOWN_TYPE = "ASC105"
TENSOR_TYPE_MISMATCH = "ASC106"


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

    def add(self, d: Diagnostic) -> None:
        assert d.span is not None
        key = (d.code, d.span, d.message)
        if key not in self._seen:
            self._seen.add(key)
            self.diagnostics.append(d)

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
        """Reports why a statement could not be lowered (an `Unsupported`, or its `Undeclared` kind)."""
        name = getattr(exc, "name", None)
        node = exc.node  # type: ignore[attr-defined]
        if isinstance(name, str):
            self.undeclared(name, node)
        else:
            self.unsupported(str(exc), node)

    def register_api(self, node: A.Node) -> None:
        """A call into the register API of arch35 chips: reported once per program, at its first call."""
        if self._register_api_seen:
            return
        self._register_api_seen = True
        self.add(warning(NOT_MODELLED, "this code uses the register API (AscendC::Reg / MicroAPI) of arch35 chips, "
                         "which is not modelled: its calls and register types are not checked", span_of(node)))

    def unsupported(self, message: str, node: A.Node) -> None:
        self.add(warning(NOT_MODELLED, f"{message}; later checks of this function are incomplete", span_of(node)))

    def no_instantiation(self, kernel: str, node: A.Node) -> None:
        self.add(warning(NO_INSTANTIATION,
                         f"template kernel '{kernel}' is never instantiated; it was checked with its default "
                         "or first-listed template arguments", span_of(node)))
