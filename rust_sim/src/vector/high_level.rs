//! (filled in by the next step)

use crate::api::Registry;

pub fn register(_r: &mut Registry) {}
