//! Memories: GM (the numpy buffers Python hands in, shared by every core) and each core's local memories
//! (UB, L1, L0A, L0B, L0C, BT, FB) as byte arrays of the chip file's sizes, with a shadow byte per byte that
//! says whether it was ever written (1) or not (0).
//!
//! A handle (GM pointer, GlobalTensor, LocalTensor) is a memory, a byte address and a byte length: element
//! types belong to instructions, not to the bytes.

use std::fmt;

/// A core-local memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MemKind {
    Ub = 0,
    L1 = 1,
    L0a = 2,
    L0b = 3,
    L0c = 4,
    Bt = 5,
    Fb = 6,
}

pub const MEM_KINDS: usize = 7;

impl MemKind {
    pub fn parse(name: &str) -> Option<MemKind> {
        Some(match name {
            "UB" => MemKind::Ub,
            "L1" => MemKind::L1,
            "L0A" => MemKind::L0a,
            "L0B" => MemKind::L0b,
            "L0C" => MemKind::L0c,
            "BT" => MemKind::Bt,
            "FB" => MemKind::Fb,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            MemKind::Ub => "UB",
            MemKind::L1 => "L1",
            MemKind::L0a => "L0A",
            MemKind::L0b => "L0B",
            MemKind::L0c => "L0C",
            MemKind::Bt => "BT",
            MemKind::Fb => "FB",
        }
    }

    pub fn all() -> [MemKind; MEM_KINDS] {
        [
            MemKind::Ub,
            MemKind::L1,
            MemKind::L0a,
            MemKind::L0b,
            MemKind::L0c,
            MemKind::Bt,
            MemKind::Fb,
        ]
    }
}

/// Where a handle points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Space {
    /// A GlobalTensor before SetGlobalBuffer, an undefined tensor.
    Null,
    /// GM buffer `i` (a kernel parameter's array, the workspace, the tiling data).
    Gm(u32),
    Local(MemKind),
}

/// A pointer or tensor: `len` bytes from byte `addr` of `space` (`len` < 0: unknown, a bare pointer).
/// `alloc` names the buffer a local tensor came from (0: none), for the live-tensor check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Handle {
    pub space: Space,
    pub addr: i64,
    pub len: i64,
    pub alloc: u32,
}

impl Handle {
    pub const NULL: Handle = Handle {
        space: Space::Null,
        addr: 0,
        len: -1,
        alloc: 0,
    };

    pub fn local(mem: MemKind, addr: i64, len: i64, alloc: u32) -> Handle {
        Handle {
            space: Space::Local(mem),
            addr,
            len,
            alloc,
        }
    }

    /// The same memory from `bytes` further on.
    pub fn offset(self, bytes: i64) -> Handle {
        Handle {
            addr: self.addr.wrapping_add(bytes),
            len: if self.len < 0 { -1 } else { self.len - bytes },
            ..self
        }
    }
}

impl fmt::Display for Handle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.space {
            Space::Null => write!(f, "null"),
            Space::Gm(i) => write!(f, "gm{}+{}", i, self.addr),
            Space::Local(m) => write!(f, "{}@{}", m.name(), self.addr),
        }
    }
}

/// Byte storage aligned to 8 bytes, so typed views of aligned addresses are valid.
pub struct Bytes {
    words: Vec<u64>,
    len: usize,
}

impl Bytes {
    pub fn zeroed(len: usize) -> Bytes {
        Bytes {
            words: vec![0u64; len.div_ceil(8)],
            len,
        }
    }

    #[inline]
    pub fn as_slice(&self) -> &[u8] {
        // SAFETY: the words hold at least `len` initialised bytes; u8 has no alignment requirement
        unsafe { std::slice::from_raw_parts(self.words.as_ptr() as *const u8, self.len) }
    }

    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [u8] {
        // SAFETY: as above, and the borrow is unique
        unsafe { std::slice::from_raw_parts_mut(self.words.as_mut_ptr() as *mut u8, self.len) }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn clear(&mut self) {
        self.words.fill(0);
    }
}

/// One core-local memory: its bytes and which of them were ever written.
pub struct LocalMem {
    pub data: Bytes,
    pub init: Vec<u8>,
}

impl LocalMem {
    pub fn new(size: usize) -> LocalMem {
        LocalMem {
            data: Bytes::zeroed(size),
            init: vec![0u8; size],
        }
    }

