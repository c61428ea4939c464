"""The catalog builder's rule tables: Cast routes and round modes, data-movement routes between positions,
mask rules and the queue bindings and events. Separate because these tables state hardware rules over the APIs
and types rather than declare them.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from ascendir.catalog.errors import CatalogError, check_keys, require
from ascendir.catalog.model import Api, CastRoute, CastTable, MaskRule, QueueBinding, QueueEvent, Route


_MEMORIES = frozenset({"GM", "UB", "L1", "L0A", "L0B", "L0C", "BT", "FB"})


class RuleTableBuilder:
    """The catalog builder's rule tables: methods of _Builder (loader.py), which inherits them."""

    def build_casts(self) -> dict[str, CastTable]:
        modes_known = set(self.enums["RoundMode"].names)
        tables: dict[str, CastTable] = {}
        for where, entry in self.entries("cast"):
            check_keys(entry, {"arch", "catalogued", "ref", "note", "routes"}, where)
            arch = str(require(entry, "arch", where))
            self.check_arch(where, arch)
            routes: dict[tuple[str, str], CastRoute] = {}
            for raw in entry.get("routes", []):
                check_keys(raw, {"src", "dst", "modes", "note"}, where)
                src = self.dtype_list(where, [raw["src"]])[0]
                modes = None
                if "modes" in raw:
                    unknown = set(raw["modes"]) - modes_known
                    if unknown:
                        raise CatalogError(f"{where}: unknown round modes {sorted(unknown)}")
                    modes = frozenset(raw["modes"])
                for dst in self.dtype_list(where, raw["dst"]):
                    if (src, dst) in routes:
                        raise CatalogError(f"{where}: cast {src} -> {dst} listed twice")
                    routes[(src, dst)] = CastRoute(src, dst, modes, raw.get("note"))
            tables[arch] = CastTable(
                arch,
                bool(require(entry, "catalogued", where)),
                MappingProxyType(routes),
                require(entry, "ref", where),
                entry.get("note"),
            )
        return tables

    def positions(self) -> frozenset[str]:
        return frozenset(self.enums["TPosition"].names)

    def build_routes(self, by_key: Mapping[tuple[str | None, str], Api]) -> tuple[Route, ...]:
        positions = self.positions()
        routes: list[Route] = []
        for where, entry in self.entries("route"):
            check_keys(entry, {"api", "src", "dst", "overloads", "archs", "note"}, where)
            api = by_key.get((None, require(entry, "api", where)))
            if api is None:
                raise CatalogError(f"{where}: unknown API")
            overloads = tuple(entry.get("overloads", ()))
            for ov in overloads:
                if api.overload(ov) is None:
                    raise CatalogError(f"{where}: {api.name} has no overload '{ov}'")
            archs = frozenset(int(a) for a in entry["archs"]) if "archs" in entry else None
            for src in require(entry, "src", where):
                for dst in require(entry, "dst", where):
                    if src not in positions or dst not in positions:
                        raise CatalogError(f"{where}: unknown position in {src} -> {dst}")
                    routes.append(Route(api.name, src, dst, overloads, archs, entry.get("note")))
        return tuple(routes)

    def build_masks(self) -> dict[int, MaskRule]:
        rules: dict[int, MaskRule] = {}
        for where, entry in self.entries("mask"):
            check_keys(entry, {"bits", "continuous_max", "bitmask_words"}, where)
            bits = int(require(entry, "bits", where))
            rules[bits] = MaskRule(
                bits, int(require(entry, "continuous_max", where)), entry.get("bitmask_words")
            )
        return rules

    def build_queue_bindings(self) -> dict[str, QueueBinding]:
        positions = self.positions()
        bindings: dict[str, QueueBinding] = {}
        for where, entry in self.entries("queue_binding"):
            check_keys(entry, {"position", "src", "dst", "note"}, where)
            binding = QueueBinding(entry["position"], entry["src"], entry["dst"], entry.get("note"))
            if {binding.position, binding.src, binding.dst} - positions:
                raise CatalogError(f"{where}: unknown position")
            bindings[binding.position] = binding
        return bindings

    def build_queue_events(self) -> tuple[QueueEvent, ...]:
        events = set(self.enums["HardEvent"].names)
        out = []
        for where, entry in self.entries("queue_event"):
            check_keys(entry, {"src", "dst", "forward", "backward", "archs"}, where)
            event = QueueEvent(
                entry["src"],
                entry["dst"],
                entry["forward"],
                entry["backward"],
                frozenset(int(a) for a in entry["archs"]) if "archs" in entry else None,
            )
            if {event.src_memory, event.dst_memory} - _MEMORIES or {event.forward, event.backward} - events:
                raise CatalogError(f"{where}: unknown memory or HardEvent")
            out.append(event)
        return tuple(out)
