"""Object-like macros from headers out of reach, written alone on a line between declarations: ops-nn's
`END_TUNING_TILING_DEF` (register/tuning_tiling_registry.h: `};`) between a tuning struct's last field and the
`DECLARE_SCHEMA(Struct, FIELD(...), ...)` after it. Unexpanded, the word reads as the return type of a function
declaration named by the next line's macro, whose arguments then fail as parameters [ASC001].

Only after a syntax error in the statement the word starts: when that statement is an unknown ALL_CAPS name
(with an underscore, a macro's spelling) on a line of its own, followed by `NAME(` on the next line, the word is
blanked (offsets stay exact) and the text parsed again, so the next line reads as the macro declaration it is.
Text that parses is never changed.
"""

from __future__ import annotations

import re

from frontend.parser_prescan import statement_start

# the statement's first word alone on its line, then a line that starts with `NAME(`
_ALONE_BEFORE_CALL_RE = re.compile(r"\s*((?:[A-Z][A-Z0-9]*_)+[A-Z0-9]+)[ \t]*\r?\n\s*[A-Za-z_]\w*[ \t]*\(")


def blanked_object_macro(text: str, error_pos: int) -> str | None:
    """`text` with the object-like macro that starts the statement of the error at `error_pos` blanked, or None
    when that statement does not start so."""
    start = statement_start(text, error_pos)
    m = _ALONE_BEFORE_CALL_RE.match(text, start)
    if m is None or m.end(1) > error_pos:
        return None
    return text[: m.start(1)] + " " * (m.end(1) - m.start(1)) + text[m.end(1) :]
