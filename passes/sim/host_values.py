"""The numbers a host program's main computes before its launch: buffer sizes and blockDim (host_program.MARK).

main's code is lowered as device code is, so its values travel through cells, arrays (catlass's GemmCoord holds
m, n, k in a `uint32_t idx[3]`), copy loops and the branches of its checks; mem2reg alone leaves them unfolded.
This evaluates the entry's scalar code in program order, as the host would run it, up to the last mark: integer
arithmetic and comparisons, selects, memref cells and small arrays, counted `scf.for` loops, `scf.while` loops
on known conditions (catlass's `while (argIndex < argc)` over the flags) and `scf.if` on a known condition.
Anything else (device API calls, tensors, pointers) yields unknown values. A mark main's code never reaches
(`if (sizeWorkspace > 0) aclrtMalloc(...)` with a size of 0) has no value; one inside a branch or a loop whose
condition or bounds are unknown is named in `unknown` (the run then says so).
"""

from __future__ import annotations

import struct
from typing import Any

import math

from xdsl.dialects.builtin import FloatAttr, IntegerAttr, IntegerType

from ascendir.lower.function_tables import KEY_MARK

# the keys of calls through a table of functions (ascendir/lower/function_tables.py): main is lowered again with
# the one value its key has, so a call its code reaches with two keys (in a loop) is no value (the first would
# launch the first entry for every pass, silently)
_ONE_VALUE = "count." + KEY_MARK
_STEPS = 2_000_000  # operations evaluated at most: main's code before the launch loops over shapes, not elements
_BINARY = {
    "arith.addi": lambda a, b: a + b, "arith.subi": lambda a, b: a - b, "arith.muli": lambda a, b: a * b,
    "arith.divui": lambda a, b: a // b if b else None, "arith.divsi": lambda a, b: int(a / b) if b else None,
    "arith.remui": lambda a, b: a % b if b else None,
    "arith.remsi": lambda a, b: a - int(a / b) * b if b else None,
    "arith.ceildivui": lambda a, b: -(-a // b) if b else None,
    "arith.ceildivsi": lambda a, b: -(-a // b) if b else None,
    "arith.floordivsi": lambda a, b: a // b if b else None,
    "arith.maxui": max, "arith.minui": min, "arith.maxsi": max, "arith.minsi": min,
    "arith.andi": lambda a, b: a & b, "arith.ori": lambda a, b: a | b, "arith.xori": lambda a, b: a ^ b,
    "arith.shli": lambda a, b: a << b, "arith.shrui": lambda a, b: a >> b, "arith.shrsi": lambda a, b: a >> b,
}
_COMPARE = {0: lambda a, b: a == b, 1: lambda a, b: a != b, 2: lambda a, b: a < b, 3: lambda a, b: a <= b,
            4: lambda a, b: a > b, 5: lambda a, b: a >= b, 6: lambda a, b: a < b, 7: lambda a, b: a <= b,
            8: lambda a, b: a > b, 9: lambda a, b: a >= b}  # arith.cmpi predicates: eq ne slt sle sgt sge ult ...
# arith.cmpf predicates (false oeq ogt oge olt ole one ord ueq ugt uge ult ule une uno true), for numbers (no NaN)
_COMPARE_F = {0: lambda a, b: False, 1: lambda a, b: a == b, 2: lambda a, b: a > b, 3: lambda a, b: a >= b,
              4: lambda a, b: a < b, 5: lambda a, b: a <= b, 6: lambda a, b: a != b, 7: lambda a, b: True,
              8: lambda a, b: a == b, 9: lambda a, b: a > b, 10: lambda a, b: a >= b, 11: lambda a, b: a < b,
              12: lambda a, b: a <= b, 13: lambda a, b: a != b, 14: lambda a, b: False, 15: lambda a, b: True}
_CASTS = ("arith.extui", "arith.extsi", "arith.index_cast", "arith.index_castui", "arith.extf", "arith.truncf")
# floats: a host program's tiling computes with the host's libm (host_program_math.py: ceil(log2(n)))
_FLOAT_BINARY = {"arith.addf": lambda a, b: a + b, "arith.subf": lambda a, b: a - b,
                 "arith.mulf": lambda a, b: a * b, "arith.divf": lambda a, b: a / b if b else None,
                 "math.powf": lambda a, b: a ** b if a > 0 or float(b).is_integer() else None}
_FLOAT_UNARY = {"math.ceil": math.ceil, "math.floor": math.floor, "math.trunc": math.trunc,
                "math.log2": lambda a: math.log2(a) if a > 0 else None,
                "math.log": lambda a: math.log(a) if a > 0 else None,
                "math.log10": lambda a: math.log10(a) if a > 0 else None, "math.exp": math.exp,
                "math.exp2": lambda a: 2.0 ** a, "math.sqrt": lambda a: math.sqrt(a) if a >= 0 else None,
                "math.absf": abs, "arith.sitofp": float, "arith.uitofp": float,
                "arith.fptosi": math.trunc, "arith.fptoui": math.trunc}


class _Stop(Exception):
    pass


def marked_values(kernel: Any, prefix: str) -> tuple[dict[str, Any], set[str], list[str]]:
    """The value of each `prefix<what>` opaque call's operand where main's code reaches it with a known value, and
    the marks that may be reached with a value not known here. A `prefix content.<i>:<layout>` mark (an array
    main copies into device buffer i) is found as the array's bytes, by the layout the lowering named
    (ascendir/lower/host_program_vectors.py mark_content). Third: where main's code reads past the end of an
    array (C++ leaves the value undefined; here it is unknown), as 'file:line: element i of n'."""
    ev = _Evaluator(prefix)
    try:
        ev.block(kernel.body.block)
    except _Stop:
        ev.unknown.update(ev.marks_in(kernel))
    found = {k: v for k, v in ev.found.items() if k not in ev.varying}
    return found, (ev.unknown | ev.varying) - set(found), ev.past_end


def _bitcast(value: Any, to: Any) -> Any:
    """The bits of a number as another type of their width (19_mla's tiling stores its float scale as the
    uint32_t `*reinterpret_cast<uint32_t *>(&tor)`): IEEE half / float / double <-> the integer of their bits."""
    width = getattr(getattr(to, "width", None), "data", None) or getattr(to, "bitwidth", None)
    formats = {16: "<e", 32: "<f", 64: "<d"}
    if value is None or width not in formats:
        return None
    if isinstance(to, IntegerType):
        if not isinstance(value, float):
            return value  # (an integer's bits as another integer of the same width)
        return int.from_bytes(struct.pack(formats[width], value), "little")
    try:
        bits = int(value) & ((1 << width) - 1)
        return struct.unpack(formats[width], bits.to_bytes(width // 8, "little"))[0]
    except (OverflowError, struct.error):
        return None


class _Evaluator:
    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self.values: dict[Any, Any] = {}  # SSA value -> int (None: unknown)
        self.memory: dict[Any, dict[tuple[int, ...], Any]] = {}  # alloca result -> element index -> value
        self.found: dict[str, int] = {}
        self.unknown: set[str] = set()
        self.varying: set[str] = set()  # marks of _ONE_VALUE reached with different values
        self.past_end: list[str] = []
        self.steps = 0

    def marks_in(self, op: Any) -> set[str]:
        return {inner.callee.data[len(self.prefix):].split(":")[0] for inner in op.walk()
                if inner.name == "ascendc.opaque_call" and inner.callee.data.startswith(self.prefix)}

    def _content(self, what: str, operands: Any) -> None:
        """The bytes of the array a content mark names, element by element as its layout places them."""
        import json

        name, _, text = what.partition(":")
        layout = json.loads(text)
        data = bytearray(layout["count"] * layout["size"])
        cells = [self.memory.get(v) for v in operands]
        indexed = layout.get("indexed", True)  # (a lone object's cells hold its members, no element index)
        for e in range(layout["count"]):
            for ref, position, offset, kind, size in layout["slots"]:
                if isinstance(position, str):  # a field of a struct held whole in the cell: its record's
                    record = cells[ref].get(()) if cells[ref] is not None else None
                    value = record.get(position) if isinstance(record, dict) else None
                    if value is None:
                        self.unknown.add(name)
                        return
                    key = ()
                else:
                    key = (e, *position) if indexed else tuple(position)
                    value = cells[ref].get(key) if cells[ref] is not None else None
                if value is None and cells[ref] is not None and key not in cells[ref] and None not in cells[ref]:
                    # an element main's code never writes (19_mla's tiling leaves the head's spare words): 0 here,
                    # whatever the host memory held, named in a note (`unwritten.<mark>`: the element numbers)
                    value = 0
                    self.found.setdefault(f"unwritten.{name}", []).append(e)
                if value is None:
                    self.unknown.add(name)  # an element main's code left unknown here: no bytes at all
                    return
                at = e * layout["size"] + offset
                if kind == "float":
                    data[at:at + size] = struct.pack({2: "<e", 4: "<f", 8: "<d"}[size], value)
                else:
                    data[at:at + size] = (int(value) & ((1 << 8 * size) - 1)).to_bytes(size, "little")
        self.found.setdefault(name, bytes(data))

    def get(self, v: Any) -> Any:
        return self.values.get(v)

    def block(self, block: Any) -> None:
        for op in block.ops:
            self.op(op)

    def op(self, op: Any) -> None:
        self.steps += 1
        if self.steps > _STEPS:
            raise _Stop
        name = op.name
        if name == "ascendc.opaque_call":
            callee = op.callee.data
            if callee.startswith(self.prefix + "content."):
                self._content(callee[len(self.prefix):], op.operands)
            elif callee.startswith(self.prefix) and op.operands:
                if self.get(op.operands[0]) is None:
                    self.unknown.add(callee[len(self.prefix):])
                else:
                    what, value = callee[len(self.prefix):], int(self.get(op.operands[0]))
                    if what.startswith(_ONE_VALUE) and self.found.get(what, value) != value:
                        self.varying.add(what)
                    self.found.setdefault(what, value)
            return
        if name == "arith.constant":
            attr = op.properties.get("value", op.attributes.get("value"))
            self.values[op.results[0]] = int(attr.value.data) if isinstance(attr, IntegerAttr) else \
                float(attr.value.data) if isinstance(attr, FloatAttr) else None
        elif name in _CASTS:
            self.values[op.results[0]] = self.get(op.operands[0])
        elif name == "arith.trunci":
            value = self.get(op.operands[0])
            t = op.results[0].type
            self.values[op.results[0]] = value % (1 << t.width.data) if value is not None and isinstance(
                t, IntegerType) else value
        elif name in _FLOAT_BINARY or name in _FLOAT_UNARY:
            values = [self.get(v) for v in op.operands]
            fn = _FLOAT_BINARY.get(name) or _FLOAT_UNARY[name]
            try:
                self.values[op.results[0]] = None if None in values else fn(*values)  # type: ignore[operator]
            except (OverflowError, ValueError):
                self.values[op.results[0]] = None
        elif name in _BINARY:
            a, b = self.get(op.operands[0]), self.get(op.operands[1])
            self.values[op.results[0]] = None if a is None or b is None else _BINARY[name](a, b)
        elif name == "arith.cmpi":
            a, b = self.get(op.operands[0]), self.get(op.operands[1])
            predicate = int(op.predicate.value.data)
            self.values[op.results[0]] = None if a is None or b is None else int(_COMPARE[predicate](a, b))
        elif name == "arith.cmpf":
            a, b = self.get(op.operands[0]), self.get(op.operands[1])
            predicate = int(op.predicate.value.data)
            self.values[op.results[0]] = None if a is None or b is None else int(_COMPARE_F[predicate](a, b))
        elif name == "arith.select":
            c = self.get(op.operands[0])
            self.values[op.results[0]] = None if c is None else self.get(op.operands[1 if c else 2])
        elif name == "memref.alloca":
            self.memory[op.results[0]] = {}
        elif name == "memref.store":
            cells = self.memory.get(op.operands[1])
            if cells is not None:
                index = self._index(op.operands[2:])
                if index is None:
                    cells.clear()  # a store at an unknown place: every element is unknown now
                    cells[None] = None  # type: ignore[index]
                else:
                    cells[index] = self.get(op.operands[0])
        elif name == "memref.load":
            cells = self.memory.get(op.operands[0])
            index = self._index(op.operands[1:])
            if index is not None and cells is not None:
                self._check_bounds(op, index)
            self.values[op.results[0]] = cells.get(index) if cells is not None and index is not None else None
        elif name == "arith.bitcast":
            self.values[op.results[0]] = _bitcast(self.get(op.operands[0]), op.results[0].type)
        elif name == "ascendc.struct_init":
            # a record main's code builds (a struct of offsets summed in a loop): its fields by name, those not
            # listed unknown; kept whole in the cells and loop values that hold it
            self.values[op.results[0]] = dict(zip((f.data for f in op.fields.data), map(self.get, op.operands)))
        elif name == "ascendc.struct_set":
            held = self.get(op.operands[0])
            self.values[op.results[0]] = {**held, op.field.data: self.get(op.operands[1])} \
                if isinstance(held, dict) else None
        elif name in ("ascendc.struct_get", "ascendc.tiling_field") and len(op.operands) == 1:
            held = self.get(op.operands[0])
            self.values[op.results[0]] = held.get(op.field.data) if isinstance(held, dict) else None
        elif name == "scf.for":
            self._for(op)
        elif name == "scf.while":
            self._while(op)
        elif name == "scf.if":
            c = self.get(op.operands[0])
            if c is None:
                self.unknown.update(self.marks_in(op))
            else:
                region = op.regions[0] if c else (op.regions[1] if len(op.regions) > 1 else None)
                if region is not None and region.blocks:
                    self._run_region(op, region)
        # anything else: its results stay unknown

    def _check_bounds(self, op: Any, index: tuple[int, ...]) -> None:
        """Notes a read past a fixed-size array (catlass 33_basic_conv2d passes `strides[2]` of a `uint8_t
        strides[2]` as a dilation: on the host the next member's byte, here an unknown value)."""

        shape = getattr(op.operands[0].type, "get_shape", lambda: ())()
        if len(self.past_end) >= 4 or len(shape) != len(index) or all(0 <= i < n for i, n in zip(index, shape)):
            return
        loc = op.location
        where = f"{loc.filename.data}:{loc.line.data}" if hasattr(loc, "filename") else "main"
        note = f"{where}: element {', '.join(map(str, index))} of {' x '.join(map(str, shape))}"
        if note not in self.past_end:
            self.past_end.append(note)

    def _index(self, operands: Any) -> tuple[int, ...] | None:
        index = tuple(self.get(v) for v in operands)
        return None if any(i is None for i in index) else index  # type: ignore[return-value]

    def _run_region(self, op: Any, region: Any) -> None:
        block = region.blocks[0]
        for inner in block.ops:
            if inner.name == "scf.yield":
                for result, value in zip(op.results, inner.operands):
                    self.values[result] = self.get(value)
                return
            self.op(inner)

    def _while(self, op: Any) -> None:
        """`scf.while`: its condition region, then while the condition holds its body, each with the values the
        other passes on. A condition not known here leaves the loop's marks unknown and every cell it stores
        to unknown (what it wrote, and how often, is not known)."""
        before, after = op.regions[0].blocks[0], op.regions[1].blocks[0]
        carried = [self.get(v) for v in op.operands]
        while True:
            for arg, value in zip(before.args, carried):
                self.values[arg] = value
            passed: list[Any] = []
            for inner in before.ops:
                if inner.name == "scf.condition":
                    passed = [self.get(v) for v in inner.operands[1:]]
                    go = self.get(inner.operands[0])
                    break
                self.op(inner)
            else:
                go = None
            if go is None:
                self.unknown.update(self.marks_in(op))
                for inner in op.walk():
                    if inner.name == "memref.store" and inner.operands[1] in self.memory:
                        self.memory[inner.operands[1]] = {None: None}  # type: ignore[dict-item]
                passed = [None] * len(op.results)
                break
            if not go:
                break
            for arg, value in zip(after.args, passed):
                self.values[arg] = value
            for inner in after.ops:
                if inner.name == "scf.yield":
                    carried = [self.get(v) for v in inner.operands]
                    break
                self.op(inner)
        for result, value in zip(op.results, passed):
            self.values[result] = value

    def _for(self, op: Any) -> None:
        lower, upper, step = (self.get(v) for v in op.operands[:3])
        if lower is None or upper is None or not step:
            self.unknown.update(self.marks_in(op))
            return
        body = op.regions[0].blocks[0]
        carried = [self.get(v) for v in op.operands[3:]]
        i = lower
        while i < upper:
            self.values[body.args[0]] = i
            for arg, value in zip(body.args[1:], carried):
                self.values[arg] = value
            for inner in body.ops:
                if inner.name == "scf.yield":
                    carried = [self.get(v) for v in inner.operands]
                    break
                self.op(inner)
            i += step
        for result, value in zip(op.results, carried):
            self.values[result] = value
