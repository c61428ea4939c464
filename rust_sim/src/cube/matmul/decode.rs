//! A Matmul method call -> `Call`: which method, the objects REGIST_MATMUL_OBJ / Init set up with their tiling
//! fields, and the operands each method reads.

use super::{Call, Method};
use crate::api::{ApiOp, Arg, Args};
use crate::program::Sv;

fn tiling_fields(a: &Args, prefix: &str) -> Vec<(String, Sv)> {
    a.named
        .iter()
        .filter_map(|(name, arg)| {
            let field = name.strip_prefix(prefix)?.strip_prefix('.')?;
            match arg {
                Arg::Reg(sv) => Some((field.to_string(), *sv)),
                _ => None,
            }
        })
        .collect()
}

pub(super) fn decode(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let method = match a.api.as_str() {
        "REGIST_MATMUL_OBJ" => Method::Register,
        "Init" => Method::Init,
        "SetTensorA" => Method::SetA,
        "SetTensorB" => Method::SetB,
        "SetBias" => Method::SetBias,
        "DisableBias" | "ClearBias" => Method::DisableBias,
        "SetTail" => Method::SetTail,
        "SetSingleShape" => Method::SetSingleShape,
        "SetOrgShape" => Method::SetOrgShape,
        "Iterate" => Method::Iterate,
        "GetTensorC" => Method::GetTensorC,
        "IterateAll" => Method::IterateAll,
        "End" => Method::End,
        "SetQuantScalar" => Method::SetQuantScalar,
        "SetQuantVector" => Method::SetQuantVector,
        "IterateBatch" => Method::IterateBatch,
        "SetBatchNum" => Method::SetBatchNum,
        "IterateNBatch" => Method::IterateNBatch,
        "GetBatchTensorC" | "GetBatchC" => Method::GetBatchTensorC,
        "SetWorkspace" => Method::SetWorkspace,
        "SetHF32" => Method::SetHF32,
        _ => Method::Nothing,
    };
    let method = if method == Method::Init && !a.named.iter().any(|(n, _)| n.starts_with("cubeTiling")) {
        Method::Nothing // another class's Init (TPipe::Init)
    } else {
        method
    };
    let mut objs = Vec::new();
    if method == Method::Register {
        for i in 0..8 {
            let (mm, tiling) = if i == 0 {
                ("mm".to_string(), "tiling".to_string())
            } else {
                (format!("mm{i}"), format!("tiling{i}"))
            };
            if let Ok(o) = a.obj(&mm) {
                objs.push((o, tiling_fields(a, &tiling)));
            }
        }
    }
    let obj = match a.obj("self") {
        Ok(o) => o,
        Err(_) if method == Method::Register => 0,
        Err(e) => return Err(e),
    };
    if method == Method::Init {
        objs.push((obj, tiling_fields(a, "cubeTiling")));
    }
    let tensor = match method {
        Method::GetBatchTensorC => a.handle("c").ok(),
        Method::SetWorkspace => a.handle("addr").ok(),
        _ => ["gm", "local", "ubCmatrix", "localCmatrix", "quantTensor"]
            .iter()
            .find_map(|n| a.handle(n).ok()),
    };
    let sv = |n: &str| a.opt_sv(n).ok().flatten();
    let (flags, ints) = match method {
        Method::SetHF32 => (vec![sv("enableHF32")], vec![]),
        Method::SetA => (vec![sv("isTransposeA")], vec![]),
        Method::SetB => (vec![sv("isTransposeB")], vec![]),
        Method::SetTail => (vec![], vec![sv("tailM"), sv("tailN"), sv("tailK")]),
        Method::SetSingleShape => (vec![], vec![sv("singleM"), sv("singleN"), sv("singleK")]),
        Method::SetOrgShape => (
            vec![],
            if a.overload == "mnk" {
                vec![sv("orgM"), sv("orgN"), sv("orgK"), sv("orgK"), None]
            } else {
                vec![sv("orgM"), sv("orgN"), sv("orgKa"), sv("orgKb"), sv("orgKc")]
            },
        ),
        Method::Iterate => (vec![sv("enPartialSum")], vec![]),
        Method::GetTensorC | Method::IterateAll => (vec![sv("enSequentialWrite")], vec![sv("enAtomic")]),
        Method::SetQuantScalar => (vec![], vec![sv("quantScalar")]),
        Method::IterateBatch => (
            vec![sv("enSequentialWrite"), sv("enPartialSum")],
            [
                "batchA",
                "batchB",
                "matrixStrideA",
                "matrixStrideB",
                "matrixStrideC",
                "enAtomic",
            ]
            .iter()
            .map(|n| sv(n))
            .collect(),
        ),
        Method::SetBatchNum | Method::GetBatchTensorC => {
            (vec![sv("enSequentialWrite")], vec![sv("batchA"), sv("batchB")])
        }
        Method::IterateNBatch => (
            vec![sv("enSequentialWrite"), sv("enPartialSum")],
            [
                "batchLoop",
                "batchA",
                "batchB",
                "matrixStrideA",
                "matrixStrideB",
                "matrixStrideC",
                "enAtomic",
            ]
            .iter()
            .map(|n| sv(n))
            .collect(),
        ),
        Method::SetWorkspace => (vec![], vec![sv("size")]),
        _ => (vec![], vec![]),
    };
    let t = a.dtype("T").ok();
    let sync = a.targ("sync").is_none_or(|v| v != "false" && v != "0");
    Ok(Box::new(Call {
        method,
        objs,
        obj,
        t,
        tensor,
        flags,
        ints,
        result: a.result_sv(),
        result_h: a.result_handle(),
        sync,
        api: a.api.clone(),
    }))
}
