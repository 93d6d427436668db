//! gvlstress-native: the built-in loader that gvlstress stresses.
//!
//! It behaves like a real genomics loader (genvarloader is the model): from a seed it builds a
//! synthetic reference and per-sample phased variants; every batch reconstructs haplotype
//! sequences for random regions with `par_iter` on rayon's *global* pool (sized by
//! `RAYON_NUM_THREADS`, as genvarloader's is), with the GIL released around the parallel region,
//! and returns the sequences to Python as one `bytes`.
//!
//! Fault modes make it misbehave on purpose, so the harness can prove it catches each failure
//! class (a positive control). Each mode fires on a batch with probability `fault_rate`: 1.0 is
//! the deterministic setting for tests, a small rate makes the fault arrive after a random number
//! of batches, as hangs do in the wild. New modes slot into [`Fault`] and [`Loader::run_batch`].

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use rayon::prelude::*;
use std::fs::OpenOptions;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::sync_channel;
use std::sync::{Arc, Barrier, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// The ways a batch can misbehave. `None` is the healthy loader.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fault {
    None,
    /// The caller holds a mutex across `par_iter` and every job locks it: a deadlock.
    LockAcrossParIter,
    /// Every armed batch keeps the pool busy for `slow_ms`: slow, never a hang.
    Slow,
    /// Every pool thread blocks sending into a rendezvous channel whose consumer is a job queued
    /// on the same pool, behind them: rayon pool exhaustion.
    PoolExhaustion,
    /// Every 16th job locks A then B, every 16th + 8 B then A, `window_us` between: a race.
    LockOrder,
    /// The parallel call keeps the GIL and some jobs call back into Python.
    GilHeld,
    /// Healthy batches; the fault is the setup: the pool is started, then the process forks.
    ForkAfterInit,
    /// Jobs spin on a flag nobody sets: CPU burns, no progress (livelock).
    Spin,
    /// The caller keeps the GIL and busy-waits for jobs it spawned on the pool, which call back
    /// into Python and so wait for the GIL: the GIL's holder spins for threads that wait for it
    /// (DuckDB's task executor with a Python filesystem: duckdb#16501).
    GilSpin,
    /// A job aborts the process.
    Crash,
    /// Instances built concurrently at start-up race on a counter; a batch that draws an
    /// instance the race left uninitialised raises (an error, not a hang).
    InitRace,
}

impl Fault {
    const ALL: [(&'static str, Fault); 11] = [
        ("none", Fault::None),
        ("lock_across_par_iter", Fault::LockAcrossParIter),
        ("slow", Fault::Slow),
        ("pool_exhaustion", Fault::PoolExhaustion),
        ("lock_order", Fault::LockOrder),
        ("gil_held", Fault::GilHeld),
        ("fork_after_init", Fault::ForkAfterInit),
        ("spin", Fault::Spin),
        ("gil_spin", Fault::GilSpin),
        ("crash", Fault::Crash),
        ("init_race", Fault::InitRace),
    ];

    fn parse(name: &str) -> Result<Fault, String> {
        Self::ALL
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, f)| *f)
            .ok_or_else(|| {
                let known: Vec<&str> = Self::ALL.iter().map(|(n, _)| *n).collect();
                format!("unknown fault mode {name:?}; known: {}", known.join(", "))
            })
    }

    fn name(self) -> &'static str {
        Self::ALL.iter().find(|(_, f)| *f == self).map(|(n, _)| *n).unwrap_or("none")
    }

    /// Modes after which the process never makes progress again (lock_order only when the
    /// race is lost; fork_after_init only when the pool was started before a fork).
    fn hangs(self) -> bool {
        matches!(
            self,
            Fault::LockAcrossParIter
                | Fault::PoolExhaustion
                | Fault::LockOrder
                | Fault::GilHeld
                | Fault::GilSpin
                | Fault::ForkAfterInit
                | Fault::Spin
        )
    }
}

/// splitmix64: a tiny, seedable generator, so a seed fully determines the data and fault draws.
#[derive(Clone, Debug)]
struct Rng(u64);

impl Rng {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }
    fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn base(&mut self) -> u8 {
        b"ACGT"[self.below(4) as usize]
    }
}

#[derive(Clone, Debug)]
enum Edit {
    Snp(u8),
    /// Deletes this many reference bases after the anchor base.
    Del(u32),
    /// Inserts these bases after the anchor base.
    Ins(Vec<u8>),
}

