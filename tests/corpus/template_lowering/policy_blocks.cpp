// Blocks chosen by policy the way template libraries write them (our own, catlass-style): a block template that is
// only declared, then partially specialised for a policy template (Pingpong<FLAG>) with defaults completing the
// arguments; a policy whose architecture and stage count come from its base; tile copiers of one name in two
// namespaces (Tile::Copier, Epi::Copier), one chosen by a nested pattern; a Params struct nested in the block;
// ping-pong buffers in an array of LocalTensors indexed at run time; flags set in the constructor and waited for
// in the destructor; a function template with the name of the block class. Each core computes y = 3 * x on its
// part, in tiles.
#include "kernel_operator.h"

namespace Lib {
namespace Arch {
struct A2 {
    static constexpr uint32_t UB_BYTES = 192 * 1024;
};
}  // namespace Arch

struct PolicyBase {
    using ArchTag = Arch::A2;
    static constexpr uint32_t STAGES = 2;
};

template <bool SCALE_ = false>
struct Pingpong : public PolicyBase {
    static constexpr bool SCALE = SCALE_;
};

template <class Element_, class Layout_ = int>
struct Type {
    using Element = Element_;
    using Layout = Layout_;
};

namespace Tile {
template <class ArchTag, class T>
struct Copier;

template <class Element>
struct Copier<Arch::A2, Type<Element>> {
    __aicore__ inline void operator()(AscendC::LocalTensor<Element> const &dst,
                                      AscendC::GlobalTensor<Element> const &src, uint32_t n)
    {
        AscendC::DataCopy(dst, src, n);
    }
};
}  // namespace Tile

namespace Epi {
template <class ArchTag, class T>
struct Copier {
    using Element = typename T::Element;
    __aicore__ inline void operator()(AscendC::GlobalTensor<Element> const &dst,
                                      AscendC::LocalTensor<Element> const &src, uint32_t n)
    {
        AscendC::DataCopy(dst, src, n);
    }
};
}  // namespace Epi

namespace Block {
template <class Policy, class T, class CopyIn = Tile::Copier<typename Policy::ArchTag, T>>
struct Scale;

template <bool SCALE_, class T, class CopyIn_>
struct Scale<Pingpong<SCALE_>, T, CopyIn_> {
    using Policy = Pingpong<SCALE_>;
    using ArchTag = typename Policy::ArchTag;
    using Element = typename T::Element;
    using CopyOut = Epi::Copier<ArchTag, T>;
    static constexpr uint32_t STAGES = Policy::STAGES;

    struct Params {
        GM_ADDR x;
        GM_ADDR y;
        uint32_t length;
        uint32_t tile;
    };

    __aicore__ inline Scale(AscendC::TPipe &pipe, uint32_t tile)
    {
        pipe.InitBuffer(buf, STAGES * tile * sizeof(Element));
        for (uint32_t i = 0; i < STAGES; ++i) {
            bufs[i] = buf.Get<Element>()[i * tile];
            events[i] = i;
            AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(events[i]);
        }
    }

    __aicore__ inline ~Scale()
    {
        for (uint32_t i = 0; i < STAGES; ++i) {
            AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(events[i]);
        }
    }

    __aicore__ inline void operator()(Params const &params)
    {
        AscendC::GlobalTensor<Element> xGm;
        AscendC::GlobalTensor<Element> yGm;
        xGm.SetGlobalBuffer((__gm__ Element *)params.x, params.length);
        yGm.SetGlobalBuffer((__gm__ Element *)params.y, params.length);
        for (uint32_t t = 0; t * params.tile < params.length; ++t) {
            auto &ub = bufs[stage];
            AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(events[stage]);
            copyIn(ub, xGm[t * params.tile], params.tile);
            AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(events[stage]);
            AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(events[stage]);
            if constexpr (Policy::SCALE) {
                AscendC::Muls(ub, ub, (Element)3, params.tile);
            } else {
                AscendC::Adds(ub, ub, (Element)1, params.tile);
            }
            AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(events[stage]);
            AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(events[stage]);
            copyOut(yGm[t * params.tile], ub, params.tile);
            AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(events[stage]);
            stage = (stage + 1 < STAGES) ? stage + 1 : 0;
        }
    }

private:
    AscendC::LocalTensor<Element> bufs[STAGES];
    int32_t events[STAGES];
    uint32_t stage{0};
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    CopyIn_ copyIn;
    CopyOut copyOut;
};
}  // namespace Block
}  // namespace Lib

template <class T>
__aicore__ inline void Scale(GM_ADDR x, GM_ADDR y, uint32_t length, uint32_t tile)
{
    using BlockScale = Lib::Block::Scale<Lib::Pingpong<true>, Lib::Type<T>>;
    typename BlockScale::Params params{x, y, length, tile};
    AscendC::TPipe pipe;
    BlockScale block(pipe, tile);
    block(params);
}

extern "C" __global__ __aicore__ void policy_blocks(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    uint64_t start = (uint64_t)AscendC::GetBlockIdx() * t.length * sizeof(float);
    Scale<float>(x + start, y + start, t.length, t.tile);
}
