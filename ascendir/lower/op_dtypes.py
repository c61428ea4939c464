"""The dtypes of an op's tensors, from its op json (or OpDef): the DTYPE_<NAME> / ORIG_DTYPE_<NAME> macros the
lowering binds, the dtype combination (column) concrete inputs select, the outputs' dtypes in it, and the bindings a
run without shapes guesses. The package module (ascendir/lower/__init__.py) re-exports every public name here.
"""

from __future__ import annotations

from collections.abc import Iterable

from frontend import ast as A
from frontend.pipeline import Program
from frontend.readers import Bundle

# ge dtype names in op json -> the C type DTYPE_<NAME> expands to.
GE_DTYPES = {
    "float16": "half", "fp16": "half", "half": "half", "float": "float", "float32": "float", "fp32": "float",
    "bfloat16": "bfloat16_t", "bf16": "bfloat16_t", "int8": "int8_t", "uint8": "uint8_t", "int16": "int16_t",
    "uint16": "uint16_t", "int32": "int32_t", "uint32": "uint32_t", "int64": "int64_t", "uint64": "uint64_t",
    "bool": "bool", "double": "double", "float64": "double", "int4": "int4b_t",
}  # fmt: skip


def unbound_dtype_macros(program: Program, nodes: Iterable[object] | None = None) -> set[str]:
    """DTYPE_<NAME> / ORIG_DTYPE_<NAME> macros the program uses (among `nodes`, by default its whole AST) that no
    op json binds: the lowering reads them as DEFAULT_DTYPE, a guess."""
    if nodes is None:
        nodes = (node for u in program.units for node in u.ast.walk())
    used = {node.name for node in nodes
            if type(node) is A.NamePart and node.name.startswith(("DTYPE_", "ORIG_DTYPE_"))}
    return used - dtype_bindings(program).keys() if used else used


def dtype_bindings(program: Program, input_dtypes: list[str] | None = None) -> dict[str, str]:
    """DTYPE_<NAME> for every input and output of the op json (or, without one, for the integer-typed inputs
    and outputs of the op's OpDef: see frontend.opdef.bound_descriptions).

    The json's `type` lists are columns: the k-th entries of all inputs and outputs form one supported
    combination. Without `input_dtypes` the first column is bound; with them (the dtypes of concrete input
    tensors, in op order), the first column whose inputs have those dtypes (see `dtype_column`), and failing
    that the given dtypes for the inputs and the first column for the rest. Concrete inputs fix the column, so
    then an OpDef binds its floating inputs and outputs too."""
    from frontend.opdef import bound_descriptions, op_descriptions

    out: dict[str, str] = {}
    for op in op_descriptions(program.bundle) if input_dtypes else bound_descriptions(program.bundle):
        descs = _descs(op)
        columns = [[GE_DTYPES.get(str(t).lower().removeprefix("dt_")) for t in _types(d)] for _, d in descs]
        wanted = [GE_DTYPES.get(t.lower()) for t in input_dtypes] if input_dtypes else []
        inputs = [i for i, (key, _) in enumerate(descs) if key == "input_desc"]
        chosen = _column(columns, inputs, wanted) if wanted else 0
        for i, (key, desc) in enumerate(descs):
            name = str(desc.get("name", "")).upper()
            column = columns[i]
            c_type = column[chosen] if chosen is not None and chosen < len(column) else (column[0] if column else None)
            # (an input whose type list the reader could not evaluate has the given tensor's dtype too)
            if (chosen is None or not any(column)) and key == "input_desc" and inputs.index(i) < len(wanted) \
                    and wanted[inputs.index(i)]:
                c_type = wanted[inputs.index(i)]
            if name and c_type:
                out[f"DTYPE_{name}"] = c_type
                out[f"ORIG_DTYPE_{name}"] = c_type
    return out


# What a guessed element type becomes for a DTYPE macro whose OpDef lists other types: the first of these the
# OpDef lists, else its first listed type.
_GUESS_NEIGHBOURS = {
    "float": ("float", "bfloat16_t", "half"),
    "half": ("half", "bfloat16_t", "float"),
    "int32_t": ("int32_t", "int64_t", "uint32_t", "int16_t", "uint16_t", "int8_t", "uint8_t"),
}


