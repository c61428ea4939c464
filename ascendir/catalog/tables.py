"""The Catalog: the immutable tables one build makes (APIs, structs, enums, classes, element types, Cast
tables, routes, mask rules, queue tables) and the lookups the lowering and the rules ask of them. Separate
from the reading: everything that uses the catalog needs only this.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from ascendir.catalog.model import (
    FAMILIES,
    Api,
    CastRoute,
    CastTable,
    ClassDef,
    ElementType,
    EnumDef,
    EnumValue,
    MaskRule,
    QueueBinding,
    QueueEvent,
    Route,
    StructDef,
)


def normalize_type_spelling(text: str) -> str:
    words = text.replace("AscendC::", "").split()
    while words and words[0] in {"const", "volatile"}:
        words = words[1:]
    return " ".join(words)


@dataclass(frozen=True, eq=False)
class Catalog:
    """Every catalogued API, struct, enum, element type, Cast table and data-movement route."""

    apis: tuple[Api, ...]
    structs: Mapping[str, StructDef]
    enums: Mapping[str, EnumDef]
    classes: Mapping[str, ClassDef]
    element_types: Mapping[str, ElementType]  # canonical name -> type
    cast_tables: Mapping[str, CastTable]  # arch ("2201") -> table
    routes: tuple[Route, ...]
    mask_rules: Mapping[int, MaskRule]  # element bits -> limits
    queue_bindings: Mapping[str, QueueBinding]  # TQue position -> binding
    queue_events: tuple[QueueEvent, ...]
    _by_key: Mapping[tuple[str | None, str], Api] = field(repr=False)
    _type_spellings: Mapping[str, str] = field(repr=False)  # any spelling -> canonical name
    _enum_aliases: Mapping[str, str] = field(repr=False)  # QuePosition -> TPosition
    _class_aliases: Mapping[str, str] = field(repr=False)  # TQueBind -> TQue
    _struct_aliases: Mapping[str, str] = field(default_factory=dict, repr=False)  # LoadData2dParams -> LoadData2DParams

    # -- APIs

    def api(self, name: str, receiver: str | None = None) -> Api | None:
        """The free function `name` (receiver None) or the method `receiver::name`. The receiver may carry
        template arguments or be an alias ("GlobalTensor<half>", "TQueBind")."""
        key = name.strip().removeprefix("AscendC::")
        return self._by_key.get((self.class_name(receiver) if receiver else None, key))

    def methods_of(self, receiver: str) -> tuple[Api, ...]:
        cls = self.class_name(receiver)
        return tuple(api for api in self.apis if api.receiver == cls)

    def apis_in_family(self, family: str) -> tuple[Api, ...]:
        if family not in FAMILIES:
            raise ValueError(f"unknown family '{family}'; families: {', '.join(FAMILIES)}")
        return tuple(api for api in self.apis if api.family == family)

    def closest(self, name: str, n: int = 3, receiver: str | None = None) -> list[str]:
        """Up to n API names spelled like `name` (for "did you mean" hints); methods of `receiver` if given."""
        cls = self.class_name(receiver) if receiver else None
        names = list(dict.fromkeys(api.name for api in self.apis if api.receiver == cls))
        return difflib.get_close_matches(name, names, n=n, cutoff=0.6)

    @property
    def overload_count(self) -> int:
        return sum(len(api.overloads) for api in self.apis)

    # -- types

    def class_name(self, receiver: str) -> str:
        """Canonical class name of a receiver spelling: strips template arguments, namespaces, aliases."""
        base = receiver.split("<", 1)[0].strip().replace("AscendC::", "")
        return self._class_aliases.get(base, base)

    def class_def(self, name: str) -> ClassDef | None:
        return self.classes.get(self.class_name(name))

    def canonical_type(self, c_name: str) -> str | None:
        """Canonical element-type name of a C spelling ("int" -> "int32_t"), None if not an element type."""
        return self._type_spellings.get(normalize_type_spelling(c_name))

    def element_type(self, c_name: str) -> ElementType | None:
        canonical = self.canonical_type(c_name)
        return self.element_types[canonical] if canonical else None

    def struct(self, name: str) -> StructDef | None:
        key = name.split("<", 1)[0].strip().replace("AscendC::", "")
        return self.structs.get(self._struct_aliases.get(key, key))

    def enum(self, name: str) -> EnumDef | None:
        key = name.strip().replace("AscendC::", "")
        return self.enums.get(self._enum_aliases.get(key, key))

    def enum_value(self, text: str) -> tuple[EnumDef, EnumValue] | None:
        """The enum and value a spelling names: "HardEvent::MTE2_V", "QuePosition::VECIN", "PIPE_V" (unscoped
        values only unqualified), "AscendC::TPosition::VECOUT". None when it names no catalogued value."""
        parts = [part for part in text.strip().split("::") if part and part != "AscendC"]
        if not parts:
            return None
        if len(parts) >= 2:
            enum = self.enum(parts[-2])
            value = enum.value(parts[-1]) if enum else None
            return (enum, value) if enum and value else None
        for enum in self.enums.values():
            value = enum.value(parts[0])
            if not enum.scoped and value is not None:
                return enum, value
        return None

    # -- Cast

    def cast_route(self, arch: int | str, src: str, dst: str) -> CastRoute | None:
        table = self.cast_tables.get(str(arch))
        src_c, dst_c = self.canonical_type(src), self.canonical_type(dst)
        if table is None or src_c is None or dst_c is None:
            return None
        return table.routes.get((src_c, dst_c))

    def cast_modes(self, arch: int | str, src: str, dst: str) -> frozenset[str] | None:
        """RoundMode values allowed for Cast src -> dst on arch. None = unknown (arch not catalogued, an
        unknown type, or a route whose modes are not catalogued); empty = no such route."""
        table = self.cast_tables.get(str(arch))
        if table is None or not table.catalogued:
            return None
        if self.canonical_type(src) is None or self.canonical_type(dst) is None:
            return None
        route = self.cast_route(arch, src, dst)
        if route is None:
            return frozenset()
        return route.modes

    # -- data movement, queues, masks

    def routes_for(self, api: str) -> tuple[Route, ...]:
        return tuple(route for route in self.routes if route.api == api)

    def route_allowed(
        self, api: str, src: str, dst: str, overload: str | None = None, arch: int | None = None
    ) -> bool:
        """Whether (src position -> dst position) is a documented route of `api` (for that overload id / arch)."""
        for route in self.routes:
            if route.api != api or route.src != src or route.dst != dst:
                continue
            if overload is not None and route.overloads and overload not in route.overloads:
                continue
            if arch is not None and route.archs is not None and arch not in route.archs:
                continue
            return True
        return False

    def mask_rule(self, bits: int) -> MaskRule | None:
        return self.mask_rules.get(bits)

    def queue_binding(self, position: str) -> QueueBinding | None:
        """TQueBind<src, dst> behind TQue<position>; None where a TQue may not live (VECCALC, ...)."""
        return self.queue_bindings.get(position.rsplit("::", 1)[-1])

    def queue_event(self, src_memory: str, dst_memory: str, arch: int) -> QueueEvent | None:
        for event in self.queue_events:
            same_route = event.src_memory == src_memory and event.dst_memory == dst_memory
            if same_route and (event.archs is None or arch in event.archs):
                return event
        return None

    def queue_events_of(self, position: str, source: str, arch: int,
                        memory_of: Callable[[str], str]) -> QueueEvent | None:
        """The events behind the queue operations of a TQue<position> (`source` empty) or a
        TQueBind<source, position> on `arch`: TQue<pos> is the binding's route (VECIN: GM -> UB, MTE2_V /
        V_MTE2), a TQueBind the route between its two positions' memories (VECIN -> VECOUT: UB -> UB,
        MTE2_MTE3 / MTE3_MTE2). None where the route has no documented event or the position no TQue.
        `memory_of` gives a position's memory (it may raise for one undocumented on the chip). The
        simulator's lowering and the checker both ask this."""
        if source:
            return self.queue_event(memory_of(source), memory_of(position), arch)
        binding = self.queue_binding(position)
        if binding is None:
            return None
        src = "GM" if binding.src == "GM" else memory_of(binding.src)
        dst = "GM" if binding.dst == "GM" else memory_of(binding.dst)
        return self.queue_event(src, dst, arch)

    @staticmethod
    def hard_event_pipes(event: str) -> tuple[str, str]:
        """(producer, consumer) pipes of a HardEvent: "MTE2_V" -> ("PIPE_MTE2", "PIPE_V")."""
        name = event.rsplit("::", 1)[-1]
        src, _, dst = name.partition("_")
        if not src or not dst:
            raise ValueError(f"'{event}' is not a HardEvent name")
        return f"PIPE_{src}", f"PIPE_{dst}"
