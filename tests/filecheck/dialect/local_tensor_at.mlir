// RUN: ascendir-opt %s | filecheck %s

// A LocalTensor placed by hand: `LocalTensor<float> t(TPosition::VECIN, addr, count)`.

builtin.module {
  ascendc.kernel @placed() {
    %addr = arith.constant 0 : i32
    %n = arith.constant 1024 : i32
    %t = ascendc.local_tensor_at %addr count %n : i32, i32 -> !ascendc.local_tensor<f32, VECIN>
    ascendc.return
  }
}

// CHECK: %t = ascendc.local_tensor_at %addr count %n : i32, i32 -> !ascendc.local_tensor<f32, VECIN>
