//! Which simulated calls cost nothing on a pipe by design. Every other call the simulator decodes must have a
//! timing class in cost.rs (BASIC, COMPOSITE or one of classify's own); the test below fails with the names
//! of those that have none, so a new API cannot fall to `Class::Unknown` (one simple vector pass per repeat,
//! a guess nobody chose) without someone deciding it.

/// Calls with no pipe time of their own, by why.
pub const NO_PIPE_COST: &[&str] = &[
    // scalar getters and queries (PIPE_S): block and core ids, sizes, addresses, queue state, the clock
    "AlignUp",
    "CeilDivision",
    "DivCeil",
    "GetAccVal",
    "get_acc_val",
    "GetBlockIdx",
    "GetBlockNum",
    "GetDataBlockSizeInBytes",
    "GetLength",
    "GetMrgSortResult",
    "GetPhyAddr",
    "GetReduceMaxMinCount",
    "GetSize",
    "GetSortLen",
    "GetSortOffset",
    "GetSubBlockIdx",
    "GetSubBlockNum",
    "GetSysWorkSpacePtr",
    "GetSystemCycle",
    "GetTaskRation",
    "GetTensorCountInQue",
    "GetUserWorkspace",
    "GetValue",
    "SetValue",
    "HasTensorInQue",
    "VacantInQue",
    "operator[]",
    "ReinterpretCast",
    "ToFloat",
    "ToBfloat16",
    // the scalar unit's bit intrinsics (scalar_bits.rs): one scalar instruction each, or a few for the magic
    "GetBitCount",
    "ScalarGetCountOfValue",
    "CountLeadingZero",
    "ScalarCountLeadingZero",
    "GetSFFValue",
    "ScalarGetSFFValue",
    "CountBitsCntSameAsSignBit",
    "GetUintDivMagicAndShift",
    "Reg::GetVRegSize",
    "Reg::GetSpr",
    "Reg::GetCtrlSpr",
    // configuration setters: a register or the tensor's bookkeeping, no data moved
    "Reg::ClearSpr",
    "Reg::SetCtrlSpr",
    "Reg::ResetCtrlSpr",
    "SetSize",
    "SetL2CacheHint",
    "SetAtomicAdd",
    "SetAtomicMax",
    "SetAtomicMin",
    "SetAtomicNone",
    "SetMask",
    "SetMaskCount",
    "SetMaskNorm",
    "ResetMask",
    "SetVectorMask",
    "SetDeqScale",
    "SetPadValue",
    "SetFixPipeConfig",
    "SetFixpipeNz2ndFlag",
    "SetFixpipePreQuantFlag",
    "SetFmatrix",
    "Load3DSetFMatrixCal",
    "Load3DSetFMatrixBCal",
    "Load3DSetPaddingCal",
    "SetHF32Mode",
    "SetHF32TransMode",
    "SetMMLayoutTransform",
    "SetMMRowMajor",
    "SetMMColumnMajor",
    "SetLoadDataBoundary",
    "SetLoadDataPaddingValue",
    "SetLoadDataRepeat",
    "SetOverflow",
    "SetShapeInfo",
    "SetSysWorkSpacePtr",
    "SetSysWorkspace",
    "DataCacheCleanAndInvalid",
    "NdDmaDci",
    "SetLoopModePara",
    "ResetLoopModePara",
    // event ids and the pipe's buffers: bookkeeping of the scalar unit
    "AllocEventID",
    "FetchEventID",
    "ReleaseEventID",
    "FreeAllEvent",
    "InitBuffer",
    "PopStackBuffer",
    "InitSocState",
    "Reset",
    "Destroy",
    // the hardware SyncAll: timed by its own record (RecKind::SyncAll)
    "SyncAll",
    // the Matmul client (PIPE_S): the library's cube pipeline is timed by timing/matmul.rs from the calls'
    // shapes, the setters only record them
    "REGIST_MATMUL_OBJ",
    "Init",
    "End",
    "ClearBias",
    "DisableBias",
    "SetBias",
    "SetBatchNum",
    "SetHF32",
    "SetLocalWorkspace",
    "SetOrgShape",
    "SetQuantScalar",
    "SetQuantVector",
    "SetSelfDefineData",
    "SetSingleShape",
    "SetSubBlockIdx",
    "SetTail",
    "SetTensorA",
    "SetTensorB",
    "SetUserDefInfo",
    "SetWorkspace",
    "Iterate",
    "IterateAll",
    "IterateBatch",
    "IterateNBatch",
    "GetTensorC",
    "GetBatchC",
    "GetBatchTensorC",
    "WaitGetTensorC",
    "WaitIterateAll",
    "WaitIterateBatch",
];

#[cfg(test)]
mod tests {
    use super::NO_PIPE_COST;
    use crate::timing::cost::{classify, Class};
    use crate::timing::Params;

    fn apis() -> std::collections::BTreeSet<String> {
        crate::api::registry()
            .heads()
            .into_iter()
            .map(|h| h.split('.').next().unwrap_or(&h).to_string())
            .collect()
    }

    #[test]
    fn every_simulated_call_has_a_timing_class_or_costs_nothing_by_design() {
        let p = Params::default();
        let missing: Vec<String> = apis()
            .into_iter()
            .filter(|a| !NO_PIPE_COST.contains(&a.as_str()))
            .filter(|a| {
                [Some("f16"), Some("f32")]
                    .iter()
                    .any(|t| classify(a, *t, &p) == Class::Unknown)
            })
            .collect();
        assert!(
            missing.is_empty(),
            "{} simulated calls have no timing class (add them to cost.rs's BASIC or COMPOSITE, or, if they \
             cost nothing on a pipe, to coverage.rs's NO_PIPE_COST): {}",
            missing.len(),
            missing.join(", ")
        );
    }

    #[test]
    fn the_allow_list_names_only_simulated_calls_without_a_class() {
        let p = Params::default();
        let known = apis();
        let stale: Vec<&str> = NO_PIPE_COST
            .iter()
            .copied()
            .filter(|a| !known.contains(*a) || classify(a, None, &p) != Class::Unknown)
            .collect();
        assert!(
            stale.is_empty(),
            "NO_PIPE_COST names calls the simulator does not decode or that have a class: {}",
            stale.join(", ")
        );
    }
}
