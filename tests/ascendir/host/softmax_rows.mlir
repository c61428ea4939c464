// A softmax-style TilingFunc in the legacy style (BEGIN_TILING_DATA_DEF + SaveToBuffer): C++ locals
// are memref cells; rows = product of all but the last dim (scf.while), the dims are copied into a
// uint32_t shapeArr[8] (scf.for), then the struct is saved. Fails for rank 0 or rank > 8.
builtin.module {
  func.func @SoftmaxTilingFunc(%ctx: !host.tiling_context) -> i32 {
    %c0 = arith.constant 0 : i64
    %c1 = arith.constant 1 : i64
    %c8 = arith.constant 8 : i64
    %failed = arith.constant -1 : i32
    %success = arith.constant 0 : i32
    %x = host.input_shape %ctx[0] origin
    %rank = host.shape_dim_num %x
    %rankZero = arith.cmpi eq, %rank, %c0 : i64
    %rankBig = arith.cmpi ugt, %rank, %c8 : i64
    %bad = arith.ori %rankZero, %rankBig : i1
    %status = scf.if %bad -> (i32) {
      scf.yield %failed : i32
    } else {
      %rows = memref.alloca() : memref<i64>
      %i = memref.alloca() : memref<i64>
      memref.store %c1, %rows[] : memref<i64>
      memref.store %c0, %i[] : memref<i64>
      %last = arith.subi %rank, %c1 : i64
      scf.while () : () -> () {
        %iv = memref.load %i[] : memref<i64>
        %more = arith.cmpi slt, %iv, %last : i64
        scf.condition(%more)
      } do {
        %iv = memref.load %i[] : memref<i64>
        %d = host.shape_dim %x[%iv]
        %r = memref.load %rows[] : memref<i64>
        %r2 = arith.muli %r, %d : i64
        memref.store %r2, %rows[] : memref<i64>
        %next = arith.addi %iv, %c1 : i64
        memref.store %next, %i[] : memref<i64>
        scf.yield
      }
      %shapeArr = memref.alloca() : memref<8xi32>
      %lbIdx = arith.constant 0 : index
      %stepIdx = arith.constant 1 : index
      %rankIdx = arith.index_cast %rank : i64 to index
      scf.for %j = %lbIdx to %rankIdx step %stepIdx {
        %j64 = arith.index_cast %j : index to i64
        %dj = host.shape_dim %x[%j64]
        %dj32 = arith.trunci %dj : i64 to i32
        memref.store %dj32, %shapeArr[%j] : memref<8xi32>
      }
      %cols = host.shape_dim %x[%last]
      %rowsValue = memref.load %rows[] : memref<i64>
      %plat = host.platform %ctx
      %cores = host.core_num %plat aiv
      %usedCores = arith.minui %cores, %rowsValue : i64
      %rowsPerCore = arith.ceildivui %rowsValue, %usedCores : i64
      %blockDim = arith.ceildivui %rowsValue, %rowsPerCore : i64
      %tiling = host.tiling_local : !host.tiling_data<"SoftmaxCustomTilingData">
      host.tiling_set %tiling["rows"], %rowsValue : !host.tiling_data<"SoftmaxCustomTilingData">, i64
      host.tiling_set %tiling["cols"], %cols : !host.tiling_data<"SoftmaxCustomTilingData">, i64
      host.tiling_set %tiling["rowsPerCore"], %rowsPerCore : !host.tiling_data<"SoftmaxCustomTilingData">, i64
      host.tiling_set %tiling["dimNum"], %rank : !host.tiling_data<"SoftmaxCustomTilingData">, i64
      host.tiling_set %tiling["shape"], %shapeArr unsigned : !host.tiling_data<"SoftmaxCustomTilingData">, memref<8xi32>
      host.tiling_save %tiling, %ctx : !host.tiling_data<"SoftmaxCustomTilingData">
      host.set_block_dim %ctx, %blockDim : i64
      host.set_workspace %ctx[0], %c0 : i64
      scf.yield %success : i32
    }
    func.return %status : i32
  }
}
