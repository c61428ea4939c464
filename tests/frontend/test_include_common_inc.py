"""The ops repositories' tiling builds put the repository's shared headers, `common/inc` of its root, on the
include path (cmake/variables.cmake, OP_TILING_INCLUDE). ops-math is_finite's 910B tiling header includes
"torch_extension/tiling_utils.h" from there (TilingUtils::GetDimNum); out of reach (ASC002), the names it declares
were undeclared and the tiling stopped. A file of an op project now finds such a name in `common/inc` of the
folders above the project."""

from __future__ import annotations

from frontend.preprocess import preprocess


def _repo(tmp_path) -> tuple:
    host = tmp_path / "repo" / "math" / "op" / "op_host" / "arch32" / "op_tiling.h"
    shared = tmp_path / "repo" / "common" / "inc" / "ext" / "utils.h"
    host.parent.mkdir(parents=True)
    shared.parent.mkdir(parents=True)
    shared.write_text("#pragma once\n#define DIM_LIMIT 8\n")
    return host, shared


def test_a_name_in_the_repository_common_inc_resolves_for_an_op_project_file(tmp_path) -> None:
    host, _ = _repo(tmp_path)
    result = preprocess('#include "ext/utils.h"\nint limit = DIM_LIMIT;\n', str(host))
    assert [d.code for d in result.diagnostics] == []
    assert "int limit = 8;" in result.text


def test_the_op_folder_comes_first_and_loose_files_do_not_look_above(tmp_path) -> None:
    host, _ = _repo(tmp_path)
    own = host.parent / "ext" / "utils.h"  # a header of the same name next to the includer wins
    own.parent.mkdir()
    own.write_text("#define DIM_LIMIT 3\n")
    assert "int limit = 3;" in preprocess('#include "ext/utils.h"\nint limit = DIM_LIMIT;\n', str(host)).text
    loose = tmp_path / "repo" / "tools" / "t.cpp"
    loose.parent.mkdir()
    assert [d.code for d in preprocess('#include "ext/utils.h"\n', str(loose)).diagnostics] == ["ASC002"]


def test_the_modelled_framework_headers_are_not_read_from_there(tmp_path) -> None:
    host, shared = _repo(tmp_path)
    # the tiling framework the host lowering models (tiling_framework.py) stays out of reach, as before
    (shared.parent.parent / "op_host").mkdir()
    (shared.parent.parent / "op_host" / "tiling_base.h").write_text("#define FRAMEWORK 1\n")
    result = preprocess('#include "op_host/tiling_base.h"\n', str(host))
    assert [d.code for d in result.diagnostics] == ["ASC002"]
