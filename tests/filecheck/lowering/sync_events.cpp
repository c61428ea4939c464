// RUN: ascendir-opt %s | filecheck %s

// Synchronisation: an event id fetched from the pipe (GetTPipePtr() is the kernel's TPipe), SetFlag and
// WaitFlag carrying their HardEvent as a template argument, PipeBarrier<pipe>, and SyncAll.

#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void sync_custom()
{
    TPipe pipe;
    event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_MTE3));
    SetFlag<HardEvent::V_MTE3>(e);
    WaitFlag<HardEvent::V_MTE3>(e);
    PipeBarrier<PIPE_V>();
    SyncAll();
}

// CHECK-LABEL: ascendc.kernel @sync_custom
// CHECK:       %[[PIPE:.*]] = ascendc.tpipe "pipe" : !ascendc.tpipe
// CHECK-NEXT:  %[[EV:.*]] = ascendc.enum_constant "V_MTE3" : !ascendc.enum<"HardEvent">
// CHECK-NEXT:  %[[ID:.*]] = ascendc.pipe_call "FetchEventID"(%[[PIPE]], %[[EV]]) {overload = "argument"} : (!ascendc.tpipe, !ascendc.enum<"HardEvent">) -> i8
// CHECK:       ascendc.sync "SetFlag"(%[[E:.*]]) {overload = "plain", template_args = ["V_MTE3"]}
// CHECK-NEXT:  ascendc.sync "WaitFlag"(%[[E]]) {overload = "plain", template_args = ["V_MTE3"]}
// CHECK-NEXT:  ascendc.sync "PipeBarrier"() {overload = "plain", template_args = ["PIPE_V"]} : () -> ()
// CHECK-NEXT:  ascendc.sync "SyncAll"() {overload = "hard"} : () -> ()
