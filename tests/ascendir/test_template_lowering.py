"""Lowering of template-library C++ (catlass-style kernels of our own in tests/corpus/template_lowering/): each kernel
lowers with no diagnostic at all and runs correct on the simulator. coord_layout.cpp: coordinates with an array
constructor beside a scalar one, conversions between Coord<2> and a derived MatrixCoord, operators of user
classes, explicit non-type packs, static methods through an alias and through a derived class, a class object
returned from several returns. policy_blocks.cpp: a declared-only block template specialised per policy with the
primary's defaults, members and static constants found in base classes, tile copiers of one name in two namespaces,
a nested Params struct, ping-pong LocalTensor arrays indexed at run time, a destructor waiting for the constructor's
flags, and a function template named like a class of a deeper namespace. specialisation_order.cpp: of several partial
specialisations that match, the most specialised (Op<Arch, Type<float>> over Op<Arch, Type<E>> declared before
it; Combine<T, Type<T>> over Combine<T, Type<U>>). deduction_failure.cpp: function templates whose deduction fails
(tla's `min(C<t>, C<u>)` for two uint32_t) are no candidates, and the builtin min/max are called. void_policy.cpp: a policy parameter bound to void discards its
`if constexpr (!std::is_void_v<P>)` branch. nested_specialisation.cpp: `template <> struct Helper<void>` inside a
class is a specialisation, not the member template itself."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from ascendir.lower import lower_program
from passes.sim import run
from frontend.pipeline import load, read_input
from passes.verify import check_program, load_for_check

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "template_lowering"


@pytest.mark.parametrize("name", ["coord_layout", "policy_blocks", "specialisation_order", "deduction_failure", "void_policy", "nested_specialisation"])
def test_lowers_without_diagnostics(name: str) -> None:
    result = lower_program(load(str(CORPUS / f"{name}.cpp")))
    assert len(result.kernels) == 1
    assert [f"{d.code} {d.span.line if d.span else ''}: {d.message}" for d in result.diagnostics] == []


def test_coordinates_and_layouts_run_correct() -> None:
    x = np.arange(8 * 64, dtype=np.float32)
    result = run(str(CORPUS / "coord_layout.cpp"), {"x": x.copy()}, block_dim=4, tiling={"rows": 8, "cols": 64},
                 outputs={"y": ((512,), "float32")})
    assert result.ok and not result.findings, [str(d) for d in result.findings]
    assert np.array_equal(result.outputs["y"], x * 2)


def test_policy_blocks_run_correct() -> None:
    x = np.arange(4 * 256, dtype=np.float32)
    result = run(str(CORPUS / "policy_blocks.cpp"), {"x": x.copy()}, block_dim=4, tiling={"length": 256, "tile": 64},
                 outputs={"y": ((1024,), "float32")})
    assert result.ok and not result.findings, [str(d) for d in result.findings]
    assert np.array_equal(result.outputs["y"], x * 3)  # Pingpong<true>: the SCALE branch of `if constexpr`


def test_most_specialised_partial_specialisation_runs() -> None:
    x = np.arange(4 * 64, dtype=np.float32)
    result = run(str(CORPUS / "specialisation_order.cpp"), {"x": x.copy()}, block_dim=4, tiling={"length": 64},
                 outputs={"y": ((256,), "float32")})
    assert result.ok and not result.findings, [str(d) for d in result.findings]
    assert np.array_equal(result.outputs["y"], (x + 1) * 4)  # the first declared ones would give -2x


def test_builtin_min_max_beside_templates_that_cannot_deduce() -> None:
    x = np.arange(2 * 128, dtype=np.float32)
    result = run(str(CORPUS / "deduction_failure.cpp"), {"x": x.copy()}, block_dim=2, tiling={"length": 128},
                 outputs={"y": ((256,), "float32")})
    assert result.ok and not result.findings, [str(d) for d in result.findings]
    want = np.ones(256, np.float32)
    for core in range(2):
        want[core * 128:core * 128 + 96] = x[core * 128:core * 128 + 96] * 2
    assert np.array_equal(result.outputs["y"], want)


def test_void_policies_discard_their_branches() -> None:
    x = np.arange(2 * 64, dtype=np.float32)
    result = run(str(CORPUS / "void_policy.cpp"), {"x": x.copy()}, block_dim=2, tiling={"length": 64},
                 outputs={"y": ((128,), "float32")})
    assert result.ok and not result.findings, [str(d) for d in result.findings]
    assert np.array_equal(result.outputs["y"], x * 3 + 1)


def test_member_template_specialised_for_void_only() -> None:
    x = np.arange(2 * 64, dtype=np.float32)
    result = run(str(CORPUS / "nested_specialisation.cpp"), {"x": x.copy()}, block_dim=2, tiling={"length": 64},
                 outputs={"y": ((128,), "float32")})
    assert result.ok and not result.findings, [str(d) for d in result.findings]
    assert np.array_equal(result.outputs["y"], x * 6)


@pytest.mark.parametrize("name", ["coord_layout", "policy_blocks", "specialisation_order", "deduction_failure", "void_policy", "nested_specialisation"])
def test_ascendc_check_reports_nothing(name: str) -> None:
    program, _ = load_for_check(read_input(str(CORPUS / f"{name}.cpp")))
    assert [f"{d.code}: {d.message}" for d in check_program(program)] == []


def test_without_the_destructor_the_flags_stay_set(tmp_path: Path) -> None:
    """The constructor's SetFlags are waited for only in the destructor: dropped, ASC702 says so."""
    text = (CORPUS / "policy_blocks.cpp").read_text()
    wait = "            AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(events[i]);\n        }\n    }"
    assert text.count(wait) == 1
    broken = tmp_path / "policy_blocks.cpp"
    broken.write_text(text.replace(wait, "        }\n    }"))
    program, _ = load_for_check(read_input(str(broken)))
    assert "ASC702" in {d.code for d in check_program(program)}
