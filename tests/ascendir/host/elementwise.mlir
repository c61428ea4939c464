// An elementwise TilingFunc in the POD style (GetTilingData<S>()): one block per 2048 elements up to the
// AIV core count, tiles of at most 2048 elements per core, tiling key 1 for fp16 and 2 otherwise.
builtin.module {
  func.func @TilingFunc(%ctx: !host.tiling_context) -> i32 {
    %c1 = arith.constant 1 : i64
    %c2048 = arith.constant 2048 : i64
    %x = host.input_shape %ctx[0] origin
    %total = host.shape_size %x
    %plat = host.platform %ctx
    %aiv = host.core_num %plat aiv
    %blocks = arith.ceildivui %total, %c2048 : i64
    %used0 = arith.minui %aiv, %blocks : i64
    %used = arith.maxui %used0, %c1 : i64
    %perCore = arith.ceildivui %total, %used : i64
    %big = arith.cmpi ugt, %perCore, %c2048 : i64
    %tileNum, %tileLength = scf.if %big -> (i64, i64) {
      %n = arith.ceildivui %perCore, %c2048 : i64
      scf.yield %n, %c2048 : i64, i64
    } else {
      scf.yield %c1, %perCore : i64, i64
    }
    %dtype = host.input_dtype %ctx[0]
    %fp16 = arith.constant 1 : i32
    %isHalf = arith.cmpi eq, %dtype, %fp16 : i32
    %k2 = arith.constant 2 : i64
    %key = arith.select %isHalf, %c1, %k2 : i64
    %bytes = host.dtype_size %dtype
    %ub = host.mem_size %plat UB
    %ws = host.lib_workspace_size %plat
    %td = host.tiling_data %ctx : !host.tiling_data<"AddCustomTilingData">
    %total32 = arith.trunci %total : i64 to i32
    host.tiling_set %td["totalLength"], %total32 unsigned : !host.tiling_data<"AddCustomTilingData">, i32
    %tileNum32 = arith.trunci %tileNum : i64 to i32
    host.tiling_set %td["tileNum"], %tileNum32 unsigned : !host.tiling_data<"AddCustomTilingData">, i32
    %tileLength32 = arith.trunci %tileLength : i64 to i32
    host.tiling_set %td["tileLength"], %tileLength32 unsigned : !host.tiling_data<"AddCustomTilingData">, i32
    %tileBytes = arith.muli %tileLength, %bytes : i64
    host.tiling_set %td["tileBytes"], %tileBytes : !host.tiling_data<"AddCustomTilingData">, i64
    %ubPerTile = arith.divui %ub, %tileBytes : i64
    host.tiling_set %td["ubTiles"], %ubPerTile : !host.tiling_data<"AddCustomTilingData">, i64
    %used32 = arith.trunci %used : i64 to i32
    host.set_block_dim %ctx, %used32 : i32
    host.set_tiling_key %ctx, %key : i64
    host.set_workspace %ctx[0], %ws : i64
    %ok = arith.constant 0 : i32
    func.return %ok : i32
  }
}
