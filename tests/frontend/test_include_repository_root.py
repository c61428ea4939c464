"""The ops repositories build with the repository root on the include path: ops-nn's
quant/dynamic_quant/op_host/dynamic_quant_tiling_arch35.cpp includes
"quant/dynamic_quant/op_kernel/arch35/dynamic_quant_struct.h" (its tiling-key names, TPL_PER_TENSOR_FULL_LOAD ...),
which was out of reach (ASC002), and each name it defines an undeclared identifier (ASC102) that stopped the host
tiling. A file of an op project now finds such a path from the folders above the project."""

from __future__ import annotations

from frontend.preprocess import preprocess


def _files(tmp_path) -> tuple:
    host = tmp_path / "repo" / "quant" / "dq" / "op_host" / "dq_tiling.cpp"
    header = tmp_path / "repo" / "quant" / "dq" / "op_kernel" / "arch35" / "dq_struct.h"
    host.parent.mkdir(parents=True)
    header.parent.mkdir(parents=True)
    header.write_text("#pragma once\n#define TPL_FULL_LOAD 4\n")
    return host, header


def test_a_path_from_the_repository_root_resolves_for_an_op_project_file(tmp_path) -> None:
    host, _ = _files(tmp_path)
    text = '#include "quant/dq/op_kernel/arch35/dq_struct.h"\nint mode = TPL_FULL_LOAD;\n'
    result = preprocess(text, str(host))
    assert [d.code for d in result.diagnostics] == []
    assert "int mode = 4;" in result.text


def test_only_paths_into_an_op_folder_and_only_from_op_projects(tmp_path) -> None:
    host, _ = _files(tmp_path)
    # a name that does not walk into an op_host / op_kernel folder is not looked up above the project
    (tmp_path / "repo" / "util").mkdir()
    (tmp_path / "repo" / "util" / "math.h").write_text("#define M 1\n")
    assert [d.code for d in preprocess('#include "util/math.h"\n', str(host)).diagnostics] == ["ASC002"]
    # a file outside any op project does not look above itself
    loose = tmp_path / "repo" / "tools" / "t.cpp"
    loose.parent.mkdir()
    text = '#include "quant/dq/op_kernel/arch35/dq_struct.h"\n'
    assert [d.code for d in preprocess(text, str(loose)).diagnostics] == ["ASC002"]
