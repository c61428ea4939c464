"""Macro expansion in the preprocessor: the lines (chunks) that need it and their rendering back to text,
object- and function-like macros with argument collection, substitution, `#`, `##` and __VA_OPT__, the
builtin macros, and the expansion budget.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from frontend.diagnostics import error
from frontend.preprocess_tokens import (
    BUILTINS,
    CHR,
    CONDITIONALS,
    DIRECTIVE_RE,
    ID,
    KIND,
    NUM,
    PUNCT,
    STR,
    TOKEN_RE,
    Tok,
)
from frontend.preprocess_types import LINEAR, LINES, POINT, Budget, File, Macro


# Directives that may appear inside a macro's argument list (the common `#ifdef` inside a call).
_ARG_DIRECTIVES = CONDITIONALS | {"pragma", "line", ""}
_EXPANSION_BUDGET = 100_000  # tokens produced while expanding one chunk; stops exponential macros


class MacroExpansion:
    """Macro expansion in the preprocessor: methods of _Preprocessor (preprocess.py), which inherits them."""

    def _chunk(self, f: File, i: int) -> int:
        """Expand line i (and any following lines a macro invocation spans); return the last line used."""
        src = f.src
        f.chunk_last = f.chunk_tok_line = i
        self.pulled = []
        toks = self._tokenize(f, i, src.lines[i], 0)
        if src.unterm and i in src.unterm:
            self._report_unterm(f, i)
        self.budget = 0
        try:
            out = self._expand(toks, lambda peek: self._more(f, peek))
        except (Budget, RecursionError) as exc:
            what = "too large" if isinstance(exc, Budget) else "nested too deeply"
            sp = self._tok_span(toks[0]) if toks else None
            self.diags.append(error("ASC008", f"macro expansion {what}; line left unexpanded", sp))
            out = toks + self.pulled  # lines already pulled in stay as they were
        self._render(out, f, i, f.chunk_last)
        return f.chunk_last

    def _more(self, f: File, peek: bool) -> list[Tok] | None:
        """Tokens of the next text line, for a macro invocation that goes on past the line end."""
        src = f.src
        lines = src.lines
        j = f.chunk_last + 1
        while j < len(lines):
            line = lines[j]
            if "#" in line and line.lstrip().startswith("#"):
                if peek:
                    return None
                m = DIRECTIVE_RE.match(line)
                name = (m.group(1) or "") if m else ""
                if name not in _ARG_DIRECTIVES:
                    return None
                f.chunk_last = j
                self._directive(f, j, line, True)
                j += 1
                continue
            f.chunk_last = j
            if not f.active:
                j += 1
                continue
            toks = self._tokenize(f, j, line, 0)
            if src.unterm and j in src.unterm:
                self._report_unterm(f, j)
            if toks:
                toks[0].ws = "\n" * (j - f.chunk_tok_line) + toks[0].ws
                f.chunk_tok_line = j
                self.pulled.extend(toks)
                return toks
            j += 1
        return None

    def _render(self, toks: list[Tok], f: File, first: int, last: int) -> None:
        buf: list[str] = []
        pos = self.pos
        seg_starts, seg_info = self.seg_starts, self.seg_info
        # Whatever the tokens do not cover (indentation before a macro, padding) maps line by line.
        seg_starts.append(pos)
        seg_info.append((f.src.name, f.src.first_orig[first], 1, LINES, None))
        cur_kind = -1
        cur_start = cur_line = cur_col = cur_file = 0
        cur_key: tuple[tuple[int, int, int], str | None] | None = None
        prev: Tok | None = None
        for t in toks:
            ws = t.ws
            text = t.text
            if prev is not None and not ws and self._needs_space(prev, t):
                ws = " "
            text_start = pos + len(ws)
            o = t.org
            if t.macro is None:
                if not (
                    cur_kind == LINEAR
                    and cur_file == o[0]
                    and cur_line == o[1]
                    and cur_col + text_start - cur_start == o[2]
                ):
                    nl = ws.rfind("\n")
                    tail = len(ws) - nl - 1
                    start, col = text_start - tail, o[2] - tail
                    if col < 1:
                        start, col = text_start, o[2]
                    seg_starts.append(start)
                    seg_info.append((self._fname(o[0]), o[1], col, LINEAR, None))
                    cur_kind, cur_start, cur_file, cur_line, cur_col = LINEAR, start, o[0], o[1], col
            else:
                key = (o, t.macro)
                if cur_kind != POINT or cur_key != key:
                    seg_starts.append(text_start)
                    seg_info.append((self._fname(o[0]), o[1], o[2], POINT, t.macro))
                    cur_kind, cur_key = POINT, key
            buf.append(ws)
            buf.append(text)
            pos = text_start + len(text)
            prev = t
        out = "".join(buf)
        first_orig = f.src.first_orig
        pad = first_orig[last + 1] - first_orig[first] - 1 - out.count("\n")
        if pad > 0:
            out += "\n" * pad
        self.parts.append(out)
        self.pos += len(out) + 1

    @staticmethod
    def _needs_space(prev: Tok, t: Tok) -> bool:
        """Whether printing t right after prev would lex differently (`-` `-` must not become `--`)."""
        if prev.macro is None and t.macro is None:
            po, to = prev.org, t.org
            if po[0] == to[0] and po[1] == to[1] and po[2] + len(prev.text) == to[2]:
                return False
        m = TOKEN_RE.match(prev.text + t.text)
        return m is None or m.end() != len(prev.text)

    def _expand(self, toks: list[Tok], more: Callable[[bool], list[Tok] | None] | None) -> list[Tok]:
        """Expand macros in toks (rescanning, hide sets); `more` supplies following lines, if any."""
        stack = toks[::-1]
        out: list[Tok] = []
        macros = self.macros
        while stack:
            t = stack.pop()
            if t.kind != ID:
                out.append(t)
                continue
            name = t.text
            m = macros.get(name)
            if m is None or name in t.hs:
                if name in BUILTINS and name not in macros:
                    self._builtin(t, stack, out)
                else:
                    out.append(t)
                continue
            if m.params is None:
                body = self._subst(m, None, t.hs | {name}, t)
                self._push_expansion(t, body, stack)
                continue
            # Function-like: only an invocation when '(' follows, possibly on a later line.
            while not stack and more is not None:
                got = more(True)
                if got is None:
                    break
                stack.extend(reversed(got))
            if not stack or stack[-1].text != "(" or stack[-1].kind != PUNCT:
                out.append(t)
                continue
            collected = self._collect(t, m, stack, more)
            if collected is None:
                out.append(t)
                continue
            args, rparen = collected
            body = self._subst(m, args, (t.hs & rparen.hs) | {name}, t)
            self._push_expansion(t, body, stack)
        return out

    def _push_expansion(self, t: Tok, body: list[Tok], stack: list[Tok]) -> None:
        self.budget += len(body) + 1
        if self.budget > _EXPANSION_BUDGET:
            raise Budget()
        if body:
            first = body[0]
            body[0] = Tok(first.kind, first.text, t.ws, first.hs, first.org, first.macro)
            stack.extend(reversed(body))
        elif stack and t.ws:
            # An empty expansion must not glue its neighbours together, nor lose a line break.
            nxt = stack[-1]
            stack[-1] = Tok(nxt.kind, nxt.text, t.ws + nxt.ws, nxt.hs, nxt.org, nxt.macro)

    def _builtin(self, t: Tok, stack: list[Tok], out: list[Tok]) -> None:
        name = t.text
        mac = t.macro or name
        if name == "_Pragma":
            # `_Pragma("...")` is an operator whose effect we ignore: drop it from the output.
            if len(stack) >= 3 and stack[-1].text == "(" and stack[-2].kind == STR and stack[-3].text == ")":
                del stack[-3:]
                return
            out.append(t)
            return
        if name == "__LINE__":
            out.append(Tok(NUM, str(t.org[1]), t.ws, t.hs, t.org, mac))
        elif name == "__FILE__":
            fname = self._fname(t.org[0])
            out.append(
                Tok(
                    STR, '"' + fname.replace("\\", "\\\\").replace('"', '\\"') + '"', t.ws, t.hs, t.org, mac
                )
            )
        else:
            out.append(Tok(NUM, str(self.counter), t.ws, t.hs, t.org, mac))
            self.counter += 1

    def _collect(
        self, name: Tok, m: Macro, stack: list[Tok], more: Callable[[bool], list[Tok] | None] | None
    ) -> tuple[list[list[Tok]], Tok] | None:
        """Pop `( args )` off the stack; None (stack restored, diagnostic given) when that fails."""
        assert m.params is not None
        nparams = len(m.params)
        variadic = m.variadic
        consumed = [stack.pop()]
        args: list[list[Tok]] = [[]]
        depth = 0
        while True:
            if not stack:
                got = more(False) if more is not None else None
                if got is None:
                    stack.extend(reversed(consumed))
                    self.diags.append(
                        error(
                            "ASC008",
                            f"unterminated argument list invoking macro '{m.name}'",
                            self._tok_span(name),
                        )
                    )
                    return None
                stack.extend(reversed(got))
                continue
            t = stack.pop()
            consumed.append(t)
            if t.kind == PUNCT:
                c = t.text
                if c == "(":
                    depth += 1
                elif c == ")":
                    if depth == 0:
                        break
                    depth -= 1
                elif c == "," and depth == 0 and not (variadic and len(args) >= nparams):
                    args.append([])
                    continue
            args[-1].append(t)
        rparen = consumed[-1]
        if nparams == 0:
            if len(args) == 1 and not args[0]:
                return [], rparen
            msg = f"macro '{m.name}' passed {len(args)} arguments, but takes just 0"
        elif len(args) == nparams or (variadic and len(args) == nparams - 1):
            if len(args) < nparams:
                args.append([])
            return args, rparen
        elif len(args) < nparams:
            msg = f"macro '{m.name}' requires {nparams} arguments, but only {len(args)} given"
        else:
            msg = f"macro '{m.name}' passed {len(args)} arguments, but takes just {nparams}"
        self.diags.append(error("ASC008", msg, self._tok_span(name)))
        stack.extend(reversed(consumed))
        return None

    def _subst(self, m: Macro, args: list[list[Tok]] | None, hs: frozenset[str], inv: Tok) -> list[Tok]:
        """The replacement list with parameters substituted, `#` and `##` applied, and hide set hs."""
        org = inv.org
        mac = inv.macro or inv.text
        body: Sequence[Tok] = m._tokens
        pidx: Sequence[int] = m._pidx
        if args is None:
            res = [Tok(t.kind, t.text, " " if t.ws else "", hs, org, mac) for t in body]
            if any(t.kind == PUNCT and t.text == "##" for t in body):
                res = self._paste_all(res, inv)
            return res
        if m._vaopt:
            body, pidx = self._resolve_vaopt(m, args)
        expanded: dict[int, list[Tok]] = {}
        out: list[Tok | None] = []  # None is a placemarker (an empty argument next to ##)
        n = len(body)
        i = 0
        while i < n:
            t = body[i]
            p = pidx[i]
            if t.kind == PUNCT and t.text == "#" and i + 1 < n and pidx[i + 1] >= 0:
                out.append(self._stringize(args[pidx[i + 1]], " " if t.ws else "", hs, org, mac))
                i += 2
                continue
            if t.kind == PUNCT and t.text == "##" and i + 1 < n:
                np_ = pidx[i + 1]
                skip = 2
                if np_ >= 0:
                    rhs = [self._copy(a, hs, org, mac) for a in args[np_]]
                elif body[i + 1].text == "#" and i + 2 < n and pidx[i + 2] >= 0:
                    rhs = [self._stringize(args[pidx[i + 2]], "", hs, org, mac)]
                    skip = 3
                else:
                    nb = body[i + 1]
                    rhs = [Tok(nb.kind, nb.text, "", hs, org, mac)]
                lhs = out.pop() if out else None
                if lhs is not None and lhs.text == "," and np_ >= 0 and m.variadic and np_ == len(args) - 1:
                    # GNU `, ## __VA_ARGS__`: the comma disappears with an empty variadic argument.
                    if rhs:
                        out.append(lhs)
                        out.extend(rhs)
                    i += skip
                    continue
                if not rhs:
                    out.append(lhs)
                elif lhs is None:
                    rhs[0].ws = ""
                    out.extend(rhs)
                else:
                    out.extend(self._paste(lhs, rhs[0], inv))
                    out.extend(rhs[1:])
                i += skip
                continue
            if p >= 0:
                if i + 1 < n and body[i + 1].kind == PUNCT and body[i + 1].text == "##":
                    arg = [self._copy(a, hs, org, mac) for a in args[p]]
                    if not arg:
                        out.append(None)
                        i += 1
                        continue
                else:
                    ex = expanded.get(p)
                    if ex is None:
                        ex = expanded[p] = self._expand(list(args[p]), None)
                    arg = [self._copy(a, hs, org, mac) for a in ex]
                if arg:
                    arg[0].ws = " " if t.ws else ""
                out.extend(arg)
                i += 1
                continue
            out.append(Tok(t.kind, t.text, " " if t.ws else "", hs, org, mac))
            i += 1
        return [x for x in out if x is not None]

    @staticmethod
    def _copy(a: Tok, hs: frozenset[str], org: tuple[int, int, int], mac: str) -> Tok:
        return Tok(a.kind, a.text, " " if a.ws else "", a.hs | hs if a.hs else hs, org, mac)

    def _paste_all(self, toks: list[Tok], inv: Tok) -> list[Tok]:
        """`##` in an object-like macro: paste neighbours left to right."""
        out: list[Tok] = []
        i = 0
        while i < len(toks):
            t = toks[i]
            if t.kind == PUNCT and t.text == "##" and out and i + 1 < len(toks):
                out.extend(self._paste(out.pop(), toks[i + 1], inv))
                i += 2
                continue
            out.append(t)
            i += 1
        return out

    def _paste(self, a: Tok, b: Tok, inv: Tok) -> list[Tok]:
        text = a.text + b.text
        m = TOKEN_RE.match(text)
        if m is not None and m.end() == len(text):
            return [Tok(KIND[m.lastgroup], text, a.ws, a.hs | b.hs, a.org, a.macro)]  # type: ignore[index]
        self.diags.append(
            error(
                "ASC008",
                f'pasting "{a.text}" and "{b.text}" does not give a valid preprocessing token',
                self._tok_span(inv),
            )
        )
        return [a, Tok(b.kind, b.text, " ", b.hs, b.org, b.macro)]

    @staticmethod
    def _stringize(arg: list[Tok], ws: str, hs: frozenset[str], org: tuple[int, int, int], mac: str) -> Tok:
        pieces = []
        for k, a in enumerate(arg):
            if k and a.ws:
                pieces.append(" ")
            if a.kind in (STR, CHR):
                pieces.append(a.text.replace("\\", "\\\\").replace('"', '\\"'))
            else:
                pieces.append(a.text)
        return Tok(STR, '"' + "".join(pieces) + '"', ws, hs, org, mac)

    def _resolve_vaopt(self, m: Macro, args: list[list[Tok]]) -> tuple[list[Tok], list[int]]:
        """Replace `__VA_OPT__(x)` by x when the variadic argument expands to something, else drop it."""
        self.budget += len(args[-1])
        present = bool(self._expand(list(args[-1]), None)) if args else False
        body, pidx = list(m._tokens), list(m._pidx)
        rb: list[Tok] = []
        rp: list[int] = []
        i = 0
        while i < len(body):
            t = body[i]
            if t.kind == ID and t.text == "__VA_OPT__" and i + 1 < len(body) and body[i + 1].text == "(":
                depth, j = 0, i + 1
                while j < len(body):
                    if body[j].text == "(":
                        depth += 1
                    elif body[j].text == ")":
                        depth -= 1
                        if depth == 0:
                            break
                    j += 1
                if present:
                    rb.extend(body[i + 2 : j])
                    rp.extend(pidx[i + 2 : j])
                i = j + 1
                continue
            rb.append(t)
            rp.append(pidx[i])
            i += 1
        return rb, rp
