"""The parser's fast path: one loop that does what Lark's contextual lexer, the identifier retagger and Lark's
LALR driver do, on Lark's own tables, with the child filters compiled per rule shape. It bails out to Lark
on anything it does not handle (a syntax error, say).
"""

from __future__ import annotations

import re
from functools import partial
from operator import itemgetter
from typing import Any, Callable

from lark import Lark, Token
from lark.lexer import PatternStr
from lark.parse_tree_builder import (
    ChildFilter,
    ChildFilterLALR,
    ChildFilterLALR_NoPlaceholders,
    ExpandSingleChild,
)
from lark.parsers.lalr_analysis import Shift
from lark.tree import Tree

from frontend.parser_keywords import KEYWORDS
from frontend.parser_prescan import after_scope
from frontend.parser_tokens import (
    BLANKS,
    NOT_BEFORE_TYPE,
    SPLITTABLE,
    FastToken,
    IdentifierRetagger,
    split_closer,
)


class _Bail(Exception):
    """The fast path met something it does not handle (a syntax error, say): let Lark parse the text."""


class FastPathUnsupported(Exception):
    """The grammar or Lark build has something the fast path does not reproduce: use Lark alone."""


_WS_RUN = re.compile(r"\s*")
_new_str = str.__new__


class FastPath:
    """What Lark does for a text that parses without errors, in one loop: the contextual lexer (the same
    per-state terminal sets in the same regex alternation order, see _regex; whitespace skipped by a `\\s*`
    prefix instead of a separate ignored match; lines and columns counted only if read, see _FastToken),
    the IdentifierRetagger, and the LALR automaton on Lark's own parse table, calling the AstBuilder with
    the same children Lark's tree builder would pass (see _reduction). Same tokens, same reductions, same
    callback arguments: the same AST, in half the time.

    Anything unusual (a syntax error, an unexpected character, an exception in a callback) raises and the
    caller parses the same text with Lark itself, which reports the error the usual way.
    """

    def __init__(self, lark: Lark, retagger: IdentifierRetagger) -> None:
        frontend = lark.parser
        lalr = frontend.parser.parser
        table = lalr.parse_table
        contextual = frontend.lexer.lexer
        root = contextual.root_lexer
        if lark.lexer_conf.callbacks or lark.options.keep_all_tokens or not _no_unless(root):
            raise FastPathUnsupported("lexer callbacks or kept tokens")
        self.retagger = retagger
        self.start_state = table.start_states["start"]
        self.end_state = table.end_states["start"]
        self.ignore = frozenset(lark.lexer_conf.ignore)
        self._table = table.states
        self._callbacks = lalr.callbacks
        self._reductions = _Rows(self._reduction)  # rule -> (size, callback, nonterminal), built on first use
        self._factories: dict[Any, Any] = {}
        if sorted(self._table) != list(range(len(self._table))):
            raise FastPathUnsupported("parser states are not numbered 0..n-1")
        # Per state, built on first use: symbol -> shift/goto target (an int) or a reduction
        # (size, callback or None to keep the single child, nonterminal). Terminal names are upper case
        # and nonterminal names are not, so one dict holds actions and gotos.
        self.rows: list[dict[str, Any] | None] = [None] * len(self._table)
        # Per state, the lexer's regex (one per distinct terminal set, as Lark's contextual lexer has).
        self.regexes: list[Any] = [None] * len(self._table)
        self.lexer_of = contextual.lexers
        self._regex_by_lexer: dict[int, Any] = {}
        self.literal_groups: set[str] = set()  # the regexes' groups of plain strings (see _regex) ...
        self.literal_names: dict[str, str] = {}  # ... and the terminal each string is

    def _row(self, state: int) -> dict[str, Any]:
        acts: dict[str, Any] = {}
        reductions = self._reductions
        for sym, (action, arg) in self._table[state].items():
            # Lark names nonterminals with Token objects: as plain str keys (and plain str names in the
            # reductions, see _reduction) the goto lookups compare in C, not through Token.__eq__.
            acts[str(sym)] = arg if action is Shift else reductions[arg]
        self.rows[state] = acts
        return acts

    def _reduction(self, rule: Any) -> tuple[int, Any, str]:
        """Lark wraps each rule's callback in a child filter (drops punctuation, splices `_rule` and
        `__rule_star` children in, inserts None for missing `[optional]` parts) and ExpandSingleChild
        (`?rule` with one child is that child). Here the same is one small generated function per rule
        shape, and spliced rules produce plain lists where Lark builds Tree objects only to take their
        children."""
        f = self._callbacks[rule]
        size, name = len(rule.expansion), str(rule.origin.name)
        items: tuple[tuple[int, bool, int], ...]
        append = 0
        if isinstance(f, ChildFilterLALR_NoPlaceholders):
            items, f = tuple((i, bool(e), 0) for i, e in f.to_include), f.node_builder
        elif type(f) is ChildFilterLALR:
            items, append, f = tuple((i, bool(e), int(k)) for i, e, k in f.to_include), int(f.append_none), f.node_builder
        else:
            items = tuple((i, False, 0) for i in range(size))
        expand1 = isinstance(f, ExpandSingleChild)
        if expand1:
            f = f.node_builder
        if isinstance(f, (ChildFilter, ExpandSingleChild)):
            raise FastPathUnsupported(f"unexpected callback chain for {rule}")
        tree = isinstance(f, partial) and f.func is Tree
        if name.startswith("_"):
            if not tree or expand1:
                raise FastPathUnsupported(f"unexpected callback for inlined rule {rule}")
        elif tree and not (expand1 and len(items) == 1 and not items[0][1] and not items[0][2] and not append):
            raise FastPathUnsupported(f"rule {rule} would build a Tree")
        static = not any(e for _, e, _ in items)
        width = len(items) + sum(k for _, _, k in items) + append
        if expand1 and static and width == 1:
            pick = items[0][0]
            if size == 1:
                return (1, None, name)  # `?a: b`: the value stays on the stack
            callback: Any = itemgetter(pick)
        elif not tree and not expand1 and not append and items == tuple((i, False, 0) for i in range(size)):
            callback = f  # the children as they are: Lark calls the builder with the popped list itself
        else:
            kind = "tree" if tree else ("expand1" if expand1 else "call")
            key = (items, append, kind)
            factory = self._factories.get(key)
            if factory is None:
                factory = self._factories[key] = _callback_factory(items, append, kind)
            callback = factory(f)
        return (size, callback, name)

    def _regex(self, state: int) -> Any:
        """The state's lexer as one regex: its terminals in Lark's order, each a named group, except that
        each run of consecutive plain strings (the punctuators) is one group of plain alternatives, in the
        same order. The first alternative that matches wins either way, so the tokens are the same; but
        the regex engine skips an alternative that starts with a literal character at the cost of one
        comparison, and one that starts with a named group only after entering it."""
        lexer = self.lexer_of[state]
        rx = self._regex_by_lexer.get(id(lexer))
        if rx is None:
            alternatives: list[str] = []
            run: list[str] = []

            def flush() -> None:
                if run:
                    name = f"literal_{len(self.literal_groups)}"  # lower case: no terminal is named so
                    self.literal_groups.add(name)
                    alternatives.append(f"(?P<{name}>{'|'.join(run)})")
                    run.clear()

            for t in lexer.terminals:
                if t.name in self.ignore:
                    continue
                if isinstance(t.pattern, PatternStr) and not t.pattern.flags:
                    if self.literal_names.setdefault(t.pattern.value, t.name) != t.name:
                        raise FastPathUnsupported(f"two terminals for {t.pattern.value!r}")
                    run.append(t.pattern.to_regexp())
                else:
                    flush()
                    alternatives.append(f"(?P<{t.name}>{t.pattern.to_regexp()})")
            flush()
            rx = self._regex_by_lexer[id(lexer)] = re.compile(r"\s*(?:" + "|".join(alternatives) + ")",
                                                               lexer.g_regex_flags)
        self.regexes[state] = rx
        return rx

    def run(self, text: str) -> Any:
        scan = self.retagger.scan
        types, type_templates, starts = scan.types, scan.type_templates, scan.template_starts
        closers = scan.template_closers
        overrides = self.retagger.overrides
        attribute_macros = scan.attribute_macros
        trailing = scan.trailing_types
        member_types = scan.member_types
        params = scan.template_params
        source = scan.text
        keywords = KEYWORDS
        not_before_type = NOT_BEFORE_TYPE
        splittable = SPLITTABLE
        rows, regexes = self.rows, self.regexes
        literal_groups, literal_names = self.literal_groups, self.literal_names
        state = self.start_state  # the top of state_stack
        state_stack = [state]
        value_stack: list[Any] = []
        push_state, push_value = state_stack.append, value_stack.append
        pop_state, pop_value = state_stack.pop, value_stack.pop
        pos, n = 0, len(text)
        previous = ""
        pending: list[Token] = []
        while True:
            # -- lex one token in the current parser state (Lark's contextual lexer)
            if pending:
                tok = pending.pop()
                ttype = tok.type
            else:
                if pos >= n:
                    break
                rx = regexes[state]
                if rx is None:
                    rx = self._regex(state)
                m = rx.match(text, pos)
                if m is None:
                    if _WS_RUN.match(text, pos).end() == n:
                        break
                    raise _Bail
                type_ = m.lastgroup
                start = m.start(type_)
                pos = m.end()
                value = text[start:pos]
                if type_ in literal_groups:
                    type_ = literal_names[value]
                tok = _new_str(FastToken, value)
                tok.start_pos = start
                tok.value = value
                tok.end_pos = pos
                tok.text = text
                # -- the post-lexer (IdentifierRetagger.process, less its error-recovery bookkeeping)
                if type_ == "IDENTIFIER":
                    keyword = keywords.get(value)
                    if keyword is not None:
                        type_ = keyword
                    elif start in starts:
                        is_member = previous == "DOT" or previous == "ARROW"
                        type_ = "TYPE_TEMPLATE" if value in type_templates and not is_member else "TEMPLATE_NAME"
                    elif value in types and previous not in not_before_type and not (
                            value in params and after_scope(source, start)):
                        type_ = "TYPE_NAME"
                    elif member_types and value in member_types and after_scope(source, start):
                        type_ = "TYPE_NAME"
                    elif value in attribute_macros:
                        k = BLANKS.match(source, pos).end()
                        type_ = "MIX" if source[k : k + 1] == "(" else "FN_SPECIFIER"
                    if trailing and start in trailing:
                        type_ = trailing[start]
                    if overrides and start in overrides:
                        type_ = overrides[start]
                elif type_ in splittable and start in closers:
                    tok.type = type_
                    pending = list(split_closer(tok, closers))
                    pending.reverse()
                    previous = "GT"
                    continue
                tok.type = previous = ttype = type_
            # -- feed it to the LALR automaton (Lark's ParserState.feed_token)
            while True:
                # Every state below the top has had its row built (it was the top once), so only the
                # top's row may still be None.
                row = rows[state]
                if row is None:
                    row = self._row(state)
                try:
                    act = row[ttype]
                except KeyError:
                    raise _Bail from None
                if act.__class__ is int:
                    push_state(act)
                    push_value(tok)
                    state = act
                    break
                size, callback, origin = act
                if callback is None:
                    state = state_stack[-1] = rows[state_stack[-2]][origin]
                    continue
                if size == 1:  # the commonest reduction: popping beats slicing and deleting
                    s = [pop_value()]
                    pop_state()
                elif size:
                    s = value_stack[-size:]
                    del state_stack[-size:]
                    del value_stack[-size:]
                else:
                    s = []
                push_value(callback(s))
                state = rows[state_stack[-1]][origin]
                push_state(state)
        # -- end of input
        end_state = self.end_state
        while True:
            row = rows[state_stack[-1]]
            if row is None:
                row = self._row(state_stack[-1])
            act = row.get("$END")
            if act is None or act.__class__ is int:
                raise _Bail
            size, callback, origin = act
            if callback is None:
                state_stack[-1] = rows[state_stack[-2]][origin]
            else:
                if size:
                    s = value_stack[-size:]
                    del state_stack[-size:]
                    del value_stack[-size:]
                else:
                    s = []
                push_value(callback(s))
                push_state(rows[state_stack[-1]][origin])
            if state_stack[-1] == end_state:
                return value_stack[-1]


