"""`ascendir-opt`: lowering, pass pipelines, IR text in and out, host tiling folded for given shapes."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.opt import main as opt

ROOT = Path(__file__).resolve().parents[1]
ADD = str(ROOT / "tests" / "corpus" / "clean" / "projects" / "add_custom")


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(opt, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_lowers_an_op_project_and_prints_the_kernel() -> None:
    code, out, err = run(ADD)
    assert code == 0 and err == ""
    assert "ascendc.kernel @add_custom(" in out and 'ascendc.vec_binary "Add"' in out


def test_printed_ir_parses_back_to_the_same_text(tmp_path: Path) -> None:
    code, first, _ = run(ADD, "--passes", "mem2reg,canonicalize,cse")
    assert code == 0
    ir = tmp_path / "add.mlir"
    ir.write_text(first)
    code, second, _ = run(str(ir))
    assert code == 0 and second == first


def test_debuginfo_prints_source_locations() -> None:
    code, out, _ = run(ADD, "--print-debuginfo")
    assert code == 0
    assert 'loc("' in out and "add_custom.cpp\":" in out


def test_shapes_run_the_host_tiling_and_fold_its_values_into_the_kernel() -> None:
    code, out, err = run(ADD, "--shape", "8,2048:float16", "--shape", "8,2048:float16", "--passes", "canonicalize")
    assert code == 0, err
    assert "ascendc.tiling_field" not in out  # every field the kernel reads has its value now
    assert "ascendc.block_dim = 48 : i64" in out and "ascendc.tiling_key = 1 : i64" in out
    assert "// tiling: blockDim=48" in err and "totalLength=16384" in err


def test_unknown_pass_is_a_usage_error_with_a_suggestion() -> None:
    code, _, err = run(ADD, "--passes", "canonicalise")
    assert code == 2 and "unknown pass 'canonicalise'; did you mean canonicalize" in err


def test_lowering_errors_exit_1_with_compiler_style_diagnostics(tmp_path: Path) -> None:
    src = tmp_path / "k.cpp"
    src.write_text('#include "kernel_operator.h"\nextern "C" __global__ __aicore__ void k(GM_ADDR x) {\n'
                   "    AscendC::Addd();\n}\n")
    code, out, err = run(str(src))
    assert code == 1
    assert f"{src}:3:5: error: unknown AscendC API 'Addd' [ASC100]" in err
    assert "ascendc.opaque_call" in out


def test_a_kernel_lowered_with_gaps_prints_its_ir_and_exits_0(tmp_path: Path) -> None:
    # a union with an array member is not modelled (unions.py models unions of numbers only): ASC103
    # warnings, which leave the IR valid
    src = tmp_path / "k.cpp"
    src.write_text('#include "kernel_operator.h"\nusing namespace AscendC;\n'
                   "__aicore__ inline float IntBits(int i) {\n    union { int i[2]; float f; } u;\n    u.i[0] = i;\n"
                   "    return u.f;\n}\n"
                   'extern "C" __global__ __aicore__ void k(GM_ADDR x) {\n    GlobalTensor<float> g;\n'
                   "    g.SetGlobalBuffer((__gm__ float*)x, 16);\n    g.SetValue(0, IntBits(3));\n}\n")
    code, out, err = run(str(src))
    assert code == 0, err
    assert "[ASC103]" in err and "error" not in err
    assert "ascendc.kernel @k(" in out


def test_ir_that_does_not_verify_lists_every_failing_op_with_the_whole_message(tmp_path: Path) -> None:
    ir = tmp_path / "bad.mlir"
    ir.write_text("""builtin.module {
  ascendc.kernel @bad(%n: i32) {
    %lb = arith.constant 0 : i16
    %step = arith.constant 1 : i16
    "scf.for"(%lb, %n, %step) ({
    ^bb0(%i: i16):
      scf.yield
    }) : (i16, i32, i16) -> ()
    %q = ascendc.tque "inQueueX" : !ascendc.tque<VECIN, 2>
    %t = ascendc.alloc_tensor %q : !ascendc.tque<VECIN, 2> -> !ascendc.local_tensor<f16, VECOUT> loc("k.cpp":9:5)
    ascendc.return
  }
}
""")
    code, out, err = run(str(ir))
    assert code == 2 and out == ""
    # xDSL's message for the loop spans two lines; both reach the user, on one
    assert err.splitlines() == [
        "ascendir-opt: the input does not verify (2 ops):",
        "  'scf.for': operand 'ub' at position 1 does not verify: attribute i16 expected from variable 'T', "
        "but got i32",
        "  k.cpp:9:5: 'ascendc.alloc_tensor': AllocTensor returns a tensor in VECIN, not VECOUT"]


NPUKERNELBENCH = Path("/work/ext/NPUKernelBench/tasks")


@pytest.mark.skipif(not NPUKERNELBENCH.is_dir(), reason="NPUKernelBench is not checked out at /work/ext")
def test_a_real_kernel_with_narrow_loop_counters_prints_verifying_ir() -> None:
    # ForeachAbs counts tensors with `for (uint16_t i = start; i <= end; i++)`: the bound's `+ 1` is an int
    code, out, err = run(str(NPUKERNELBENCH / "level2" / "Foreach" / "ForeachAbs" / "answer" / "0"))
    assert code == 0, err
    assert "does not verify" not in err and "ascendc.kernel @foreach_abs(" in out


def test_to_sim_prints_the_simulator_program_for_the_chip_the_input_is_lowered_for(tmp_path: Path) -> None:
    from ascendir.lower import LoweringOptions, guessed_dtypes, lower_program
    from frontend.readers import read_input
    from passes.sim import build_program
    from passes.verify import load_for_check

    program, chip = load_for_check(read_input(ADD, "auto"), "910B4", None)
    lowered = lower_program(program, LoweringOptions(chip=chip, dtypes=guessed_dtypes(program.bundle, "float")))
    code, out, err = run(ADD, "--passes", "to-sim", "--chip", "910B4")
    assert code == 0, err
    assert out.rstrip("\n") == build_program(lowered.module, "910B4").text().rstrip("\n")
    assert "chip 910B4" in out and "ascendc.kernel" not in out
    no_kernel = tmp_path / "helper.cpp"
    no_kernel.write_text('#include "kernel_operator.h"\n__aicore__ inline int F(int x) { return x; }\n')
    code, out, err = run(str(no_kernel), "--passes", "to-sim")
    assert code == 1 and "no simulator program: the program has no kernel" in err
