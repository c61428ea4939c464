"""Input readers: format detection, embedded sources placed at their real lines, no execution."""

from __future__ import annotations

import textwrap
from pathlib import Path

from frontend.pipeline import load, load_text
from frontend.readers import detect_format, read_input

KERNEL = """\
#include "kernel_operator.h"
struct TilingDataDef { uint32_t totalLength; };
extern "C" __global__ __aicore__ void sqrt_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    constexpr TilingDataDef td = {4096};
    AscendC::GlobalTensor<float> xGm;
}
"""

NPU_ANSWER = "I will split the work over 48 cores.\n\n<kernel_impl>\n```cpp\n" + KERNEL + "```\n</kernel_impl>\n"


def mkb_answer(kernel: str) -> str:
    return textwrap.dedent('''\
        Here is the implementation.

        ```python
        project_json_src = """
        [{"op": "SqrtCustom", "input_desc": [{"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]}],
          "output_desc": [{"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}]}]
        """
        host_tiling_src = """
        #include "register/tilingdata_base.h"
        namespace optiling {
        BEGIN_TILING_DATA_DEF(SqrtCustomTilingData)
          TILING_DATA_FIELD_DEF(uint32_t, totalLength);
        END_TILING_DATA_DEF;
        REGISTER_TILING_DATA_CLASS(SqrtCustom, SqrtCustomTilingData)
        }
        """
        host_operator_src = """
        #include "sqrt_custom_tiling.h"
        namespace optiling {
        static ge::graphStatus TilingFunc(gert::TilingContext* context) {
            SqrtCustomTilingData tiling;
            tiling.set_totalLength(1);
            return ge::GRAPH_SUCCESS;
        }
        }
        """
        kernel_src = """
        KERNEL_PLACEHOLDER"""
        python_bind_src = """
        #include <torch/extension.h>
        """
        model_src = """
        import torch
        """
        ```
        ''').replace("KERNEL_PLACEHOLDER", kernel)


def test_detects_each_format(tmp_path: Path) -> None:
    assert detect_format("k.cpp", KERNEL) == "cpp"
    assert detect_format("a.md", NPU_ANSWER) == "npukernelbench"
    assert detect_format("a.md", mkb_answer(KERNEL)) == "multikernelbench"
    assert detect_format("a.md", "=== op_host/add_tiling.h ===\nint x;\n") == "npukernelbench"
    (tmp_path / "op_kernel").mkdir()
    assert detect_format(str(tmp_path), None) == "project"


def test_npukernelbench_answer_kernel_is_placed_at_its_answer_line() -> None:
    program = load_text(NPU_ANSWER, "answer.md")
    assert program.bundle.format == "npukernelbench"
    assert program.diagnostics == []
    (unit,) = program.units
    (kernel,) = list(unit.ast.kernels())
    # The kernel's `extern "C"` line is line 3 of the code block, which starts on line 5 of the answer.
    assert kernel.span.file == "answer.md" and kernel.span.line == 7


def test_npukernelbench_syntax_error_points_into_the_answer() -> None:
    broken = NPU_ANSWER.replace("AscendC::GlobalTensor<float> xGm;", "AscendC::GlobalTensor<float> xGm")
    (diag,) = load_text(broken, "answer.md").diagnostics
    assert diag.span is not None and (diag.span.file, diag.span.line) == ("answer.md", 10)


def test_npukernelbench_answer_without_code_is_a_diagnostic() -> None:
    (diag,) = load_text("<kernel_impl>\nno code here\n</kernel_impl>\n", "a.md", fmt="npukernelbench").diagnostics
    assert diag.code == "ASC011" and "```cpp" in diag.message


def test_npukernelbench_three_file_form() -> None:
    answer = (
        "Reasoning first.\n=== op_host/add_tiling.h ===\n```cpp\nnamespace optiling {\n"
        "BEGIN_TILING_DATA_DEF(AddTilingData)\nTILING_DATA_FIELD_DEF(uint32_t, n);\nEND_TILING_DATA_DEF;\n"
        "REGISTER_TILING_DATA_CLASS(Add, AddTilingData)\n}\n```\n"
        "=== op_host/add.cpp ===\n#include \"add_tiling.h\"\nnamespace optiling { AddTilingData t; }\n"
        "=== op_kernel/add.cpp ===\nextern \"C\" __global__ __aicore__ void add(GM_ADDR x) { int y = ; }\n"
    )
    program = load_text(answer, "full.md")
    assert [u.unit.path for u in program.units] == ["op_host/add_tiling.h", "op_host/add.cpp", "op_kernel/add.cpp"]
    (diag,) = program.diagnostics
    assert (diag.span.file, diag.span.line) == ("full.md", 15)  # type: ignore[union-attr]


def test_multikernelbench_answer_is_read_without_executing(tmp_path: Path) -> None:
    marker = tmp_path / "executed"
    answer = mkb_answer(KERNEL).replace("import torch", "import torch") + (
        f"\n```python\nopen({str(marker)!r}, 'w').write('x')\nkernel_src = 'x'\n```\n"
    )
    program = load_text(answer, "mkb.md")
    assert not marker.exists()
    assert program.bundle.format == "multikernelbench"


