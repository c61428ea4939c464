"""Documentation-grounded records: questions answered from the API catalog, the rule pages and the chip files.

Every answer is generated from the data `ascendc-check` itself runs on (ascendir/catalog/data, the rule
registry, ascendir/chips/data), so it is as true as the checker, and `check` re-derives it to prove it. The
kinds: what an API does and how it is called (its overloads, element types per architecture, constraints);
which Cast routes and round modes a chip has; what a rule flags, why it fails on hardware and what to write
instead; a chip's core counts and memory sizes.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from llm.data.records import Record, message
from llm.prompts import SYSTEM

if TYPE_CHECKING:
    from ascendir.catalog.model import Api
    from passes.verify.rules import Rule

ARCH_CHIPS = {"2201": "Atlas A2/A3 (910B, 910_93)", "2002": "Atlas inference (310P)", "1001": "Atlas training (910)"}
CHIPS = ("910B2", "910B4", "910_93", "310P", "910")


def _api_name(api: Api) -> str:
    return f"{api.receiver}::{api.name}" if api.receiver else f"AscendC::{api.name}"


_POSITION = re.compile(r"@(\{[^}]*\}|\w+)")


def readable_signature(signature: str) -> str:
    """The catalog's signature with its position marks (`LocalTensor<T>@VEC`) written as C++ comments."""
    def where(m: re.Match[str]) -> str:
        pos = m.group(1).strip("{}")
        text = {"VEC": "UB", "Q": "the receiver's position"}.get(pos, pos.replace(",", "/"))
        return f" /*{text}*/"

    return _POSITION.sub(where, signature)


def api_answer(api: Api) -> str:
    """What the catalog says of one API, as an answer."""
    lines = [f"`{_api_name(api)}`: {api.summary}", "", "Call forms:"]
    for o in api.overloads:
        note = f" ({o.note})" if o.note else ""
        lines.append(f"- `{api.name}{readable_signature(o.signature)}` [{o.id}]{note}")
    for arch, variables in sorted(api.dtypes.items()):
        kinds = "; ".join(f"{var} in {', '.join(types)}" for var, types in variables.items())
        lines.append(f"Element types on {ARCH_CHIPS.get(arch, 'arch ' + arch)}: {kinds}.")
    if api.archs:
        lines.append(f"Exists on architectures {', '.join(str(x) for x in sorted(api.archs))} only.")
    if api.empty_archs:
        lines.append("Its body is compiled out (the call does nothing) on architectures "
                     f"{', '.join(str(x) for x in sorted(api.empty_archs))}.")
    if api.operator:
        lines.append(f"Operator form: `dst = a {api.operator} b` acts on the whole destination tensor.")
    if api.notes:
        lines.append(f"Constraints: {api.notes}")
    lines.append(f"Reference: {api.ref}.")
    return "\n".join(lines)


def cast_answer(arch: str, src: str) -> str | None:
    from ascendir.catalog import load_catalog

    table = load_catalog().cast_tables.get(arch)
    if table is None:
        return None
    routes = sorted((r for (s, _), r in table.routes.items() if s == src), key=lambda r: r.dst)
    if not routes:
        return None
    lines = [f"On {ARCH_CHIPS.get(arch, arch)} `AscendC::Cast` converts {src} to:"]
    for r in routes:
        modes = ", ".join(sorted(r.modes)) if r.modes is not None else "round modes not catalogued"
        lines.append(f"- {r.dst}: RoundMode {modes}" + (f" ({r.note})" if r.note else ""))
    lines.append("Any other destination type has no direct route: cast through an intermediate type. "
                 "A round mode outside the list is rejected (ascendc-check ASC504).")
    return "\n".join(lines)


def rule_answer(rule: Rule) -> str:
    return (f"{rule.code} ({rule.name}), {rule.severity.value}: {rule.summary}\n\nWhy it matters on hardware: {rule.why}\n\n"
            f"Code that triggers it:\n```cpp\n{rule.example.strip()}\n```\n\nWhat to write instead:\n"
            f"```cpp\n{rule.instead.strip()}\n```")