def guessed_dtypes(bundle: Bundle, guess: str) -> dict[str, str]:
    """DTYPE_<NAME> / ORIG_DTYPE_<NAME> for the inputs and outputs of the op's OpDef that no op json binds and
    that cannot be `guess`: the OpDef lists other types for them (zero points of int32 or bf16 beside float
    scales). Each gets the listed type closest to the guess (bfloat16_t for a float or half guess), so that a
    guessing run instantiates the kernel with types the op is built for. Macros not named here take `guess`."""
    from frontend.opdef import bound_descriptions, op_descriptions

    if bundle.op_json:
        return {}
    bound = {str(d.get("name", "")).upper() for op in bound_descriptions(bundle) for _, d in _descs(op)}
    out: dict[str, str] = {}
    for op in op_descriptions(bundle):
        for _, desc in _descs(op):
            name = str(desc.get("name", "")).upper()
            listed = [t for t in (GE_DTYPES.get(str(t).lower().removeprefix("dt_")) for t in _types(desc)) if t]
            if not name or not listed or guess in listed or name in bound:
                continue
            chosen = next((t for t in _GUESS_NEIGHBOURS.get(guess, ()) if t in listed), listed[0])
            out[f"DTYPE_{name}"] = out[f"ORIG_DTYPE_{name}"] = chosen
    return out


def dtype_column(program: Program, input_dtypes: list[str]) -> tuple[bool, str]:
    """Whether the op json supports inputs of these dtypes (in op order), and if not, what it supports."""
    ops = program.bundle.op_json or []
    if not ops:
        return True, ""
    descs, columns, inputs = _dtype_table(ops[0])
    wanted = [GE_DTYPES.get(t.lower()) for t in input_dtypes]
    if not any(columns[i] for i in inputs) or _column(columns, inputs, wanted) is not None:
        return True, ""
    width = min((len(columns[i]) for i in inputs if columns[i]), default=0)
    raw = [_types(d) for _, d in descs]
    combos = sorted({", ".join(str(raw[i][k]) for i in inputs if raw[i]) for k in range(width)})
    return False, "; ".join(f"({c})" for c in combos)


_NUMPY_NAMES = {"half": "float16", "float": "float32", "bfloat16_t": "bfloat16", "double": "float64",
                "int4b_t": "int4", "bool": "bool"}


def numpy_dtype_of_ge(name: object) -> str | None:
    """An op json or OpDef dtype name (`DT_FLOAT16`, `float16`, `fp16`) as a numpy-style name (`float16`), or
    None when it names no dtype the lowering knows."""
    ctype = GE_DTYPES.get(str(name).lower().removeprefix("dt_"))
    return None if ctype is None else _NUMPY_NAMES.get(ctype, ctype.removesuffix("_t"))


def output_dtypes(program: Program, input_dtypes: list[str]) -> list[str | None]:
    """The dtype (numpy-style name) of each output of the op json, in the dtype combination that the inputs'
    dtypes select; None where the json does not say."""
    ops = program.bundle.op_json or []
    if not ops:
        return []
    descs, columns, inputs = _dtype_table(ops[0])
    outputs = [i for i, (key, _) in enumerate(descs) if key == "output_desc"]
    k = _column(columns, inputs, [GE_DTYPES.get(t.lower()) for t in input_dtypes])
    out: list[str | None] = []
    for i in outputs:
        ctype = columns[i][k] if k is not None and k < len(columns[i]) else None
        if ctype is None and len(set(columns[i])) == 1:
            ctype = columns[i][0]  # one dtype whatever the inputs
        out.append(None if ctype is None else _NUMPY_NAMES.get(ctype, ctype.removesuffix("_t")))
    return out


def _dtype_table(op: dict[str, object]) -> tuple[list[tuple[str, dict[str, object]]], list[list[str | None]],
                                                  list[int]]:
    """The op json's tensor descriptions (inputs, then outputs), each one's dtype list as C types, and the
    positions of the inputs among them: column k of every list is one supported dtype combination."""
    descs = _descs(op)
    columns = [[GE_DTYPES.get(str(t).lower().removeprefix("dt_")) for t in _types(d)] for _, d in descs]
    return descs, columns, [i for i, (key, _) in enumerate(descs) if key == "input_desc"]


def _descs(op: dict[str, object]) -> list[tuple[str, dict[str, object]]]:
    return [(key, d) for key in ("input_desc", "output_desc") for d in op.get(key, []) or []  # type: ignore[attr-defined]
            if isinstance(d, dict)]


def _column(columns: list[list[str | None]], inputs: list[int], wanted: list[str | None]) -> int | None:
    width = min((len(columns[i]) for i in inputs if columns[i]), default=0)
    return next((k for k in range(width) if all(
        w is None or j >= len(inputs) or not columns[inputs[j]] or columns[inputs[j]][k] == w
        for j, w in enumerate(wanted))), None)


def _types(desc: dict[str, object]) -> list[object]:
    types = desc.get("type") or desc.get("types") or []
    return types if isinstance(types, list) else [types] if isinstance(types, str) else []
