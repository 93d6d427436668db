/* gvldelay: placed delays for workers gvlstress spawns (opt-in: `--delays SEED`).
 *
 * Preloaded (LD_PRELOAD) into a worker only, it interposes the points where native threads
 * hand off to each other and, at a seeded random few of those calls, sleeps a short while
 * before going on: libc `syscall()` for futex waits and wakes (Rust's std and parking_lot park
 * and unpark through it), `sched_yield()` (rayon's idle spin), `pthread_mutex_lock()`, and the
 * blocking waits CPython parks in (`pthread_cond_wait`/`timedwait` for the GIL, `sem_*wait` for
 * its locks). A delay there widens the window between a check and the wait or wake that
 * depends on it, which is where lost wakeups and lock-order races live. Uncontended Rust locks
 * are inline atomics and never reach these calls: they stay invisible, by construction.
 *
 * Placement is learned across waves (as TSVD learns its trap points): every thread records,
 * in a table shared with the harness, the call site of the wait it is blocked in. When a wave
 * hangs, the harness reads where the hung threads wait, and later waves delay calls from near
 * those sites far more often than anywhere else.
 *
 * Configuration (environment, read once at load):
 *   GVLSTRESS_DELAYS="SEED:PER_MILLION:MAX_US"  e.g. "7:3000:400": 0.3% of calls, 1-400 us.
 *   GVLSTRESS_DELAY_SITES="HOT_PER_MILLION:NEAR_BYTES:MODULE+0xOFFSET,..."  the learned sites:
 *       a call whose return address lies within NEAR_BYTES of MODULE's OFFSET is delayed at
 *       HOT_PER_MILLION instead. MODULE is the file's name as /proc/self/maps shows it (symlinks
 *       resolved), OFFSET from the file's first mapping: the harness names sites the same way.
 *   GVLSTRESS_DELAY_TABLE=DIR  the shared table: DIR/<pid>.sites (see `struct table`).
 * Unset or malformed GVLSTRESS_DELAYS: no delay, no table, every call goes straight through.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define NSLOTS 1024
#define MAX_SITES 16
#define CACHE 64

/* The table the harness reads (`gvlstress.supervisor.delays`): a header of counters, then one
 * slot per thread. All fields are 64-bit little-endian words; keep the two sides in step. */
struct slot {
    _Atomic uint64_t tid;     /* 0: free */
    _Atomic uint64_t waiting; /* 1 while the thread is blocked in an interposed wait */
    _Atomic uint64_t ra;      /* the return address of that wait's call (its call site) */
};
struct table {
    char magic[8]; /* "GVLDLY2\0" */
    uint64_t nslots;
    _Atomic uint64_t calls, delays, delayed_us, hot_calls, hot_delays;
    struct slot slots[NSLOTS];
};

struct site { char module[240]; uint64_t offset; };

static long (*real_syscall)(long, ...);
static int (*real_sched_yield)(void);
static int (*real_mutex_lock)(pthread_mutex_t *);
static int (*real_cond_wait)(pthread_cond_t *, pthread_mutex_t *);
static int (*real_cond_timedwait)(pthread_cond_t *, pthread_mutex_t *, const struct timespec *);
static int (*real_sem_wait)(sem_t *);
static int (*real_sem_timedwait)(sem_t *, const struct timespec *);
static int (*real_sem_clockwait)(sem_t *, clockid_t, const struct timespec *);

static uint64_t seed;
static uint32_t per_million, hot_per_million, max_us;
static uint64_t near_bytes;
static struct site sites[MAX_SITES];
static int nsites;
static struct table local; /* counters when no shared table was asked for */
static struct table *tab = &local;

static __thread uint64_t rng_state;
static __thread struct slot *my_slot;
static __thread int slot_tried, inside;
static __thread struct { uintptr_t ra; int hot; } cache[CACHE];

_Static_assert(sizeof(struct slot) == 24, "the harness reads slots as <3Q");
_Static_assert(sizeof(struct table) == 56 + NSLOTS * 24, "the harness reads the header as <8s6Q");

