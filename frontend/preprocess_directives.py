"""Directives in the preprocessor: the dispatch of a directive line (`#error`, `#warning`, `#pragma`, `#line`
...), and macro definitions: `#define` / `#undef` and -D style options.
"""

from __future__ import annotations

from frontend.diagnostics import Note, Span, error, warning
from frontend.preprocess_tokens import CONDITIONALS, DIRECTIVE_RE, ID, NUM, PUNCT, Tok
from frontend.preprocess_types import Budget, File, Macro, Origin, PPError


# Macros built from predefined / `defines` entries, by (key, value); Macro objects are immutable.
_OPTION_CACHE: dict[tuple[str, str], Macro] = {}


class Directives:
    """Directives in the preprocessor: methods of _Preprocessor (preprocess.py), which inherits them."""

    def _make_macro(
        self,
        name: str,
        params: tuple[str, ...] | None,
        variadic: bool,
        body: list[Tok],
        origin: Origin | None,
    ) -> Macro:
        if body:
            body[0] = Tok(body[0].kind, body[0].text, "", body[0].hs, body[0].org, None)
        pidx: list[int] = []
        index = {p: k for k, p in enumerate(params or ())}
        for t in body:
            pidx.append(index.get(t.text, -1) if t.kind == ID and params is not None else -1)
        text = "".join((" " if k and t.ws else "") + t.text for k, t in enumerate(body))
        vaopt = variadic and any(t.kind == ID and t.text == "__VA_OPT__" for t in body)
        return Macro(name, params, variadic, text, origin, tuple(body), tuple(pidx), vaopt)

    def _parse_define(self, toks: list[Tok], k: int, named_span: Span | None) -> Macro:
        """Parse `NAME[(params)] body` from toks[k:]; raise _PPError with a message on bad syntax."""
        if k >= len(toks):
            raise PPError("no macro name given in #define directive")
        nt = toks[k]
        if nt.kind != ID:
            raise PPError("macro names must be identifiers")
        if nt.text in ("defined", "__VA_ARGS__", "__VA_OPT__", "__has_include"):
            raise PPError(f"'{nt.text}' cannot be used as a macro name")
        k += 1
        params: tuple[str, ...] | None = None
        variadic = False
        if k < len(toks) and toks[k].text == "(" and not toks[k].ws:
            plist: list[str] = []
            k += 1
            while True:
                if k >= len(toks):
                    raise PPError("missing ')' in macro parameter list")
                t = toks[k]
                if t.text == ")" and not plist and not variadic:
                    k += 1
                    break
                if t.text == "...":
                    variadic = True
                    plist.append("__VA_ARGS__")
                    k += 1
                elif t.kind == ID:
                    if t.text in plist:
                        raise PPError(f"duplicate macro parameter '{t.text}'")
                    if t.text == "__VA_ARGS__":
                        raise PPError("__VA_ARGS__ can only appear in the expansion of a variadic macro")
                    plist.append(t.text)
                    k += 1
                    if k < len(toks) and toks[k].text == "...":
                        variadic = True  # GNU named variadic parameter `args...`
                        k += 1
                else:
                    raise PPError(f"expected parameter name, found '{t.text}'")
                if k >= len(toks):
                    raise PPError("missing ')' in macro parameter list")
                if toks[k].text == ")":
                    k += 1
                    break
                if toks[k].text != "," or variadic:
                    raise PPError("expected ',' or ')' in macro parameter list")
                k += 1
            params = tuple(plist)
        body = toks[k:]
        if body and body[0].kind == PUNCT and body[0].text == "##" or body and body[-1].text == "##":
            raise PPError("'##' cannot appear at either end of a macro expansion")
        if params is not None:
            for j, t in enumerate(body):
                if t.kind == PUNCT and t.text == "#":
                    nxt = body[j + 1] if j + 1 < len(body) else None
                    if (
                        nxt is None
                        or nxt.kind != ID
                        or (nxt.text not in params and nxt.text != "__VA_OPT__")
                    ):
                        raise PPError("'#' is not followed by a macro parameter")
        org = None
        if named_span is not None:
            org = Origin(named_span.file, nt.org[1], nt.org[2])
        return self._make_macro(nt.text, params, variadic, body, org)

    def define_from_option(self, key: str, value: str) -> None:
        """A `defines` entry: key `NAME` or `NAME(params)`, value the replacement text."""
        cached = _OPTION_CACHE.get((key, value))
        if cached is not None:
            self._set_macro(cached)
            return
        try:
            toks = self._lex(key)
            if len(toks) > 1 and toks[1].text == "(":
                toks[1].ws = ""
            m = self._parse_define(toks + self._lex(" " + value if value else ""), 0, None)
            if len(toks) > 1 and (m.params is None):
                raise PPError(f"invalid macro name '{key}'")
            if len(_OPTION_CACHE) < 4096:
                _OPTION_CACHE[(key, value)] = m
            self._set_macro(m)
        except PPError as exc:
            self.diags.append(error("ASC007", f"bad define '{key}': {exc}", None))

    def _directive(self, f: File, idx: int, line: str, in_args: bool) -> bool:
        """Handle one directive line; True when it emitted text (an #include)."""
        m = DIRECTIVE_RE.match(line)
        if m is None:
            return False
        name = m.group(1) or ""
        rest = m.end()
        hash_c0 = line.index("#")
        name_span = self._span(f, idx, hash_c0, rest)
        if name in CONDITIONALS:
            self._conditional(f, idx, line, name, rest, name_span)
            return False
        if not f.active:
            return False
        if not in_args:
            self.budget = 0
        try:
            if name == "define":
                toks = self._tokenize(f, idx, line, rest)
                mac = self._parse_define(toks, 0, name_span)
                old = self.macros.get(mac.name)
                if old is not None and old.origin is not None and old.same_definition(mac):
                    return False  # a benign redefinition: keep the first one's origin
                if old is not None and old.origin is not None:
                    o = old.origin
                    self.diags.append(
                        warning(
                            "ASC008",
                            f"'{mac.name}' redefined",
                            self._tok_span(toks[0]),
                            Note("previous definition is here", Span.point(o.file, o.line, o.col)),
                        )
                    )
                self._set_macro(mac)
            elif name == "undef":
                toks = self._tokenize(f, idx, line, rest)
                if not toks:
                    raise PPError("no macro name given in #undef directive")
                if toks[0].kind != ID:
                    raise PPError("macro names must be identifiers")
                self._del_macro(toks[0].text)
            elif name in ("include", "include_next", "import"):
                if in_args:
                    raise PPError("#include inside macro arguments is not supported")
                return self._include(f, idx, line, rest, name_span)
            elif name in ("error", "warning"):
                msg = line[rest:].strip() or f"#{name}"
                span = self._span(f, idx, hash_c0, len(line.rstrip()))
                make = error if name == "error" else warning
                self.diags.append(make("ASC004", msg, span))
            elif name == "pragma":
                toks = self._tokenize(f, idx, line, rest)
                if toks and toks[0].text == "once":
                    self.once.add(f.src.name)
            elif name == "line" or name == "":
                toks = self._tokenize(f, idx, line, rest)
                if name == "line" and (not toks or toks[0].kind != NUM):
                    if toks:
                        toks = self._expand(toks, None)
                    if not toks or toks[0].kind != NUM or not toks[0].text.isdigit():
                        raise PPError("#line directive requires a positive integer argument")
                elif name == "" and toks and toks[0].kind != NUM:
                    raise PPError(f"invalid preprocessing directive #{toks[0].text}")
            elif name in ("ident", "sccs", "assert", "unassert"):
                pass
            else:
                raise PPError(f"invalid preprocessing directive #{name}")
        except PPError as exc:
            self.diags.append(error("ASC007", str(exc), name_span))
        except (Budget, RecursionError):
            self.diags.append(error("ASC008", "macro expansion too large in directive", name_span))
        return False
