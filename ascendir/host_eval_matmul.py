"""Matmul API tiling objects in the host evaluator: the state the `host.matmul_*` ops record
(MatmulTilingObject), the checks with which the library's GetTiling rejects a configuration outright, and
the TCubeTiling it fills (ascendir.matmul_tiling).

The library (asc-devkit impl/adv_api/tiling/matmul) only records what the setters say. GetTiling first
checks the configuration (MatmulApiTilingBase::CheckSetParam, then the base-size check at the start of
MatmulTilingAlgorithm::Process) and then searches for a split. `MatmulTilingObject.failure` repeats those
first checks, and one outcome of the search that follows from the shapes alone: a fixed base block larger
than the matrix leaves the L0 split without a candidate. Whatever else GetTiling decides (its result where
none of these rejects the configuration, the TCubeTiling it fills) is not modelled.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import cast

from xdsl.interpreter import Interpreter, InterpreterFunctions, PythonValues, impl, register_impls
from xdsl.utils.comparisons import to_signed

from ascendir.dialects import host
from ascendir.host_eval_arith import c_div
from ascendir.host_eval_chips import ChipNumbers
from ascendir.host_eval_context import context_state
from ascendir.host_eval_types import TilingStruct


_UNSET = -1  # the library's "not set" for shapes, base sizes and buffer sizes
_C0 = 16  # rows or columns of one cube fractal
_C0_BYTES = 32
_ACC_BYTES = 4  # L0C accumulates in 32 bits, whatever C's type
_BIAS_COLUMNS = 16 * _C0  # the most columns one bias-table load covers
_BIAS_TABLE_BYTES = 1024  # ASCEND910B and ASCEND310B have a bias table; the others none
_BIAS_TABLE_SOCS = ("ASCEND910B", "ASCEND310B")
_TSCM = host.MATMUL_POSITIONS["TSCM"]
_INT32_MAX = 2**31 - 1
# An object built without a platform keeps the sizes compiled into the host library (910B).
_BUILT_IN_POOL = {"l1": 512 * 1024 - 256, "l0a": 64 * 1024, "l0b": 64 * 1024, "l0c": 128 * 1024,
                  "ub": 192 * 1024 - 256, "bt": _BIAS_TABLE_BYTES}  # fmt: skip
_MATMUL_DTYPE_NAMES = {value: name for name, value in reversed(host.MATMUL_DATA_TYPES.items())}


def _kib(size: int) -> str:
    return f"{size // 1024} KiB" if size % 1024 == 0 else f"{size} bytes"


def _c_rem(lhs: int, rhs: int) -> int:
    return lhs - c_div(lhs, rhs) * rhs


def _exceeds(product: int, have: int, divisor: int = 1) -> bool:
    """`product / divisor > have` as the library computes it in int32. An overflowing product is not
    judged: every check only ever makes GetTiling fail, so leaving one out never predicts a failure the
    library does not have."""
    return product <= _INT32_MAX and product // divisor > have


def _blocks(size: int) -> int:
    """ceil(size / 16), the library's CeilDivision."""
    return -(-size // _C0)


def _divisor_count(n: int) -> int:
    return sum(1 for d in range(1, n + 1) if n % d == 0)


def splits_well(blocks: int) -> bool:
    """Whether the library takes `blocks` blocks of 16 as a single-core extent as it is: up to 8 always;
    beyond, only when one of its divisors up to 64 has more than two divisors itself, and (above 128)
    the divisors up to 128 give more than four between them (MathUtil::CheckFactorNumSatisfy)."""
    if blocks <= 8:
        return True
    small = max((_divisor_count(f) for f in range(1, min(blocks, 64) + 1) if blocks % f == 0), default=0)
    if small <= 2:
        return False
    if blocks > 128:
        large = max((_divisor_count(f) for f in range(65, min(blocks, 128) + 1) if blocks % f == 0),
                    default=0)
        if small + large <= 4:
            return False
    return True


def rounded_blocks(blocks: int) -> int:
    """The power of two past `blocks` the single-core split may round towards (MathUtil::MapShape with
    rounding up): counts under 16 stay, larger ones go to twice the power of two just below them,
    at most 2048."""
    if blocks < 16:
        return blocks
    power = 16
    while power < 1024 and not power < blocks <= 2 * power:
        power *= 2
    return 2 * power


def single_core_blocks(blocks: int) -> int:
    """How many blocks of 16 along M or N GetTiling gives a core that takes the whole extent: `blocks`
    itself when it splits well, else the first count towards `rounded_blocks` that does
    (MathUtil::FindBestSingleCore for one core)."""
    if splits_well(blocks):
        return blocks
    target, current = rounded_blocks(blocks), blocks
    while current != target:
        if splits_well(current):
            return current
        current += 1 if current < target else -1
    return current


@dataclass
class MatmulMatrixType:
    """What `SetAType` / `SetBType` / `SetCType` / `SetBiasType` said (defaults: GM, ND, float)."""

    position: int = 0
    format: int = 0
    dtype: int = 0
    transposed: bool = False


@dataclass
class MatmulTilingObject:
    """The value of a `!host.matmul_tiling`: what the setters recorded, as the library keeps it."""

    multi_core: bool
    soc: str
    chip: str  # the chip named in messages
    pool: dict[str, int]  # l1, l0a, l0b, l0c, ub, bt: the bytes GetTiling may use
    limited: set[str] = field(default_factory=set)  # the sizes SetBufferSpace lowered
    block_dim: int = 1
    types: dict[host.MatmulMatrix, MatmulMatrixType] = field(
        default_factory=lambda: {m: MatmulMatrixType() for m in host.MatmulMatrix}
    )
    shape: list[int] = field(default_factory=lambda: [_UNSET] * 3)  # singleM, N, K
    org: list[int] = field(default_factory=lambda: [_UNSET] * 4)  # orgM, N, Ka, Kb
    single_core: list[int] = field(default_factory=lambda: [_UNSET] * 3)
    base: list[int] = field(default_factory=lambda: [_UNSET] * 3)  # baseM, N, K
    bias: bool = False
    configured: list[str] = field(default_factory=list)  # setters of the split search, not modelled
    unknown: list[str] = field(default_factory=list)  # why the recorded state may be wrong

    @classmethod
    def create(cls, chip: ChipNumbers | None, multi_core: bool) -> MatmulTilingObject:
        """A new object: on `chip`'s platform, or with the library's built-in sizes (chip None)."""
        if chip is None:
            return cls(multi_core, "ASCEND910B", "built-in 910B configuration", dict(_BUILT_IN_POOL))
        bias_table = _BIAS_TABLE_BYTES if chip.soc in _BIAS_TABLE_SOCS else 0
        pool = {"l1": chip.l1, "l0a": chip.l0a, "l0b": chip.l0b, "l0c": chip.l0c, "ub": chip.ub,
                "bt": bias_table}
        return cls(multi_core, chip.soc, chip.name, pool)

    def bits(self, matrix: host.MatmulMatrix) -> int | None:
        return host.MATMUL_DTYPE_BITS.get(self.types[matrix].dtype)

    # the setters ----------------------------------------------------------------------------------

    def set_shape(self, m: int, n: int, k: int) -> None:
        self.shape = [m, n, k]
        if all(v == _UNSET for v in self.org):
            self.org = [m, n, k, k]  # SetOrgShape not called (yet): the original sizes follow

    def set_single_core(self, m: int, n: int, k: int) -> None:
        self.single_core = [v if v > 0 else old for v, old in zip((m, n, k), self.single_core)]

    def set_fix_split(self, m: int, n: int, k: int) -> int:
        if 0 in (m, n, k):
            return -1
        for index, value in ((0, m), (1, n)):
            if value != _UNSET:
                if _c_rem(value, _C0) != 0:
                    return -1
                self.base[index] = value
        bits = self.bits(host.MatmulMatrix.A)
        if bits is None:
            self.unknown.append("SetFixSplit with an A type the library has no size for")
            return 0
        k0 = _C0_BYTES // bits * 8
        if k != _UNSET:
            if k0 == 0 or _c_rem(k, k0) != 0:
                return -1
            self.base[2] = k
        return 0

    def set_buffer_space(self, sizes: dict[str, int]) -> int:
        if any(size < _UNSET or size > self.pool[name] for name, size in sizes.items()):
            return -1
        for name, size in sizes.items():
            if size != _UNSET:
                self.pool[name] = size if name == "bt" else size - size % 32
                self.limited.add(name)
        return 0

    # GetTiling ------------------------------------------------------------------------------------

    def failure(self) -> tuple[str, str] | None:
        """Why GetTiling returns -1 for this configuration, as ("check" | "split", message); None where
        none of the modelled checks rejects it."""
        if self.unknown:
            return None
        bits_a, bits_b = self.bits(host.MatmulMatrix.A), self.bits(host.MatmulMatrix.B)
        if bits_a is None or bits_b is None:
            return None  # the library throws on these types
        if any(v < _UNSET for v in self.base):
            return None  # negative multiples of 16 pass SetFixSplit: leave such objects alone
        why = self._config_failure(bits_a, bits_b) or self._base_failure()
        if why is not None:
            return "check", why
        why = self._split_failure(bits_b)
        return ("split", why) if why is not None else None

    def _has(self, name: str, label: str) -> str:
        size = _kib(self.pool[name])
        if name in self.limited:
            return f"SetBufferSpace leaves {size} of {label}"
        return f"the {self.chip} has {size}"

    def _config_failure(self, bits_a: int, bits_b: int) -> str | None:
        """MatmulApiTilingBase::CheckSetParam: the bias position, the fixed base blocks against L0A, L0B
        and L0C, and zero sizes."""
        bias_type = self.types[host.MatmulMatrix.BIAS]
        if self.soc in ("ASCEND910", "ASCEND310P") and self.bias and bias_type.position == _TSCM:
            return f"the bias is in TPosition::TSCM, which the {self.chip} does not support"
        base_m, base_n, base_k = self.base
        name_a = _MATMUL_DTYPE_NAMES.get(self.types[host.MatmulMatrix.A].dtype, "?")
        name_b = _MATMUL_DTYPE_NAMES.get(self.types[host.MatmulMatrix.B].dtype, "?")
        if base_m != _UNSET and base_k != _UNSET and _exceeds(base_m * base_k * bits_a, self.pool["l0a"], 8):
            need = _kib(base_m * base_k * bits_a // 8)
            return (f"the fixed split baseM {base_m} x baseK {base_k} of {name_a} needs {need} of L0A, "
                    f"{self._has('l0a', 'L0A')}")
        if base_k != _UNSET and base_n != _UNSET and _exceeds(base_k * base_n * bits_b, self.pool["l0b"], 8):
            need = _kib(base_k * base_n * bits_b // 8)
            return (f"the fixed split baseK {base_k} x baseN {base_n} of {name_b} needs {need} of L0B, "
                    f"{self._has('l0b', 'L0B')}")
        if base_m != _UNSET and base_n != _UNSET and _exceeds(base_m * base_n * _ACC_BYTES, self.pool["l0c"]):
            need = _kib(base_m * base_n * _ACC_BYTES)
            return (f"the fixed split {base_m} x {base_n} needs {need} of L0C accumulators, "
                    f"{self._has('l0c', 'L0C')}")
        if 0 in self.shape:
            m, n, k = self.shape
            return f"SetShape({m}, {n}, {k}) has a zero size; M, N and K must not be 0"
        return None

    def _base_failure(self) -> str | None:
        """The base-size check GetTiling makes before searching (MatmulTilingAlgorithm::CheckBaseMN)."""
        base_m, base_n, _ = self.base
        if self.soc in _BIAS_TABLE_SOCS and self.bias and base_n > _BIAS_COLUMNS:
            return (f"with a bias, baseN {base_n} is more than the {_BIAS_COLUMNS} columns one load of the "
                    f"{self.chip} bias table takes")
        checks: list[tuple[str, int, str]] = []
        if base_m != _UNSET and base_n != _UNSET:
            checks.append(("l0c", base_m * base_n * _ACC_BYTES, f"the fixed split {base_m} x {base_n} needs"))
        elif base_m != _UNSET:
            checks.append(("l0c", base_m * _C0 * _ACC_BYTES, f"baseM {base_m} needs, for 16 columns,"))
        elif base_n != _UNSET:
            checks.append(("l0c", base_n * _C0 * _ACC_BYTES, f"baseN {base_n} needs, for 16 rows,"))
        if base_m != _UNSET:
            checks.append(("l0a", base_m * _C0_BYTES, f"baseM {base_m} needs, for one 32-byte slice of K,"))
        if base_n != _UNSET:
            checks.append(("l0b", base_n * _C0_BYTES, f"baseN {base_n} needs, for one 32-byte slice of K,"))
        for name, need, what in checks:
            if _exceeds(need, self.pool[name]):
                label = {"l0a": "L0A", "l0b": "L0B", "l0c": "L0C"}[name]
                kind = " accumulators" if name == "l0c" else ""
                return f"{what} {_kib(need)} of {label}{kind}, {self._has(name, label)}"
        return None

    def _split_failure(self, bits_b: int) -> str | None:
        """The L0 split search finds no candidate: a fixed baseM (baseN) spans more blocks of 16 than the
        M (N) one core works on. Only where that search runs as the library's defaults set it up."""
        if self.configured:
            return None  # SetMatmulConfigParams, SetMadType, SetSparse, ... steer this search
        if any(v != _UNSET for v in self.single_core):
            cores = 1
            sizes = [c if c != _UNSET else s for c, s in zip(self.single_core, self.shape)]
        else:
            cores = self.block_dim if self.multi_core else 1
            sizes = [s if s != _UNSET else o for s, o in zip(self.shape, self.org[:3])]
        m, n, k = sizes
        if min(m, n, k) <= 0 or cores < 1:
            return None
        if cores > 1:
            shape_set = self.shape[0] != _UNSET or self.shape[1] != _UNSET
            if self.soc in ("ASCEND910B", "ASCEND950", "ASCEND350") and not shape_set:
                return None  # the multi-core M/N split settles the tiling without this search
            if self.types[host.MatmulMatrix.B].position == _TSCM:
                return None  # GetTiling returns 1 there when the core split fails
        whole = (m, n)
        if cores > 1:
            # the L0 search runs on one core's block: where the library's core split is modelled, that block
            m, n = self._core_block(m, n, k, bits_b) or (m, n)
        # One core gets the blocks of 16 along M (N), or a few more where the library rounds the count up
        # to one that splits well; of several cores, each gets no more than that.
        m_blocks, n_blocks = _blocks(m), _blocks(n)
        most_m = max(m_blocks, single_core_blocks(m_blocks))
        most_n = max(n_blocks, single_core_blocks(n_blocks))
        if bits_b in (4, 8):
            most_n += most_n % 2  # int8 / int4 B is split in pairs of blocks
        base_m, base_n, _ = self.base
        for axis, base, size, most in (("M", base_m, m, most_m), ("N", base_n, n, most_n)):
            if base == _UNSET or _blocks(base) <= most:
                continue
            which = "rows" if axis == "M" else "columns"
            full = whole[0] if axis == "M" else whole[1]
            if size < full:  # the core split cut this axis
                return (f"the fixed base{axis} {base} spans {_blocks(base)} blocks of 16 {which}, more than the "
                        f"{most} of the {size} {which} each core gets when the library splits {axis} = {full} "
                        f"over the cores")
            return (f"the fixed base{axis} {base} spans {_blocks(base)} blocks of 16 {which}, more than the "
                    f"{most} that {axis} = {full} gives {'each core' if cores > 1 else 'one core'}")
        return None

    def _core_block(self, m: int, n: int, k: int, bits_b: int) -> tuple[int, int] | None:
        """(singleCoreM, singleCoreN) of the library's core split (ascendir.matmul_core_split), or None where
        that split is not modelled."""
        from ascendir.matmul_core_split import UnmodelledSplit, library_core_split
        from ascendir.matmul_tiling import split_inputs

        bits_a = self.bits(host.MatmulMatrix.A)
        if bits_a is None:
            return None
        try:
            split = library_core_split(split_inputs(self, m, n, k, bits_a, bits_b))
        except UnmodelledSplit:
            return None
        return split.single_m, split.single_n


@register_impls
class MatmulTilingFunctions(InterpreterFunctions):
    """Interpreter implementations of the `host.matmul_*` ops."""

    @impl(host.MatmulCreateOp)
    def run_create(
        self, interpreter: Interpreter, op: host.MatmulCreateOp, args: PythonValues
    ) -> PythonValues:
        chip = cast(ChipNumbers, args[0]) if args else None
        return (MatmulTilingObject.create(chip, op.multi_core is not None),)

    @impl(host.MatmulSetDimOp)
    def run_set_dim(
        self, interpreter: Interpreter, op: host.MatmulSetDimOp, args: PythonValues
    ) -> PythonValues:
        cast(MatmulTilingObject, args[0]).block_dim = to_signed(int(args[1]), 32)
        return ()

    @impl(host.MatmulSetTypeOp)
    def run_set_type(
        self, interpreter: Interpreter, op: host.MatmulSetTypeOp, args: PythonValues
    ) -> PythonValues:
        obj = cast(MatmulTilingObject, args[0])
        position, fmt, dtype = (to_signed(int(v), 32) for v in args[1:4])
        obj.types[op.matrix.data] = MatmulMatrixType(position, fmt, dtype, bool(args[4]))
        return ()

    @impl(host.MatmulSetShapeOp)
    def run_set_shape(
        self, interpreter: Interpreter, op: host.MatmulSetShapeOp, args: PythonValues
    ) -> PythonValues:
        obj = cast(MatmulTilingObject, args[0])
        values = [to_signed(int(v), 32) for v in args[1:]]
        kind = op.kind.data
        if kind == host.MatmulShapeKind.SHAPE:
            obj.set_shape(*values[:3])
        elif kind == host.MatmulShapeKind.ORG:
            obj.org = values + [values[2]] if len(values) == 3 else values
        else:
            obj.set_single_core(*values[:3])
        return ()

    @impl(host.MatmulSetFixSplitOp)
    def run_set_fix_split(
        self, interpreter: Interpreter, op: host.MatmulSetFixSplitOp, args: PythonValues
    ) -> PythonValues:
        obj = cast(MatmulTilingObject, args[0])
        return (obj.set_fix_split(*(to_signed(int(v), 32) for v in args[1:])),)

    @impl(host.MatmulSetBiasOp)
    def run_set_bias(
        self, interpreter: Interpreter, op: host.MatmulSetBiasOp, args: PythonValues
    ) -> PythonValues:
        cast(MatmulTilingObject, args[0]).bias = bool(args[1])
        return ()

    @impl(host.MatmulSetBufferSpaceOp)
    def run_set_buffer_space(
        self, interpreter: Interpreter, op: host.MatmulSetBufferSpaceOp, args: PythonValues
    ) -> PythonValues:
        obj = cast(MatmulTilingObject, args[0])
        sizes = dict(zip(("l1", "l0c", "ub", "bt"), (to_signed(int(v), 32) for v in args[1:])))
        return (obj.set_buffer_space(sizes),)

    @impl(host.MatmulConfigureOp)
    def run_configure(
        self, interpreter: Interpreter, op: host.MatmulConfigureOp, args: PythonValues
    ) -> PythonValues:
        cast(MatmulTilingObject, args[0]).configured.append(op.method.data)
        return ()

    @impl(host.MatmulUnknownOp)
    def run_unknown(
        self, interpreter: Interpreter, op: host.MatmulUnknownOp, args: PythonValues
    ) -> PythonValues:
        cast(MatmulTilingObject, args[0]).unknown.append(op.what.data)
        return ()

    @impl(host.MatmulGetTilingOp)
    def run_get_tiling(
        self, interpreter: Interpreter, op: host.MatmulGetTilingOp, args: PythonValues
    ) -> PythonValues:
        obj = cast(MatmulTilingObject, args[0])
        state = context_state(interpreter)
        found = obj.failure()
        if found is None:
            notes = _fill_cube_tiling(obj, args[1] if len(args) > 1 else None, op.path)
            # the library may still fail, and a success rewrites the object's base sizes
            obj.unknown.append("an earlier GetTiling")
            notes.insert(0, "GetTiling is taken as succeeding, and the TCubeTiling it fills comes from a model "
                         "of the library's split (ascendir.matmul_tiling), not the library")
            state.unmodelled.extend(note for note in notes if note not in state.unmodelled)
            return (0,)
        stage, why = found
        if stage == "split":
            obj.unknown.append("an earlier GetTiling")  # the search may have touched the object
        state.matmul_failures.append((op, why))
        return (-1,)


def _fill_cube_tiling(obj: MatmulTilingObject, data: object, path: StringAttr | None) -> list[str]:
    """Writes the modelled TCubeTiling into the tiling struct field GetTiling was given; returns what the
    model could not follow."""
    from ascendir.matmul_tiling import cube_tiling

    notes: list[str] = []
    if not isinstance(data, TilingStruct) or obj.unknown:
        return notes
    fields = cube_tiling(obj, notes)
    if fields is None:
        return notes
    prefix = f"{path.data}." if path is not None and path.data else ""
    for name, value in fields.items():
        data.fields[prefix + name] = value
    return notes
