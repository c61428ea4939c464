//! The ShapeInfo a LocalTensor carries (LocalTensor::SetShapeInfo), where the softmax APIs read the shape when
//! the call passes no SoftMaxShapeInfo.

use crate::api::{ApiOp, Args, Pipe, StackArray};
use crate::core::{Ctx, Flow};
use crate::memory::Handle;
use crate::program::Sv;

/// A LocalTensor's ShapeInfo (SetShapeInfo): its dimensions and original dimensions.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ShapeRec {
    pub shape: Vec<u64>,
    pub original: Vec<u64>,
}

impl ShapeRec {
    /// [product of all but the last dimension, the last]; None without dimensions or with a last of 0.
    fn last_axis(dims: &[u64]) -> Option<(u64, u64)> {
        let (&k, rest) = dims.split_last()?;
        (k > 0).then(|| (rest.iter().product(), k))
    }
}

/// The ShapeInfos set on tensors, by the tensor's memory (space, address, length and allocation): a tensor
/// copied, or a class member loaded again, is the same tensor; a slice of it (operator[]) is another. The most
/// recent 64 are kept (a kernel that sets one on a moving window of a buffer would otherwise grow the list).
#[derive(Clone, Debug, Default)]
pub struct ShapeInfos(Vec<(Handle, ShapeRec)>);

const KEPT: usize = 64;

impl ShapeInfos {
    pub fn set(&mut self, h: Handle, rec: ShapeRec) {
        self.0.retain(|(at, _)| *at != h);
        if self.0.len() == KEPT {
            self.0.remove(0);
        }
        self.0.push((h, rec));
    }

    pub fn get(&self, h: Handle) -> Option<&ShapeRec> {
        self.0.iter().find(|(at, _)| *at == h).map(|(_, s)| s)
    }
}

/// The rows, columns and original columns of the tensor in handle register `reg` from its ShapeInfo, as the
/// softmax APIs read them when the call's SoftMaxShapeInfo is left out or has srcM or srcK 0
/// (GetLastAxisShapeND / GetLastAxisOriginShapeND): the product of all but the last dimension, and the last.
/// None when the tensor has no ShapeInfo; no original columns when it has no original shape.
pub fn tensor_shape(cx: &Ctx, reg: u32) -> Option<(usize, usize, Option<usize>)> {
    let rec = cx.core.shape_infos.get(cx.handle(reg))?;
    let (m, k) = ShapeRec::last_axis(&rec.shape)?;
    let ori = ShapeRec::last_axis(&rec.original).map(|(_, k)| k as usize);
    Some((m as usize, k as usize, ori))
}

// ---------------------------------------------------------------------------------------------------------
// LocalTensor::SetShapeInfo(ShapeInfo(shapeDim, shape[], [originalShapeDim, originalShape[],] format))

#[derive(Debug)]
struct SetShapeInfo {
    this: u32,
    dim: Option<Sv>,
    shape: Option<StackArray>,
    ori_dim: Option<Sv>,
    ori: Option<StackArray>,
}

pub(super) fn decode_set_shape_info(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    Ok(Box::new(SetShapeInfo {
        this: a.handle("self")?,
        dim: a.opt_field("shapeInfo", "shapeDim")?,
        shape: a.stack_array("shapeInfo.shape"),
        ori_dim: a.opt_field("shapeInfo", "originalShapeDim")?,
        ori: a.stack_array("shapeInfo.originalShape"),
    }))
}

fn read_dims(cx: &Ctx, dim: Option<Sv>, arr: Option<StackArray>) -> Vec<u64> {
    let (Some(d), Some(arr)) = (dim, arr) else {
        return Vec::new();
    };
    let n = (cx.uint(d) as usize).min(arr.len as usize).min(8);
    (0..n).map(|i| arr.get(cx, i)).collect()
}

impl ApiOp for SetShapeInfo {
    fn pipe(&self) -> Pipe {
        Pipe::S
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let rec = ShapeRec {
            shape: read_dims(cx, self.dim, self.shape),
            original: read_dims(cx, self.ori_dim, self.ori),
        };
        let h = cx.handle(self.this);
        cx.core.shape_infos.set(h, rec);
        Flow::Next
    }
}

#[cfg(test)]
mod tests {
    use super::ShapeRec;

    #[test]
    fn last_axis_of_a_shape() {
        assert_eq!(ShapeRec::last_axis(&[2, 3, 64]), Some((6, 64)));
        assert_eq!(ShapeRec::last_axis(&[]), None);
    }
}
