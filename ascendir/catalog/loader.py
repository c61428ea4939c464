"""Reads the catalog's TOML files into one immutable `Catalog` and checks them against each other."""

from __future__ import annotations

import difflib
import functools
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

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
    Overload,
    Param,
    QueueBinding,
    QueueEvent,
    Route,
    StructDef,
    StructField,
    TypeParam,
)
from ascendir.catalog.signature import SignatureError, TypeContext, parse_signature, parse_type_params

if sys.version_info >= (3, 11):
    import tomllib
else:  # python 3.10
    import tomli as tomllib  # type: ignore[import-not-found, unused-ignore]

__all__ = ["ARCHS", "DATA_DIR", "Catalog", "CatalogError", "arch_catalogued", "compiler_intrinsics", "load_catalog",
           "matmul_library_functions", "vendor_functions", "vendor_types"]

DATA_DIR = Path(__file__).parent / "data"

# Architectures the catalog keys dtype tables by (as strings, the way TOML keys them): the ones it
# describes. Others (3510) have APIs, overloads and type tables it does not hold.
ARCHS: tuple[str, ...] = ("2201", "2002", "1001")


@functools.lru_cache(maxsize=1)
def vendor_functions() -> frozenset[str]:
    """AscendC free functions the vendor's public headers declare, catalogued or not (data/vendor_functions.txt,
    written by tools/vendor_api_functions.py): a call of one is not a call of an unknown API."""
    return _name_list("vendor_functions.txt")


@functools.lru_cache(maxsize=1)
def matmul_library_functions() -> frozenset[str]:
    """Free functions of the Matmul library's implementation (AscendC::CeilDiv, CeilAlign ...;
    data/matmul_library_functions.txt, written by tools/vendor_api_functions.py): declared for a kernel that
    includes lib/matmul_intf.h, unknown otherwise."""
    return _name_list("matmul_library_functions.txt")


@functools.lru_cache(maxsize=1)
def vendor_types() -> frozenset[str]:
    """Structs, classes, enums and aliases the vendor's headers declare at namespace scope, catalogued or not
    (data/vendor_types.txt, written by tools/vendor_api_types.py): a declaration of one names no unknown type."""
    return _name_list("vendor_types.txt")


@functools.lru_cache(maxsize=1)
def compiler_intrinsics() -> frozenset[str]:
    """The device compiler's intrinsics that the vendor's AscendC implementation calls and no header declares
    (trap, set_atomic_none, copy_gm_to_ubuf ...; data/compiler_intrinsics.txt, written by
    tools/compiler_intrinsics.py): a call of one is no use of an undeclared name."""
    return _name_list("compiler_intrinsics.txt")


