"""The other reading of a name: Lark's on-error hook that feeds a retagged token again, and after a flip that
took the parse further, the same reading for the name's later uses.
"""

from __future__ import annotations

import re

from lark import Token
from lark.exceptions import UnexpectedInput, UnexpectedToken

from frontend.parser_prescan import IDENT_RE, statement_start
from frontend.parser_tokens import IdentifierRetagger


# When a retagged token does not fit, the other reading may: a vendor type name used as a variable
# (`r * half`), or a type from a header we never see (`const nlohmann::json& j`, `ge::char_t* p`).
_RETAG_ALTERNATIVES = {
    "TYPE_NAME": ("IDENTIFIER",),
    "TYPE_TEMPLATE": ("TEMPLATE_NAME",),
    "TEMPLATE_NAME": ("TYPE_TEMPLATE",),
    "IDENTIFIER": ("TYPE_NAME",),
}


def retag_fallback(exc: UnexpectedInput) -> bool:
    """Lark on_error hook: feed the token again with another identifier tag if the parser accepts it."""
    if not isinstance(exc, UnexpectedToken):
        return False
    tok = exc.token
    alternatives = _RETAG_ALTERNATIVES.get(tok.type)
    if not alternatives:
        return False
    parser = exc.interactive_parser
    try:
        accepted = parser.accepts()
    except Exception:
        return False
    for alt in alternatives:
        if alt in accepted:
            parser.feed_token(Token.new_borrow_pos(alt, tok.value, tok))
            return True
    return False


def error_offset(exc: UnexpectedInput) -> int:
    if isinstance(exc, UnexpectedToken):
        return exc.token.start_pos if exc.token.start_pos is not None else 1 << 62
    return getattr(exc, "pos_in_stream", None) or 0


class AlikeReadings:
    """After reading the name at one place the other way (type <-> variable) took the parse further, read its
    later uses the same way: a type the scan missed (`const FooTilingData* __restrict t`), or a variable it
    took for one (`(AlignkW * curkH)`), is usually so everywhere, and a retry per use costs a parse of the
    whole text per use. Not always: a template parameter `T` is a value in one template and a type in the
    next. So a use the spread made fail takes the spread back from its statement on, and a name the text
    declares the other way somewhere is not spread at all."""

    def __init__(self, retagger: IdentifierRetagger) -> None:
        self.retagger = retagger
        self.spread_to: dict[str, tuple[str, list[int]]] = {}  # name -> its other tag, the offsets given it

    def spread(self, text: str, flipped_at: int, error_pos: int) -> bool:
        """From the start of the statement that now fails at `error_pos` on, give every use of the name at
        `flipped_at` its flipped tag, except members (`.x`, `->x`) and uses that differ in starting a template
        argument list; uses before that statement parsed as they were and keep their tags. Each name once;
        True if some use changed, and the text should be parsed again."""
        match = IDENT_RE.match(text, flipped_at)
        if match is None or match.group() in self.spread_to:
            return False
        overrides = self.retagger.overrides
        tag = overrides[flipped_at]
        scan = self.retagger.scan
        if match.group() in (scan.variables if tag in ("TYPE_NAME", "TYPE_TEMPLATE") else scan.declared_types):
            # declared the other way somewhere (`const uint32_t N = 1024;`, `class Tuple`): in an ambiguous
            # place (`Dim3(N)`, `f<Tuple>`) that reading is the likelier one, so only this use is flipped
            return False
        starts = scan.template_starts
        at_template = flipped_at in starts
        statement = statement_start(text, error_pos)
        offsets: list[int] = []
        self.spread_to[match.group()] = (tag, offsets)
        for use in re.finditer(rf"(?<![\w.]){re.escape(match.group())}\b", text[statement:]):
            offset = statement + use.start()
            if offset in overrides or (offset in starts) != at_template:
                continue
            if text[max(0, offset - 8) : offset].rstrip().endswith(("->", ".")):
                continue
            overrides[offset] = tag
            offsets.append(offset)
        return bool(offsets)

    def withdraw(self, text: str, error_pos: int) -> bool:
        """Take back every spread that reached the statement failing at `error_pos`, from that statement on.
        True if one was: the text should be parsed again."""
        statement = statement_start(text, error_pos)
        overrides = self.retagger.overrides
        withdrawn = False
        for tag, offsets in self.spread_to.values():
            if any(statement <= offset <= error_pos for offset in offsets):
                for offset in offsets:
                    if offset >= statement and overrides.get(offset) == tag:  # not flipped again since
                        del overrides[offset]
                offsets[:] = [o for o in offsets if o < statement]
                withdrawn = True
        return withdrawn


def same_statement(text: str, name_pos: int, error_pos: int) -> bool:
    """Is the name at `name_pos` in the statement that fails at `error_pos` (no `;`, `{`, `}` between)?"""
    if error_pos <= name_pos:
        return False
    between = text[name_pos:error_pos]
    return ";" not in between and "{" not in between and "}" not in between
