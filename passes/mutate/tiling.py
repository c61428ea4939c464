"""Tiling bugs: the split of the data over cores and tiles off by one, rounded down, or missing its tail."""

from __future__ import annotations

import re
from collections.abc import Iterator

from passes.mutate.lines import Site, block_end, code_lines, code_part, replaced
from passes.mutate.model import Operator

# `for (int32_t i = 0; i < loopCount; i++)`: a loop counting up to a bound with `<`
_FOR_LESS = re.compile(r"\bfor\s*\([^;]*;\s*(\w+)\s*<\s*([^;=<>][^;]*);\s*(\+\+\1|\1\s*\+\+|\1\s*\+=\s*1)\s*\)")
# `(a + b - 1) / b`: a ceiling division, spelt the usual way
_OPERAND = r"[A-Za-z_][\w.\->]*(?:\(\s*\))?"  # a name, a member, or a call without arguments
_CEIL_DIV = re.compile(rf"\(\s*({_OPERAND}(?:\s*\*\s*{_OPERAND})?)\s*\+\s*({_OPERAND})\s*-\s*1\s*\)\s*/\s*"
                       rf"(?:\(\s*\2\s*\)|\2(?![\w(]))")
# `if (tailLength > 0) {`, `if (tail) {`, `if (remain != 0) {`: the block that handles what the even split leaves
_TAIL_IF = re.compile(r"^\s*if\s*\(\s*[\w.\->]*(?:[Tt]ail|[Rr]emain|[Ll]eftover|[Rr]esidual|[Ll]ast)\w*\b[^;{]*\)\s*\{\s*$")


def _loop_off_by_one(lines: list[str]) -> Iterator[Site]:
    """`for (i = 0; i < n; i++)` -> `i <= n`: one tile (or row) too many, read and written past the end."""
    for i in code_lines(lines):
        match = _FOR_LESS.search(code_part(lines[i]))
        if match is None:
            continue
        less = lines[i].index("<", match.end(1))
        yield i, replaced(lines, i, lines[i][:less] + "<=" + lines[i][less + 1:])


def _floor_division(lines: list[str]) -> Iterator[Site]:
    """`(n + tile - 1) / tile` -> `n / tile`: the count of tiles, blocks or cores rounded down, so the last
    partial one is never processed."""
    for i in code_lines(lines):
        match = _CEIL_DIV.search(code_part(lines[i]))
        if match is None:
            continue
        yield i, replaced(lines, i, lines[i][:match.start()] + f"{match.group(1)} / {match.group(2)}"
                          + lines[i][match.end():])


# `n = (len - pos) < tile ? (len - pos) : tile;`: the last tile (or core) clipped to what is left
_CLIPPED = re.compile(r"^(\s*(?:const\s+)?(?:[\w:<>]+\s+)?[\w.\->]+\s*=\s*)([^;?]+?)\s*(<|>)=?\s*([^;?]+?)\s*\?\s*"
                      r"([^;:]+?)\s*:\s*([^;]+?)\s*;\s*(//.*)?$")
_PLAIN = re.compile(r"[A-Za-z_][\w.\->]*")


def _drop_tail(lines: list[str]) -> Iterator[Site]:
    """Delete the `if (tail...) { ... }` block that processes what the even split leaves, or take the full tile
    where the last one is clipped to what is left (`n = rest < tile ? rest : tile` -> `n = tile`): the last
    elements are never computed or copied out, or a core reads and writes past its share."""
    for i in code_lines(lines):
        clipped = _CLIPPED.match(lines[i])
        if clipped is None:
            continue
        branches = [clipped.group(5).strip(), clipped.group(6).strip()]
        full = [b for b in branches if _PLAIN.fullmatch(b)]
        rest = [b for b in branches if "-" in b]
        if len(full) == 1 and len(rest) == 1:
            yield i, replaced(lines, i, f"{clipped.group(1)}{full[0]};")
    code = list(code_lines(lines))
    for pos, i in enumerate(code):
        if not _TAIL_IF.match(code_part(lines[i])):
            continue
        end = block_end(lines, i)
        if end is None:
            continue
        following = next((j for j in code[pos + 1:] if j > end and lines[j].strip()), None)
        if following is not None and lines[following].strip().startswith("else"):
            continue  # an if/else: deleting the if would leave the else dangling
        yield i, lines[:i] + lines[end + 1:]


TILING_OPERATORS = [
    Operator("loop-off-by-one", ("ASC3", "ASC6"), "a for loop's `<` bound made `<=`", _loop_off_by_one,
             "host_tiling_invalid", "loop over exactly the tiles there are: `i < n`, not `i <= n`"),
    Operator("floor-division", ("ASC6",), "a ceiling division (n + d - 1) / d made n / d", _floor_division,
             "host_tiling_invalid", "round the count of tiles, blocks or cores up, (n + d - 1) / d, so the last "
             "partial one is processed", scope="any"),
    Operator("drop-tail", ("ASC6",), "the block that handles the tail of the split deleted", _drop_tail,
             "multicore_coverage_or_offset", "process the tail the even split leaves (the last partial tile or the "
             "extra elements of the last core)"),
]
