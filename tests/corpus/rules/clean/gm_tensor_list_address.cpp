// A tensor-list input: the first 8 bytes give the offset of a table of data addresses, and each entry is
// the GM address of one tensor, read as an integer and cast to a pointer before SetGlobalBuffer.
#include "kernel_operator.h"

template <typename T>
class TensorListCopy {
public:
    __aicore__ inline void Init(GM_ADDR list, GM_ADDR y, AscendC::TPipe *pipe)
    {
        xGm.SetGlobalBuffer(TensorAddr(list, AscendC::GetBlockIdx()));
        yGm.SetGlobalBuffer((__gm__ T *)y + 256 * AscendC::GetBlockIdx(), 256);
        pipe->InitBuffer(queue, 1, 256 * sizeof(T));
    }
    __aicore__ inline void Process()
    {
        AscendC::LocalTensor<T> t = queue.template AllocTensor<T>();
        AscendC::DataCopy(t, xGm, 256);
        queue.EnQue(t);
        AscendC::LocalTensor<T> out = queue.template DeQue<T>();
        AscendC::DataCopy(yGm, out, 256);
        queue.FreeTensor(out);
    }

private:
    __aicore__ inline __gm__ T *TensorAddr(GM_ADDR list, uint64_t index)
    {
        __gm__ uint64_t *table = reinterpret_cast<__gm__ uint64_t *>(list);
        uint64_t offset = *table;
        __gm__ uint64_t *addresses = table + (offset >> 3);
        return reinterpret_cast<__gm__ T *>(*(addresses + index));
    }

    AscendC::TQue<AscendC::TPosition::VECIN, 1> queue;
    AscendC::GlobalTensor<T> xGm;
    AscendC::GlobalTensor<T> yGm;
};

extern "C" __global__ __aicore__ void tensor_list_copy(GM_ADDR list, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    AscendC::TPipe pipe;
    TensorListCopy<float> op;
    op.Init(list, y, &pipe);
    op.Process();
}