def chip_answer(name: str) -> str:
    from ascendir.chips import load_chip

    c = load_chip(name)
    cores = (f"{c.aic_cores} AI Cube (AIC) and {c.aiv_cores} AI Vector (AIV) cores in split mode"
             if c.mode == "split" else f"{c.aic_cores} AI Cores (cube and vector coupled)"
             + (f" and {c.vector_cores} vector cores" if c.vector_cores else ""))
    return (f"The {c.soc_version} ({c.name}, __NPU_ARCH__ {c.npu_arch}) has {cores}. Local memory per core: UB "
            f"{c.ub_size} bytes, L1 {c.l1_size}, L0A {c.l0a_size}, L0B {c.l0b_size}, L0C {c.l0c_size} bytes. UB "
            f"start addresses are {c.alignments['UB']}-byte aligned (L0A/L0B {c.alignments['L0A']}, L0C "
            f"{c.alignments['L0C']}). A TPipe may hold at most {c.max_buffers_per_position} queue buffers per "
            f"TPosition and {c.max_buffers_total} buffers in all; there are {c.event_ids} event ids per "
            f"HardEvent.")


def _sft(rid: str, group: str, question: str, answer: str, codes: list[str] | None = None) -> Record:
    return Record(rid, "docs", "sft", group, [message("system", SYSTEM), message("user", question),
                                             message("assistant", answer)], codes=codes or [])


def records() -> Iterator[Record]:
    """Every documentation record: one per API, Cast source type and architecture, rule and chip."""
    from ascendir.catalog import load_catalog
    from ascendir.chips import load_chip
    from passes.verify import RULES

    catalog = load_catalog()
    for api in catalog.apis:
        name = _api_name(api)
        yield _sft(f"docs/api/{name}", f"docs:api:{api.name}",
                   f"What does `{name}` do in AscendC, how is it called, and on which element types?", api_answer(api))
    for arch, table in sorted(catalog.cast_tables.items()):
        for src in sorted({s for s, _ in table.routes}):
            answer = cast_answer(arch, src)
            if answer:
                yield _sft(f"docs/cast/{arch}/{src}", f"docs:cast:{src}",
                           f"Which conversions does `AscendC::Cast` offer from {src} on "
                           f"{ARCH_CHIPS.get(arch, arch)}, and with which round modes?", answer, ["ASC504"])
    for code, rule in sorted(RULES.items()):
        yield _sft(f"docs/rule/{code}", f"docs:rule:{code}",
                   f"`ascendc-check` reports [{code}] ({rule.name}). What does it mean, why does it fail on the "
                   "hardware, and how do I fix it?", rule_answer(rule), [code])
    for chip in CHIPS:
        load_chip(chip)
        yield _sft(f"docs/chip/{chip}", f"docs:chip:{chip}",
                   f"What are the core counts, local memory sizes and buffer limits of the Ascend {chip}?",
                   chip_answer(chip))


def check(record: Record) -> str | None:
    """Why a documentation record no longer matches the data it was generated from; None when it does."""
    from ascendir.catalog import load_catalog
    from passes.verify import RULES

    kind, _, rest = record.id.removeprefix("docs/").partition("/")
    answer = record.messages[-1]["content"]
    if kind == "api":
        receiver, _, name = rest.rpartition("::")
        api = load_catalog().api(name, receiver=None if receiver == "AscendC" else receiver)
        expected = api_answer(api) if api is not None else None
    elif kind == "cast":
        arch, _, src = rest.partition("/")
        expected = cast_answer(arch, src)
    elif kind == "rule":
        expected = rule_answer(RULES[rest]) if rest in RULES else None
    elif kind == "chip":
        expected = chip_answer(rest)
    else:
        return f"unknown documentation record kind '{kind}'"
    if expected is None:
        return f"{record.id}: the catalog no longer has it"
    return None if expected == answer else f"{record.id}: the answer differs from what the data says now"
