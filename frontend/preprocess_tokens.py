"""The preprocessor's tokens: token kinds, the token pattern, the token type (with its origin and the macros
it was expanded from), and the names and directive words that several parts test for.
"""

from __future__ import annotations

import re


NEWLINE_RE = re.compile(r"\n")

# Token kinds.
ID, NUM, STR, CHR, PUNCT, OTHER = range(6)

_TOKEN_BODY = r"""
  (?P<raw>(?:u8|[uUL])?R"(?P<delim>[^()\\\s"]{0,16})\(.*?\)(?P=delim)")
 |(?P<str>(?:u8|[uUL])?"(?:[^"\\\n]|\\[^\n])*(?:"(?:_\w*)?)?)
 |(?P<chr>(?:u8|[uUL])?'(?:[^'\\\n]|\\[^\n])*(?:'(?:_\w*)?)?)
 |(?P<id>[^\W\d][\w$]*|\$[\w$]*)
 |(?P<num>\.?\d(?:[eEpP][+-]|[\w.]|'(?=\w))*)
 |(?P<punct>\.\.\.|<<=|>>=|->\*|<=>|::|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^]=|\#\#|\.\*
           |[-+*/%&|^~!=<>?:;,.()\[\]{}\#])
 |(?P<other>\S)
"""
# finditer skips whitespace (no alternative starts with it); a token's leading whitespace is the gap.
TOKEN_RE = re.compile(_TOKEN_BODY, re.VERBOSE | re.DOTALL)
KIND = {"raw": STR, "str": STR, "chr": CHR, "id": ID, "num": NUM, "punct": PUNCT, "other": OTHER}
DIRECTIVE_RE = re.compile(r"\s*#\s*([^\W\d]\w*)?")

EMPTY_HS: frozenset[str] = frozenset()
BUILTINS = frozenset({"__LINE__", "__FILE__", "__COUNTER__", "_Pragma"})
CONDITIONALS = frozenset({"if", "ifdef", "ifndef", "elif", "else", "endif", "elifdef", "elifndef"})


class Tok:
    """A preprocessing token: spelling, leading whitespace, hide set, origin and producing macro."""

    __slots__ = ("hs", "kind", "macro", "org", "text", "ws")

    def __init__(
        self, kind: int, text: str, ws: str, hs: frozenset[str], org: tuple[int, int, int], macro: str | None
    ) -> None:
        self.kind = kind
        self.text = text
        self.ws = ws
        self.hs = hs
        self.org = org
        self.macro = macro

    def __repr__(self) -> str:
        return f"Tok({self.text!r})"
