"""ops-nn kernels include the repository's kernel utilities as `#include "../inc/platform.h"` (229 includes) and
"../inc/kernel_utils.h" (130): the kernel build copies each op's op_kernel/ folder to tbe/ascendc/<op>/ and
common/inc/op_kernel/ to tbe/ascendc/inc/ beside them (ops-nn cmake/gen_ops_info.cmake, kernel_src_copy and
common_copy), so the name is common/inc/op_kernel/X of the repository. Out of reach (ASC002), `platform::
GetUbBlockSize()`, `ops::CeilDiv`, `ops::CeilAlign` were unresolved calls (sim_gaps.py: scatter_add 596 -> 160
unsupported instructions, batch_norm_grad_v3 446 -> 197). ops-transformer's build likewise puts common/include/kernel on
the kernel include path (nsa_compress_attention 116 -> 0)."""

from __future__ import annotations

from frontend.preprocess import preprocess


def _repo(tmp_path) -> tuple:
    kernel = tmp_path / "repo" / "index" / "op" / "op_kernel" / "arch35" / "op_kernel.h"
    shared = tmp_path / "repo" / "common" / "inc" / "op_kernel" / "platform.h"
    kernel.parent.mkdir(parents=True)
    shared.parent.mkdir(parents=True)
    shared.write_text("#pragma once\n#define UB_BLOCK 32\n")
    return kernel, shared


def test_inc_above_an_op_kernel_folder_is_the_repository_common_inc_op_kernel(tmp_path) -> None:
    kernel, _ = _repo(tmp_path)
    result = preprocess('#include "../inc/platform.h"\nint block = UB_BLOCK;\n', str(kernel))
    assert [d.code for d in result.diagnostics] == []
    assert "int block = 32;" in result.text
    top = kernel.parent.parent / "op_apt.cpp"  # from the op_kernel folder itself, too
    assert "int block = 32;" in preprocess('#include "../inc/platform.h"\nint block = UB_BLOCK;\n', str(top)).text


def test_a_file_outside_an_op_kernel_folder_does_not_look_there(tmp_path) -> None:
    _repo(tmp_path)
    host = tmp_path / "repo" / "index" / "op" / "op_host" / "op_tiling.cpp"
    host.parent.mkdir(parents=True)
    assert [d.code for d in preprocess('#include "../inc/platform.h"\n', str(host)).diagnostics] == ["ASC002"]


def test_a_bare_name_from_an_op_kernel_folder_is_found_in_common_include_kernel(tmp_path) -> None:
    # ops-transformer copies common/include/kernel/*.* to ascendc/common, on the kernel compile's include path
    # (cmake/func.cmake add_ops_src_copy): nsa_compress_attention's "util.h" (CeilDiv), "pse.h", "dropmask.h"
    kernel = tmp_path / "repo" / "attention" / "op" / "op_kernel" / "op.h"
    shared = tmp_path / "repo" / "common" / "include" / "kernel" / "util.h"
    kernel.parent.mkdir(parents=True)
    shared.parent.mkdir(parents=True)
    shared.write_text("#pragma once\n#define ALIGN 32\n")
    result = preprocess('#include "util.h"\nint a = ALIGN;\n', str(kernel))
    assert [d.code for d in result.diagnostics] == []
    assert "int a = 32;" in result.text
    (kernel.parent / "util.h").write_text("#define ALIGN 16\n")  # the op's own header of that name comes first
    assert "int a = 16;" in preprocess('#include "util.h"\nint a = ALIGN;\n', str(kernel)).text
