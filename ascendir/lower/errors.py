"""The exceptions the function lowering raises for code it does not lower: a construct it does not model
(Unsupported, reported once at the statement that holds it) and a name nothing declares (Undeclared).

A module of their own so that every lowering module (and the host lowering) can raise them without
importing the lowering itself.
"""

from __future__ import annotations

from frontend import ast as A


class Unsupported(Exception):
    """A construct the lowering does not model; reported once, at the statement that holds it."""

    def __init__(self, message: str, node: A.Node) -> None:
        super().__init__(message)
        self.node = node


class TooFewArguments(Unsupported):
    """A call of a function defined in its class body with fewer arguments than its parameters without a
    default: the compiler's error ('no matching function for call'), not a gap of the lowering. Only such a
    definition is sure to be the callee's one declaration; elsewhere a prototype may give defaults the
    lowering does not merge, so it stays a gap."""

    def __init__(self, name: str, given: int, required: int, node: A.Node) -> None:
        super().__init__(f"no matching function for call to '{name}': it takes {required} argument"
                         f"{'s' if required != 1 else ''} without a default and {given} "
                         f"{'are' if given != 1 else 'is'} given", node)
        self.callee = name


class NoMatchingConstructor(Unsupported):
    """A braced list or constructor call that no constructor of a catalogued library struct takes
    (`DataCopyParams p{1, 32};`: it has constructors of 0 and 4 parameters, so it is no aggregate): the compiler's
    error, reported as a call with no matching overload and the constructors as candidates."""

    def __init__(self, struct: str, message: str, candidates: list[str], node: A.Node) -> None:
        super().__init__(message, node)
        self.callee = struct
        self.candidates = candidates


class Undeclared(Unsupported):
    """A name nothing declares: the compiler's error, not a gap of the lowering."""

    def __init__(self, name: str, node: A.Node) -> None:
        super().__init__(f"use of undeclared identifier '{name}'", node)
        self.name = name