static void parse_sites(const char *spec) {
    char *end;
    unsigned long hot = strtoul(spec, &end, 10);
    if (*end != ':' || hot > 1000000) return;
    unsigned long long near = strtoull(end + 1, &end, 10);
    if (*end != ':') return;
    const char *p = end + 1;
    while (*p && nsites < MAX_SITES) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        const char *plus = memrchr(p, '+', len);
        if (plus && (size_t)(plus - p) < sizeof sites[0].module) {
            memcpy(sites[nsites].module, p, (size_t)(plus - p));
            sites[nsites].module[plus - p] = '\0';
            sites[nsites].offset = strtoull(plus + 1, NULL, 16);
            nsites++;
        }
        if (!comma) break;
        p = comma + 1;
    }
    near_bytes = near;
    hot_per_million = (uint32_t)hot;
}

static void open_table(const char *dir) {
    char path[4096];
    if (snprintf(path, sizeof path, "%s/%d.sites", dir, (int)getpid()) >= (int)sizeof path) return;
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) return;
    if (ftruncate(fd, sizeof(struct table)) == 0) {
        void *m = mmap(NULL, sizeof(struct table), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (m != MAP_FAILED) {
            tab = m;
            memcpy(tab->magic, "GVLDLY2", 8);
            tab->nslots = NSLOTS;
        }
    }
    close(fd);
}

/* A forked child's threads claim their own slots (the table itself is shared with the parent). */
static void child_after_fork(void) {
    my_slot = NULL;
    slot_tried = 0;
}

/* The next definitions of what this layer interposes. glibc before 2.36 gives plain dlsym the
 * *oldest* version of the condvar calls (GLIBC_2.2.5's compatibility condvars, which would
 * rewrite the caller's condvar): ask for the current one by name first. Called by the
 * constructor, and by any wrapper another library's constructor reaches before ours ran. */
static void *next_symbol(const char *name, const char *version) {
    void *f = version ? dlvsym(RTLD_NEXT, name, version) : NULL;
    return f ? f : dlsym(RTLD_NEXT, name);
}

static void resolve(void) {
    real_syscall = (long (*)(long, ...))next_symbol("syscall", NULL);
    real_sched_yield = (int (*)(void))next_symbol("sched_yield", NULL);
    real_mutex_lock = (int (*)(pthread_mutex_t *))next_symbol("pthread_mutex_lock", NULL);
    real_cond_wait = (int (*)(pthread_cond_t *, pthread_mutex_t *))next_symbol("pthread_cond_wait", "GLIBC_2.3.2");
    real_cond_timedwait = (int (*)(pthread_cond_t *, pthread_mutex_t *, const struct timespec *))next_symbol(
        "pthread_cond_timedwait", "GLIBC_2.3.2");
    real_sem_wait = (int (*)(sem_t *))next_symbol("sem_wait", NULL);
    real_sem_timedwait = (int (*)(sem_t *, const struct timespec *))next_symbol("sem_timedwait", NULL);
    real_sem_clockwait = (int (*)(sem_t *, clockid_t, const struct timespec *))next_symbol("sem_clockwait", NULL);
}

