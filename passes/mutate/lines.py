"""Line-level helpers the mutation operators share: which lines hold code, a call's argument spans.

The edits are textual and line-based on purpose: a mutant must stay byte-for-byte the original everywhere
else (so the diff a repair example shows is the bug and nothing more), and they apply to any input text
(a kernel file, an op project's files, a benchmark answer with the kernel inside a string).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

# (0-based index of the edited line in the original, the file's new lines)
Site = tuple[int, list[str]]
SiteFinder = Callable[[list[str]], Iterator[Site]]


def code_lines(lines: list[str]) -> Iterator[int]:
    """Indices of lines outside block comments and preprocessor-disabled `#if 0` regions, not comment-only."""
    in_block = False
    disabled = 0
    for i, line in enumerate(lines):
        stripped = line.strip()
        if in_block:
            if "*/" in stripped:
                in_block = False
            continue
        if stripped.startswith("/*") and "*/" not in stripped:
            in_block = True
            continue
        if re.match(r"#\s*if\s+0\b", stripped):
            disabled += 1
            continue
        if disabled and re.match(r"#\s*if", stripped):
            disabled += 1
            continue
        if disabled and re.match(r"#\s*endif", stripped):
            disabled -= 1
            continue
        if disabled or stripped.startswith("//") or stripped.startswith("*"):
            continue
        yield i


def code_part(line: str) -> str:
    """The line without a trailing `//` comment (a `//` inside a string literal is rare enough in kernels)."""
    return line.split("//", 1)[0]


def replaced(lines: list[str], i: int, new: str | list[str]) -> list[str]:
    """`lines` with line `i` replaced by `new` (one line or several; an empty list deletes it)."""
    return lines[:i] + ([new] if isinstance(new, str) else new) + lines[i + 1:]


def drop_matching(pattern: re.Pattern[str]) -> SiteFinder:
    """Sites that delete a whole line matching `pattern`."""
    def sites(lines: list[str]) -> Iterator[Site]:
        for i in code_lines(lines):
            if pattern.match(lines[i]):
                yield i, replaced(lines, i, [])
    return sites


def repeat_matching(pattern: re.Pattern[str]) -> SiteFinder:
    """Sites that write a line matching `pattern` twice."""
    def sites(lines: list[str]) -> Iterator[Site]:
        for i in code_lines(lines):
            if pattern.match(lines[i]):
                yield i, replaced(lines, i, [lines[i], lines[i]])
    return sites


def split_args(text: str, start: int) -> tuple[list[tuple[int, int]], int] | None:
    """Spans of the top-level arguments of the call whose '(' is at `start`, and the index of its ')';
    None when the call does not close on this line."""
    depth = 0
    spans = []
    begin = start + 1
    for k in range(start, len(text)):
        ch = text[k]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth == 0:
                spans.append((begin, k))
                return spans, k
        elif ch == "," and depth == 1:
            spans.append((begin, k))
            begin = k + 1
    return None


def call_args(line: str, pattern: re.Pattern[str]) -> Iterator[tuple[re.Match[str], list[tuple[int, int]]]]:
    """Every call on `line` whose name `pattern` matches (the match must end at the call's '('), with the
    spans of its arguments."""
    for match in pattern.finditer(line):
        parsed = split_args(line, match.end() - 1)
        if parsed is not None:
            yield match, parsed[0]


def block_end(lines: list[str], start: int) -> int | None:
    """The index of the line that closes the brace block opened on line `start` (or on the first line after
    it that opens one), None when the braces do not balance or a line mixes the closing brace with code."""
    depth = 0
    opened = False
    for j in range(start, len(lines)):
        text = code_part(lines[j])
        for ch in text:
            if ch == "{":
                depth += 1
                opened = True
            elif ch == "}":
                depth -= 1
                if opened and depth == 0:
                    # `} else {` continues the statement: deleting up to here would leave a dangling else
                    return j if text[text.rindex("}") + 1:].strip() == "" else None
        if not opened and j > start and text.strip().endswith(";"):
            return None  # a braceless body
    return None


def operand_end(text: str, start: int) -> int | None:
    """The end of the primary expression starting at `start`: a parenthesised expression, or a name with member
    accesses, template arguments and call parentheses (`static_cast<float>(n)`, `td.rows`, `stat.GetValue(0)`);
    None when none starts there."""
    k = start
    if k < len(text) and text[k] == "(":
        parsed = split_args(text, k)
        return parsed[1] + 1 if parsed else None
    name = re.match(r"[A-Za-z_][\w:]*", text[k:])
    if name is None:
        return None
    k += name.end()
    while k < len(text):
        if text[k] == "<":
            close = text.find(">", k)
            if close < 0 or not re.fullmatch(r"<\s*[\w:\s*,]*>", text[k:close + 1]):
                break
            k = close + 1
        elif text[k] == "(":
            parsed = split_args(text, k)
            if parsed is None:
                return None
            k = parsed[1] + 1
        elif (member := re.match(r"(\.|->)[A-Za-z_]\w*", text[k:])) is not None:
            k += member.end()
        else:
            break
    return k
