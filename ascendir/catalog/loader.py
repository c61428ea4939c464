"""Reads the catalog's TOML files into one immutable `Catalog` and checks them against each other.

The parts live in modules of their own; this one keeps the reading (the TOML files, the builder's order of
work, the cached snapshot) and re-exports every public name it had:

- data_files.py: where the data lives (DATA_DIR), the architectures it describes (ARCHS), the plain name lists;
- errors.py: CatalogError and the key checks every table's reader makes;
- tables.py: the Catalog itself, its tables and lookups;
- build_types.py, build_apis.py, build_rules.py: the builder's methods for the element types, enums, structs
  and classes; the APIs and their overloads; the Cast tables, routes, masks and queue tables.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

from ascendir.catalog.build_apis import ApiTableBuilder
from ascendir.catalog.build_rules import RuleTableBuilder
from ascendir.catalog.build_types import TypeTableBuilder
from ascendir.catalog.data_files import DATA_DIR as DATA_DIR
from ascendir.catalog.errors import CatalogError as CatalogError, check_keys
from ascendir.catalog.model import ClassDef, ElementType, EnumDef, Param, StructDef, TypeParam
from ascendir.catalog.signature import TypeContext
from ascendir.catalog.tables import Catalog as Catalog, normalize_type_spelling

if sys.version_info >= (3, 11):
    import tomllib
else:  # python 3.10
    import tomli as tomllib  # type: ignore[import-not-found, unused-ignore]

# Defined in the modules this one was split into; other modules import them from here.
from ascendir.catalog.data_files import (
    ARCHS as ARCHS,
    arch_catalogued as arch_catalogued,
    compiler_intrinsics as compiler_intrinsics,
    matmul_library_functions as matmul_library_functions,
    vendor_functions as vendor_functions,
    vendor_types as vendor_types,
)


__all__ = ["ARCHS", "DATA_DIR", "Catalog", "CatalogError", "arch_catalogued", "compiler_intrinsics", "load_catalog",
           "matmul_library_functions", "vendor_functions", "vendor_types"]

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


class _Builder(TypeTableBuilder, ApiTableBuilder, RuleTableBuilder):
    """One build of a Catalog from the files' tables: the order of work here, each kind of table in the
    mixin that reads it (types before APIs: the signatures are parsed against the types)."""

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
            canonical_type=lambda name: self.type_spellings.get(normalize_type_spelling(name)),
            structs={**{name: s.type_params for name, s in self.structs.items()},
                     **{alias: self.structs[name].type_params for alias, name in self.struct_aliases.items()}},
            enums=frozenset(self.enums) | frozenset(self.enum_aliases),
            classes=frozenset(self.classes) | frozenset(self.class_aliases),
            positions=positions,
        )

    def build(self) -> Catalog:
        for file, data in self.files:
            check_keys(data, set(_TOP_LEVEL_KEYS), file)
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
    code = ["loader.py", "model.py", "signature.py", "data_files.py", "errors.py", "tables.py", "build_types.py",
            "build_apis.py", "build_rules.py"]
    for path in [*(here / name for name in code), *sorted(data_dir.glob("*.toml"))]:
        parts += [path.name, path.read_bytes()]
    return cache.key_of("catalog", *parts)
