"""The command-line tools: output forms and exit codes (0 clean, 1 findings, 2 usage or unreadable)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from cli.check import main as check
from cli.main import main as umbrella
from cli.opt import main as opt

ROOT = Path(__file__).resolve().parents[1]


def test_examples_are_clean() -> None:
    result = CliRunner().invoke(check, [str(ROOT / "examples")])
    assert result.exit_code == 0, result.output
    assert "no problems found" in result.output


def test_syntax_error_text_output_and_exit_code(tmp_path: Path) -> None:
    src = tmp_path / "k.cpp"
    src.write_text("void f() {\n  int x = 1\n}\n")
    result = CliRunner().invoke(check, [str(src)])
    assert result.exit_code == 1
    assert f"{src}:2:12: error: expected ';' after expression [ASC001]" in result.output
    assert "    2 |   int x = 1" in result.output


def test_json_output(tmp_path: Path) -> None:
    src = tmp_path / "k.cpp"
    src.write_text("void f() { g(; }\n")
    result = CliRunner().invoke(check, ["--format", "json", str(src)])
    assert result.exit_code == 1
    (diag,) = json.loads(result.stdout)
    assert diag["code"] == "ASC001" and diag["span"]["line"] == 1 and diag["severity"] == "error"


def test_unreadable_input_exits_2(tmp_path: Path) -> None:
    result = CliRunner().invoke(check, [str(tmp_path / "nope.cpp")])
    assert result.exit_code == 2
    assert "no such file or directory" in result.output
    assert "Traceback" not in result.output


def test_usage_error_exits_2() -> None:
    assert CliRunner().invoke(check, []).exit_code == 2
    assert CliRunner().invoke(check, ["--format", "yaml", "x.cpp"]).exit_code == 2


def test_forced_input_format(tmp_path: Path) -> None:
    answer = tmp_path / "answer.txt"
    answer.write_text("<kernel_impl>\n```cpp\nvoid f() {}\n```\n</kernel_impl>\n")
    assert CliRunner().invoke(check, ["--format", "npukernelbench", str(answer)]).exit_code == 0


def test_dump_ast(tmp_path: Path) -> None:
    src = tmp_path / "k.cpp"
    src.write_text('extern "C" __global__ __aicore__ void k(GM_ADDR x) {}\n')
    result = CliRunner().invoke(check, ["--dump-ast", str(src)])
    assert result.exit_code == 0
    assert "FunctionDecl @1:12-1:54" in result.output and "specifiers=['__global__', '__aicore__']" in result.output


def test_defines_change_what_is_parsed(tmp_path: Path) -> None:
    src = tmp_path / "k.cpp"
    src.write_text("#ifdef BROKEN\nint x = ;\n#endif\n")
    assert CliRunner().invoke(check, [str(src)]).exit_code == 0
    assert CliRunner().invoke(check, ["-D", "BROKEN", str(src)]).exit_code == 1


def test_umbrella_and_opt_commands() -> None:
    assert "rust_sim 0.1.0" in CliRunner().invoke(umbrella, ["version"]).output
    assert CliRunner().invoke(umbrella, ["check", str(ROOT / "examples")]).exit_code == 0
    assert CliRunner().invoke(opt, ["x.cpp"]).exit_code == 2


REPEAT = """#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR tiling) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 65536);
    LocalTensor<float> t = b.Get<float>();
    Add(t, t, t, 64, 300, {1, 1, 1, 8, 8, 8});
}
"""


def test_rules_run_and_select_ignore_config_and_inline_comments_filter_them(tmp_path: Path) -> None:
    src = tmp_path / "k.cpp"
    src.write_text(REPEAT)
    result = CliRunner().invoke(check, [str(src)])
    assert result.exit_code == 1 and "[ASC501]" in result.output
    assert CliRunner().invoke(check, ["--ignore", "ASC5", str(src)]).exit_code == 0
    assert CliRunner().invoke(check, ["--select", "ASC2,ASC3", str(src)]).exit_code == 0
    (tmp_path / "pyproject.toml").write_text('[tool.ascendc-check]\nignore = ["ASC501"]\n')
    assert CliRunner().invoke(check, [str(src)]).exit_code == 0
    (tmp_path / "pyproject.toml").unlink()
    src.write_text(REPEAT.replace("8, 8, 8});", "8, 8, 8});  // ascendc-check: ignore[ASC501]"))
    assert CliRunner().invoke(check, [str(src)]).exit_code == 0


def test_sarif_output_and_rule_pages(tmp_path: Path) -> None:
    import json

    src = tmp_path / "k.cpp"
    src.write_text(REPEAT)
    result = CliRunner().invoke(check, ["--format", "sarif", str(src)])
    sarif = json.loads(result.stdout)
    (finding,) = sarif["runs"][0]["results"]
    assert finding["ruleId"] == "ASC501" and finding["locations"][0]["physicalLocation"]["region"]["startLine"] == 8
    page = CliRunner().invoke(check, ["rule", "ASC501"])
    assert page.exit_code == 0 and "## Why is this bad?" in page.output and "## Use instead" in page.output
    listing = CliRunner().invoke(check, ["rules"]).output
    assert "ASC201" in listing and "ASC501" in listing and "ASC801" in listing
    # the lowering's diagnostics have pages too
    assert "ASC101  no-matching-overload" in listing and "ASC106  tensor-type-mismatch" in listing
    lowering_page = CliRunner().invoke(check, ["rule", "asc106"])
    assert lowering_page.exit_code == 0 and "Family: lowering" in lowering_page.output
    assert CliRunner().invoke(check, ["rule", "ASC999999"]).exit_code == 2
    assert CliRunner().invoke(check, ["--chip", "910C", str(src)]).exit_code == 2


SHAPED = ROOT / "tests" / "corpus" / "rules" / "capacity" / "ub_over_for_shape.py"


def test_shape_runs_the_tiling_function_and_the_rules_see_its_values() -> None:
    big = CliRunner().invoke(check, ["--shape", "64,65536:float32", str(SHAPED)])
    assert big.exit_code == 1 and "[ASC302]" in big.output and "2 x 262144 = 524288 bytes" in big.output
    small = CliRunner().invoke(check, ["--shape", "x=8,1024:float32", str(SHAPED)])
    assert small.exit_code == 0, small.output
    assert CliRunner().invoke(check, [str(SHAPED)]).exit_code == 0  # no shapes: nothing is provable


def test_shape_that_makes_the_tiling_function_fail_is_reported() -> None:
    result = CliRunner().invoke(check, ["--shape", "4,8,16:float32", str(SHAPED)])
    assert result.exit_code == 1
    assert "for the given shapes, TilingFunc returned ge::GRAPH_FAILED [ASC602]" in result.output
    assert "return ge::GRAPH_FAILED;" in result.output  # the caret points at the return that gave up


TAIL = ROOT / "tests" / "corpus" / "rules" / "tiling" / "output_tail_not_written.py"
ROWS = ROOT / "tests" / "corpus" / "rules" / "tiling" / "output_rows_dropped.py"


def test_a_shape_named_after_an_output_gives_its_extent() -> None:
    # the op has no InferShape; its binding allocates y as at::empty_like(x), and a shape given for y wins
    like_x = CliRunner().invoke(check, ["--shape", "x=10,100:float32", str(TAIL)])
    assert like_x.exit_code == 1 and "the last 40 elements (160 bytes) of output 'y'" in like_x.output
    given = CliRunner().invoke(check, ["--shape", "y=10,99:float32", "--shape", "x=10,100:float32", str(TAIL)])
    assert given.exit_code == 1 and "the last 30 elements (120 bytes) of output 'y'" in given.output, given.output


def test_the_output_extent_comes_from_infer_shape() -> None:
    dropped = CliRunner().invoke(check, ["--shape", "20,64:float32", str(ROWS)])
    assert dropped.exit_code == 1 and "the last 256 elements (1024 bytes) of output 'y'" in dropped.output
    assert CliRunner().invoke(check, ["--shape", "16,64:float32", str(ROWS)]).exit_code == 0  # 8 x 2 rows
    # a shape given for the output wins over InferShape's
    given = CliRunner().invoke(check, ["--shape", "20,64:float32", "--shape", "y=17,64:float32", str(ROWS)])
    assert "the last 64 elements (256 bytes) of output 'y'" in given.output, given.output


def test_bad_shape_options_are_usage_errors() -> None:
    for args in (["--shape", "8,x:float32"], ["--shape", ":float32"], ["--shape", "nope=8,8:float32"],
                 ["--attr", "3"]):
        result = CliRunner().invoke(check, [*args, str(SHAPED)])
        assert result.exit_code == 2, (args, result.output)
        assert "Traceback" not in result.output


def test_test_case_files_give_the_shapes(tmp_path: Path) -> None:
    as_json = tmp_path / "case.json"
    as_json.write_text('{"inputs": [{"shape": [64, 65536], "dtype": "float32"}]}\n')
    reference = tmp_path / "reference.py"
    reference.write_text("import torch\n\nrows = 64\ncols = 65536\n\n\ndef get_inputs():\n"
                         "    return [torch.rand(rows, cols)]\n\n\ndef get_init_inputs():\n    return []\n")
    for case in (as_json, reference):
        result = CliRunner().invoke(check, ["--test-case", str(case), str(SHAPED)])
        assert result.exit_code == 1 and "[ASC302]" in result.output, result.output
    broken = tmp_path / "broken.json"
    broken.write_text('{"inputs": 3}\n')
    result = CliRunner().invoke(check, ["--test-case", str(broken), str(SHAPED)])
    assert result.exit_code == 2 and "broken.json:1:" in result.output and "Traceback" not in result.output
    both = CliRunner().invoke(check, ["--test-case", str(as_json), "--shape", "8,8:float32", str(SHAPED)])
    assert both.exit_code == 2