def _name_list(file_name: str) -> frozenset[str]:
    """The names of a data/*.txt list, one per line, `#` comments skipped."""
    text = (DATA_DIR / file_name).read_text(encoding="utf-8")
    return frozenset(line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#"))


def arch_catalogued(arch: int) -> bool:
    """Whether the catalog describes the APIs of `__NPU_ARCH__` `arch`, so that rules may judge calls by it."""
    return str(arch) in ARCHS

_TOP_LEVEL_KEYS = frozenset(
    {
        "api",
        "sets",
        "struct",
        "enum",
        "type",
        "mask",
        "cast",
        "route",
        "class",
        "queue_binding",
        "queue_event",
    }
)
_MEMORIES = frozenset({"GM", "UB", "L1", "L0A", "L0B", "L0C", "BT", "FB"})


class CatalogError(ValueError):
    """The catalog data is inconsistent (unknown name, bad signature, duplicate entry, ...)."""


def _normalize_type_spelling(text: str) -> str:
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
        return self._type_spellings.get(_normalize_type_spelling(c_name))

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

    @staticmethod
    def hard_event_pipes(event: str) -> tuple[str, str]:
        """(producer, consumer) pipes of a HardEvent: "MTE2_V" -> ("PIPE_MTE2", "PIPE_V")."""
        name = event.rsplit("::", 1)[-1]
        src, _, dst = name.partition("_")
        if not src or not dst:
            raise ValueError(f"'{event}' is not a HardEvent name")
        return f"PIPE_{src}", f"PIPE_{dst}"


# ---------------------------------------------------------------- building


def _require(table: Mapping[str, Any], key: str, where: str) -> Any:
    if key not in table:
        raise CatalogError(f"{where}: missing '{key}'")
    return table[key]


def _check_keys(table: Mapping[str, Any], allowed: set[str], where: str) -> None:
    unknown = sorted(set(table) - allowed)
    if unknown:
        raise CatalogError(f"{where}: unknown key(s) {', '.join(unknown)}")


class _Builder:
    def __init__(self, files: list[tuple[str, Mapping[str, Any]]]) -> None:
        self.files = files
        self.type_spellings: dict[str, str] = {}
        self.element_types: dict[str, ElementType] = {}
        self.enums: dict[str, EnumDef] = {}
        self.enum_aliases: dict[str, str] = {}
        self.structs: dict[str, StructDef] = {}
        self.classes: dict[str, ClassDef] = {}
        self.class_aliases: dict[str, str] = {}
        self.struct_aliases: dict[str, str] = {}
        # Overload sets repeat the same signature text across many APIs: parse each text once.
        self.parsed: dict[
            tuple[str, frozenset[str]], tuple[tuple[TypeParam, ...], tuple[Param, ...], Param | None]
        ] = {}

    def entries(self, key: str) -> list[tuple[str, Mapping[str, Any]]]:
        out: list[tuple[str, Mapping[str, Any]]] = []
        for file, data in self.files:
            for i, entry in enumerate(data.get(key, [])):
                label = (
                    entry.get("name") or entry.get("api") or entry.get("arch") or entry.get("position") or i
                )
                out.append((f"{file}: {key} {label}", entry))
        return out

    def context(self) -> TypeContext:
        positions = frozenset(self.enums["TPosition"].names) | frozenset(
            self.enums["TPosition"].value_aliases
        )
        return TypeContext(
            canonical_type=lambda name: self.type_spellings.get(_normalize_type_spelling(name)),
            structs={**{name: s.type_params for name, s in self.structs.items()},
                     **{alias: self.structs[name].type_params for alias, name in self.struct_aliases.items()}},
            enums=frozenset(self.enums) | frozenset(self.enum_aliases),
            classes=frozenset(self.classes) | frozenset(self.class_aliases),
            positions=positions,
        )

    def build(self) -> Catalog:
        for file, data in self.files:
            _check_keys(data, set(_TOP_LEVEL_KEYS), file)
        self.build_types()
        self.build_enums()
        self.build_structs()
        ctx = self.context()
        self.build_classes(ctx)
        ctx = self.context()
        apis = self.build_apis(ctx)
        by_key = {(api.receiver, api.name): api for api in apis}
        catalog = Catalog(
            apis=tuple(apis),
            structs=MappingProxyType(self.structs),
            enums=MappingProxyType(self.enums),
            classes=MappingProxyType(self.classes),
            element_types=MappingProxyType(self.element_types),
            cast_tables=MappingProxyType(self.build_casts()),
            routes=self.build_routes(by_key),
            mask_rules=MappingProxyType(self.build_masks()),
            queue_bindings=MappingProxyType(self.build_queue_bindings()),
            queue_events=self.build_queue_events(),
            _by_key=MappingProxyType(by_key),
            _type_spellings=MappingProxyType(self.type_spellings),
            _enum_aliases=MappingProxyType(self.enum_aliases),
            _class_aliases=MappingProxyType(self.class_aliases),
            _struct_aliases=MappingProxyType(self.struct_aliases),
        )
        return catalog

    # -- element types, enums, structs, classes

    def build_types(self) -> None:
        for where, entry in self.entries("type"):
            _check_keys(entry, {"name", "bits", "class", "signed", "aliases"}, where)
            klass = _require(entry, "class", where)
            if klass not in {"int", "uint", "float", "bool"}:
                raise CatalogError(f"{where}: class must be int, uint, float or bool")
            etype = ElementType(
                name=_require(entry, "name", where),
                bits=int(_require(entry, "bits", where)),
                klass=klass,
                signed=bool(_require(entry, "signed", where)),
                aliases=tuple(entry.get("aliases", ())),
            )
            for spelling in (etype.name, *etype.aliases):
                if spelling in self.type_spellings:
                    raise CatalogError(f"{where}: type spelling '{spelling}' defined twice")
                self.type_spellings[spelling] = etype.name
            self.element_types[etype.name] = etype

    def build_enums(self) -> None:
        for where, entry in self.entries("enum"):
            _check_keys(
                entry,
                {
                    "name",
                    "summary",
                    "ref",
                    "scoped",
                    "values",
                    "value_aliases",
                    "aliases",
                    "complete",
                    "note",
                },
                where,
            )
            values = []
            for value in _require(entry, "values", where):
                _check_keys(value, {"name", "value", "note"}, where)
                values.append(EnumValue(value["name"], value.get("value"), value.get("note")))
            names = [v.name for v in values]
            if len(set(names)) != len(names):
                raise CatalogError(f"{where}: duplicate values")
            aliases = dict(entry.get("value_aliases", {}))
            for alias, target in aliases.items():
                if target not in names:
                    raise CatalogError(f"{where}: value alias {alias} -> unknown value {target}")
            enum = EnumDef(
                name=_require(entry, "name", where),
                values=tuple(values),
                scoped=bool(_require(entry, "scoped", where)),
                summary=_require(entry, "summary", where),
                ref=_require(entry, "ref", where),
                value_aliases=MappingProxyType(aliases),
                complete=bool(entry.get("complete", True)),
                note=entry.get("note"),
            )
            if enum.name in self.enums:
                raise CatalogError(f"{where}: enum defined twice")
            self.enums[enum.name] = enum
            for alias in entry.get("aliases", ()):
                self.enum_aliases[alias] = enum.name

    def _field_type_known(self, c_type: str, type_params: tuple[str, ...], names: set[str]) -> bool:
        """A struct field's type: a type parameter, struct, enum or element type; a fixed-size array of one
        (`uint16_t[4]`); or a LocalTensor of a type parameter or element type (MrgSortSrcList's lists)."""
        array = re.fullmatch(r"(.+?)\s*\[\s*\d+\s*\]", c_type)
        if array:
            return self._field_type_known(array.group(1), type_params, names)
        tensor = re.fullmatch(r"LocalTensor\s*<\s*(.+?)\s*>", c_type)
        if tensor:
            return self._field_type_known(tensor.group(1), type_params, names)
        return (
            c_type in type_params
            or c_type in names
            or c_type in self.enums
            or _normalize_type_spelling(c_type) in self.type_spellings
        )

    def build_structs(self) -> None:
        entries = self.entries("struct")
        names = {entry["name"] for _, entry in entries}
        for where, entry in entries:
            _check_keys(
                entry,
                {"name", "summary", "ref", "fields", "type_params", "fields_complete", "ordered", "note", "aliases",
                 "other_members", "constructors"},
                where,
            )
            type_params = tuple(entry.get("type_params", ()))
            fields = []
            for raw in _require(entry, "fields", where):
                _check_keys(raw, {"name", "type", "min", "max", "default", "note"}, where)
                c_type = _require(raw, "type", where)
                known = self._field_type_known(c_type, type_params, names)
                if not known:
                    raise CatalogError(f"{where}: field {raw['name']} has unknown type '{c_type}'")
                fields.append(
                    StructField(
                        raw["name"],
                        c_type,
                        raw.get("min"),
                        raw.get("max"),
                        raw.get("default"),
                        raw.get("note"),
                    )
                )
            if len({f.name for f in fields}) != len(fields):
                raise CatalogError(f"{where}: duplicate field names")
            constructors = tuple(tuple(c) for c in entry.get("constructors", ()))
            for ctor in constructors:
                unknown = [n for n in ctor if n not in {f.name for f in fields}]
                if unknown:
                    raise CatalogError(f"{where}: constructor sets unknown field(s) {', '.join(unknown)}")
            if len({len(c) for c in constructors}) != len(constructors):
                raise CatalogError(f"{where}: two constructors take the same number of arguments")
            struct = StructDef(
                name=entry["name"],
                fields=tuple(fields),
                summary=_require(entry, "summary", where),
                ref=_require(entry, "ref", where),
                type_params=type_params,
                fields_complete=bool(entry.get("fields_complete", True)),
                ordered=bool(entry.get("ordered", True)),
                note=entry.get("note"),
                other_members=tuple(entry.get("other_members", ())),
                constructors=constructors,
            )
            if struct.name in self.structs:
                raise CatalogError(f"{where}: struct defined twice")
            self.structs[struct.name] = struct
            for alias in entry.get("aliases", ()):
                if alias in names or alias in self.struct_aliases:
                    raise CatalogError(f"{where}: alias '{alias}' names another struct")
                self.struct_aliases[alias] = struct.name

    def build_classes(self, ctx: TypeContext) -> None:
        entries = self.entries("class")
        # Register names first: a class's own type-parameter list may not name classes, but signatures will.
        for where, entry in entries:
            _check_keys(entry, {"name", "summary", "ref", "type_params", "aliases"}, where)
            self.classes[_require(entry, "name", where)] = ClassDef(entry["name"], (), "", "")
        for where, entry in entries:
            try:
                type_params = parse_type_params(entry.get("type_params", ""), ctx)
            except SignatureError as exc:
                raise CatalogError(f"{where}: {exc}") from exc
            cls = ClassDef(
                name=entry["name"],
                type_params=type_params,
                summary=_require(entry, "summary", where),
                ref=_require(entry, "ref", where),
                aliases=tuple(entry.get("aliases", ())),
            )
            self.classes[cls.name] = cls
            for alias in cls.aliases:
                self.class_aliases[alias] = cls.name

    # -- APIs

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
        _check_keys(
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
        family = _require(entry, "family", where)
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
            _check_keys(raw, {"id", "sig", "note"}, where)
            sig = _require(raw, "sig", where)
            key = (sig, outer_vars)
            if key not in self.parsed:
                try:
                    self.parsed[key] = parse_signature(sig, ctx, outer_vars)
                except SignatureError as exc:
                    raise CatalogError(f"{where}: overload {raw.get('id')}: {exc}") from exc
            tparams, params, returns = self.parsed[key]
            overloads.append(
                Overload(_require(raw, "id", where), sig, tparams, params, returns, raw.get("note"))
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
            name=_require(entry, "name", where),
            family=family,
            summary=_require(entry, "summary", where),
            ref=_require(entry, "ref", where),
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

    # -- tables

    def build_casts(self) -> dict[str, CastTable]:
        modes_known = set(self.enums["RoundMode"].names)
        tables: dict[str, CastTable] = {}
        for where, entry in self.entries("cast"):
            _check_keys(entry, {"arch", "catalogued", "ref", "note", "routes"}, where)
            arch = str(_require(entry, "arch", where))
            self.check_arch(where, arch)
            routes: dict[tuple[str, str], CastRoute] = {}
            for raw in entry.get("routes", []):
                _check_keys(raw, {"src", "dst", "modes", "note"}, where)
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
                bool(_require(entry, "catalogued", where)),
                MappingProxyType(routes),
                _require(entry, "ref", where),
                entry.get("note"),
            )
        return tables

    def positions(self) -> frozenset[str]:
        return frozenset(self.enums["TPosition"].names)

    def build_routes(self, by_key: Mapping[tuple[str | None, str], Api]) -> tuple[Route, ...]:
        positions = self.positions()
        routes: list[Route] = []
        for where, entry in self.entries("route"):
            _check_keys(entry, {"api", "src", "dst", "overloads", "archs", "note"}, where)
            api = by_key.get((None, _require(entry, "api", where)))
            if api is None:
                raise CatalogError(f"{where}: unknown API")
            overloads = tuple(entry.get("overloads", ()))
            for ov in overloads:
                if api.overload(ov) is None:
                    raise CatalogError(f"{where}: {api.name} has no overload '{ov}'")
            archs = frozenset(int(a) for a in entry["archs"]) if "archs" in entry else None
            for src in _require(entry, "src", where):
                for dst in _require(entry, "dst", where):
                    if src not in positions or dst not in positions:
                        raise CatalogError(f"{where}: unknown position in {src} -> {dst}")
                    routes.append(Route(api.name, src, dst, overloads, archs, entry.get("note")))
        return tuple(routes)

    def build_masks(self) -> dict[int, MaskRule]:
        rules: dict[int, MaskRule] = {}
        for where, entry in self.entries("mask"):
            _check_keys(entry, {"bits", "continuous_max", "bitmask_words"}, where)
            bits = int(_require(entry, "bits", where))
            rules[bits] = MaskRule(
                bits, int(_require(entry, "continuous_max", where)), entry.get("bitmask_words")
            )
        return rules

    def build_queue_bindings(self) -> dict[str, QueueBinding]:
        positions = self.positions()
        bindings: dict[str, QueueBinding] = {}
        for where, entry in self.entries("queue_binding"):
            _check_keys(entry, {"position", "src", "dst", "note"}, where)
            binding = QueueBinding(entry["position"], entry["src"], entry["dst"], entry.get("note"))
            if {binding.position, binding.src, binding.dst} - positions:
                raise CatalogError(f"{where}: unknown position")
            bindings[binding.position] = binding
        return bindings

    def build_queue_events(self) -> tuple[QueueEvent, ...]:
        events = set(self.enums["HardEvent"].names)
        out = []
        for where, entry in self.entries("queue_event"):
            _check_keys(entry, {"src", "dst", "forward", "backward", "archs"}, where)
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


def _read_files(data_dir: Path) -> list[tuple[str, Mapping[str, Any]]]:
    files: list[tuple[str, Mapping[str, Any]]] = []
    for path in sorted(data_dir.glob("*.toml")):
        with path.open("rb") as fh:
            try:
                files.append((path.name, tomllib.load(fh)))
            except tomllib.TOMLDecodeError as exc:
                raise CatalogError(f"{path.name}: {exc}") from exc
    return files


def build_catalog(data_dir: Path = DATA_DIR) -> Catalog:
    """Read and check the catalog in `data_dir`, uncached (tests and tools use this on other folders)."""
    return _Builder(_read_files(data_dir)).build()


@functools.lru_cache(maxsize=1)
def load_catalog() -> Catalog:
    """The project's catalog, read once per process (from a pickled snapshot of an earlier build when one
    for these exact data files and this code is in the cache folder: see frontend/cache.py)."""
    import pickle

    from frontend import cache

    try:
        key = _snapshot_key(DATA_DIR)
    except OSError:
        return build_catalog(DATA_DIR)
    catalog = cache.load(_SNAPSHOT_NAME, key)
    if isinstance(catalog, Catalog):
        return catalog
    catalog = build_catalog(DATA_DIR)

    class Pickler(pickle.Pickler):
        def reducer_override(self, obj: Any) -> Any:
            if type(obj) is MappingProxyType:
                return (_read_only, (obj.copy(),))
            return NotImplemented

    cache.store(_SNAPSHOT_NAME, key, catalog, lambda f: Pickler(f, pickle.HIGHEST_PROTOCOL))
    return catalog


_SNAPSHOT_NAME = "catalog.pickle"


def _read_only(mapping: dict[Any, Any]) -> Mapping[Any, Any]:
    """How a snapshot spells MappingProxyType(mapping) (the type itself does not pickle)."""
    return MappingProxyType(mapping)


def _snapshot_key(data_dir: Path) -> bytes:
    """The data files (names and bytes) and the code that turns them into a Catalog."""
    from frontend import cache

    here = Path(__file__).parent
    parts: list[bytes | str] = []
    for path in [here / "loader.py", here / "model.py", here / "signature.py", *sorted(data_dir.glob("*.toml"))]:
        parts += [path.name, path.read_bytes()]
    return cache.key_of("catalog", *parts)