    pub fn size(&self) -> usize {
        self.data.len()
    }

    pub fn reset(&mut self) {
        self.data.clear();
        self.init.fill(0);
    }
}

/// What a GM buffer is, for messages and for which checks apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GmRole {
    Input,
    /// an input the op updates in place (declared so: writes into it are expected)
    InPlace,
    Output,
    Workspace,
    Tiling,
}

/// One GM buffer: a numpy array's bytes (borrowed for the run), and for outputs and the workspace, which bytes
/// hold data a core wrote (1), data copied from memory never written (2), or nothing yet (0). The buffer is the
/// tensor's allocation: its first `tensor_len` bytes are the tensor, the rest the padding the framework allocates
/// after it (torch_npu: the size plus 32 bytes, rounded up to 512), which holds nothing of the tensor's.
pub struct GmBuf {
    pub name: String,
    pub role: GmRole,
    ptr: *mut u8,
    len: usize,
    tensor_len: usize,
    /// None: the tensor's bytes are initialised and the padding after it is not (inputs; made on the first
    /// write into one, so that reading a large input costs no shadow)
    pub init: Option<Vec<u8>>,

    /// Some(j): a kernel parameter with no memory of its own that addresses buffer j's (the second parameter of
    /// a ref tensor, which the op lists as an input and an output of one name: one memory on the device)
    pub alias: Option<u32>,
}

// SAFETY: a GmBuf is only touched by the thread running the simulation, which holds the numpy arrays'
// read-write borrows (or owns the memory, in tests) for as long as the Gm lives.
unsafe impl Send for GmBuf {}

impl GmBuf {
    /// # Safety
    /// `ptr` must be valid for reads and writes of `len` bytes for the whole life of this GmBuf, and nothing
    /// else may access that memory meanwhile.
    pub unsafe fn from_raw(name: String, role: GmRole, ptr: *mut u8, len: usize) -> GmBuf {
        let init = match role {
            GmRole::Input | GmRole::InPlace | GmRole::Tiling => None,
            GmRole::Output | GmRole::Workspace => Some(vec![0u8; len]),
        };
        GmBuf {
            name,
            role,
            ptr,
            len,
            tensor_len: len,
            init,
            alias: None,
        }
    }

    /// A parameter that addresses buffer `target`'s memory (see `alias`); it holds nothing itself.
    pub fn alias_of(name: String, target: u32) -> GmBuf {
        // SAFETY: an empty buffer is never read or written
        let mut buf = unsafe { GmBuf::from_raw(name, GmRole::InPlace, std::ptr::null_mut(), 0) };
        buf.alias = Some(target);
        buf
    }

    /// The same buffer with only its first `n` bytes the tensor: the rest is padding, never initialised.
    pub fn with_tensor_len(mut self, n: usize) -> GmBuf {
        self.tensor_len = n.min(self.len);
        self
    }

    /// Whether every byte of `[at, at + n)` was initialised (written, or an input's own).
    pub fn all_init(&self, at: usize, n: usize) -> bool {
        match &self.init {
            Some(sh) => all_ones(&sh[at..at + n]),
            None => at + n <= self.tensor_len,
        }
    }

    /// The initialised-ness of `[at, at + out.len())` into `out`: 1 where written (or an input's own), else 0.
    pub fn init_flags(&self, at: usize, out: &mut [u8]) {
        match &self.init {
            Some(sh) => {
                let n = out.len();
                for (o, &b) in out.iter_mut().zip(&sh[at..at + n]) {
                    *o = (b == 1) as u8;
                }
            }
            None => {
                let inside = self.tensor_len.saturating_sub(at).min(out.len());
                out[..inside].fill(1);
                out[inside..].fill(0);
            }
        }
    }

