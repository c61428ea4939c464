"""The simulator program: a flat, register-based form of one kernel, and its text.

The text is what `ascendir-opt ... --passes ...,to-sim` prints and what Python hands to the Rust
simulator (rust_sim/PROGRAM.md describes it for both sides). One instruction per line:

    @12 r7 = addi.i32 r5 r6
    @14 call Add.count <T=f16> dst=h3 src0=h4 src1=h5 count=r7

`rN` are scalar registers (raw bits, typed by the instruction), `hN` handles (a GM pointer or tensor, a local
tensor: memory, byte address, byte length), `oN` objects (TPipe, TQue, TBuf, allocators: static ids),
`sOFF:LEN` a local array on the core's scalar stack, `LN` labels. `@N` is an index into the location table.
"""

from __future__ import annotations

from dataclasses import dataclass, field

FORMAT_VERSION = 1


@dataclass(frozen=True)
class Loc:
    file: int
    line: int
    col: int


@dataclass
class Instr:
    """One line of code: `results = opcode operands`; `loc` indexes Program.locs (-1: none)."""

    opcode: str
    operands: list[str] = field(default_factory=list)
    results: list[str] = field(default_factory=list)
    loc: int = -1
    comment: str = ""

    def text(self) -> str:
        out = f"@{self.loc} " if self.loc >= 0 else ""
        if self.results:
            out += ", ".join(self.results) + " = "
        out += self.opcode
        if self.operands:
            out += " " + " ".join(self.operands)
        if self.comment:
            out += f"  ; {self.comment}"
        return out


@dataclass
class Label:
    name: str


@dataclass
class ObjectDecl:
    """A TPipe, TQue, TBuf or LocalMemAllocator: `object oN KIND NAME key=value...`."""

    index: int
    kind: str  # pipe, queue, tbuf, allocator, opaque
    name: str
    attrs: dict[str, str] = field(default_factory=dict)

    def text(self) -> str:
        extra = "".join(f" {k}={v}" for k, v in self.attrs.items())
        return f"object o{self.index} {self.kind} {self.name}{extra}"


@dataclass
class Param:
    """A kernel parameter: a GM_ADDR bound to a buffer slot, or a scalar passed by value."""

    index: int
    name: str
    register: str  # hN for pointers, rN for scalars
    dtype: str  # "gm" for a pointer, else the scalar type


@dataclass
class Program:
    kernel: str
    kernel_type: str
    chip: str
    memories: list[tuple[str, int, int]] = field(default_factory=list)  # (name, bytes, alignment)
    params: list[Param] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    locs: list[Loc] = field(default_factory=list)
    objects: list[ObjectDecl] = field(default_factory=list)
    consts: list[tuple[str, str, str, str]] = field(default_factory=list)  # (reg, type, value, comment)
    code: list[Instr | Label] = field(default_factory=list)
    scalar_regs: int = 0
    handle_regs: int = 0
    stack_bytes: int = 0
    block_dim: int | None = None
    tiling_key: int | None = None
    # the initial bytes of the parameters that hold namespace-scope __gm__ arrays, by parameter name (the launch
    # allocates them; not part of the text)
    statics: dict[str, bytes] = field(default_factory=dict)

    def text(self) -> str:
        lines = [f"ascendir-sim {FORMAT_VERSION}", f"kernel {self.kernel} {self.kernel_type}", f"chip {self.chip}"]
        if self.block_dim is not None:
            lines.append(f"block_dim {self.block_dim}")
        if self.tiling_key is not None:
            lines.append(f"tiling_key {self.tiling_key}")
        lines += [f"mem {name} {size} {align}" for name, size, align in self.memories]
        lines += [f"param {p.index} {p.name} {p.register} {p.dtype}" for p in self.params]
        lines += [f"file {i} {_quote(f)}" for i, f in enumerate(self.files)]
        lines += [f"loc {i} {loc.file} {loc.line} {loc.col}" for i, loc in enumerate(self.locs)]
        lines.append(f"regs {self.scalar_regs} {self.handle_regs}")
        lines.append(f"stack {self.stack_bytes}")
        lines += [o.text() for o in self.objects]
        for reg, ty, value, comment in self.consts:
            lines.append(f"const {reg} {ty} {value}" + (f"  ; {comment}" if comment else ""))
        lines.append("code")
        for item in self.code:
            lines.append(f"{item.name}:" if isinstance(item, Label) else "  " + item.text())
        lines.append("end")
        return "\n".join(lines) + "\n"

    @property
    def instruction_count(self) -> int:
        return sum(1 for item in self.code if isinstance(item, Instr))


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