#[derive(Clone, Debug)]
struct Variant {
    pos: u32,
    edit: Edit,
}

/// One region of one haplotype of one sample: the unit of parallel work.
#[derive(Clone, Copy, Debug)]
struct Job {
    sample: usize,
    hap: usize,
    start: u32,
    reverse: bool,
}

struct Genome {
    reference: Vec<u8>,
    /// `haps[sample][hap]`: sorted, non-overlapping variants.
    haps: Vec<[Vec<Variant>; 2]>,
}

impl Genome {
    fn synthesize(rng: &mut Rng, ref_len: usize, samples: usize, variants_per_hap: usize) -> Self {
        let reference: Vec<u8> = (0..ref_len).map(|_| rng.base()).collect();
        let spacing = (ref_len / variants_per_hap.max(1)).max(12) as u64;
        let mut haps = Vec::with_capacity(samples);
        for _ in 0..samples {
            let mut pair: [Vec<Variant>; 2] = [Vec::new(), Vec::new()];
            for hap in pair.iter_mut() {
                let mut pos: u64 = rng.below(spacing);
                while (pos as usize) + 12 < ref_len {
                    let roll = rng.below(10);
                    let edit = if roll < 8 {
                        let mut alt = rng.base();
                        while alt == reference[pos as usize] {
                            alt = rng.base();
                        }
                        Edit::Snp(alt)
                    } else if roll == 8 {
                        Edit::Del(1 + rng.below(6) as u32)
                    } else {
                        Edit::Ins((0..1 + rng.below(6)).map(|_| rng.base()).collect())
                    };
                    hap.push(Variant { pos: pos as u32, edit });
                    // Spacing >= 10 keeps variants non-overlapping (deletions are <= 6 bases).
                    pos += 10 + rng.below(2 * spacing);
                }
            }
            haps.push(pair);
        }
        Genome { reference, haps }
    }

    /// Reconstructs `len` bases of a haplotype starting at reference position `job.start`.
    fn reconstruct(&self, job: &Job, len: usize) -> Vec<u8> {
        let variants = &self.haps[job.sample][job.hap];
        let mut out = Vec::with_capacity(len);
        let mut pos = job.start as usize;
        let mut next = variants.partition_point(|v| (v.pos as usize) < pos);
        while out.len() < len && pos < self.reference.len() {
            match variants.get(next) {
                Some(v) if v.pos as usize == pos => {
                    match &v.edit {
                        Edit::Snp(alt) => {
                            out.push(*alt);
                            pos += 1;
                        }
                        Edit::Del(n) => {
                            out.push(self.reference[pos]);
                            pos += 1 + *n as usize;
                        }
                        Edit::Ins(bases) => {
                            out.push(self.reference[pos]);
                            out.extend_from_slice(bases);
                            pos += 1;
                        }
                    }
                    next += 1;
                }
                _ => {
                    out.push(self.reference[pos]);
                    pos += 1;
                }
            }
        }
        out.resize(len, b'N');
        if job.reverse {
            out.reverse();
            for b in out.iter_mut() {
                *b = match *b {
                    b'A' => b'T',
                    b'C' => b'G',
                    b'G' => b'C',
                    b'T' => b'A',
                    other => other,
                };
            }
        }
        out
    }
}

/// Busy-waits `us` microseconds (a critical-section window that preemption can widen).
fn spin_for(us: u64) {
    if us == 0 {
        return;
    }
    let end = Instant::now() + Duration::from_micros(us);
    while Instant::now() < end {
        std::hint::spin_loop();
    }
}

/// Keeps one pool thread busy until `deadline`, doing arithmetic the optimiser cannot drop.
fn burn_until(deadline: Instant, seed: u64) -> u64 {
    let mut rng = Rng(seed);
    let mut acc = 0u64;
    while Instant::now() < deadline {
        for _ in 0..4096 {
            acc = acc.wrapping_add(rng.next_u64());
        }
    }
    std::hint::black_box(acc)
}

fn now_epoch() -> f64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs_f64()).unwrap_or(0.0)
}

const INSTANCES: usize = 8;

