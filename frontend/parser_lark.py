"""Building the parser's Lark object from grammar.lark, and its pickled snapshot (loaded with the builder and
retagger bound to the Parser's own).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from lark import Lark

from frontend.parser_tokens import IdentifierRetagger

if TYPE_CHECKING:
    from frontend.parser import AstBuilder


_GRAMMAR_PATH = Path(__file__).with_name("grammar.lark")


def _build_lark(builder: AstBuilder, retagger: IdentifierRetagger) -> Lark:
    return Lark(
        _GRAMMAR_PATH.read_text(),
        parser="lalr",
        lexer="contextual",
        postlex=retagger,
        transformer=builder,
        maybe_placeholders=True,
        cache=_cache_path(),
    )


# The built Lark object, pickled: loading it takes a fraction of the time Lark needs to rebuild its
# tables from its own cache format. The snapshot holds the builder's bound methods as callbacks and the
# retagger as post-lexer; both are stored as persistent ids and bound to this Parser's own on loading, as
# are modules and the lark singletons compared by identity (Shift, Reduce, ...). Keyed by the grammar,
# the parser's modules (parser*.py: the builder's methods decide which rules get a callback), the lark
# version and the Python.
_SNAPSHOT_NAME = "parser.pickle"


def _lark_singletons() -> dict[str, Any]:
    from lark import utils, visitors
    from lark.parsers import lalr_analysis

    return {"Shift": lalr_analysis.Shift, "Reduce": lalr_analysis.Reduce, "NO_VALUE": utils.NO_VALUE,
            "Discard": visitors.Discard}


def _snapshot_key() -> bytes:
    import lark

    from frontend import cache

    modules = sorted(Path(__file__).parent.glob("parser*.py"))
    return cache.key_of(_GRAMMAR_PATH.read_bytes(), *(m.read_bytes() for m in modules), lark.__version__)


def load_lark(builder: AstBuilder, retagger: IdentifierRetagger) -> Lark:
    import pickle
    import sys

    from frontend import cache

    try:
        key = _snapshot_key()
    except OSError:
        return _build_lark(builder, retagger)
    singletons = _lark_singletons()
    fixed: dict[Any, Any] = {"builder": builder, "retagger": retagger}
    fixed.update({("lark", name): obj for name, obj in singletons.items()})

    class Unpickler(pickle.Unpickler):
        def persistent_load(self, pid: Any) -> Any:
            if isinstance(pid, tuple) and len(pid) == 2 and pid[0] == "module":
                return sys.modules[pid[1]]  # only modules already imported
            return fixed[pid]

    lark = cache.load(_SNAPSHOT_NAME, key, Unpickler)
    if (isinstance(lark, Lark) and lark.options.transformer is builder and lark.options.postlex is retagger
            and lark.lexer_conf.postlex is retagger):
        return lark
    lark = _build_lark(builder, retagger)
    ids: dict[int, Any] = {id(builder): "builder", id(retagger): "retagger"}
    ids.update({id(obj): ("lark", name) for name, obj in singletons.items()})
    module_type = type(sys)

    class Pickler(pickle.Pickler):
        def persistent_id(self, obj: Any) -> Any:
            if isinstance(obj, module_type):
                return ("module", obj.__name__)
            return ids.get(id(obj))

    cache.store(_SNAPSHOT_NAME, key, lark, lambda f: Pickler(f, pickle.HIGHEST_PROTOCOL))
    return lark


def _cache_path() -> str | bool:
    import os
    import tempfile

    base = os.environ.get("ASCENDIR_CACHE_DIR") or os.path.join(tempfile.gettempdir(), "ascendir-cache")
    try:
        os.makedirs(base, exist_ok=True)
    except OSError:
        return False
    return os.path.join(base, "grammar.lark.cache")
