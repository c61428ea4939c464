//! The timing model's numbers: one chip's clock, pipe throughputs, DMA bandwidths and latencies.
//!
//! Python reads them from the chip file (`ascendir/chips/data/*.toml`: the `[throughput]`, `[latency]`,
//! `[bandwidth]`, `[bandwidth_measured]` and `[timing]` tables, whose comments give each number's source) and
//! passes them as `table.key = value` pairs and measured curves; a key not given keeps the default here, which
//! is the 910B2's value from the same file, so Rust tests need no Python.

use std::collections::HashMap;

/// Where a copy's bytes come from or go to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Place {
    #[default]
    Unknown,
    Gm,
    Ub,
    L1,
    L0a,
    L0b,
    L0c,
    Bt,
    Fb,
}

impl Place {
    pub fn key(self) -> &'static str {
        match self {
            Place::Unknown => "?",
            Place::Gm => "gm",
            Place::Ub => "ub",
            Place::L1 => "l1",
            Place::L0a => "l0a",
            Place::L0b => "l0b",
            Place::L0c => "l0c",
            Place::Bt => "bt",
            Place::Fb => "fb",
        }
    }

    pub const ALL: [Place; 9] = [
        Place::Unknown,
        Place::Gm,
        Place::Ub,
        Place::L1,
        Place::L0a,
        Place::L0b,
        Place::L0c,
        Place::Bt,
        Place::Fb,
    ];
}

/// A route's cost: a fixed latency, a peak width and, where measured, effective bandwidth by transfer size.
#[derive(Clone, Debug, PartialEq)]
pub struct Route {
    /// cycles before the first byte arrives (GM side: the measured small-transfer time)
    pub latency: f64,
    /// bytes per cycle at best (the port width)
    pub peak: f64,
    /// (bytes, bytes per cycle) measured points, sorted by size; flat after the last one
    pub measured: Vec<(f64, f64)>,
    /// whether the copy reads or writes GM, and so shares the HBM bandwidth with the other cores
    pub gm: bool,
    /// false when the chip file gives no width for this route (a default width is used)
    pub known: bool,
}

impl Route {
    /// Cycles to move `bytes` with the whole bandwidth to itself: never faster than the latency plus the
    /// bytes at the port width, nor than the measured effective bandwidth at that size allows.
    pub fn cycles(&self, bytes: f64) -> f64 {
        if bytes <= 0.0 {
            return self.latency.max(1.0);
        }
        let floor = self.latency + bytes / self.peak;
        match self.effective(bytes) {
            Some(bw) if bw > 0.0 => floor.max(bytes / bw),
            _ => floor,
        }
    }

    /// The measured effective bandwidth at `bytes`, interpolated linearly in log(size).
    fn effective(&self, bytes: f64) -> Option<f64> {
        let pts = &self.measured;
        let first = pts.first()?;
        if bytes <= first.0 {
            // below the smallest measurement the time is the latency's: bandwidth scales with the size
            return Some(first.1 * bytes / first.0);
        }
        for w in pts.windows(2) {
            let ((s0, b0), (s1, b1)) = (w[0], w[1]);
            if bytes <= s1 {
                let f = (bytes.ln() - s0.ln()) / (s1.ln() - s0.ln());
                return Some(b0 + f * (b1 - b0));
            }
        }
        Some(pts.last()?.1)
    }
}

/// Everything the cost model reads, in cycles and bytes.
#[derive(Clone, Debug)]
pub struct Params {
    pub clock_mhz: f64,
    /// HBM bytes per cycle, shared by every core of the chip
    pub hbm_bytes_per_cycle: f64,
    /// the L2 cache in front of it
    pub l2_bytes: u64,
    /// the scalar unit: cycles per instruction it issues or executes
    pub scalar_cycles: f64,
    /// extra cycles of a scalar GM access that hits / misses the data cache, and of a scalar local access
    pub dcache_hit_cycles: f64,
    pub dcache_miss_cycles: f64,
    pub dcache_bytes: u64,
    pub dcache_line: u64,
    pub scalar_local_cycles: f64,
    /// cycles before a vector instruction's first repeat
    pub vector_startup: f64,
    /// bytes per cycle per vector class (`throughput.vector_*`)
    pub throughput: HashMap<String, f64>,
    pub set_flag_cycles: f64,
    pub barrier_cycles: f64,
    /// cycles before an Mmad's first fractal step
    pub mmad_startup: f64,
    routes: HashMap<(Place, Place), Route>,
    pub default_route: Route,
}

