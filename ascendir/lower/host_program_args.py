"""The program arguments and the strings of a host program's main (host_program.py).

catlass's attention examples (19_mla, 23_flash_attention_infer) parse argv with a running index, keep the data
type as a std::string and choose the kernel they launch from it:

    uint32_t argIndex = 1;
    batch = atoi(argv[argIndex++]);                       // one per positional argument
    while (argIndex < argc) { string flag = string(argv[argIndex++]); if (flag == "--dtype") ... }
    int32_t dTypeKey = (dataType == "half") ? 0 : 1;      // dataType: an options member, "half" by default

- `argv[i]` with `i` a constant reads that argument while lowering, as before. With `i` known only when main runs
  (main's variables are cells until mem2reg) it is the value of each argument chosen by `i` (one select per
  argument); before, the statement was left out and its variable kept its default (batch 0) with no finding.
  An index past the arguments reads 0 (C's argv[argc] is a null pointer: atoi of it would crash).
- a std::string of a host program (a variable, or a data member of its classes; `string` under `using namespace
  std` too) is the number of its text among the texts the program names (literals and arguments, numbered as
  they are met): equal texts have equal numbers, so copies, `==` and `!=` between strings and with literals are
  exact. What else C++ does with a string (concatenation, `<`, c_str) is not modelled: `<` is a gap, and `+` of a
  string is no number (host_program's statements using it fail, as host data's are left out).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from xdsl.dialects import arith

from ascendir.lower import ctypes as C
from ascendir.lower.errors import Unsupported
from ascendir.lower.values import Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.function import FunctionLowerer

# the type a host program's strings are lowered as: the number of their text (see the module's docstring)
STRING = C.I32
# the std library's types a host program may name unqualified after `using namespace std` (host data, like their
# std:: spellings: host_program.is_host_type)
STD_TYPES = frozenset({
    "string", "vector", "map", "unordered_map", "set", "unordered_set", "list", "deque", "array", "pair",
    "ifstream", "ofstream", "fstream", "istream", "ostream", "stringstream", "istringstream", "ostringstream",
    "filebuf", "unique_ptr", "shared_ptr",
})  # fmt: skip
_NUMBER_READERS = ("atoi", "atol", "atoll", "stoi", "stol", "strtol", "strtoul")


def is_string_type(lw: FunctionLowerer, t: A.TypeRef) -> bool:
    """`std::string`, or `string` where `using namespace std` makes it visible (and the program has no class of
    that name), not a pointer to one."""
    if not isinstance(t.base, A.QualifiedName) or "*" in t.pointers:
        return False
    parts = [p.name for p in t.base.parts]
    hp = lw.host_program
    return parts == ["std", "string"] or (parts == ["string"] and hp is not None and hp.std_visible
                                           and "string" not in lw.scope.classes)


def text_number(lw: FunctionLowerer, text: str) -> Val:
    """The number of `text` (see the module's docstring)."""
    hp = lw.host_program
    assert hp is not None
    return Val(STRING, const=hp.strings.setdefault(text, len(hp.strings) + 1))


def _literal(v: Val) -> bool:
    """A string literal's value (lower_exprs.expr_StringLit; an enumerator's name is a str constant too)."""
    return isinstance(v.ctype, C.UnknownT) and v.ctype.text == "string" and isinstance(v.const, str)


def as_string(lw: FunctionLowerer, v: Val, node: A.Node) -> Val:
    """`v` as a string's number: a literal's text numbered, a string (a number already) as it is."""
    if _literal(v):
        return text_number(lw, v.const)
    if v.ctype == STRING:
        return v
    raise Unsupported(f"a std::string made from {v.ctype}", node)


def declare(lw: FunctionLowerer, st: A.VarDecl) -> bool:
    """Lowers `string s = ...;` (each declarator a cell holding its text's number; "" when not initialised);
    False, lowering nothing, when `st` declares no string."""
    if not st.declarators or not is_string_type(lw, st.declarators[0].type):
        return False
    for d in st.declarators:
        lw.bind(d.name, lw.new_cell(STRING, d.name, d, initial(lw, d)))
    return True


def initial(lw: FunctionLowerer, d: A.Declarator) -> Val:
    """The number a string declarator starts with: its initialiser's (`= "half"`, `= other`, `{"half"}`,
    `= string(argv[i])`), else the empty text's."""
    init: A.Node | None = d.init
    if isinstance(init, A.InitList):
        init = init.items[0] if len(init.items) == 1 else None
    elif init is None and len(d.ctor_args) == 1:
        init = d.ctor_args[0]
    if init is None:
        return text_number(lw, "")
    return as_string(lw, lw.expr(init), d)


def compare(lw: FunctionLowerer, op: str, a: Val, b: Val, node: A.Node) -> Val | None:
    """`s == "half"`, `flag != other`: the comparison of the texts' numbers; None when neither operand is a
    string literal (two strings are numbers, compared as such)."""
    if _literal(a) == _literal(b):
        return None  # no literal (two strings are numbers, compared as such), or two: left to the caller
    if op not in ("==", "!="):
        raise Unsupported(f"'{op}' of std::strings: only == and != are modelled", node)
    return lw.compare(op, as_string(lw, a, node), as_string(lw, b, node), node)


def call(lw: FunctionLowerer, e: A.Call, name: str) -> Val | None:
    """`atoi(argv[i])` and the other number readers, `string(argv[i])` / `string("text")`; None for any other
    call."""
    if name in _NUMBER_READERS and e.args:
        return argument(lw, e.args[0], _number, C.I64)
    if name == "string":
        return make_string(lw, e.args, e)
    return None


def make_string(lw: FunctionLowerer, args: list[A.Node], node: A.Node) -> Val | None:
    """`string(argv[i])`, `string("half")`, `string(other)` (a call, or the functional cast the parser may read):
    the number of the text; None for any other argument list."""
    if len(args) != 1:
        return None
    if _is_argv(args[0]):
        return argument(lw, args[0], lambda text: text_number(lw, text).const, STRING)
    return as_string(lw, lw.expr(args[0]), node)


def _number(text: str) -> int:
    digits = re.match(r"\s*([+-]?\d+)", text)
    return int(digits.group(1)) if digits else 0  # as atoi reads it: 0 for no number


def _is_argv(e: A.Node) -> bool:
    return isinstance(e, A.Index) and isinstance(e.base, A.Name) and e.base.qname.parts[-1].name == "argv"


def argument(lw: FunctionLowerer, e: A.Node, value: object, t: C.Scalar) -> Val:
    """What `value` (text -> number) makes of the program argument `argv[i]` names (argv[0], the program's name,
    is not given: 0), a select by `i` over the arguments when `i` is not a constant here."""
    hp = lw.host_program
    assert hp is not None
    if not _is_argv(e):
        raise Unsupported("a number read from something else than a program argument", e)
    assert isinstance(e, A.Index)
    i = lw.expr(e.index)
    values = [value(text) for text in hp.args]  # type: ignore[operator]
    if isinstance(i.const, int):
        if 0 < i.const <= len(hp.args):
            return Val(t, const=values[i.const - 1])
        raise Unsupported(f"argv[{i.const}]: the run gives {len(hp.args)} program arguments (--args)", e)
    if not isinstance(i.ctype, C.Scalar) or i.ctype.is_float:
        raise Unsupported(f"argv indexed by {i.ctype}", e)
    chosen = Val(t, const=0)
    for k, v in enumerate(values, start=1):
        hit = lw.compare("==", i, Val(C.I64, const=k), e)
        pick = arith.SelectOp(lw.ssa(hit, e), lw.ssa(Val(t, const=v), e), lw.ssa(chosen, e))
        chosen = Val(t, lw.emit(pick, e).results[0])
    return chosen
