"""Integer values modulo a power of two, as linear forms over unknowns.

`DataCopy(x, y, tileLength + 1)` moves a number of bytes the checker cannot fold, yet it can still be
proven off the 32-byte grid: another DataCopy of the same kernel moves `tileLength` elements of the same
type, and no value of tileLength makes both lengths multiples of 32 bytes. This module reads an IR
value as `c1*a1 + c2*a2 + ... + k (mod 2**n)`, where the unknowns `a` are the values arithmetic cannot
see through (tiling fields, quotients, block indices, locals with several stores), and answers whether
a set of such forms can all be 0 at once.

Reading modulo a power of two is exact through the wrap-around of 32- and 64-bit integer arithmetic and
through truncation to 8 bits or more, so a form never claims a residue the machine could not produce.
Two reads of one unknown name the same value only where the same SSA value (or the same pure
arithmetic of the same values) is read; loads of a local that is stored more than once are each their
own unknown.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from math import gcd

from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import IntegerType
from xdsl.ir import SSAValue

from ascendir.dialects import ascendc as asc
from passes.verify.ir import constant_of
from passes.verify.value_fold import reaching_store, statement_in

_DEPTH = 24
# Pure integer ops an unknown may be built from: the same op on the same operands is the same unknown.
_PURE = (arith.DivUIOp, arith.DivSIOp, arith.RemUIOp, arith.RemSIOp, arith.AndIOp, arith.OrIOp,
         arith.XOrIOp, arith.ShRUIOp, arith.ShRSIOp, arith.MuliOp, arith.MaxUIOp, arith.MinUIOp,
         arith.MaxSIOp, arith.MinSIOp, arith.CeilDivUIOp, arith.CeilDivSIOp, arith.FloorDivSIOp)
# Width changes that keep a value's residue modulo 2**5 .. 2**8 (an i1 or i4 would not).
_WIDTH_CHANGES = (arith.ExtSIOp, arith.ExtUIOp, arith.TruncIOp, arith.IndexCastOp)


@dataclass(frozen=True)
class Form:
    """`sum(coefficient * unknown) + constant` as the program computes it; `names` says what each unknown
    is. The value is only claimed modulo a power of two (see Reader)."""

    terms: tuple[tuple[object, int], ...]
    constant: int
    names: dict[object, str] = field(default_factory=dict, compare=False, hash=False)

    def scaled(self, factor: int) -> Form:
        return _form({k: c * factor for k, c in self.terms}, self.constant * factor, self.names)

    def plus(self, other: Form, sign: int = 1) -> Form:
        terms = dict(self.terms)
        for k, c in other.terms:
            terms[k] = terms.get(k, 0) + sign * c
        return _form(terms, self.constant + sign * other.constant, {**self.names, **other.names})

    @property
    def unknowns(self) -> tuple[object, ...]:
        """The values the form reads (a product term reads each of its factors)."""
        found: dict[object, None] = {}
        for k, _ in self.terms:
            for factor in k.factors if isinstance(k, Product) else (k,):
                found[factor] = None
        return tuple(found)

    @property
    def linear(self) -> bool:
        return not any(isinstance(k, Product) for k, _ in self.terms)

    def times(self, other: Form) -> Form | None:
        """The product, when both have unknowns: `aLength * rLength` is one term over two unknowns. None
        when the product has too many terms to be worth reading."""
        names = {**self.names, **other.names}
        terms: dict[object, int] = {}
        for k, c in self.terms:
            terms[k] = terms.get(k, 0) + c * other.constant
        for k, c in other.terms:
            terms[k] = terms.get(k, 0) + c * self.constant
        for (ka, ca), (kb, cb) in itertools.product(self.terms, other.terms):
            factors = [*(ka.factors if isinstance(ka, Product) else (ka,)),
                       *(kb.factors if isinstance(kb, Product) else (kb,))]
            if len(factors) > _MAX_DEGREE:
                return None
            factors.sort(key=lambda f: names.get(f, "?"))
            product = Product(tuple(factors))
            names[product] = "*".join(names.get(f, "?") for f in factors)
            terms[product] = terms.get(product, 0) + ca * cb
        if sum(1 for c in terms.values() if c) > _MAX_TERMS:
            return None
        return _form(terms, self.constant * other.constant, names)

    def residue(self, modulus: int) -> Form:
        return _form({k: c % modulus for k, c in self.terms}, self.constant % modulus, self.names)

    def unknown_names(self) -> str:
        names = [self.names.get(k, "?") for k in self.unknowns]
        return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else "".join(names)

    def text(self) -> str:
        """`2*tileLength + 2`."""
        text = ""
        for key, c in self.terms:
            name = self.names.get(key, "?")
            term = name if abs(c) == 1 else f"{abs(c)}*{name}"
            text = (f"-{term}" if c < 0 else term) if not text else f"{text} {'-' if c < 0 else '+'} {term}"
        if not text:
            return str(self.constant)
        return f"{text} {'-' if self.constant < 0 else '+'} {abs(self.constant)}" if self.constant else text


@dataclass(frozen=True)
class Product:
    """A term that multiplies unknowns (`aLength * rLength`); a factor repeats for a power."""

    factors: tuple[object, ...]


_MAX_DEGREE = 3
_MAX_TERMS = 4


def _form(terms: dict[object, int], constant: int, names: dict[object, str]) -> Form:
    return Form(tuple((k, c) for k, c in terms.items() if c), constant, names)


class Reader:
    """Reads IR values as forms that hold modulo `modulus` (a power of two), sharing the unknowns' keys
    between reads."""

    def __init__(self, modulus: int) -> None:
        self.modulus = modulus
        self._keys: dict[SSAValue, object] = {}
        self._last_store: dict[SSAValue, int | None] = {}

    def form(self, value: SSAValue, depth: int = 0) -> Form | None:
        if depth > _DEPTH:
            return None
        value, label = self._through_loads(value)
        owner = value.owner
        if isinstance(owner, arith.ConstantOp):
            c = constant_of(value)
            if isinstance(c, bool) or not isinstance(c, int):
                return None
            return _form({}, c, {})
        if isinstance(owner, _WIDTH_CHANGES) and self._wide_enough(value) and self._wide_enough(owner.operands[0]):
            return self.form(owner.operands[0], depth + 1)
        if isinstance(owner, arith.AddiOp | arith.SubiOp):
            a, b = self.form(owner.operands[0], depth + 1), self.form(owner.operands[1], depth + 1)
            if a is None or b is None:
                return None
            return a.plus(b, 1 if isinstance(owner, arith.AddiOp) else -1)
        if isinstance(owner, arith.MuliOp):
            a, b = self.form(owner.operands[0], depth + 1), self.form(owner.operands[1], depth + 1)
            if a is not None and b is not None:
                if not a.terms:
                    return b.scaled(a.constant)
                if not b.terms:
                    return a.scaled(b.constant)
                product = a.times(b)
                if product is not None:
                    return product
        if isinstance(owner, arith.ShLIOp):
            shift = constant_of(owner.operands[1])
            a = self.form(owner.operands[0], depth + 1)
            if a is not None and isinstance(shift, int) and 0 <= shift < 64:
                return a.scaled(1 << shift)
        key = self.key(value)
        return _form({key: 1}, 0, {key: label or _describe(value)})

    def key(self, value: SSAValue, depth: int = 0) -> object:
        """What identifies the unknown `value`: the value itself, or for pure arithmetic the op and its
        operands' keys, so `blockLength / tileNum` computed in two places is one unknown."""
        value, _ = self._through_loads(value)
        if value in self._keys:
            return self._keys[value]
        owner = value.owner
        key: object = value
        if isinstance(owner, memref.LoadOp) and self._settled(owner):
            key = ("settled", owner.memref)
        elif isinstance(owner, arith.ConstantOp):
            key = ("constant", constant_of(value))
        elif depth < _DEPTH and isinstance(owner, _PURE + _WIDTH_CHANGES):
            key = (owner.name, str(value.type), tuple(self.key(v, depth + 1) for v in owner.operands))
        elif depth < _DEPTH and isinstance(owner, asc.TilingFieldOp | asc.StructGetOp):
            # a field of one tiling (or parameter struct) value: setting a field makes a new value
            key = (owner.name, owner.field.data, tuple(self.key(v, depth + 1) for v in owner.operands))
        self._keys[value] = key
        return key

    def _settled(self, load: memref.LoadOp) -> bool:
        """Whether `load` reads a local's final value: every store of the local lies in statements of its
        block before the one holding the load (a member set in Init, in branches, and read in Process).
        Two such loads read the same value."""
        cell = load.memref
        if cell not in self._last_store:
            self._last_store[cell] = _last_store_index(cell)
        last = self._last_store[cell]
        if last is None:
            return False
        block = cell.owner.parent_block() if isinstance(cell.owner, memref.AllocaOp) else None
        anchor = statement_in(load, block) if block is not None else None
        return anchor is not None and block is not None and block.get_operation_index(anchor) > last

    def _wide_enough(self, value: SSAValue) -> bool:
        t = value.type
        width = t.width.data if isinstance(t, IntegerType) else 64  # index
        return (1 << width) % self.modulus == 0 if width < 64 else True

    @staticmethod
    def _through_loads(value: SSAValue) -> tuple[SSAValue, str | None]:
        """The value a chain of single-store locals holds, and the first local's name (for messages)."""
        label = None
        for _ in range(_DEPTH):
            owner = value.owner
            if not isinstance(owner, memref.LoadOp):
                break
            # a local bound to a load is named by the local (`curLen = GetCurTileLength(i)`), not the cell
            label = label or value.name_hint or owner.memref.name_hint
            stored = reaching_store(owner)
            if stored is None:
                break
            value = stored
        return value, label


