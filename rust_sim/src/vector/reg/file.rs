//! One core's register file for the register API: vector registers of the chip's width and predicate
//! (mask) registers of one bit per byte lane, named by small ids the program allocates.

use crate::dtype::DType;
use crate::vector::reg::mask::MaskReg;

/// A vector register: `width` bytes, elements of any type laid out little-endian from byte 0.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VReg {
    pub bytes: Vec<u8>,
}

impl VReg {
    /// A register of `width` bytes, all zero (what a fresh register reads as here; the hardware's
    /// initial value is not documented, so a program must not rely on it).
    pub fn zeroed(width: usize) -> VReg {
        VReg { bytes: vec![0; width] }
    }

    /// The number of `t` elements the register holds (`GetVRegSize() / sizeof(T)`).
    pub fn lanes(&self, t: DType) -> usize {
        self.bytes.len() / t.size()
    }

    pub fn get(&self, t: DType, i: usize) -> u64 {
        t.load_bits(&self.bytes[i * t.size()..])
    }

    pub fn set(&mut self, t: DType, i: usize, bits: u64) {
        let n = t.size();
        t.store_bits(&mut self.bytes[i * n..(i + 1) * n], bits);
    }
}

/// The registers of one core: vector registers and mask registers, each of the chip's width.
#[derive(Clone, Debug)]
pub struct RegFile {
    width: usize,
    vregs: Vec<VReg>,
    masks: Vec<MaskReg>,
    /// the AR special register (Squeeze / StoreUnAlign / ClearSpr / GetSpr, spr.rs)
    pub ar: crate::vector::reg::spr::Ar,
    /// the CTRL special register (GetCtrlSpr / SetCtrlSpr / ResetCtrlSpr, ctrl.rs): Cast's saturation
    pub ctrl: u64,
}

impl RegFile {
    /// A register file whose vector registers hold `width` bytes (the chip's `vector_register_bytes`).
    pub fn new(width: usize) -> RegFile {
        RegFile {
            width,
            vregs: Vec::new(),
            masks: Vec::new(),
            ar: Default::default(),
            ctrl: crate::vector::reg::ctrl::START,
        }
    }

    /// `GetVRegSize()`: the bytes of one vector register.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Vector register `id`, created zeroed on first use.
    pub fn vreg(&mut self, id: usize) -> &mut VReg {
        if self.vregs.len() <= id {
            self.vregs.resize(id + 1, VReg::zeroed(self.width));
        }
        &mut self.vregs[id]
    }

    /// Mask register `id`, created all-false on first use.
    pub fn mask(&mut self, id: usize) -> &mut MaskReg {
        if self.masks.len() <= id {
            self.masks.resize(id + 1, MaskReg::none(self.width));
        }
        &mut self.masks[id]
    }

    /// Copies of vector registers `ids` (the sources of an instruction that may also write one of them).
    pub fn read(&mut self, ids: &[usize]) -> Vec<VReg> {
        ids.iter().map(|&id| self.vreg(id).clone()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registers_are_created_zeroed_at_the_file_width() {
        let mut file = RegFile::new(256);
        assert_eq!(file.width(), 256);
        assert_eq!(file.vreg(3).bytes, vec![0; 256]);
        assert_eq!(file.vreg(3).lanes(DType::F32), 64);
        assert_eq!(file.vreg(3).lanes(DType::F16), 128);
        assert!(!file.mask(1).active(DType::F32, 0));
        file.vreg(0).set(DType::F32, 63, 1.5f32.to_bits() as u64);
        assert_eq!(file.read(&[0])[0].get(DType::F32, 63), 1.5f32.to_bits() as u64);
    }
}
