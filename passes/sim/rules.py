"""The simulator's findings (ASC950-ASC965): one page each, as `ascendc-check rule ASC950` prints them.

The Rust side reports them (rust_sim/src/checks.rs names the same codes); they are listed by `ascendc-check rules`
after the static rules. They are not rules the verifier runs: they come from running the kernel.
"""

from __future__ import annotations

from dataclasses import dataclass

from frontend.diagnostics import format_page


@dataclass(frozen=True)
class SimRule:
    code: str
    name: str
    summary: str
    why: str
    example: str
    instead: str
    severity: str = "error"
    family: str = "simulator"

    def page(self) -> str:
        return format_page(self.code, self.name, f"Family: simulator (found by running the kernel: `ascendir run`, "
                           f"passes.sim.run); default severity: {self.severity}", self.summary, self.why,
                           self.example, self.instead)


SIM_RULES: dict[str, SimRule] = {}


def _rule(code: str, name: str, summary: str, why: str, example: str, instead: str, severity: str = "error") -> None:
    SIM_RULES[code] = SimRule(code, name, summary, why, example, instead, severity)


_rule("ASC950", "sim-gm-out-of-bounds",
      "A read or write of global memory outside the buffer the kernel was given, or through a GlobalTensor that "
      "was never given memory.",
      "On the device this reads another tensor's data or corrupts it (msSanitizer: 'illegal read/write ... on GM'), "
      "or raises an AI Core exception (507015). The kernel's result then depends on what lies next to its buffers.",
      """xGm.SetGlobalBuffer((__gm__ half *)x + blockLength * GetBlockIdx(), blockLength);
DataCopy(xLocal, xGm[i * tileLength], tileLength);   // the last core's last tile runs past x""",
      """// give the last core (or tile) its own length
uint32_t len = (i == tileNum - 1) ? lastTileLength : tileLength;""")
_rule("ASC951", "sim-local-out-of-bounds",
      "An access of UB, L1, L0A/B/C, BT or FB outside the memory, or a local array indexed past its end (an error), "
      "and buffers placed beyond the memory's size (a warning at InitBuffer: the device's TPipe places them "
      "without a check, as only the CPU-debug build asserts; the first access past the end is the error). Also a "
      "high-level API called without a sharedTmpBuffer (SoftMax, CumSum) when the UB the TPipe's buffers leave is "
      "less than the API's minimum temporary space (its GetxxxMaxMinTmpSize): the library takes its temporary space "
      "from there (PopStackBuffer) and writes past the end of UB.",
      "The hardware raises 'ub address out of bounds' (507035) or an AI Core exception; the run stops.",
      """pipe.InitBuffer(inQueueX, 2, 65536 * sizeof(float));   // 512 KB of queue buffers in a 192 KB UB""",
      """pipe.InitBuffer(inQueueX, 2, 8192 * sizeof(float));    // tile the data to fit UB""")
_rule("ASC952", "sim-uninitialised-read",
      "A value read from memory no instruction wrote, where it is used: an output element whose data came from such "
      "memory (tracked element by element through copies and vector instructions), or a scalar GetValue read from "
      "it (followed through scalar arithmetic, and into memory by SetValue) used as a branch or loop condition, an "
      "index, an address, a size or a call's scalar operand. A GetValue of such memory whose value only reaches "
      "other unwritten memory (a tensor's padding) is not a finding.",
      "AllocTensor hands out a buffer holding whatever the previous tile left (the CPU twin: 'random contents'). "
      "Code that reads it before writing it computes from garbage; it may pass on one input and fail on another.",
      """LocalTensor<float> acc = tmpBuf.Get<float>();
Add(acc, acc, xLocal, len);        // acc was never zeroed""",
      """Duplicate(acc, 0.0f, len);
Add(acc, acc, xLocal, len);""")
_rule("ASC953", "sim-cross-core-write-overlap",
      "Two cores write the same GM bytes with no atomic mode (SetAtomicAdd ...) and no SyncAll between the writes.",
      "Cores run concurrently: which write lands last depends on timing, so the output changes from run to run "
      "(msSanitizer reports the overlap as a multi-core write conflict).",
      """zGm.SetGlobalBuffer((__gm__ float *)z, total);   // every core writes the whole of z""",
      """zGm.SetGlobalBuffer((__gm__ float *)z + blockLength * GetBlockIdx(), blockLength);""")
_rule("ASC954", "sim-live-tensor-overwritten",
      "A write through one buffer's tensor that runs past that buffer into another buffer still in use (a queue "
      "buffer between AllocTensor and FreeTensor, or a TBuf). An error, at the write, once the overwritten bytes "
      "are read through a tensor other than the writer's before their owner writes them again; a warning while "
      "nothing reads them (their owner's last read came before the write).",
      "UB has no per-buffer protection: the write silently corrupts the neighbour's data, which shows up as wrong "
      "numbers far from the cause. Bytes no one reads again change nothing, but the overflow stays a sizing bug "
      "(an InitBuffer of 0 bytes gets the pool's current address, the next buffer's too).",
      """pipe.InitBuffer(inQueueX, 1, 256 * sizeof(half));
DataCopy(xLocal, xGm, 512);          // 1 KB into a 512-byte buffer""",
      """DataCopy(xLocal, xGm, 256);""")