def _last_store_index(cell: SSAValue) -> int | None:
    """The index, in the block of the local's alloca, of the last statement holding a store to it (None
    when the local escapes or is never stored)."""
    alloca = cell.owner
    block = alloca.parent_block() if isinstance(alloca, memref.AllocaOp) else None
    if block is None:
        return None
    last = None
    for use in cell.uses:
        user = use.operation
        if isinstance(user, memref.LoadOp):
            continue
        if not isinstance(user, memref.StoreOp) or user.memref is not cell:
            return None  # passed by reference or pointer: stored where the checker cannot see
        anchor = statement_in(user, block)
        if anchor is None:
            return None
        index = block.get_operation_index(anchor)
        last = index if last is None else max(last, index)
    return last


def _describe(value: SSAValue) -> str:
    owner = value.owner
    field_name = getattr(owner, "field", None)
    if field_name is not None and hasattr(field_name, "data"):
        return str(field_name.data)
    if value.name_hint:
        return value.name_hint
    callee = getattr(owner, "callee", None) or getattr(owner, "api", None)
    if callee is not None and hasattr(callee, "data"):
        return f"{callee.data}()"
    return "an unknown"


_MAX_UNKNOWNS = 2


def solvable(forms: list[Form], modulus: int) -> bool | None:
    """Whether some values of the unknowns make every form 0 modulo `modulus`, a power of two (None: too
    many unknowns to tell). The residues of the unknowns modulo the modulus decide it, so a search over
    those is exact. Products are first read as unknowns of their own: no solution then means none at all,
    since the products of actual values are only some of the values such an unknown could take."""
    if not forms:
        return True
    forms = [f.residue(modulus) for f in forms]
    linear = all(f.linear for f in forms)
    if len(forms) == 1:  # c1*a1 + ... + k = 0 has a solution iff gcd(c1, ..., m) divides k
        if forms[0].constant % gcd(modulus, *(c for _, c in forms[0].terms)) != 0:
            return False
        if linear:
            return True
    else:
        terms = list(dict.fromkeys(k for f in forms for k, _ in f.terms))
        if len(terms) <= _MAX_UNKNOWNS:
            index = {k: i for i, k in enumerate(terms)}
            found = _search(forms, len(terms), lambda key: (index[key],), modulus)
            if linear or not found:
                return found
        elif linear:
            return None
    unknowns = list(dict.fromkeys(k for f in forms for k in f.unknowns))
    if len(unknowns) > _MAX_UNKNOWNS:
        return None
    index = {k: i for i, k in enumerate(unknowns)}
    return _search(forms, len(unknowns),
                   lambda key: tuple(index[f] for f in key.factors) if isinstance(key, Product) else (index[key],),
                   modulus)


def _search(forms: list[Form], count: int, factors_of: Callable[[object], tuple[int, ...]], modulus: int) -> bool:
    """Whether some residues of `count` unknowns make every form 0 modulo `modulus`; `factors_of` gives the
    unknowns (by index) a term multiplies."""
    rows = [([(c, factors_of(k)) for k, c in f.terms], f.constant) for f in forms]
    for values in itertools.product(range(modulus), repeat=count):
        if all((sum(c * math.prod(values[i] for i in factors) for c, factors in terms) + k) % modulus == 0
               for terms, k in rows):
            return True
    return False