def test_multikernelbench_fields_become_project_files() -> None:
    program = load_text(mkb_answer(KERNEL), "mkb.md")
    assert program.diagnostics == []
    assert program.bundle.op_name == "SqrtCustom"
    assert [u.unit.path for u in program.units] == ["op_host/sqrt_custom_tiling.h", "op_host/sqrt_custom.cpp",
                                                    "op_kernel/sqrt_custom.cpp", "CppExtension/csrc/op.cpp"]


def test_multikernelbench_kernel_error_points_into_the_answer() -> None:
    broken = KERNEL.replace("{4096};", "{4096}")
    text = mkb_answer(broken)
    (diag,) = load_text(text, "mkb.md").diagnostics
    line = text.splitlines()[diag.span.line - 1]  # type: ignore[union-attr]
    assert "AscendC::GlobalTensor<float> xGm;" in line or "{4096}" in line


def test_multikernelbench_non_literal_field_is_reported() -> None:
    answer = "```python\nkernel_src = 'a' + 'b'\nhost_tiling_src = ''\nhost_operator_src = ''\nproject_json_src = '[{\"op\": \"A\"}]'\n```\n"
    codes = [d.code for d in load_text(answer, "x.md").diagnostics]
    assert "ASC012" in codes


def test_multikernelbench_python_syntax_error_is_a_diagnostic() -> None:
    (diag,) = load_text("```python\nkernel_src = '''\n```\n", "x.md", fmt="multikernelbench").diagnostics
    assert diag.code == "ASC011" and "does not parse" in diag.message


def test_project_folder_reads_json_and_sources(tmp_path: Path) -> None:
    (tmp_path / "op_host").mkdir()
    (tmp_path / "op_kernel").mkdir()
    (tmp_path / "add_custom.json").write_text('[{"op": "AddCustom"}]')
    (tmp_path / "op_host" / "add_custom_tiling.h").write_text("struct T { uint32_t n; };\n")
    (tmp_path / "op_kernel" / "add_custom.cpp").write_text(
        'extern "C" __global__ __aicore__ void add_custom(GM_ADDR x) {}\n')
    program = load(str(tmp_path))
    assert program.bundle.format == "project" and program.bundle.op_name == "AddCustom"
    assert program.diagnostics == []
    assert sorted(u.unit.role for u in program.units) == ["kernel", "tiling_header"]


def test_bad_op_json_and_unreadable_inputs(tmp_path: Path) -> None:
    (tmp_path / "op_kernel").mkdir()
    (tmp_path / "bad.json").write_text("[{")
    (tmp_path / "op_kernel" / "k.cpp").write_text("int x;\n")
    assert [d.code for d in load(str(tmp_path)).diagnostics] == ["ASC013"]
    (tmp_path / "bin.cpp").write_bytes(b"\x00\x01\x02")
    assert [d.code for d in read_input(str(tmp_path / "bin.cpp")).diagnostics] == ["ASC010"]
    assert [d.code for d in read_input(str(tmp_path / "missing.cpp")).diagnostics] == ["ASC010"]


def test_multikernelbench_json_dumps_of_a_literal_is_read_safely() -> None:
    answer = mkb_answer(KERNEL).replace(
        'project_json_src = """\n[{"op": "SqrtCustom", "input_desc": [{"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]}],\n  "output_desc": [{"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}]}]\n"""',
        'project_json_src = json.dumps([{"op": "SqrtCustom"}])')
    assert "json.dumps" in answer
    program = load_text(answer, "mkb.md")
    assert program.bundle.op_name == "SqrtCustom"
    assert program.diagnostics == []


def test_multikernelbench_json_of_a_list_changed_later_is_not_read_as_its_first_literal() -> None:
    """INPUT_DESC = [x]; for i in range(9): INPUT_DESC.append(...): json.dumps(INPUT_DESC) is not [x] (KernelHive
    deep_narrow_mlp's 19 inputs were read as 1): the field cannot be read without running the answer."""
    old = ('project_json_src = """\n[{"op": "SqrtCustom", "input_desc": [{"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]}],\n  "output_desc": [{"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}]}]\n"""')
    literal = mkb_answer(KERNEL).replace(old, 'DESC = [{"name": "x"}]\n'
                                              'project_json_src = json.dumps([{"op": "SqrtCustom", "input_desc": DESC}])')
    program = load_text(literal, "mkb.md")
    assert program.bundle.op_name == "SqrtCustom" and len(program.bundle.op_json[0]["input_desc"]) == 1
    grown = literal.replace('DESC = [{"name": "x"}]\n', 'DESC = [{"name": "x"}]\nfor i in range(2):\n'
                                                         '    DESC.append({"name": f"w{i}"})\n')
    program = load_text(grown, "mkb.md")
    assert not program.bundle.op_json
    assert "ASC012" in [d.code for d in program.diagnostics]
