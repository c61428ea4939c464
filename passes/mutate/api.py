"""API-misuse bugs: the compile errors models make most (scalar types, overloads, libm, namespaces, casts)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from passes.mutate.lines import Site, call_args, code_lines, code_part, operand_end, replaced
from passes.mutate.model import Operator

SCALAR_OP = re.compile(r"\b((AscendC::)?(Muls|Adds|Maxs|Mins))\s*(<[^;()]*>)?\s*\(")
USING_ASCENDC = re.compile(r"^\s*using\s+namespace\s+AscendC\s*;\s*(//.*)?$")
BARE_TYPE = re.compile(r"(?<!::)(?<![\w])(TPipe|TQue|TQueBind|TBuf|LocalTensor|GlobalTensor)\b(?!\s*\()")
TENSOR_DECL = re.compile(r"^\s*(?:AscendC::)?LocalTensor\s*<\s*([\w:]+)\s*>\s+\w+\s*=\s*[\w.\->\[\]]+?(?:\.|->)"
                         r"(?:DeQue|AllocTensor|Get)\s*<\s*\1\s*>\s*\([^;]*\)\s*;\s*(//.*)?$")
ROUND_MODE = re.compile(r"RoundMode::(CAST_\w+)")
NOARG_CALL = re.compile(r"\bAscendC::((GetBlockIdx|GetBlockNum|GetSubBlockIdx|GetTaskRation)\s*\(\s*\)"
                        r"|PipeBarrier\s*<\s*PIPE_\w+\s*>\s*\(\s*\))")
REDUCE = re.compile(r"\b(AscendC::)?(ReduceSum|ReduceMax|ReduceMin)\s*(<[^;()]*>)?\s*\(")
_TENSOR_SCALAR_TO_BINARY = {"Muls": "Mul", "Adds": "Add", "Maxs": "Max", "Mins": "Min"}
# a scalar float expression a model writes with libm: `1.0f / x` (-> powf(x, -1.0f)) or `x * x` (-> powf(x, 2.0f))
_RECIPROCAL = re.compile(r"(?<![\w.])1(?:\.0*)?f\s*/\s*")
_SQUARE = re.compile(r"\b([A-Za-z_]\w*)\s*\*\s*\1\b(?!\s*[\[(.])")
_FLOAT_DECL = re.compile(r"^\s*(?:const\s+)?(?:float|float32_t)\s+\w+\s*=")
_FLOAT_VALUE = re.compile(r"NAN|INFINITY|[-+]?[\d.]+(?:[eE][-+]?\d+)?[fF]?|\w*(?:[Ss]cale|[Ee]ps|[Aa]lpha|[Bb]eta)\w*")
_FLOAT_CAST = re.compile(r"\bstatic_cast\s*<\s*(float|float32_t)\s*>\s*\(")


def _double_scalar(lines: list[str]) -> Iterator[Site]:
    """Muls/Adds/Maxs/Mins(dst, src, scalar, count): make the scalar a double."""
    for i in code_lines(lines):
        for _, args in call_args(lines[i], SCALAR_OP):
            if len(args) < 4:
                continue
            begin, end = args[2]
            scalar = lines[i][begin:end].strip()
            yield i, replaced(lines, i, lines[i][:begin] + f" static_cast<double>({scalar})" + lines[i][end:])
            break


def _scalar_as_tensor(lines: list[str]) -> Iterator[Site]:
    """`Muls(dst, src, scalar, n)` -> `Mul(dst, src, scalar, n)`: the tensor-tensor API called with a scalar (the
    real failure: a scalar form of Sub or Mul that does not exist)."""
    for i in code_lines(lines):
        for match, args in call_args(lines[i], SCALAR_OP):
            if len(args) != 4:
                continue
            name = match.group(3)
            new = lines[i][:match.start(3)] + _TENSOR_SCALAR_TO_BINARY[name] + lines[i][match.end(3):]
            yield i, replaced(lines, i, new)
            break


def _reduce_without_work(lines: list[str]) -> Iterator[Site]:
    """`ReduceSum(dst, src, work, count)` -> `ReduceSum(dst, src, count)`: the wrong argument count (the level-2
    reductions need the work tensor; the real failure: ReduceMax/ReduceSum called with too few arguments)."""
    for i in code_lines(lines):
        for _, args in call_args(lines[i], REDUCE):
            if len(args) != 4:
                continue
            yield i, replaced(lines, i, lines[i][:args[1][1]] + "," + lines[i][args[3][0]:])
            break


def _unqualify(lines: list[str]) -> Iterator[Site]:
    """`AscendC::GetBlockIdx()` -> `GetBlockIdx()` in a file with no `using namespace AscendC`."""
    joined = "\n".join(lines)
    if re.search(r"using\s+namespace\s+AscendC\b|namespace\s+AscendC\s*\{", joined):
        return
    for i in code_lines(lines):
        match = NOARG_CALL.search(lines[i])
        if match:
            yield i, replaced(lines, i, lines[i][:match.start()] + match.group(1) + lines[i][match.end():])


def _retype_tensor(lines: list[str]) -> Iterator[Site]:
    """`LocalTensor<half> x = q.DeQue<half>();` -> the same with another element type on both sides (float for
    half, half for float and int8_t, int8_t for anything else: a template parameter such as T or DTYPE_X may
    well be half or float in the instance checked, where the edit would change nothing), so the tensor no
    longer matches the tensors and GM buffers it meets."""
    for i in code_lines(lines):
        match = TENSOR_DECL.match(lines[i])
        if not match:
            continue
        old = match.group(1).strip()
        new_type = {"half": "float", "float": "half", "int8_t": "half"}.get(old, "int8_t")
        element = re.compile(rf"<\s*{re.escape(old)}\s*>")
        yield i, replaced(lines, i, element.sub(f"<{new_type}>", lines[i]))


def _cast_round_mode(lines: list[str]) -> Iterator[Site]:
    """`RoundMode::CAST_X` in a Cast -> `RoundMode::CAST_ODD`, which only float -> half takes (and
    `RoundMode::CAST_RINT` where it was CAST_ODD)."""
    for i in code_lines(lines):
        if not re.search(r"\bCast\s*(<[^;()]*>)?\s*\(", lines[i]):
            continue
        match = ROUND_MODE.search(lines[i])
        if match:
            mode = "CAST_RINT" if match.group(1) == "CAST_ODD" else "CAST_ODD"
            yield i, replaced(lines, i, lines[i][:match.start(1)] + mode + lines[i][match.end(1):])


def _libm_call(lines: list[str]) -> Iterator[Site]:
    """In a scalar float declaration, `1.0f / x` -> `powf(x, -1.0f)` or `x * x` -> `powf(x, 2.0f)`: the same
    value through a C math library function, which device code cannot call (the real failure: `expf`, `sqrtf`,
    `powf` undeclared in an aicore function)."""
    for i in code_lines(lines):
        code = code_part(lines[i])
        if not _FLOAT_DECL.match(code):
            continue
        reciprocal = _RECIPROCAL.search(code)
        end = operand_end(code, reciprocal.end()) if reciprocal else None
        if reciprocal is not None and end is not None:
            start, base, exponent = reciprocal.start(), code[reciprocal.end():end], "-1.0f"
        elif (square := _SQUARE.search(code)) is not None:
            start, end, base, exponent = square.start(), square.end(), square.group(1), "2.0f"
        else:
            continue
        yield i, replaced(lines, i, lines[i][:start] + f"powf({base}, {exponent})" + lines[i][end:])


def _unsigned_cast(lines: list[str]) -> Iterator[Site]:
    """`static_cast<float>(n)` -> `static_cast<float>(static_cast<uint32_t>(n))`: the count goes through an
    unsigned integer on its way to float, a conversion the device compiler rejects (the real failure: float <->
    unsigned casts in aicore functions)."""
    for i in code_lines(lines):
        for match, args in call_args(lines[i], _FLOAT_CAST):
            begin, end = args[0]
            inner = lines[i][begin:end].strip()
            if _FLOAT_VALUE.fullmatch(inner):
                continue  # a float constant: nothing to convert from an integer
            new = lines[i][:begin] + f"static_cast<uint32_t>({inner})" + lines[i][end:]
            yield i, replaced(lines, i, new)
            break


def _drop_using(lines: list[str]) -> Iterator[Site]:
    """Delete `using namespace AscendC;` where the file names an AscendC type without `AscendC::`."""
    joined = "\n".join(lines)
    if re.search(r"namespace\s+AscendC\s*\{", joined):
        return
    code = list(code_lines(lines))
    usings = [i for i in code if USING_ASCENDC.match(lines[i])]
    if len(usings) != 1:
        return
    if any(BARE_TYPE.search(code_part(lines[i])) for i in code if i != usings[0]):
        yield usings[0], replaced(lines, usings[0], [])


def _another_using_in_effect(program: object) -> bool:
    """A header the file includes has its own `using namespace AscendC` (or of a vendor namespace that brings
    it in), so deleting the file's own directive breaks nothing."""
    from frontend import ast as A

    for unit in program.units:  # type: ignore[attr-defined]
        for node in unit.ast.walk():
            if isinstance(node, A.UsingDirective) and node.namespace.name != "std":
                return True
    return False