static void configure(void) __attribute__((constructor));
static void configure(void) {
    resolve();
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
    const char *learned = getenv("GVLSTRESS_DELAY_SITES");
    if (learned != NULL) parse_sites(learned);
    const char *dir = getenv("GVLSTRESS_DELAY_TABLE");
    if (dir != NULL && *dir) open_table(dir);
    pthread_atfork(NULL, NULL, child_after_fork);
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

/* Does the mapping line `line` (NUL-terminated, no newline) hold `ra`? Fills its file's name and
 * offset-0 start as the scan goes: /proc/self/maps lists a file's mappings in address order,
 * its first (file offset 0) one first, which is what the harness calls the module's base. */
struct scan { uintptr_t ra; char base_path[4096]; uintptr_t base; int found; char name[256]; uint64_t off; };

static void scan_line(struct scan *sc, char *line) {
    char *end;
    uintptr_t lo = (uintptr_t)strtoull(line, &end, 16);
    if (*end != '-') return;
    uintptr_t hi = (uintptr_t)strtoull(end + 1, &end, 16);
    char *p = strchr(end, ' ');              /* perms */
    if (!p) return;
    unsigned long long fileoff = strtoull(p + 6, &end, 16);
    char *path = strchr(end, '/');
    if (!path) return;
    if (fileoff == 0) {
        size_t n = strlen(path);
        if (n >= sizeof sc->base_path) return;
        memcpy(sc->base_path, path, n + 1);
        sc->base = lo;
    }
    if (sc->ra < lo || sc->ra >= hi || strcmp(path, sc->base_path) != 0) return;
    const char *slash = strrchr(path, '/');
    size_t n = strlen(slash + 1);
    if (n >= sizeof sc->name) return;
    memcpy(sc->name, slash + 1, n + 1);
    sc->off = (uint64_t)(sc->ra - sc->base);
    sc->found = 1;
}

/* module and offset of a code address, read from /proc/self/maps with raw syscalls (no loader
 * lock, no malloc: this runs inside interposed calls, some made with locks held). */
static int site_of(uintptr_t ra, struct scan *sc) {
    memset(sc, 0, sizeof *sc);
    sc->ra = ra;
    int fd = (int)real_syscall(SYS_openat, AT_FDCWD, "/proc/self/maps", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    char buf[8192];
    char line[4608];
    size_t used = 0;
    long got;
    while (!sc->found && (got = real_syscall(SYS_read, fd, buf, sizeof buf)) > 0) {
        for (long i = 0; i < got && !sc->found; i++) {
            if (buf[i] != '\n') {
                if (used < sizeof line - 1) line[used++] = buf[i];
                continue;
            }
            line[used] = '\0';
            scan_line(sc, line);
            used = 0;
        }
    }
    real_syscall(SYS_close, fd);
    return sc->found;
}

/* Is this call site near a learned one? The maps once per site per thread, then the cache. */
static int hot(uintptr_t ra) {
    if (nsites == 0) return 0;
    unsigned i = (unsigned)((ra >> 2) * 0x9E3779B1u) % CACHE;
    if (cache[i].ra == ra) return cache[i].hot;
    int is_hot = 0;
    struct scan sc;
    if (site_of(ra, &sc)) {
        for (int k = 0; k < nsites && !is_hot; k++) {
            uint64_t d = sc.off > sites[k].offset ? sc.off - sites[k].offset : sites[k].offset - sc.off;
            is_hot = d <= near_bytes && strcmp(sc.name, sites[k].module) == 0;
        }
    }
    cache[i].ra = ra;
    cache[i].hot = is_hot;
    return is_hot;
}

static void maybe_delay(uintptr_t ra) {
    if (per_million == 0 || inside) return;
    inside = 1; /* nothing the layer calls comes back through here */
    atomic_fetch_add_explicit(&tab->calls, 1, memory_order_relaxed);
    int h = hot(ra);
    uint32_t rate = per_million;
    if (h) {
        atomic_fetch_add_explicit(&tab->hot_calls, 1, memory_order_relaxed);
        rate = hot_per_million;
    }
    if (next() % 1000000 < rate) {
        uint32_t us = 1 + (uint32_t)(next() % max_us);
        struct timespec ts = {us / 1000000, (long)(us % 1000000) * 1000};
        /* the raw syscall: nanosleep through libc could come back here on some libcs */
        real_syscall(SYS_nanosleep, &ts, NULL);
        atomic_fetch_add_explicit(&tab->delays, 1, memory_order_relaxed);
        atomic_fetch_add_explicit(&tab->delayed_us, us, memory_order_relaxed);
        if (h) atomic_fetch_add_explicit(&tab->hot_delays, 1, memory_order_relaxed);
    }
    inside = 0;
}

/* This thread's slot in the shared table (claimed once; none if the table is full or absent). */
static struct slot *slot(void) {
    if (slot_tried || tab == &local) return my_slot;
    slot_tried = 1;
    uint64_t tid = (uint64_t)gettid();
    for (unsigned k = 0; k < NSLOTS; k++) {
        struct slot *s = &tab->slots[(tid * 0x9E3779B1u + k) % NSLOTS];
        uint64_t seen = 0;
        if (atomic_compare_exchange_strong(&s->tid, &seen, tid)) return my_slot = s;
        /* a thread that has ended (or a forked child that exited) leaves its slot: take it */
        if (real_syscall(SYS_kill, (long)seen, 0) == -1 && errno == ESRCH &&
            atomic_compare_exchange_strong(&s->tid, &seen, tid)) {
            atomic_store_explicit(&s->waiting, 0, memory_order_relaxed);
            return my_slot = s;
        }
    }
    return NULL;
}

static struct slot *wait_begins(uintptr_t ra) {
    if (per_million == 0) return NULL;
    struct slot *s = slot();
    if (s != NULL) {
        atomic_store_explicit(&s->ra, ra, memory_order_relaxed);
        atomic_store_explicit(&s->waiting, 1, memory_order_release);
    }
    return s;
}

static void wait_ends(struct slot *s) {
    if (s != NULL) atomic_store_explicit(&s->waiting, 0, memory_order_release);
}

#define SITE ((uintptr_t)__builtin_return_address(0))

long syscall(long number, ...) {
    if (real_syscall == NULL) resolve();
    va_list ap;
    va_start(ap, number);
    long a[6];
    for (int i = 0; i < 6; i++) a[i] = va_arg(ap, long);
    va_end(ap);
    if (number != SYS_futex) return real_syscall(number, a[0], a[1], a[2], a[3], a[4], a[5]);
    int cmd = (int)a[1] & FUTEX_CMD_MASK;
    int waits = cmd == FUTEX_WAIT || cmd == FUTEX_WAIT_BITSET;
    uintptr_t ra = SITE;
    if (waits || cmd == FUTEX_WAKE || cmd == FUTEX_WAKE_BITSET) maybe_delay(ra);
    struct slot *s = waits ? wait_begins(ra) : NULL;
    long r = real_syscall(number, a[0], a[1], a[2], a[3], a[4], a[5]);
    wait_ends(s);
    return r;
}

int sched_yield(void) {
    if (real_sched_yield == NULL) resolve();
    maybe_delay(SITE);
    return real_sched_yield();
}

/* An interposed blocking call: maybe delayed on the way in, its call site in the table while it
 * blocks. A macro, so that the return address read is the interposed function's own caller. */
#define BLOCKING(real, call)                     \
    do {                                         \
        if ((real) == NULL) resolve();           \
        if ((real) == NULL) {                    \
            errno = ENOSYS;                      \
            return -1;                           \
        }                                        \
        uintptr_t ra_ = SITE;                    \
        maybe_delay(ra_);                        \
        struct slot *s_ = wait_begins(ra_);      \
        int r_ = (call);                         \
        wait_ends(s_);                           \
        return r_;                               \
    } while (0)

int pthread_mutex_lock(pthread_mutex_t *m) { BLOCKING(real_mutex_lock, real_mutex_lock(m)); }

int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m) { BLOCKING(real_cond_wait, real_cond_wait(c, m)); }

int pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m, const struct timespec *t) {
    BLOCKING(real_cond_timedwait, real_cond_timedwait(c, m, t));
}

int sem_wait(sem_t *sem) { BLOCKING(real_sem_wait, real_sem_wait(sem)); }

int sem_timedwait(sem_t *sem, const struct timespec *t) { BLOCKING(real_sem_timedwait, real_sem_timedwait(sem, t)); }

int sem_clockwait(sem_t *sem, clockid_t clock, const struct timespec *t) {
    BLOCKING(real_sem_clockwait, real_sem_clockwait(sem, clock, t));
}

/* What the layer did in this process: interposed calls seen, delays, microseconds delayed. */
void gvldelay_stats(uint64_t out[3]) {
    out[0] = atomic_load(&tab->calls);
    out[1] = atomic_load(&tab->delays);
    out[2] = atomic_load(&tab->delayed_us);
}
