"""The catalog builder's APIs: every API entry with its overloads (signatures parsed once per text), families,
architectures and dtype tables. Separate because it is the largest table and the only one parsed through the
signature language.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from ascendir.catalog.data_files import ARCHS
from ascendir.catalog.errors import CatalogError, check_keys, require
from ascendir.catalog.model import FAMILIES, Api, Overload, TypeParam
from ascendir.catalog.signature import SignatureError, TypeContext, parse_signature


class ApiTableBuilder:
    """The catalog builder's APIs: methods of _Builder (loader.py), which inherits them."""

    def build_apis(self, ctx: TypeContext) -> list[Api]:
        sets: dict[str, list[Mapping[str, Any]]] = {}
        for file, data in self.files:
            for name, overloads in data.get("sets", {}).items():
                if name in sets:
                    raise CatalogError(f"{file}: overload set '{name}' defined twice")
                sets[name] = list(overloads)
        apis: list[Api] = []
        seen: set[tuple[str | None, str]] = set()
        for where, entry in self.entries("api"):
            api = self.build_api(where, entry, sets, ctx)
            key = (api.receiver, api.name)
            if key in seen:
                raise CatalogError(f"{where}: {api.qualified_name} defined twice")
            seen.add(key)
            apis.append(api)
        return apis

    def build_api(
        self,
        where: str,
        entry: Mapping[str, Any],
        sets: Mapping[str, list[Mapping[str, Any]]],
        ctx: TypeContext,
    ) -> Api:
        check_keys(
            entry,
            {
                "name",
                "family",
                "receiver",
                "summary",
                "ref",
                "dtypes",
                "dtype_combos",
                "archs",
                "empty_archs",
                "operator",
                "notes",
                "use",
                "overloads",
                "global_scope",
            },
            where,
        )
        family = require(entry, "family", where)
        if family not in FAMILIES:
            raise CatalogError(f"{where}: unknown family '{family}'")
        receiver = entry.get("receiver")
        outer: tuple[TypeParam, ...] = ()
        if receiver is not None:
            if receiver not in self.classes:
                raise CatalogError(f"{where}: unknown receiver class '{receiver}'")
            outer = self.classes[receiver].type_params
        raw_overloads = list(sets[entry["use"]]) if "use" in entry else []
        if "use" in entry and entry["use"] not in sets:
            raise CatalogError(f"{where}: unknown overload set '{entry['use']}'")
        raw_overloads += list(entry.get("overloads", []))
        if not raw_overloads:
            raise CatalogError(f"{where}: no overloads")
        outer_vars = frozenset(tp.name for tp in outer if tp.is_type)
        overloads = []
        for raw in raw_overloads:
            check_keys(raw, {"id", "sig", "note", "archs"}, where)
            sig = require(raw, "sig", where)
            key = (sig, outer_vars)
            if key not in self.parsed:
                try:
                    self.parsed[key] = parse_signature(sig, ctx, outer_vars)
                except SignatureError as exc:
                    raise CatalogError(f"{where}: overload {raw.get('id')}: {exc}") from exc
            tparams, params, returns = self.parsed[key]
            ov_archs = raw.get("archs")
            overloads.append(
                Overload(require(raw, "id", where), sig, tparams, params, returns, raw.get("note"),
                         frozenset(int(a) for a in ov_archs) if ov_archs is not None else None)
            )
        ids = [ov.id for ov in overloads]
        if len(set(ids)) != len(ids):
            raise CatalogError(f"{where}: duplicate overload ids")
        type_vars = outer_vars | {tp.name for ov in overloads for tp in ov.type_params if tp.is_type}
        dtypes = {
            arch: MappingProxyType(
                {
                    var: self.dtype_list(where, types)
                    for var, types in self.arch_table(where, arch, per_var, type_vars).items()
                }
            )
            for arch, per_var in entry.get("dtypes", {}).items()
        }
        combos = {}
        for arch, rows in entry.get("dtype_combos", {}).items():
            self.check_arch(where, arch)
            checked = []
            for row in rows:
                self.arch_table(where, arch, row, type_vars)
                checked.append(
                    MappingProxyType({var: self.dtype_list(where, [t])[0] for var, t in row.items()})
                )
            combos[arch] = tuple(checked)
        archs = entry.get("archs")
        return Api(
            name=require(entry, "name", where),
            family=family,
            summary=require(entry, "summary", where),
            ref=require(entry, "ref", where),
            overloads=tuple(overloads),
            receiver=receiver,
            dtypes=MappingProxyType(dtypes),
            dtype_combos=MappingProxyType(combos),
            archs=frozenset(int(a) for a in archs) if archs is not None else None,
            empty_archs=frozenset(int(a) for a in entry.get("empty_archs", ())),
            operator=entry.get("operator"),
            notes=entry.get("notes"),
            global_scope=bool(entry.get("global_scope", False)),
        )

    def check_arch(self, where: str, arch: str) -> None:
        if arch not in ARCHS:
            raise CatalogError(f"{where}: dtypes keyed by unknown arch '{arch}'")

    def arch_table(
        self, where: str, arch: str, per_var: Mapping[str, Any], type_vars: set[str] | frozenset[str]
    ) -> Mapping[str, Any]:
        self.check_arch(where, arch)
        for var in per_var:
            if var not in type_vars:
                raise CatalogError(f"{where}: dtypes name '{var}', which no overload declares")
        return per_var

    def dtype_list(self, where: str, types: list[str]) -> tuple[str, ...]:
        out = []
        for name in types:
            canonical = self.type_spellings.get(name)
            if canonical is None:
                raise CatalogError(f"{where}: unknown element type '{name}' in dtypes")
            out.append(canonical)
        return tuple(out)
