"""Include search paths and compile settings: -I (in order, after the including file's folder), -isystem, a
compile_commands.json (-p / --compile-commands) giving each source its -I/-D/-U/-include, and the same settings
in pyproject.toml's [tool.ascendc-check] table. A missing include is ASC002 with the folders searched."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.check import main as check
from frontend.includes import CompileDatabaseError, CompileFlags, parse_command, read_compile_commands
from frontend.pipeline import load_bundle
from frontend.readers import read_input

# A source whose one line tells which header (and which macros) the preprocessor used: `#error` otherwise.
PROBE = '#include "which.h"\n#if WHICH != {want}\n#error "got the wrong which.h"\n#endif\nint probe = WHICH;\n'


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def diagnostics(source: Path, flags: CompileFlags = CompileFlags(), unit_flags: CompileFlags | None = None) -> list:
    bundle = read_input(str(source), "cpp")
    bundle.flags = flags
    if unit_flags is not None:
        bundle.unit_flags[bundle.units[0].path] = unit_flags
    return [(d.code, d.message, [n.message for n in d.notes]) for d in load_bundle(bundle).diagnostics]


def tree(tmp_path: Path, want: int) -> Path:
    for name, value in (("a", 1), ("b", 2), ("c", 3)):
        write(tmp_path / name / "which.h", f"#define WHICH {value}\n")
    return write(tmp_path / "src" / "k.cpp", PROBE.format(want=want))


def test_include_folders_are_searched_in_order(tmp_path: Path) -> None:
    source = tree(tmp_path, 1)
    a, b = str(tmp_path / "a"), str(tmp_path / "b")
    assert diagnostics(source, CompileFlags((a, b))) == []
    source.write_text(PROBE.format(want=2))
    assert diagnostics(source, CompileFlags((b, a))) == []


def test_the_including_files_folder_comes_first(tmp_path: Path) -> None:
    source = tree(tmp_path, 3)
    write(source.parent / "which.h", "#define WHICH 3\n")
    assert diagnostics(source, CompileFlags((str(tmp_path / "a"),))) == []


def test_a_missing_include_lists_the_folders_searched(tmp_path: Path) -> None:
    source = tree(tmp_path, 1)
    a = str(tmp_path / "a")
    found = diagnostics(write(source, '#include "nowhere.h"\n'), CompileFlags((a,), (str(tmp_path / "c"),)))
    assert found == [("ASC002", "cannot find include file 'nowhere.h'; skipped",
                      [f"searched: {source.parent}, {a}, {tmp_path / 'c'}"])]


def test_angled_includes_are_searched_in_the_include_folders_only(tmp_path: Path) -> None:
    write(tmp_path / "inc" / "lib" / "which.h", "#define WHICH 7\n")
    write(tmp_path / "src" / "lib" / "which.h", "#define WHICH 8\n")  # next to the source: not for <...>
    source = write(tmp_path / "src" / "k.cpp", PROBE.format(want=7).replace('"which.h"', "<lib/which.h>"))
    assert diagnostics(source, CompileFlags((str(tmp_path / "inc"),))) == []
    # without the folder it is a system header, skipped silently as before (so WHICH is undefined: 0 != 7)
    assert [d[0] for d in diagnostics(source)] == ["ASC004"]


def test_isystem_comes_after_the_include_folders_and_keeps_its_warnings(tmp_path: Path) -> None:
    source = tree(tmp_path, 1)
    sys_dir = tmp_path / "sys"
    write(sys_dir / "which.h", '#define WHICH 5\n#include "not_shipped.h"\n')
    assert diagnostics(source, CompileFlags((str(tmp_path / "a"),), (str(sys_dir),))) == []
    source.write_text(PROBE.format(want=5))
    assert diagnostics(source, CompileFlags((), (str(sys_dir),))) == []  # no ASC002 from the system header
    found = diagnostics(source, CompileFlags((str(sys_dir),)))  # the same header through -I warns
    assert [d[0] for d in found] == ["ASC002"]


def test_compile_flags_bring_macros_and_forced_includes(tmp_path: Path) -> None:
    source = write(tmp_path / "k.cpp", "#if WHICH != 4 || defined(OFF)\n#error \"flags not applied\"\n#endif\n")
    forced = write(tmp_path / "force.h", "#define WHICH 4\n")
    assert diagnostics(source, unit_flags=CompileFlags(defines=(("OFF", "1"), ("OFF", None)),
                                                       forced_includes=(str(forced),))) == []
    # the command line's macros come after the database's, and win
    found = diagnostics(source, CompileFlags(defines=(("WHICH", "9"),)),
                        unit_flags=CompileFlags(defines=(("WHICH", "4"),)))
    assert [d[0] for d in found] == ["ASC004"]


def test_a_forced_include_that_is_missing_is_reported(tmp_path: Path) -> None:
    source = write(tmp_path / "k.cpp", "int x;\n")
    found = diagnostics(source, unit_flags=CompileFlags(forced_includes=(str(tmp_path / "gone.h"),)))
    assert [(d[0], d[1]) for d in found] == [("ASC002", f"cannot find forced include file '{tmp_path / 'gone.h'}' "
                                              "(-include); skipped")]


# ---------------------------------------------------------------------------------- compile commands


def test_parse_command_reads_the_flags_a_compiler_takes(tmp_path: Path) -> None:
    flags = parse_command(["clang++", "-Iinc", "-I", "/abs", "-isystem", "sys", "-iquote", "q", "-DMODE=2", "-D", "ON",
                           "-UOFF", "-include", "force.h", "--include-directory=more", "-o", "out.o", "-c", "k.cpp",
                           "-std=c++17"], str(tmp_path))
    assert flags.include_dirs == (str(tmp_path / "inc"), "/abs", str(tmp_path / "more"))
    assert flags.system_dirs == (str(tmp_path / "sys"),) and flags.quote_dirs == (str(tmp_path / "q"),)
    assert flags.defines == (("MODE", "2"), ("ON", "1"), ("OFF", None))
    assert flags.forced_includes == (str(tmp_path / "force.h"),)


def database(tmp_path: Path, entries: list[dict[str, object]]) -> Path:
    build = tmp_path / "build"
    write(build / "compile_commands.json", json.dumps(entries))
    return build


def test_a_database_gives_each_source_its_own_flags(tmp_path: Path) -> None:
    tree(tmp_path, 2)
    one = write(tmp_path / "src" / "one.cpp", PROBE.format(want=1))
    two = write(tmp_path / "src" / "two.cpp", PROBE.format(want=2))
    build = database(tmp_path, [
        {"directory": str(tmp_path), "file": "src/one.cpp", "arguments": ["c++", "-Ia", "-c", "src/one.cpp"]},
        {"directory": "..", "file": str(two), "command": "c++ -I b -DEXTRA=\"two words\" -c src/two.cpp"},
    ])
    db = read_compile_commands(str(build))
    assert db.flags_for(str(one)) == CompileFlags((str(tmp_path / "a"),))
    assert db.flags_for(str(two)).include_dirs == (str(tmp_path / "b"),)  # type: ignore[union-attr]
    assert ("EXTRA", "two words") in db.flags_for(str(two)).defines  # type: ignore[union-attr]
    # a file the database does not list takes the flags of the listed source nearest to it
    header = write(tmp_path / "src" / "detail" / "h.h", "")
    assert db.flags_for(str(header)) in (db.flags_for(str(one)), db.flags_for(str(two)))
    for flag in ("-p", "--compile-commands"):
        where = str(build) if flag == "-p" else str(build / "compile_commands.json")
        result = CliRunner().invoke(check, [flag, where, str(one), str(two)])
        assert result.exit_code == 0, result.output


def test_unreadable_databases_are_usage_errors(tmp_path: Path) -> None:
    source = write(tmp_path / "k.cpp", "int x;\n")
    bad = write(tmp_path / "bad" / "compile_commands.json", "[{\"file\": 1}]")
    with pytest.raises(CompileDatabaseError, match="entry 0 has no \"file\""):
        read_compile_commands(str(bad))
    for args in (["-p", str(tmp_path / "nope")], ["-p", str(bad.parent)], ["--compile-commands", str(source)],
                 ["-p", str(bad.parent), "--compile-commands", str(bad)]):
        result = CliRunner().invoke(check, [*args, str(source)])
        assert result.exit_code == 2, (args, result.output)
        assert "Traceback" not in result.output


# ---------------------------------------------------------------------------------- the command line and pyproject


def test_include_options_on_the_command_line(tmp_path: Path) -> None:
    source = tree(tmp_path, 2)
    assert CliRunner().invoke(check, [str(source)]).exit_code == 1  # which.h missing: WHICH is 0
    result = CliRunner().invoke(check, ["-I", str(tmp_path / "b"), "-I", str(tmp_path / "a"), str(source)])
    assert result.exit_code == 0, result.output
    result = CliRunner().invoke(check, ["-isystem", str(tmp_path / "b"), str(source)])
    assert result.exit_code == 0, result.output
    assert CliRunner().invoke(check, ["-I", str(tmp_path / "missing"), str(source)]).exit_code == 2


def test_the_pyproject_table_sets_include_folders_and_the_database(tmp_path: Path) -> None:
    source = tree(tmp_path, 3)
    project = tmp_path / "pyproject.toml"
    project.write_text('[tool.ascendc-check]\ninclude = ["c"]\n')
    result = CliRunner().invoke(check, [str(source)])
    assert result.exit_code == 0, result.output
    database(tmp_path, [{"directory": str(tmp_path), "file": "src/k.cpp", "arguments": ["c++", "-Ib", "src/k.cpp"]}])
    source.write_text(PROBE.format(want=2))
    project.write_text('[tool.ascendc-check]\ncompile-commands = "build"\n')
    result = CliRunner().invoke(check, [str(source)])
    assert result.exit_code == 0, result.output
    project.write_text('[tool.ascendc-check]\ninclude = "no-such-folder"\n')
    result = CliRunner().invoke(check, [str(source)])
    assert result.exit_code == 2 and "not a folder" in result.output
    os.remove(project)