/// Builds `n` instance slots in parallel with a check-then-act race on the slot counter (load,
/// window, store instead of fetch_add): two builders that read the same index overwrite one
/// slot and leave a later one at 0. A wider `window_us` makes losing the race likelier.
fn race_init(n: usize, seed: u64, window_us: u64) -> Vec<u64> {
    let next = AtomicUsize::new(0);
    let slots: Vec<AtomicU64> = (0..n).map(|_| AtomicU64::new(0)).collect();
    (0..n).into_par_iter().for_each(|i| {
        let idx = next.load(Ordering::SeqCst);
        spin_for(window_us);
        next.store(idx + 1, Ordering::SeqCst);
        if let Some(slot) = slots.get(idx) {
            slot.store(seed.wrapping_add(i as u64) | 1, Ordering::SeqCst);
        }
    });
    slots.into_iter().map(AtomicU64::into_inner).collect()
}

/// A synthetic loader. Each `next_batch` call is one batch of `batch_size` jobs.
#[pyclass(module = "gvlstress_native._native")]
struct Loader {
    genome: Genome,
    rng: Rng,
    region_len: usize,
    batch_size: usize,
    fault: Fault,
    fault_rate: f64,
    slow_ms: u64,
    fault_log: Option<String>,
    batches: u64,
    /// The mutex `lock_across_par_iter` holds across the parallel region.
    lock: Mutex<()>,
    /// The second lock of `lock_order`.
    lock_b: Mutex<()>,
    window_us: u64,
    /// `init_race`: instance slots filled concurrently at start-up; 0 = never initialised.
    instances: Vec<u64>,
}

impl Loader {
    fn draw_jobs(&mut self) -> Vec<Job> {
        let samples = self.genome.haps.len();
        let span = self.genome.reference.len().saturating_sub(self.region_len).max(1) as u64;
        (0..self.batch_size)
            .map(|_| Job {
                sample: self.rng.below(samples as u64) as usize,
                hap: self.rng.below(2) as usize,
                start: self.rng.below(span) as u32,
                reverse: self.rng.below(2) == 1,
            })
            .collect()
    }

    /// Records when an armed fault starts, so benchmarks can time detection from the real onset.
    fn log_fault(&self) {
        if let Some(path) = &self.fault_log {
            if let Ok(mut f) = OpenOptions::new().create(true).append(true).open(path) {
                let _ = writeln!(
                    f,
                    "{} {:.6} {} {}",
                    std::process::id(),
                    now_epoch(),
                    self.fault.name(),
                    self.batches
                );
            }
        }
    }

