"""The Matmul library's split of C over the cores (ascendir.matmul_core_split), against splits derived by
hand from the library's rules (asc-devkit impl/adv_api/tiling/matmul/matmul_tiling_algorithm.cpp) and the
one the hardware showed (KernelHive matmul_with_irregular_shapes#1, bench/README.md "The cube path")."""

from __future__ import annotations

from ascendir.dialects import host
from ascendir.host_eval import MatmulMatrixType, MatmulTilingObject, resolve_chip
from ascendir.matmul_core_split import CoreSplit, CoreSplitInputs, library_core_split
from ascendir.matmul_tiling import cube_tiling

FLOAT, HALF = 32, 16
Matrix = host.MatmulMatrix
DTYPES = {32: 0, 16: 1}


def split(m: int, n: int, k: int, cores: int, bits: int = FLOAT, **more: object) -> CoreSplit:
    return library_core_split(CoreSplitInputs(m, n, k, cores, bits, bits, **more))  # type: ignore[arg-type]


def test_the_irregular_shapes_attempt_is_cut_along_n() -> None:
    # M 8205, N 5921, K 2949 of float, SetDim(2), SetShape: 513 x 371 blocks of 16, 369 slices of K. Cutting N
    # leaves each core 65 x 12 minimal L0 steps of 8 x 16 blocks, cutting M 33 x 24: N is cut. Each part is
    # the blocks of 16 shared out: singleCoreN = 371 * 16 / 2 = 2968 (the hardware wrote from column 5936 on
    # its third vector core), and M's one part is M rounded up to 16.
    assert split(8205, 5921, 2949, 2) == CoreSplit(1, 2, 2, 8208, 2968, 2949)


def test_a_part_keeps_at_least_16_blocks_of_n() -> None:
    # 256 x 256 x 256 half on 2 cores: 16 x 16 blocks. Once a split gives each core 16 blocks of N (the first
    # two, 1 x 1 and 2 x 1 parts), one that leaves fewer (1 x 2: 8 blocks) is never kept, whatever its
    # steps.
    assert split(256, 256, 256, 2, HALF) == CoreSplit(2, 1, 2, 128, 256, 256)


def test_fewer_l0_steps_win_over_the_first_split() -> None:
    # 128 x 512 x 1024 half on 2 cores: 8 x 32 blocks, 64 slices of K. 1 x 1 and 2 x 1 parts both take 32
    # minimal L0 steps a core; 1 x 2 parts take 1 x 1 x 16 (8 x 16 blocks, K by 4): N is cut, 256 columns
    # each.
    assert split(128, 512, 1024, 2, HALF) == CoreSplit(1, 2, 2, 128, 256, 1024)


def test_one_core_takes_the_whole_unrounded_matrix() -> None:
    assert split(8205, 5921, 2949, 1) == CoreSplit(1, 1, 1, 8205, 5921, 2949)


def test_a_matrix_within_l0_stays_on_one_core() -> None:
    # 2 x 1 blocks on 8 cores, A, B and C within L0: the library's small-shape case does not cut it
    assert split(20, 16, 32, 8) == CoreSplit(1, 1, 1, 32, 16, 32)


def test_set_single_shape_is_taken_as_given_with_the_set_dim_cores() -> None:
    assert split(1000, 1000, 64, 4, single_core=(256, 512, -1)) == CoreSplit(1, 1, 4, 256, 512, 64)


def configured(mnk: tuple[int, int, int], dim: int, set_shape: bool = True) -> MatmulTilingObject:
    obj = MatmulTilingObject.create(resolve_chip("910B2")[0], True)
    obj.block_dim = dim
    for matrix in (Matrix.A, Matrix.B, Matrix.C):
        obj.types[matrix] = MatmulMatrixType(0, 0, DTYPES[FLOAT])
    if set_shape:
        obj.set_shape(*mnk)
    obj.org = [*mnk, mnk[2]]
    assert obj.set_fix_split(128, 128, -1) == 0
    return obj


def test_the_tcube_tiling_carries_the_library_split() -> None:
    notes: list[str] = []
    fields = cube_tiling(configured((8205, 5921, 2949), 2), notes)
    assert fields is not None and not notes
    picked = {name: fields[name] for name in ("usedCoreNum", "singleCoreM", "singleCoreN", "singleCoreK")}
    assert picked == {"usedCoreNum": 2, "singleCoreM": 8208, "singleCoreN": 2968, "singleCoreK": 2949}


def test_an_unmodelled_path_falls_back_and_says_so() -> None:
    # without SetShape the 910B's library first runs a basic-block search, not modelled
    notes: list[str] = []
    fields = cube_tiling(configured((8205, 5921, 2949), 2, set_shape=False), notes)
    assert fields is not None and fields["usedCoreNum"] == 2
    assert len(notes) == 1 and "without SetShape on the ASCEND910B" in notes[0] and "least-load" in notes[0]
    obj = configured((8205, 5921, 2949), 2)
    obj.configured.append("EnableMultiCoreSplitK")
    notes.clear()
    cube_tiling(obj, notes)
    assert len(notes) == 1 and notes[0].startswith("GetTiling's core split: EnableMultiCoreSplitK")