_rule("ASC955", "sim-queue-misuse",
      "The queue protocol broken at run time: DeQue of an empty queue, AllocTensor with every buffer in use, "
      "EnQue or FreeTensor of a tensor that is not a buffer of the queue (or already free), a queue used before "
      "InitBuffer.",
      "DeQue and AllocTensor wait for hardware flags: with nothing to wait for, the kernel hangs (the CPU twin "
      "aborts with 'EnQue/DeQue is not matched with the previous state').",
      """LocalTensor<half> y = outQueue.DeQue<half>();   // nothing was EnQue'd on this path""",
      """outQueue.EnQue(yLocal);
LocalTensor<half> y = outQueue.DeQue<half>();""")
_rule("ASC956", "sim-deadlock",
      "A wait that nothing can satisfy: a WaitFlag whose SetFlag never comes (the pipe and the flag are named), "
      "PIPE_ALL barriers behind such a wait, a SyncAll that not every core reaches.",
      "On the device the kernel hangs until the runtime's timeout kills it (AclrtSynchronizeDeviceWithTimeout).",
      """WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);   // no SetFlag<HardEvent::MTE2_V>(EVENT_ID0) before it""",
      """SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);""")
_rule("ASC957", "sim-instruction-budget",
      "The run used up its instruction budget (`--budget`, budget=): the kernel loops far longer than its data "
      "needs, or forever.",
      "A loop whose bound is wrong (an unsigned counter going below zero, a tiling value of 0) runs until the "
      "device's timeout.",
      """for (uint32_t i = n - 1; i >= 0; --i) { ... }   // i >= 0 always holds""",
      """for (int32_t i = n - 1; i >= 0; --i) { ... }""")
_rule("ASC958", "sim-not-modelled",
      "The run reached something the simulator does not model (an API call, a construct the lowering could not "
      "resolve, a tiling field with no value); the core stops there, so its results are incomplete.",
      "Nothing is wrong with the kernel for this reason alone: the finding says which construct stopped the run, "
      "so the results of the cores that stopped are not to be trusted.",
      """AscendC::SomeApiTheSimulatorLacks(dst, src, len);""",
      """// run the kernel on hardware, or open an issue naming the API""", "error")
_rule("ASC959", "sim-invalid-operand",
      "An operand outside its documented range at run time: a repeat count over 255, a mask of no lanes or more "
      "than a repeat has, a count larger than the tensor it works on, a DataCopy length that is not whole 32-byte "
      "blocks (a warning: the hardware copies the whole blocks and drops the rest).",
      "The hardware takes the operand's low bits or the whole blocks, and the result silently differs from what "
      "the code asks for.",
      """DataCopy(xLocal, xGm, 100);      // 100 halves = 200 bytes: 192 are copied""",
      """DataCopyPad(xLocal, xGm, {1, 100 * sizeof(half), 0, 0, 0}, {false, 0, 0, 0});""")
_rule("ASC960", "sim-division-by-zero",
      "A scalar integer division or remainder by zero.",
      "The scalar unit does not trap: it gives an undefined result (the simulator uses 0) and the kernel goes on "
      "with it. A result never used is harmless, hence a warning; tile counts and offsets computed from it are "
      "wrong, and the outputs show it.",
      """uint32_t tiles = blockLength / tileLength;   // tileLength is 0 for small inputs""",
      """uint32_t tiles = tileLength == 0 ? 0 : blockLength / tileLength;""", "warning")
_rule("ASC961", "sim-output-not-written",
      "Output elements no core writes.",
      "They keep whatever the output memory held (torch.empty), so the output is wrong in a way that changes from "
      "run to run.",
      """uint32_t blockLength = total / GetBlockNum();   // total % blockNum elements are nobody's""",
      """uint32_t blockLength = (total + GetBlockNum() - 1) / GetBlockNum();   // and a shorter last block""")
_rule("ASC962", "sim-gm-tensor-padding",
      "A read or write of global memory past the end of a tensor but inside its allocation: the framework allocates "
      "every tensor with some padding after it (torch_npu: its size plus 32 bytes, rounded up to 512).",
      "The access does not fault, but the bytes there are not the tensor's: what is read is garbage (the "
      "simulator keeps it marked as never written, so an output computed from it is ASC952), and what is written "
      "is lost. Copying whole 32-byte blocks of a short tensor and using only its own elements is fine.",
      """DataCopy(xLocal, xGm, 16);     // x holds 3 halves: 26 of the 32 bytes are padding""",
      """DataCopyPad(xLocal, xGm, {1, 3 * sizeof(half), 0, 0, 0}, {false, 0, 0, 0});   // or use only x's 3""",
      "warning")