class _Rows(dict):  # type: ignore[type-arg]
    """A table whose entries are built on first use."""

    def __init__(self, build: Callable[[Any], Any]) -> None:
        super().__init__()
        self._build = build

    def __missing__(self, key: Any) -> Any:
        value = self[key] = self._build(key)
        return value


def _callback_factory(items: tuple[tuple[int, bool, int], ...], append: int, kind: str) -> Callable[[Any], Any]:
    """Source for one shape of Lark's ChildFilterLALR (+ ExpandSingleChild), compiled once per shape.
    `items`: (child index, splice it in, Nones to insert before it); `append`: Nones at the end."""
    body: list[str] = []
    static: list[str] = []  # elements not yet added to `c`
    started = False

    def flush() -> None:
        nonlocal started
        if static:
            body.append(f"    c += ({', '.join(static)},)" if started else f"    c = [{', '.join(static)}]")
            static.clear()
            started = True

    for i, expand, nones in items:
        static.extend(["None"] * nones)
        if expand:
            if not started and not static:
                body.append(f"    c = s[{i}]")  # Lark reuses the first spliced child's list (left recursion)
                started = True
            else:
                flush()
                body.append(f"    c += s[{i}]")
        else:
            static.append(f"s[{i}]")
    static.extend(["None"] * append)
    if static or not started:
        flush() if static else body.append("    c = []")
    if kind == "tree":
        body.append("    return c")
    elif kind == "expand1":
        body.append("    return c[0] if len(c) == 1 else b(c)")
    else:
        body.append("    return b(c)")
    src = "def factory(b):\n  def cb(s):\n" + "\n".join("  " + line for line in body) + "\n  return cb\n"
    scope: dict[str, Any] = {}
    exec(compile(src, "<parser child filter>", "exec"), scope)  # noqa: S102 - our own template, no input text
    return scope["factory"]


def _no_unless(root: Any) -> bool:
    """Lark turns a string terminal that a regex terminal of the same priority also matches into a
    callback on the regex terminal; our grammar has none, and the fast lexer relies on that."""
    from lark.lexer import PatternRE, PatternStr

    regexes = [t for t in root.terminals if isinstance(t.pattern, PatternRE)]
    strings = [t for t in root.terminals if isinstance(t.pattern, PatternStr)]
    for r in regexes:
        rx = re.compile(r.pattern.to_regexp(), root.g_regex_flags)
        for s in strings:
            if s.priority == r.priority and rx.fullmatch(s.pattern.value):
                return False
    return True
