"""The catalog builder's type tables: element types, enums, parameter structs and classes, read from their
TOML entries and checked against each other. Separate from the APIs because the APIs' signatures are parsed
against these tables, which must be complete first.
"""

from __future__ import annotations

import re
from types import MappingProxyType

from ascendir.catalog.errors import CatalogError, check_keys, require
from ascendir.catalog.model import ClassDef, ElementType, EnumDef, EnumValue, StructDef, StructField
from ascendir.catalog.signature import SignatureError, TypeContext, parse_type_params
from ascendir.catalog.tables import normalize_type_spelling


class TypeTableBuilder:
    """The catalog builder's type tables: methods of _Builder (loader.py), which inherits them."""

    def build_types(self) -> None:
        for where, entry in self.entries("type"):
            check_keys(entry, {"name", "bits", "class", "signed", "aliases"}, where)
            klass = require(entry, "class", where)
            if klass not in {"int", "uint", "float", "bool"}:
                raise CatalogError(f"{where}: class must be int, uint, float or bool")
            etype = ElementType(
                name=require(entry, "name", where),
                bits=int(require(entry, "bits", where)),
                klass=klass,
                signed=bool(require(entry, "signed", where)),
                aliases=tuple(entry.get("aliases", ())),
            )
            for spelling in (etype.name, *etype.aliases):
                if spelling in self.type_spellings:
                    raise CatalogError(f"{where}: type spelling '{spelling}' defined twice")
                self.type_spellings[spelling] = etype.name
            self.element_types[etype.name] = etype

    def build_enums(self) -> None:
        for where, entry in self.entries("enum"):
            check_keys(
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
            for value in require(entry, "values", where):
                check_keys(value, {"name", "value", "note"}, where)
                values.append(EnumValue(value["name"], value.get("value"), value.get("note")))
            names = [v.name for v in values]
            if len(set(names)) != len(names):
                raise CatalogError(f"{where}: duplicate values")
            aliases = dict(entry.get("value_aliases", {}))
            for alias, target in aliases.items():
                if target not in names:
                    raise CatalogError(f"{where}: value alias {alias} -> unknown value {target}")
            enum = EnumDef(
                name=require(entry, "name", where),
                values=tuple(values),
                scoped=bool(require(entry, "scoped", where)),
                summary=require(entry, "summary", where),
                ref=require(entry, "ref", where),
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
            or normalize_type_spelling(c_type) in self.type_spellings
        )

    def build_structs(self) -> None:
        entries = self.entries("struct")
        names = {entry["name"] for _, entry in entries}
        for where, entry in entries:
            check_keys(
                entry,
                {"name", "summary", "ref", "fields", "type_params", "fields_complete", "ordered", "note", "aliases",
                 "other_members", "constructors", "aggregate", "default_constructor"},
                where,
            )
            type_params = tuple(entry.get("type_params", ()))
            fields = []
            for raw in require(entry, "fields", where):
                check_keys(raw, {"name", "type", "min", "max", "default", "note"}, where)
                c_type = require(raw, "type", where)
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
            aggregate = bool(entry.get("aggregate", True))
            default_constructor = bool(entry.get("default_constructor", True))
            if aggregate and (constructors or not default_constructor):
                # a user-declared constructor makes the class no aggregate ([dcl.init.aggr]/1.1): braced lists
                # then go to the constructors, so the entry must say so for them to be counted
                raise CatalogError(f"{where}: a struct with constructors is no aggregate (add aggregate = false)")
            struct = StructDef(
                name=entry["name"],
                fields=tuple(fields),
                summary=require(entry, "summary", where),
                ref=require(entry, "ref", where),
                type_params=type_params,
                fields_complete=bool(entry.get("fields_complete", True)),
                ordered=bool(entry.get("ordered", True)),
                note=entry.get("note"),
                other_members=tuple(entry.get("other_members", ())),
                constructors=constructors,
                aggregate=aggregate,
                default_constructor=default_constructor,
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
            check_keys(entry, {"name", "summary", "ref", "type_params", "aliases"}, where)
            self.classes[require(entry, "name", where)] = ClassDef(entry["name"], (), "", "")
        for where, entry in entries:
            try:
                type_params = parse_type_params(entry.get("type_params", ""), ctx)
            except SignatureError as exc:
                raise CatalogError(f"{where}: {exc}") from exc
            cls = ClassDef(
                name=entry["name"],
                type_params=type_params,
                summary=require(entry, "summary", where),
                ref=require(entry, "ref", where),
                aliases=tuple(entry.get("aliases", ())),
            )
            self.classes[cls.name] = cls
            for alias in cls.aliases:
                self.class_aliases[alias] = cls.name