    /// Runs one batch on the global pool; called with the GIL released (except `gil_held`).
    fn run_batch(&self, jobs: &[Job], armed: bool) -> Vec<u8> {
        let len = self.region_len;
        let genome = &self.genome;
        let parts: Vec<Vec<u8>> = match (self.fault, armed) {
            (Fault::PoolExhaustion, true) => {
                let threads = rayon::current_num_threads().min(jobs.len()).max(1);
                let all_in = Barrier::new(threads);
                let (tx, rx) = sync_channel::<Vec<u8>>(0);
                let rx = Mutex::new(Some(rx));
                jobs.par_iter().for_each(|job| {
                    // Every pool thread is inside a producer job before anyone sends.
                    if all_in.wait().is_leader() {
                        if let Some(rx) = rx.lock().unwrap_or_else(|e| e.into_inner()).take() {
                            // The consumer lands on this thread's deque, behind its blocked job.
                            rayon::spawn(move || for _ in rx {});
                        }
                    }
                    let _ = tx.send(genome.reconstruct(job, len));
                });
                Vec::new()
            }
            (Fault::LockOrder, true) => {
                // Every 16th job takes A then B, every 16th + 8 takes B then A, spread through the
                // batch and over the pool. Two of them deadlock only if both are inside their
                // two-lock window at the same moment: rare, unless a thread is preempted there,
                // which oversubscription makes likelier. No injected randomness.
                jobs.par_iter()
                    .enumerate()
                    .map(|(i, job)| {
                        let order = match i % 16 {
                            0 => Some((&self.lock, &self.lock_b)),
                            8 => Some((&self.lock_b, &self.lock)),
                            _ => None,
                        };
                        if let Some((first, second)) = order {
                            let _a = first.lock().unwrap_or_else(|e| e.into_inner());
                            spin_for(self.window_us);
                            let _b = second.lock().unwrap_or_else(|e| e.into_inner());
                            return genome.reconstruct(job, len);
                        }
                        genome.reconstruct(job, len)
                    })
                    .collect()
            }
            (Fault::GilHeld, true) => jobs
                .par_iter()
                .enumerate()
                .map(|(i, job)| {
                    if i % 8 == 0 {
                        // A callback into Python (a progress hook, a logger): needs the GIL.
                        Python::attach(|py| py.None());
                    }
                    genome.reconstruct(job, len)
                })
                .collect(),
            (Fault::GilSpin, true) => {
                let left = Arc::new(AtomicUsize::new(jobs.len().clamp(1, 8)));
                for _ in 0..left.load(Ordering::Relaxed) {
                    let left = Arc::clone(&left);
                    rayon::spawn(move || {
                        // A callback into Python (a registered filesystem's open): needs the GIL.
                        Python::attach(|py| py.None());
                        left.fetch_sub(1, Ordering::Release);
                    });
                }
                while left.load(Ordering::Acquire) > 0 {
                    std::hint::spin_loop(); // the bug: waits for the jobs with the GIL held
                }
                jobs.iter().map(|job| genome.reconstruct(job, len)).collect()
            }
            (Fault::Spin, true) => {
                let never = AtomicBool::new(false);
                jobs.par_iter()
                    .map(|job| {
                        while !never.load(Ordering::Acquire) {
                            std::hint::spin_loop();
                        }
                        genome.reconstruct(job, len)
                    })
                    .collect()
            }
            (Fault::Crash, true) => jobs
                .par_iter()
                .enumerate()
                .map(|(i, job)| {
                    if i == jobs.len() / 2 {
                        std::process::abort();
                    }
                    genome.reconstruct(job, len)
                })
                .collect(),
            (Fault::LockAcrossParIter, true) => {
                let _held = self.lock.lock().unwrap_or_else(|e| e.into_inner());
                jobs.par_iter()
                    .map(|job| {
                        let _inner = self.lock.lock().unwrap_or_else(|e| e.into_inner());
                        genome.reconstruct(job, len)
                    })
                    .collect()
            }
            (Fault::Slow, true) => {
                let deadline = Instant::now() + Duration::from_millis(self.slow_ms);
                jobs.par_iter()
                    .enumerate()
                    .map(|(i, job)| {
                        let seq = genome.reconstruct(job, len);
                        burn_until(deadline, i as u64);
                        seq
                    })
                    .collect()
            }
            _ => jobs.par_iter().map(|job| genome.reconstruct(job, len)).collect(),
        };
        parts.concat()
    }
}

#[pymethods]
impl Loader {
    #[new]
    #[pyo3(signature = (seed=0, samples=8, ref_len=1_000_000, region_len=16_384, batch_size=128,
                        fault="none", fault_rate=0.0, slow_ms=1500, fault_log=None, window_us=0))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        seed: u64,
        samples: usize,
        ref_len: usize,
        region_len: usize,
        batch_size: usize,
        fault: &str,
        fault_rate: f64,
        slow_ms: u64,
        fault_log: Option<String>,
        window_us: u64,
    ) -> PyResult<Self> {
        let fault = Fault::parse(fault).map_err(PyValueError::new_err)?;
        if !(0.0..=1.0).contains(&fault_rate) {
            return Err(PyValueError::new_err(format!("fault_rate must be in [0, 1], got {fault_rate}")));
        }
        if samples == 0 || batch_size == 0 || region_len == 0 || ref_len < region_len + 16 {
            return Err(PyValueError::new_err(
                "need samples >= 1, batch_size >= 1, region_len >= 1 and ref_len > region_len + 16",
            ));
        }
        let mut rng = Rng(seed);
        let genome = py.detach(|| Genome::synthesize(&mut rng, ref_len, samples, ref_len / 50));
        let instances = if fault == Fault::InitRace {
            py.detach(|| race_init(INSTANCES, seed, window_us))
        } else {
            Vec::new()
        };
        Ok(Loader {
            genome,
            rng,
            region_len,
            batch_size,
            fault,
            fault_rate,
            slow_ms,
            fault_log,
            batches: 0,
            lock: Mutex::new(()),
            lock_b: Mutex::new(()),
            window_us,
            instances,
        })
    }

    /// Reconstructs one batch in parallel (GIL released) and returns the concatenated sequences.
    fn next_batch<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let jobs = self.draw_jobs();
        let armed = self.fault != Fault::None && self.rng.unit() < self.fault_rate;
        if armed && self.fault.hangs() {
            self.log_fault();
        }
        if armed && self.fault == Fault::InitRace {
            let slot = self.rng.below(self.instances.len() as u64) as usize;
            if self.instances[slot] == 0 {
                return Err(PyRuntimeError::new_err(format!(
                    "loader instance {slot} was never initialised (lost a concurrent-init race)"
                )));
            }
        }
        let this = &*self;
        let data = if armed && matches!(self.fault, Fault::GilHeld | Fault::GilSpin) {
            this.run_batch(&jobs, armed) // the bug: no detach, the GIL stays held
        } else {
            py.detach(|| this.run_batch(&jobs, armed))
        };
        self.batches += 1;
        Ok(PyBytes::new(py, &data))
    }

    /// How many `init_race` instance slots were left uninitialised by the start-up race.
    #[getter]
    fn poisoned_instances(&self) -> usize {
        self.instances.iter().filter(|v| **v == 0).count()
    }

    /// Batches completed so far.
    #[getter]
    fn batches(&self) -> u64 {
        self.batches
    }

    /// The configured fault mode's name.
    #[getter]
    fn fault(&self) -> &'static str {
        self.fault.name()
    }

    /// Bytes one batch returns.
    #[getter]
    fn batch_bytes(&self) -> usize {
        self.region_len * self.batch_size
    }
}

