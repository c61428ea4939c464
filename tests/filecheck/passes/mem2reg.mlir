// RUN: ascendir-opt %s --passes mem2reg | filecheck %s

// mem2reg on hand-written IR: the last store before a load reaches it, in the same block or in a
// region nested below; a cell also stored inside an scf.if is left alone.

builtin.module {
  ascendc.kernel @cells(%n: i32, %c: i1) {
    %a = memref.alloca() : memref<i32>
    memref.store %n, %a[] : memref<i32>
    %one = arith.constant 1 : i32
    %0 = memref.load %a[] : memref<i32>
    %1 = arith.addi %0, %one : i32
    memref.store %1, %a[] : memref<i32>
    scf.if %c {
      %2 = memref.load %a[] : memref<i32>
      %3 = arith.muli %2, %2 : i32
    }
    %b = memref.alloca() : memref<i32>
    memref.store %n, %b[] : memref<i32>
    scf.if %c {
      memref.store %one, %b[] : memref<i32>
    }
    %4 = memref.load %b[] : memref<i32>
    ascendc.return
  }
}

// CHECK:      ascendc.kernel @cells(%n: i32, %c: i1)
// CHECK-NOT:  %a = memref.alloca
// CHECK:      %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[INC:.*]] = arith.addi %n, %[[ONE]] : i32
// CHECK-NEXT: scf.if %c {
// CHECK-NEXT:   %{{.*}} = arith.muli %[[INC]], %[[INC]] : i32
// CHECK-NEXT: }
// CHECK-NEXT: %b = memref.alloca() : memref<i32>
// CHECK-NEXT: memref.store %n, %b[] : memref<i32>
// CHECK:      %{{.*}} = memref.load %b[] : memref<i32>