API_OPERATORS = [
    Operator("double-scalar", ("ASC503", "ASC508"), "the scalar of Muls/Adds/Maxs/Mins cast to double",
             _double_scalar, "kernel_scalar_dtype_rule",
             "pass the scalar of a tensor-scalar API in the tensors' element type; device code has no double"),
    Operator("scalar-as-tensor", ("ASC101",), "Muls/Adds/Maxs/Mins renamed to the tensor-tensor Mul/Add/Max/Min",
             _scalar_as_tensor, "kernel_api_misuse",
             "a scalar operand needs the tensor-scalar API (Muls, Adds, Maxs, Mins); Mul/Add/Max/Min take two "
             "tensors"),
    Operator("reduce-without-work", ("ASC101",), "the work tensor dropped from a ReduceSum/ReduceMax/ReduceMin",
             _reduce_without_work, "kernel_api_misuse",
             "the level-2 ReduceSum/ReduceMax/ReduceMin take (dst, src, work tensor, count)"),
    Operator("unqualify", ("ASC509",), "AscendC:: dropped from a no-argument call", _unqualify,
             "kernel_api_misuse", "qualify AscendC functions with AscendC:: where no `using namespace AscendC` "
             "is in effect and no argument lets lookup find them"),
    Operator("drop-using", ("ASC509",), "`using namespace AscendC;` deleted where bare AscendC types are used",
             _drop_using, "kernel_api_misuse", "keep `using namespace AscendC;` (or qualify every AscendC name)",
             needs_live=False, still_correct=_another_using_in_effect),
    Operator("retype-tensor", ("ASC1", "ASC5"), "a LocalTensor declared with another element type",
             _retype_tensor, "kernel_scalar_dtype_rule",
             "declare the LocalTensor with the element type its queue and GM tensors hold"),
    Operator("cast-round-mode", ("ASC5",), "a Cast's RoundMode replaced by CAST_ODD (CAST_RINT for CAST_ODD)",
             _cast_round_mode, "kernel_api_misuse",
             "use a RoundMode the Cast route accepts (CAST_NONE for widening, CAST_RINT/ROUND/... for narrowing; "
             "CAST_ODD only float -> half)"),
    Operator("libm-call", ("ASC102",), "a scalar reciprocal or square written with powf", _libm_call,
             "kernel_libm_call", "device code cannot call the C math library (powf, expf, sqrtf): compute the "
             "scalar with plain arithmetic, or the tensor with AscendC's vector APIs"),
    Operator("unsigned-cast", ("ASC507",), "an int -> float cast routed through uint32_t", _unsigned_cast,
             "kernel_scalar_dtype_rule", "convert to float from a signed integer (int32_t/int64_t); the device "
             "compiler rejects float <-> unsigned conversions"),
]
