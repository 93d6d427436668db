/* gvldelay: placed delays for workers gvlstress spawns (opt-in: `--delays SEED`).
 *
 * Preloaded (LD_PRELOAD) into a worker only, it interposes the points where native threads
 * hand off to each other and, at a seeded random few of those calls, sleeps a short while
 * before going on: libc `syscall()` for futex waits and wakes (Rust's std and parking_lot park
 * and unpark through it), `sched_yield()` (rayon's idle spin), and `pthread_mutex_lock()`.
 * A delay there widens the window between a check and the wait or wake that depends on it,
 * which is where lost wakeups and lock-order races live. Uncontended Rust locks are inline
 * atomics and never reach these calls: they stay invisible, by construction.
 *
 * Configuration (environment, read once): GVLSTRESS_DELAYS="SEED:PER_MILLION:MAX_US", e.g.
 * "7:3000:400" delays 0.3% of the interposed calls by 1-400 us. Unset or malformed: no delay,
 * every call goes straight through. Counters are readable with gvldelay_stats().
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static long (*real_syscall)(long, ...);
static int (*real_sched_yield)(void);
static int (*real_mutex_lock)(pthread_mutex_t *);

static uint64_t seed;
static uint32_t per_million;
static uint32_t max_us;
static atomic_uint_fast64_t calls, delays, delayed_us;
static __thread uint64_t rng_state;

static void configure(void) __attribute__((constructor));
static void configure(void) {
    real_syscall = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
    real_sched_yield = (int (*)(void))dlsym(RTLD_NEXT, "sched_yield");
    real_mutex_lock = (int (*)(pthread_mutex_t *))dlsym(RTLD_NEXT, "pthread_mutex_lock");
    const char *spec = getenv("GVLSTRESS_DELAYS");
    if (spec == NULL) return;
    char *end;
    unsigned long long s = strtoull(spec, &end, 10);
    if (*end != ':') return;
    unsigned long p = strtoul(end + 1, &end, 10);
    if (*end != ':') return;
    unsigned long m = strtoul(end + 1, &end, 10);
    if (*end != '\0' || p > 1000000 || m == 0 || m > 1000000) return;
    seed = (uint64_t)s;
    max_us = (uint32_t)m;
    per_million = (uint32_t)p; /* set last: a nonzero rate means the rest is valid */
}

/* splitmix64 per thread, seeded by the run's seed and the thread id: replayable per thread. */
static uint64_t next(void) {
    if (rng_state == 0) rng_state = (seed ^ ((uint64_t)gettid() * 0x9E3779B97F4A7C15ULL)) | 1;
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static void maybe_delay(void) {
    if (per_million == 0) return;
    atomic_fetch_add_explicit(&calls, 1, memory_order_relaxed);
    if (next() % 1000000 >= per_million) return;
    uint32_t us = 1 + (uint32_t)(next() % max_us);
    struct timespec ts = {us / 1000000, (long)(us % 1000000) * 1000};
    /* the raw syscall: nanosleep through libc could come back here on some libcs */
    real_syscall(SYS_nanosleep, &ts, NULL);
    atomic_fetch_add_explicit(&delays, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&delayed_us, us, memory_order_relaxed);
}

long syscall(long number, ...) {
    va_list ap;
    va_start(ap, number);
    long a[6];
    for (int i = 0; i < 6; i++) a[i] = va_arg(ap, long);
    va_end(ap);
    if (number == SYS_futex) {
        int cmd = (int)a[1] & FUTEX_CMD_MASK;
        if (cmd == FUTEX_WAIT || cmd == FUTEX_WAKE || cmd == FUTEX_WAIT_BITSET || cmd == FUTEX_WAKE_BITSET)
            maybe_delay();
    }
    return real_syscall(number, a[0], a[1], a[2], a[3], a[4], a[5]);
}

int sched_yield(void) {
    maybe_delay();
    return real_sched_yield();
}

int pthread_mutex_lock(pthread_mutex_t *m) {
    maybe_delay();
    return real_mutex_lock(m);
}

/* What the layer did in this process: interposed calls seen, delays, microseconds delayed. */
void gvldelay_stats(uint64_t out[3]) {
    out[0] = atomic_load(&calls);
    out[1] = atomic_load(&delays);
    out[2] = atomic_load(&delayed_us);
}