/// A background thread that waits for work until told to stop, as a loader's prefetcher or I/O
/// thread does. Dropping it joins the thread; with `stop_on_drop=False` the drop forgets to tell
/// it to stop first, so the join never returns. A `Prefetcher` still alive when the interpreter
/// exits is dropped inside `Py_FinalizeEx`, with no Python frame left on the main thread: the
/// exit-time hang of a native destructor (and, with the default, its healthy control).
#[pyclass(module = "gvlstress_native._native")]
struct Prefetcher {
    stop: Arc<(Mutex<bool>, Condvar)>,
    worker: Option<JoinHandle<()>>,
    stop_on_drop: bool,
}

#[pymethods]
impl Prefetcher {
    #[new]
    #[pyo3(signature = (stop_on_drop=true))]
    fn new(stop_on_drop: bool) -> Self {
        let stop = Arc::new((Mutex::new(false), Condvar::new()));
        let theirs = Arc::clone(&stop);
        let worker = std::thread::Builder::new()
            .name("prefetch".into())
            .spawn(move || {
                let (flag, cv) = &*theirs;
                let mut stopped = flag.lock().unwrap_or_else(|e| e.into_inner());
                while !*stopped {
                    stopped = cv.wait(stopped).unwrap_or_else(|e| e.into_inner());
                }
            })
            .ok();
        Prefetcher { stop, worker, stop_on_drop }
    }

    /// Whether the prefetch thread is still alive.
    #[getter]
    fn running(&self) -> bool {
        self.worker.as_ref().is_some_and(|w| !w.is_finished())
    }
}

impl Drop for Prefetcher {
    fn drop(&mut self) {
        if self.stop_on_drop {
            let (flag, cv) = &*self.stop;
            *flag.lock().unwrap_or_else(|e| e.into_inner()) = true;
            cv.notify_all();
        }
        if let Some(w) = self.worker.take() {
            let _ = w.join();
        }
    }
}

/// Threads in rayon's global pool (builds the pool if it does not exist yet).
#[pyfunction]
fn current_num_threads() -> usize {
    rayon::current_num_threads()
}

/// Names of every fault mode this build knows.
#[pyfunction]
fn fault_modes() -> Vec<&'static str> {
    Fault::ALL.iter().map(|(n, _)| *n).collect()
}

/// Fault modes that leave the process hung once they fire.
#[pyfunction]
fn hanging_fault_modes() -> Vec<&'static str> {
    Fault::ALL.iter().filter(|(_, f)| f.hangs()).map(|(n, _)| *n).collect()
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Loader>()?;
    m.add_class::<Prefetcher>()?;
    m.add_function(wrap_pyfunction!(current_num_threads, m)?)?;
    m.add_function(wrap_pyfunction!(fault_modes, m)?)?;
    m.add_function(wrap_pyfunction!(hanging_fault_modes, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