    /// The shadow for a write: None for an input with no padding (every byte stays initialised), else the
    /// shadow, made for an input with padding on its first write.
    pub fn shadow_for_write(&mut self) -> Option<&mut [u8]> {
        if self.init.is_none() && self.tensor_len < self.len {
            let mut init = vec![1u8; self.len];
            init[self.tensor_len..].fill(0);
            self.init = Some(init);
        }
        self.init.as_deref_mut()
    }

    /// The bytes of the tensor (the buffer less its padding).
    pub fn tensor_len(&self) -> usize {
        self.tensor_len
    }

    #[inline]
    pub fn bytes(&self) -> &[u8] {
        if self.len == 0 {
            return &[];
        }
        // SAFETY: guaranteed by from_raw's contract
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }

    #[inline]
    pub fn bytes_mut(&mut self) -> &mut [u8] {
        if self.len == 0 {
            return &mut [];
        }
        // SAFETY: guaranteed by from_raw's contract; &mut self makes the borrow unique
        unsafe { std::slice::from_raw_parts_mut(self.ptr, self.len) }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// The GM of one run.
pub struct Gm {
    pub bufs: Vec<GmBuf>,
}

/// Owned memory for GM buffers in Rust tests and for buffers Python does not hand in.
pub struct OwnedBuf {
    pub data: Vec<u8>,
}

impl OwnedBuf {
    pub fn new(data: Vec<u8>) -> OwnedBuf {
        OwnedBuf { data }
    }

    /// A GmBuf over this memory.
    ///
    /// # Safety
    /// The OwnedBuf must outlive the GmBuf and not be touched while the GmBuf is in use.
    pub unsafe fn gm(&mut self, name: &str, role: GmRole) -> GmBuf {
        GmBuf::from_raw(name.to_string(), role, self.data.as_mut_ptr(), self.data.len())
    }
}

/// Whether every byte of `flags` is 1 (a shadow range all written); a branch-free fold per 64 bytes, which
/// vectorises, where a short-circuiting `all` goes byte by byte.
#[inline]
pub fn all_ones(flags: &[u8]) -> bool {
    let mut chunks = flags.chunks_exact(64);
    for c in &mut chunks {
        if c.iter().fold(0u8, |acc, &b| acc | (b ^ 1)) != 0 {
            return false;
        }
    }
    chunks.remainder().iter().all(|&b| b == 1)
}

/// Whether `[start, start + len)` lies inside `[0, size)`.
#[inline]
pub fn in_bounds(start: i64, len: i64, size: usize) -> bool {
    start >= 0 && len >= 0 && start.checked_add(len).is_some_and(|end| end as u64 <= size as u64)
}

/// Where GM buffers sit in the device address space the kernel sees when it turns a pointer into an integer
/// or back (a tensor list's pointer table holds such integers): buffer `b` starts at
/// `GM_ADDRESS_BASE + b * GM_ADDRESS_STRIDE`. Python lays the tables out with the same numbers
/// (passes/sim/tensor_list.py); an address no buffer holds is no pointer.
pub const GM_ADDRESS_BASE: u64 = 0x1000_0000_0000;
pub const GM_ADDRESS_STRIDE: u64 = 1 << 36;

/// The integer value of a pointer `addr` bytes into GM buffer `buf`.
pub fn gm_address(buf: u32, addr: i64) -> u64 {
    GM_ADDRESS_BASE
        .wrapping_add((buf as u64).wrapping_mul(GM_ADDRESS_STRIDE))
        .wrapping_add(addr as u64)
}

/// The GM buffer and byte offset an integer address points into, if it is inside one of `gm`'s buffers
/// (up to its end, one past the last byte included, as C allows).
pub fn gm_buffer_of(value: u64, gm: &Gm) -> Option<(u32, i64)> {
    let rel = value.checked_sub(GM_ADDRESS_BASE)?;
    let buf = usize::try_from(rel / GM_ADDRESS_STRIDE).ok()?;
    let addr = rel % GM_ADDRESS_STRIDE;
    let len = gm.bufs.get(buf)?.len();
    (addr <= len as u64).then_some((buf as u32, addr as i64))
}
