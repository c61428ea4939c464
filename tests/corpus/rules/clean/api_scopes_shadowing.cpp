// Reusing a name is legal in a nested block: a parameter or a for variable shadowed inside an inner block, a
// local named like a member, and the same name in two sibling blocks.
#include "kernel_operator.h"
using namespace AscendC;

class KernelCopy {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t length)
    {
        uint32_t count = length;  // a member is named count too
        xGm.SetGlobalBuffer((__gm__ float *)x, count);
        yGm.SetGlobalBuffer((__gm__ float *)y, count);
        pipe.InitBuffer(buf, count * sizeof(float));
        {
            uint32_t length = count / 64 * 64;  // an inner block may shadow the parameter
            this->count = length;
        }
        for (uint32_t i = 0; i < 2; i++) {
            {
                uint32_t i = 3;  // a block inside the loop body may shadow the loop variable
                tail = i;
            }
        }
        if (length > 0) {
            uint32_t tiles = length / 64;
            this->tiles = tiles;
        } else {
            uint32_t tiles = 0;
            this->tiles = tiles;
        }
    }
    __aicore__ inline void Process()
    {
        LocalTensor<float> t = buf.Get<float>();
        DataCopy(t, xGm, count);
        DataCopy(yGm, t, count);
    }

private:
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    GlobalTensor<float> xGm, yGm;
    uint32_t count = 0;
    uint32_t tiles = 0;
    uint32_t tail = 0;
};

extern "C" __global__ __aicore__ void copy_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelCopy op;
    op.Init(x, y, 1024);
    op.Process();
}