/// What the chip file gives: `table.key` numbers and measured curves (route -> (KiB, GiB/s) points).
#[derive(Clone, Debug, Default)]
pub struct ChipTables {
    pub values: HashMap<String, f64>,
    pub curves: HashMap<String, Vec<(f64, f64)>>,
}

impl ChipTables {
    /// The 910B2 file's numbers (ascendir/chips/data/910B2.toml), for tests and as defaults.
    pub fn b2() -> ChipTables {
        let mut values = HashMap::new();
        for (k, v) in [
            ("clock_mhz", 1800.0),
            ("timing.hbm_gbps", 1600.0),
            ("l2_bytes", 201326592.0),
            ("timing.scalar_cycles", 1.0),
            ("timing.dcache_hit_cycles", 1.0),
            ("timing.dcache_miss_cycles", 230.0),
            ("timing.dcache_bytes", 16384.0),
            ("timing.scalar_local_cycles", 1.0),
            ("timing.vector_startup_cycles", 2.0),
            ("timing.mmad_startup_cycles", 2.87),
            ("timing.pipe_barrier_cycles", 1.0),
            ("timing.local_copy_latency", 0.0),
            ("dcache_line_bytes", 64.0),
            ("throughput.vector_simple", 255.0),
            ("throughput.vector_binary", 128.0),
            ("throughput.vector_exp_ln_sqrt_half", 65.0),
            ("throughput.vector_exp_ln_sqrt_float", 128.0),
            ("throughput.vector_div", 63.0),
            ("throughput.vector_muladd", 42.7),
            ("throughput.vector_whole_reduce_half", 36.5),
            ("throughput.vector_whole_reduce_float", 85.0),
            ("throughput.vector_block_reduce_half", 36.5),
            ("throughput.vector_block_reduce_float", 255.0),
            ("throughput.vector_gather_min", 10.0),
            ("throughput.vector_gather_max", 21.0),
            ("throughput.vector_mrgsort", 15.6),
            ("latency.gm_fixed", 230.0),
            ("latency.set_flag", 1.0),
            ("bandwidth.gm_ub", 128.0),
            ("bandwidth.gm_l1", 256.0),
            ("bandwidth.gm_l0a", 128.0),
            ("bandwidth.gm_l0b", 128.0),
            ("bandwidth.ub_ub", 128.0),
            ("bandwidth.ub_gm", 128.0),
            ("bandwidth.l1_gm", 128.0),
            ("bandwidth.l1_l0a", 256.0),
            ("bandwidth.l1_l0b", 128.0),
            ("bandwidth.l1_bt", 64.0),
            ("bandwidth.l1_fb", 64.0),
            ("bandwidth.l0c_gm", 128.0),
            ("bandwidth.l0c_l1", 256.0),
        ] {
            values.insert(k.to_string(), v);
        }
        let mut curves = HashMap::new();
        for (k, pts) in [
            ("gm_ub", vec![(1.0, 7.3), (4.0, 23.6), (16.0, 68.0), (32.0, 78.0)]),
            ("ub_gm", vec![(1.0, 11.4), (16.0, 86.8), (64.0, 110.0)]),
            ("gm_l1", vec![(1.0, 9.9), (32.0, 147.0), (256.0, 262.0)]),
            ("l1_l0a", vec![(1.0, 437.0)]),
            ("l1_l0b", vec![(1.0, 220.0)]),
            ("l0c_gm", vec![(1.0, 200.0)]),
            ("ub_ub", vec![(1.0, 441.0)]),
        ] {
            curves.insert(k.to_string(), pts);
        }
        ChipTables { values, curves }
    }
}

