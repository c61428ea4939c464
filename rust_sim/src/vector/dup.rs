//! Duplicate: fills a tensor with a scalar.

use crate::api::{ApiOp, Args, Pipe, Registry};
use crate::core::{Ctx, Flow};
use crate::dtype::DType;
use crate::program::Sv;
use crate::vector::{check_count_fits, check_footprint, elementwise, geoms, plan, Form};

#[derive(Debug)]
struct Duplicate {
    t: DType,
    dst: u32,
    value: Sv,
    form: Form,
}

fn decode(a: &Args) -> Result<Box<dyn ApiOp>, String> {
    let form = Form::decode(a, "", &[("dstBlockStride", "dstRepeatStride")])?;
    Ok(Box::new(Duplicate {
        t: a.dtype("T")?,
        dst: a.handle("dst")?,
        value: a.sv("scalarValue")?,
        form,
    }))
}

impl ApiOp for Duplicate {
    fn pipe(&self) -> Pipe {
        Pipe::V
    }

    fn exec(&self, cx: &mut Ctx) -> Flow {
        let g = geoms(cx, &[self.dst], &[self.t]);
        let Some(p) = plan(cx, &self.form, &g, "Duplicate") else {
            return Flow::Next;
        };
        check_count_fits(cx, &self.form, &g, &["dst"], "Duplicate");
        let Some(mem) = check_footprint(cx, &g, &p.runs, &["dst"], "Duplicate") else {
            return Flow::Next;
        };
        let t = self.t;
        let bits = cx.value_as(self.value, t);
        let mut pattern = [0u8; 8];
        t.store_bits(&mut pattern, bits);
        let size = t.size();
        elementwise(cx, mem, &p, &g, "Duplicate", &mut |_, out, m, _| {
            for c in out[..m * size].chunks_exact_mut(size) {
                c.copy_from_slice(&pattern[..size]);
            }
        });
        Flow::Next
    }
}

pub fn register(r: &mut Registry) {
    r.add_all(&["Duplicate"], &["count", "mask", "bitmask"], decode);
}
