"""Run-time vectors of vectors in host tiling code (issue 29, session 13): ops-nn mat_mul_v3's CalcBase walks a
constant table of candidate (m, n, k) blocks at a run-time index, copies each row into a vector built from its
iterator range, changes it, pushes it into a local `std::vector<std::vector<uint64_t>>` and reads the chosen
row back. Before: the local table was not modelled ('vector' objects), a constant table indexed at a run-time
index was 'indexing a std::map iterator', and a vector built from two iterators was not modelled, so the
tiling's base block was a gap and the run stopped there (ASC602)."""

from __future__ import annotations

from tests.ascendir.host_op import assert_tiled, op_def, run_tiling

CALC_BASE = """
namespace optiling {
struct PTiling { uint32_t baseM; uint32_t baseN; uint32_t baseK; uint32_t rows; uint32_t width; uint32_t last; };
const std::vector<std::vector<uint64_t>> CANDIDATES = {{128, 256, 128}, {128, 128, 256}, {64, 512, 64}};
class PT {
public:
    explicit PT(gert::TilingContext* c) : context_(c) {}
    void CalcBase(const std::vector<std::vector<uint64_t>>& baseMNK)
    {
        std::vector<std::vector<uint64_t>> calBaseMNK;
        size_t index = 0;
        uint64_t minLoadSize = -1;
        for (size_t i = 0; i < baseMNK.size(); ++i) {
            std::vector<uint64_t> temp(baseMNK[i].begin(), baseMNK[i].end());
            temp[0] = std::min(temp[0], m_);
            calBaseMNK.push_back(temp);
            if (calBaseMNK[i][1] > 300) {
                continue;
            }
            uint64_t load = (temp[0] + temp[1]) * ((m_ + temp[0] - 1) / temp[0]);
            if (load < minLoadSize) {
                index = i;
                minLoadSize = load;
            }
        }
        baseM_ = calBaseMNK[index][0];
        baseN_ = calBaseMNK[index][1];
        baseK_ = calBaseMNK[index][2] / 2;
        rows_ = calBaseMNK.size();
        width_ = calBaseMNK.back().size();
        calBaseMNK.push_back({7, 8});
        last_ = calBaseMNK[calBaseMNK.size() - 1][1] + calBaseMNK[3].size() * 100;
    }
    ge::graphStatus Run()
    {
        m_ = context_->GetInputShape(0)->GetStorageShape().GetDim(0);
        CalcBase(CANDIDATES);
        PTiling *t = context_->GetTilingData<PTiling>();
        t->baseM = baseM_;
        t->baseN = baseN_;
        t->baseK = baseK_;
        t->rows = rows_;
        t->width = width_;
        t->last = last_;
        context_->SetBlockDim(1);
        return ge::GRAPH_SUCCESS;
    }
    gert::TilingContext* context_;
    uint64_t m_ = 0;
    uint64_t baseM_ = 0;
    uint64_t baseN_ = 0;
    uint64_t baseK_ = 0;
    uint64_t rows_ = 0;
    uint64_t width_ = 0;
    uint64_t last_ = 0;
};
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    PT p(context);
    return p.Run();
}
}
""" + op_def()


def _expected(m: int) -> dict[str, int]:
    rows = [[128, 256, 128], [128, 128, 256], [64, 512, 64]]
    best, least = 0, 2**64 - 1
    for i, (bm, bn, _) in enumerate(rows):
        bm = min(bm, m)
        if bn > 300:
            continue
        load = (bm + bn) * ((m + bm - 1) // bm)
        if load < least:
            best, least = i, load
    bm, bn, bk = rows[best]
    return {"baseM": min(bm, m), "baseN": bn, "baseK": bk // 2, "rows": 3, "width": 3, "last": 8 + 200}


def test_mat_mul_v3s_calc_base_over_a_table_of_candidates() -> None:
    for m in (64, 200):
        result = run_tiling(CALC_BASE, rows=m)
        assert_tiled(result)
        assert result.fields == _expected(m), m


CONSTANT_AT = """
namespace optiling {
struct PTiling { uint32_t second; uint32_t picked; uint32_t ends; };
const std::vector<uint64_t> CALC_ND_BASIC = {6144, 4096, 2048};
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    uint64_t k = context->GetInputShape(0)->GetStorageShape().GetDim(0) % 3;
    PTiling *t = context->GetTilingData<PTiling>();
    t->second = CALC_ND_BASIC.at(1) / 2;
    t->picked = CALC_ND_BASIC.at(k);
    t->ends = CALC_ND_BASIC.front() + CALC_ND_BASIC.back();
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
""" + op_def()


def test_at_front_and_back_of_a_constant_vector() -> None:
    """ops-nn mat_mul_v3's `CALC_ND_BASIC.at(1) / dtypeSize` (matmul_v3_base_tiling.cpp:1314): at() reads the item
    as `[]` does, at a known or a run-time index. Before: 'std::vector::at is not modelled on a constant vector'."""
    result = run_tiling(CONSTANT_AT, rows=5)
    assert_tiled(result)
    assert result.fields == {"second": 2048, "picked": 2048, "ends": 8192}