impl Params {
    /// Parameters from a chip's tables; keys it lacks take the 910B2's values.
    pub fn from_tables(given: &ChipTables) -> Params {
        let base = ChipTables::b2();
        let get = |k: &str| -> f64 {
            given
                .values
                .get(k)
                .or_else(|| base.values.get(k))
                .copied()
                .unwrap_or(0.0)
        };
        let clock_mhz = get("clock_mhz").max(1.0);
        let hbm_bytes_per_cycle = get("timing.hbm_gbps") * 1e9 / (clock_mhz * 1e6);
        // measured GiB/s at KiB sizes -> bytes per cycle at byte sizes, at this chip's clock
        let to_bpc = 1024.0 * 1024.0 * 1024.0 / (clock_mhz * 1e6);
        let gm_latency = get("latency.gm_fixed");
        let local_latency = get("timing.local_copy_latency");
        let mut routes = HashMap::new();
        for &src in &Place::ALL[1..] {
            for &dst in &Place::ALL[1..] {
                let name = format!("{}_{}", src.key(), dst.key());
                let width = given
                    .values
                    .get(&format!("bandwidth.{name}"))
                    .or_else(|| base.values.get(&format!("bandwidth.{name}")));
                // a chip file gives all the curves it has: the 910B2's stand in only for empty tables
                let curves = if given.values.is_empty() && given.curves.is_empty() {
                    &base.curves
                } else {
                    &given.curves
                };
                let curve = curves.get(&name);
                let Some(&peak) = width else { continue };
                let gm = src == Place::Gm || dst == Place::Gm;
                routes.insert(
                    (src, dst),
                    Route {
                        latency: if gm { gm_latency } else { local_latency },
                        peak: peak.max(1e-9),
                        measured: curve
                            .map(|pts| pts.iter().map(|&(kib, gib)| (kib * 1024.0, gib * to_bpc)).collect())
                            .unwrap_or_default(),
                        gm,
                        known: true,
                    },
                );
            }
        }
        let mut throughput = HashMap::new();
        for (k, v) in base.values.iter().chain(given.values.iter()) {
            if let Some(name) = k.strip_prefix("throughput.") {
                throughput.insert(name.to_string(), *v);
            }
        }
        Params {
            clock_mhz,
            hbm_bytes_per_cycle,
            l2_bytes: get("l2_bytes") as u64,
            scalar_cycles: get("timing.scalar_cycles"),
            dcache_hit_cycles: get("timing.dcache_hit_cycles"),
            dcache_miss_cycles: get("timing.dcache_miss_cycles"),
            dcache_bytes: get("timing.dcache_bytes") as u64,
            dcache_line: (get("dcache_line_bytes") as u64).max(1),
            scalar_local_cycles: get("timing.scalar_local_cycles"),
            vector_startup: get("timing.vector_startup_cycles"),
            throughput,
            set_flag_cycles: get("latency.set_flag"),
            barrier_cycles: get("timing.pipe_barrier_cycles"),
            mmad_startup: get("timing.mmad_startup_cycles"),
            routes,
            default_route: Route {
                latency: gm_latency,
                peak: 64.0,
                measured: Vec::new(),
                gm: false,
                known: false,
            },
        }
    }

    /// The route from `src` to `dst`; an unknown one gets a default width (and says so).
    pub fn route(&self, src: Place, dst: Place) -> Route {
        match self.routes.get(&(src, dst)) {
            Some(r) => r.clone(),
            None => {
                let gm = src == Place::Gm || dst == Place::Gm;
                Route {
                    gm,
                    latency: if gm { self.default_route.latency } else { 0.0 },
                    ..self.default_route.clone()
                }
            }
        }
    }

    /// Cycles per 256-byte repeat of a vector class (`throughput.vector_<class>` bytes per cycle).
    pub fn cycles_per_repeat(&self, class: &str) -> f64 {
        match self.throughput.get(class) {
            Some(&bpc) if bpc > 0.0 => 256.0 / bpc,
            _ => 256.0 / 128.0,
        }
    }

    pub fn us(&self, cycles: f64) -> f64 {
        cycles / self.clock_mhz
    }
}

impl Default for Params {
    fn default() -> Self {
        Params::from_tables(&ChipTables::default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gm_to_ub_follows_the_measured_curve_above_the_latency_floor() {
        let p = Params::default();
        let r = p.route(Place::Gm, Place::Ub);
        assert!(r.gm && r.known);
        // 1 KiB: 7.3 GiB/s at 1.8 GHz is 235 cycles, a little over the 230-cycle latency plus 8 cycles at 128 B/c
        let t1 = r.cycles(1024.0);
        assert!((t1 - 238.0).abs() < 1.0, "{t1}");
        // 32 KiB at 78 GiB/s: 32768 / (78 * 2^30 / 1.8e9) = 704 cycles
        let t32 = r.cycles(32768.0);
        assert!((t32 - 704.2).abs() < 1.0, "{t32}");
        // flat after the last point
        assert!((r.cycles(65536.0) - 2.0 * t32).abs() < 1.0);
    }

    #[test]
    fn routes_without_a_width_get_a_default_and_say_so() {
        let p = Params::default();
        assert!(!p.route(Place::Bt, Place::Fb).known);
        assert!(p.route(Place::L1, Place::L0a).known);
    }

    #[test]
    fn hbm_bandwidth_is_per_cycle_of_the_chip_clock() {
        let p = Params::default();
        assert!((p.hbm_bytes_per_cycle - 1600e9 / 1800e6).abs() < 1e-9);
        assert_eq!(p.cycles_per_repeat("vector_binary"), 2.0);
    }
}