_rule("ASC963", "sim-input-written",
      "A write into an input tensor that the op does not update in place: one its op description does not also list "
      "as an output (a ref input, `Output(\"var\")` beside `Input(\"var\")`), and that the caller (`inplace=` of "
      "passes.sim.run, a benchmark task's in-place list) does not name. Reported at the first write of each "
      "instruction, with the core and the elements it wrote.",
      "The caller's tensor changes under it: the framework, or a benchmark, reads the input again after the "
      "kernel (the next layer, the autograd graph, a check against the original). A kernel that keeps a partial "
      "result in its input, or leaves its answer there, computes the right output only once. Nothing faults on "
      "the device, which is why this is a warning; the benchmark harness does not accept the outputs of an answer "
      "that writes into an input its task does not update in place.",
      """DataCopy(yGm[off], yLocal, len);
DataCopy(xGm[off], yLocal, len);     // x is the op's input: the caller's x now holds the result""",
      """DataCopy(yGm[off], yLocal, len);     // results go to outputs (or the workspace for scratch);
// an op that updates x declares it: Input("x") and Output("x") in its OpDef""",
      "warning")
_rule("ASC964", "sim-shared-cache-line",
      "Two cores write bytes of one 64-byte line of a GM tensor in the same phase (no SyncAll between), at least one "
      "of them with GlobalTensor::SetValue. Reported once per tensor, at the first scalar write into the first such "
      "line, with the other core's instruction and the number of lines shared.",
      "The scalar unit reaches GM through its data cache: SetValue changes the core's copy of the whole 64-byte "
      "line, and the line goes back to GM whole, later. If another core wrote other bytes of that line meanwhile "
      "(with its own SetValue, or a DataCopy), the write-back carries this core's stale copy of them and undoes "
      "that write; which bytes survive depends on the order the lines go back, so the output is wrong on some runs "
      "and right on others. The vendor's guidance is to keep what different cores write with SetValue at least "
      "64 bytes apart, or to stage results in local memory and copy them out with DataCopy. A warning, not an "
      "error: kernels whose cores share only the lines at the ends of their ranges have passed on hardware "
      "(KernelHive's conv_transposed1d final shares 42), while cores interleaving elements (every line shared) "
      "fail there.",
      """for (uint32_t i = GetBlockIdx(); i < total; i += GetBlockNum()) {
    zGm.SetValue(i, xGm.GetValue(i));   // neighbouring elements belong to other cores: every line is shared
}""",
      """// each core a contiguous range whose ends fall on 64-byte lines (16 floats), computed in UB:
yLocal.SetValue(i, v);                      // ... then one copy out
DataCopy(yGm[GetBlockIdx() * perCore], yLocal, perCore);   // perCore * sizeof(float) a multiple of 64""",
      "warning")
_rule("ASC965", "sim-pipe-race",
      "Two pipes of one core access the same local-memory bytes (UB, L1, L0A/B/C, BT, FB), at least one of them "
      "writing, and nothing orders the two: no SetFlag/WaitFlag from the first pipe to the second, no queue "
      "EnQue/DeQue (or FreeTensor/AllocTensor) whose flag connects them, no PipeBarrier<PIPE_ALL> or SyncAll "
      "between them. Reported at the second access, with the first one's line, both pipes, the core and the bytes, "
      "as Miri reports a data race. The check is a happens-before one with a vector clock per pipe: one pipe runs in "
      "order; the scalar unit issues every instruction, so what it did before issuing one to a pipe comes first "
      "(S -> pipe needs no flag), while a pipe -> S order needs a flag (MTE2_S, V_S, ...) or a barrier; a flag "
      "carries its setter's clock to its waiter. A vector instruction's operand counts as the whole byte span it "
      "covers. The severity follows what BiSheng's --cce-auto-sync (on by default) orders where it can follow the "
      "LocalTensor: a warning between the scalar unit and MTE2, MTE3 or V, and between V and MTE2 or MTE3 on UB (the "
      "guide leaves that pair to the queues, but hardware-passing kernels built with auto-sync leave it unflagged); "
      "an error between MTE2 and MTE3 and on the cube side (M, MTE1, FIX, L1), unless the racing write stores the "
      "very bytes already there (a warning).",
      "The simulator runs each pipe's work in the order the scalar unit issued it, so such a kernel computes the "
      "right numbers here. On the device the pipes run concurrently: the scalar unit reads the tile before MTE2 "
      "has filled it, a vector instruction reads bytes MTE2 is still writing, MTE3 copies out a result V has not "
      "finished, or MTE2 reloads a buffer V is still reading. The output is then wrong on some runs, often only "
      "at larger shapes or under load. A queue's DeQue of a VECIN tensor waits for MTE2 on the vector pipe only: "
      "a GetValue on the tile right after it is not ordered.",
      """inQ.EnQue(gLocal);
gLocal = inQ.DeQue<float>();          // MTE2 -> V only
float gamma = gLocal.GetValue(0);     // the scalar unit reads what MTE2 may still be writing""",
      """gLocal = inQ.DeQue<float>();
event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
SetFlag<HardEvent::MTE2_S>(e);
WaitFlag<HardEvent::MTE2_S>(e);       // now the scalar unit waits for the copy
float gamma = gLocal.GetValue(0);""")
