// Coordinates and layouts the way template libraries write them (our own, catlass-style): a Coord class template
// holding an index array, made by MakeCoord from an array (its array constructor, not its scalar one), a derived
// MatrixCoord converted from the Coord<2> that operators return, a layout with a static MakeLayout named through
// an alias, offsets through member functions, a scheduler returning a coordinate from several returns.
// Each core doubles one block of rows of an R x C float matrix: y = 2 * x.
#include "kernel_operator.h"

namespace Lib {

template <int RANK_, class Index_ = uint32_t, class LongIndex_ = int64_t>
struct Coord {
    static const int RANK = RANK_;
    using Index = Index_;
    using LongIndex = LongIndex_;

    __aicore__ inline explicit Coord(Index value = Index(0))
    {
        for (int i = 0; i < RANK; ++i) {
            idx[i] = value;
        }
    }
    __aicore__ inline Coord(Index const (&values)[RANK])
    {
        for (int i = 0; i < RANK; ++i) {
            idx[i] = values[i];
        }
    }
    __aicore__ inline Index &operator[](int dim) { return idx[dim]; }
    __aicore__ inline Index const &operator[](int dim) const { return idx[dim]; }
    __aicore__ inline Coord operator+(Coord const &b) const
    {
        Coord c;
        for (int i = 0; i < RANK; ++i) {
            c.idx[i] = idx[i] + b.idx[i];
        }
        return c;
    }
    __aicore__ inline Coord operator+(Index value) const
    {
        Coord c;
        for (int i = 0; i < RANK; ++i) {
            c.idx[i] = idx[i] + value;
        }
        return c;
    }
    __aicore__ inline Coord operator*(Coord const &b) const
    {
        Coord c;
        for (int i = 0; i < RANK; ++i) {
            c.idx[i] = idx[i] * b.idx[i];
        }
        return c;
    }
    template <int... Is>
    __aicore__ inline auto Pick() const
    {
        Index picked[sizeof...(Is)]{idx[Is]...};
        return Coord<sizeof...(Is), Index, LongIndex>(picked);
    }
    __aicore__ inline static Coord Min(Coord const &a, Coord const &b)
    {
        Coord c;
        for (int i = 0; i < RANK; ++i) {
            c.idx[i] = a.idx[i] < b.idx[i] ? a.idx[i] : b.idx[i];
        }
        return c;
    }

private:
    Index idx[RANK];
};

template <class T>
__aicore__ inline Coord<2, T> MakeCoord(T d0, T d1)
{
    T values[2] = {d0, d1};
    return Coord<2, T>(values);
}

template <class T>
__aicore__ inline Coord<3, T> MakeCoord(T d0, T d1, T d2)
{
    T values[3] = {d0, d1, d2};
    return Coord<3, T>(values);
}

struct MatrixCoord : public Coord<2, uint32_t> {
    using Base = Coord<2, uint32_t>;
    __aicore__ inline MatrixCoord() {}
    __aicore__ inline MatrixCoord(Base const &c) : Base(c) {}
    __aicore__ inline MatrixCoord(uint32_t r, uint32_t c) : Base(MakeCoord(r, c)) {}
    __aicore__ inline uint32_t const &row() const { return (*this)[0]; }
    __aicore__ inline uint32_t const &column() const { return (*this)[1]; }
};

struct ProblemCoord : public Coord<3, uint32_t> {
    using Base = Coord<3, uint32_t>;
    __aicore__ inline ProblemCoord(uint32_t r, uint32_t c, uint32_t b) : Base(MakeCoord(r, c, b)) {}
    __aicore__ inline auto RowsCols() const { return this->template Pick<0, 1>(); }
};

namespace layout {
struct RowMajor {
    static constexpr int RANK = 2;
    using Index = uint32_t;
    using LongIndex = int64_t;
    using Shape = Coord<RANK, Index>;
    using Stride = Coord<RANK, LongIndex>;

    __aicore__ inline RowMajor(Index rows = 0, Index cols = 0)
        : shape_(MakeCoord(rows, cols)), stride_(MakeCoord(LongIndex(cols), LongIndex(1))) {}
    __aicore__ inline RowMajor(Shape shape, Stride stride) : shape_(shape), stride_(stride) {}

    template <class Element>
    __aicore__ inline static RowMajor MakeLayout(Index rows, Index cols) { return RowMajor(rows, cols); }

    __aicore__ inline LongIndex GetOffset(MatrixCoord const &c) const
    {
        return LongIndex(c.row()) * stride_[0] + LongIndex(c.column());
    }
    __aicore__ inline RowMajor GetTileLayout(MatrixCoord const &tile) const { return RowMajor(tile, stride_); }
    __aicore__ inline Index shape(int i) const { return shape_[i]; }

private:
    Shape shape_;
    Stride stride_;
};
}  // namespace layout

struct RowScheduler {
    MatrixCoord problem;
    uint32_t rowsPerBlock;
    __aicore__ inline RowScheduler(MatrixCoord const &p, uint32_t rows) : problem(p), rowsPerBlock(rows) {}
    __aicore__ inline MatrixCoord BlockOffset(uint32_t block) const
    {
        if (block == 0) {
            return MatrixCoord{0, 0};
        }
        return MatrixCoord{block * rowsPerBlock, 0};
    }
};

}  // namespace Lib

using namespace Lib;

template <class Layout>
__aicore__ inline void DoubleRows(GM_ADDR x, GM_ADDR y, uint32_t rows, uint32_t cols)
{
    using Tile = Layout;
    ProblemCoord problem{rows, cols, 1};
    MatrixCoord shape = problem.RowsCols();  // a Coord<2> converted to a MatrixCoord
    Layout whole = Tile::template MakeLayout<float>(shape.row(), shape.column());
    uint32_t rowsPerBlock = rows / AscendC::GetBlockNum();
    RowScheduler scheduler(shape, rowsPerBlock);
    MatrixCoord offset = scheduler.BlockOffset(AscendC::GetBlockIdx());
    MatrixCoord blockShape{rowsPerBlock, cols};
    MatrixCoord last = MatrixCoord::Min(offset + blockShape, shape + 0u);  // static of the base, through the derived
    Layout tile = whole.GetTileLayout(blockShape);
    int64_t start = whole.GetOffset(offset);
    uint32_t count = (last.row() - offset.row()) * tile.shape(1);

    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, count * sizeof(float));
    AscendC::LocalTensor<float> ub = buf.Get<float>();
    AscendC::GlobalTensor<float> xGm;
    AscendC::GlobalTensor<float> yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + start, count);
    yGm.SetGlobalBuffer((__gm__ float *)y + start, count);
    AscendC::DataCopy(ub, xGm, count);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::Muls(ub, ub, 2.0f, count);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::DataCopy(yGm, ub, count);
}

extern "C" __global__ __aicore__ void coord_layout(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    DoubleRows<layout::RowMajor>(x, y, t.rows, t.cols);
}
