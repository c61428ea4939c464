// The sort APIs (Sort, MrgSort, Extract, Concat, ...) run on the vector pipe like any other vector
// instruction, so a write by one of them into a freed VECOUT buffer that no AllocTensor since the free can
// have handed out is graded as use_after_free_write.cpp grades a Muls there (so is a UB -> UB DataCopy): a warning naming the rotation and
// the auto-sync it relies on. (ops-transformer's moe_token_permute_with_ep/moe_init_routing_v2: the sorter
// gets a sortDataCopyOutQueue tensor that InitMoeMrgSort frees at once, then MrgSort writes it in Process.)
// Still errors: the buffer handed out again by a later AllocTensor, and a copy-out (MTE3) read of the freed
// buffer, which nothing the queue does orders before the buffer's next vector writer.
#include "kernel_operator.h"
using namespace AscendC;

// the MoE sorters' shape: the source of the UB -> UB copy is an element of a member array, whose position
// the front end does not know; the destination is UB, and UB is only filled from L1 on no vector core of A2/A3
class Merger {
public:
    __aicore__ inline void SetOutput(LocalTensor<float>& ub) { ubOutput = ub; }
    __aicore__ inline void SetInput(LocalTensor<float>& ub) { ubInputs[0] = ub; }
    __aicore__ inline void Process() { DataCopy(ubOutput, ubInputs[0], 128); }  // expected-warning {{DataCopy uses a tensor of mergeQueue after FreeTensor}} [ASC201]
    // expected-note@-1 {{the write relies on the queue's buffer rotation}}
    // expected-note@-2 {{the write also relies on the compiler's auto-sync}}
    LocalTensor<float> ubOutput;
    LocalTensor<float> ubInputs[4];
};

extern "C" __global__ __aicore__ void use_after_free_sort(GM_ADDR xAddr, GM_ADDR zAddr, GM_ADDR workspace,
                                                          GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECOUT, 1> outQueue;  // one buffer
    TBuf<TPosition::VECCALC> inBuf;
    GlobalTensor<float> xGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float *)xAddr, 1024);
    zGm.SetGlobalBuffer((__gm__ float *)zAddr, 1024);
    pipe.InitBuffer(outQueue, 1, 1024 * sizeof(float));
    pipe.InitBuffer(inBuf, 1024 * sizeof(float));
    LocalTensor<float> in = inBuf.Get<float>();
    DataCopy(in, xGm, 1024);
    uint16_t counts[4] = {32, 32, 0, 0};
    uint32_t sorted[4];

    // borrowed and given back at once, then written by the vector pipe: no other tensor owns the bytes
    LocalTensor<float> out = outQueue.AllocTensor<float>();
    outQueue.FreeTensor(out);
    MrgSortSrcList<float> lists(in[0], in[64], in[0], in[0]);
    MrgSort<float, true>(out, lists, counts, sorted, 0b0011, 1);  // expected-warning {{MrgSort uses a tensor of outQueue after FreeTensor}} [ASC201]
    // expected-note@-1 {{the write relies on the queue's buffer rotation}}
    // expected-note@-2 {{the write also relies on the compiler's auto-sync}}

    // a UB -> UB DataCopy is moved by the vector unit (copy_ubuf_to_ubuf on PIPE_V): a vector write as well
    DataCopy(out, in, 128);  // expected-warning {{DataCopy uses a tensor of outQueue after FreeTensor}} [ASC201]
    // expected-note@-1 {{the write relies on the queue's buffer rotation}}
    // expected-note@-2 {{the write also relies on the compiler's auto-sync}}

    // the copy-out of the freed buffer: MTE3 is not ordered before the buffer's next vector writer
    DataCopy(zGm, out, 128);  // expected-error {{DataCopy uses a tensor of outQueue after FreeTensor}} [ASC201]

    // handed out again: the AllocTensor takes the one buffer, so the MrgSort writes into `again`'s bytes
    LocalTensor<float> again = outQueue.AllocTensor<float>();
    MrgSort<float, true>(out, lists, counts, sorted, 0b0011, 1);  // expected-error {{MrgSort uses a tensor of outQueue after FreeTensor}} [ASC201]
    Duplicate(again, 0.0f, 128);
    outQueue.EnQue(again);
    again = outQueue.DeQue<float>();
    DataCopy(zGm, again, 128);
    outQueue.FreeTensor(again);

    TQue<TPosition::VECOUT, 1> mergeQueue;
    pipe.InitBuffer(mergeQueue, 1, 1024 * sizeof(float));
    Merger merger;
    LocalTensor<float> mergeOut = mergeQueue.AllocTensor<float>();
    merger.SetInput(in);
    merger.SetOutput(mergeOut);
    mergeQueue.FreeTensor(mergeOut);
    merger.Process();
}
