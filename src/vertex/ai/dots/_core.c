/* The compiled core of the Dots family: the exact solver and a few engine primitives.
 *
 * Nothing here knows a board or a rule by heart: every table (the cells each line bounds,
 * the lines of each cell, the pre-drawn lines, misère, extra turns, the touch rule, the
 * board's symmetries, the move order) comes from the Python engine at construction
 * (`vertex.ai.dots.core.CoreSolver`), so the Python engine stays the one reference.
 *
 * Positions are bit sets of drawn lines (up to 128 lines, as unsigned __int128). The search
 * is the Python solver's (`vertex.ai.dots.solver`), made fast: negamax alpha-beta on the
 * score-free value (the mover's net cells from here on), a fixed-size transposition table
 * of two bounds per canonical position (memory given in bytes), canonical keys under the
 * board's symmetries and the swap of lines that bound the same cells (Barker & Korf's
 * corner equivalence, generalised), safe captures taken at once, loony endgames counted.
 * The search releases the GIL; a deadline, `cancel()` from another thread and a poll
 * callback (progress, or a cancel flag across processes) stop it cleanly.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include <math.h>
#include <time.h>
#include <stdlib.h>
#include <pthread.h>
#include <errno.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

typedef unsigned __int128 u128;

#define MAXL 128
#define MAXC 127
#define MAXSYM 24
#define MAXCLASS 64
#define CLASSMAX 8
#define OUTSIDE 9
#define BUCKET 4
#define LMEMO (1 << 14)
#define LKEY 40
#define UCT_NODES 4000000

/* 16 bytes, four to a 64-byte bucket, as two words so that searches on several threads
 * share the table without locks: w1 = key bits 64..95 | lo << 32 | hi << 40 | work << 48 |
 * move << 56, w0 = key bits 0..63 ^ w1 (a torn entry fails the check and reads as empty).
 * work: log2 of the positions searched to find these bounds, 0 for an empty slot; move: the
 * line that refuted, in the key's orientation, 255 for none. Boards of more than 96 lines
 * keep key bits 96..127 in a side array (khi) and search on one thread. */
typedef struct {
    uint64_t w0, w1;
} Entry;
#define W_WORK(w) ((unsigned)((w) >> 48) & 255)
#define W_MOVE(w) ((unsigned)((w) >> 56))
#define W_LO(w) ((int)(int8_t)((w) >> 32))
#define W_HI(w) ((int)(int8_t)((w) >> 40))

typedef struct {
    uint8_t len;
    uint8_t key[LKEY];
    int16_t val;
} LMemo;

typedef struct {
    PyObject_HEAD int nl, nc;
    u128 all;
    int16_t pa[MAXL], pb[MAXL]; /* the cells of a line; pb = nc stands for the outside */
    u128 cmask[MAXC + 1];
    u128 reach_of[MAXL];
    int misere, extra, touch, sign, forced, loony, chains;
    /* quiet: the middle game's pruning (below) at every node of ply quiet - 1 or more, so 1:
     * everywhere, the root too (0: never); ply: the current node's distance from the root */
    int quiet, ply, handout, sac_quiet;
    /* junctions: loony positions with junctions counted (`junction_eval`), not searched */
    int junctions;
    /* hard: of a chain of two, only the middle line is handed out (the middle game) */
    int hard;
    int order[MAXL];
    int nsym, nchunk;
    /* the symmetries the keys use: all, or the root's own ones (`stabilizer`); a key is
     * then the least image under fewer symmetries, still one position's or its image's */
    uint32_t symon;
    u128 *symtab; /* [sym][chunk][256] */
    uint64_t *symtab64; /* the same in 64 bits, on boards of up to 64 lines (else NULL) */
    u128 *ordtab; /* [chunk][256]: a chunk's lines as bits of their places in `order` */
    uint8_t perm[MAXSYM][MAXL], inv[MAXSYM][MAXL]; /* each symmetry's lines, and back */
    int nclass;
    u128 classmask[MAXCLASS];
    u128 classlow[MAXCLASS][CLASSMAX + 1];
    Entry *tt;
    void *tt_raw;
    size_t tt_map; /* bytes mapped (Linux, huge pages asked for); 0: tt_raw is from calloc */
    uint32_t *khi;
    uint64_t tt_entries, tt_buckets, stored;
    uint64_t nodes, lookups, hits;
    uint64_t helper_nodes;
    volatile int *halt; /* a helper thread's stop flag, set by the thread that owns the search */
    int threads;
    uint32_t hist[MAXL]; /* cut-offs per line: quiet lines that refuted before go first */
    int history;
    LMemo *lmemo;
    struct JPosS *jpos; /* scratch of `junction_eval`, one per thread */
    /* control */
    double deadline; /* CLOCK_MONOTONIC seconds; 0: none */
    double next_poll;
    PyObject *poll;
    volatile int cancel;
    int stopped, busy;
    PyObject *err_type, *err_value, *err_tb;
} Core;

/* ---- bits ------------------------------------------------------------------------------- */
static inline int popc(u128 x) {
    return __builtin_popcountll((uint64_t)x) + __builtin_popcountll((uint64_t)(x >> 64));
}
static inline int lowbit(u128 x) {
    uint64_t lo = (uint64_t)x;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(x >> 64));
}
#define BIT(i) (((u128)1) << (i))

static int from_py(PyObject *obj, u128 *out) {
    if (!PyLong_Check(obj)) {
        PyErr_SetString(PyExc_TypeError, "a bit set must be an int");
        return -1;
    }
    if (_PyLong_Sign(obj) < 0 || _PyLong_NumBits(obj) > 128) {
        PyErr_SetString(PyExc_ValueError, "a bit set must be a non-negative int of 128 bits");
        return -1;
    }
    unsigned long long lo = PyLong_AsUnsignedLongLongMask(obj);
    if (lo == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    PyObject *sixty = PyLong_FromLong(64);
    PyObject *hi_obj = PyNumber_Rshift(obj, sixty);
    Py_DECREF(sixty);
    if (!hi_obj) return -1;
    unsigned long long hi = PyLong_AsUnsignedLongLongMask(hi_obj);
    Py_DECREF(hi_obj);
    if (hi == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    *out = ((u128)hi << 64) | lo;
    return 0;
}

static PyObject *to_py(u128 x) {
    PyObject *hi = PyLong_FromUnsignedLongLong((unsigned long long)(x >> 64));
    PyObject *lo = PyLong_FromUnsignedLongLong((unsigned long long)x);
    PyObject *sixty = PyLong_FromLong(64);
    PyObject *shifted = (hi && sixty) ? PyNumber_Lshift(hi, sixty) : NULL;
    PyObject *out = (shifted && lo) ? PyNumber_Or(shifted, lo) : NULL;
    Py_XDECREF(hi);
    Py_XDECREF(lo);
    Py_XDECREF(sixty);
    Py_XDECREF(shifted);
    return out;
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static uint64_t xorshift(uint64_t *st) {
    uint64_t x = *st;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *st = x;
}

/* ---- canonical keys ----------------------------------------------------------------------- */
static inline u128 pack(const Core *s, u128 x) {
    for (int c = 0; c < s->nclass; c++) {
        u128 m = s->classmask[c];
        x = (x & ~m) | s->classlow[c][popc(x & m)];
    }
    return x;
}

/* The table key of `d`; *sym: the symmetry that gives it (-1: none). */
static u128 canon(const Core *s, u128 d, int *sym) {
    u128 best = pack(s, d);
    const u128 *tab = s->symtab;
    *sym = -1;
    if (!s->symon) return best;
    if (s->symtab64) { /* 64 lines or fewer: half the table, the same images */
        const uint64_t *t64 = s->symtab64;
        uint64_t d64 = (uint64_t)d;
        for (int k = 0; k < s->nsym; k++, t64 += s->nchunk * 256) {
            if (!(s->symon >> k & 1)) continue;
            uint64_t img = 0;
            for (int j = 0; j < s->nchunk; j++) img |= t64[j * 256 + (unsigned)((d64 >> (8 * j)) & 255)];
            u128 key = pack(s, (u128)img);
            if (key < best) {
                best = key;
                *sym = k;
            }
        }
        return best;
    }
    for (int k = 0; k < s->nsym; k++) {
        if (!(s->symon >> k & 1)) {
            tab += s->nchunk * 256;
            continue;
        }
        u128 img = 0;
        for (int j = 0; j < s->nchunk; j++) img |= tab[j * 256 + (unsigned)((d >> (8 * j)) & 255)];
        tab += s->nchunk * 256;
        img = pack(s, img);
        if (img < best) {
            best = img;
            *sym = k;
        }
    }
    return best;
}

/* ---- transposition table ------------------------------------------------------------------ */
static inline uint64_t mix(uint64_t a, uint64_t b) {
    uint64_t z = a ^ (b * 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline uint64_t bucket_of(const Core *s, uint64_t k0, uint64_t k1) {
    return (uint64_t)(((u128)mix(k0, k1) * s->tt_buckets) >> 64) * BUCKET;
}

/* The entry of key at slot `at`, its w1 in *w (0: not this key). */
static inline int same_key(const Core *s, uint64_t at, uint64_t k0, uint64_t k1, uint64_t *w) {
    Entry *e = &s->tt[at];
    uint64_t w1 = __atomic_load_n(&e->w1, __ATOMIC_RELAXED);
    uint64_t w0 = __atomic_load_n(&e->w0, __ATOMIC_RELAXED);
    *w = w1;
    return W_WORK(w1) && (w0 ^ w1) == k0 && (uint32_t)w1 == (uint32_t)k1 &&
           (!s->khi || s->khi[at] == (uint32_t)(k1 >> 32));
}

/* The bounds and move stored for key: 1 when found. */
static int probe(Core *s, u128 key, int *lo, int *hi, int *move) {
    uint64_t k0 = (uint64_t)key, k1 = (uint64_t)(key >> 64), w;
    uint64_t b = bucket_of(s, k0, k1);
    for (int i = 0; i < BUCKET; i++)
        if (same_key(s, b + i, k0, k1, &w)) {
            *lo = W_LO(w);
            *hi = W_HI(w);
            *move = W_MOVE(w);
            return 1;
        }
    return 0;
}

/* Keep what cost most: a new entry takes an empty slot or the one found with least work. */
static void store(Core *s, u128 key, int lo, int hi, int work, int move) {
    uint64_t k0 = (uint64_t)key, k1 = (uint64_t)(key >> 64), w;
    uint64_t b = bucket_of(s, k0, k1), at = b;
    unsigned at_work = 256;
    for (int i = 0; i < BUCKET; i++) {
        if (same_key(s, b + i, k0, k1, &w)) {
            at = b + i;
            at_work = 1;
            if ((int)W_WORK(w) > work) work = (int)W_WORK(w);
            if (move < 0) move = (int)W_MOVE(w);
            break;
        }
        unsigned wk = W_WORK(__atomic_load_n(&s->tt[b + i].w1, __ATOMIC_RELAXED));
        if (wk < at_work) {
            at = b + i;
            at_work = wk;
        }
    }
    if (!at_work) s->stored++;
    if (work > 255) work = 255;
    uint64_t w1 = (uint32_t)k1 | (uint64_t)(uint8_t)lo << 32 | (uint64_t)(uint8_t)hi << 40 |
                  (uint64_t)work << 48 | (uint64_t)(move < 0 ? 255 : move) << 56;
    Entry *e = &s->tt[at];
    if (s->khi) s->khi[at] = (uint32_t)(k1 >> 32);
    __atomic_store_n(&e->w1, w1, __ATOMIC_RELAXED);
    __atomic_store_n(&e->w0, k0 ^ w1, __ATOMIC_RELAXED);
}

static inline int work_since(const Core *s, uint64_t nodes0) {
    uint64_t d = s->nodes - nodes0 + 1;
    return 64 - __builtin_clzll(d);
}

/* ---- stopping ----------------------------------------------------------------------------- */
static void check_stop(Core *s) {
    if (s->cancel || (s->halt && *s->halt)) {
        s->stopped = 1;
        return;
    }
    double t = now_s();
    if (s->deadline > 0 && t > s->deadline) {
        s->stopped = 1;
        return;
    }
    if (s->poll && t >= s->next_poll) {
        s->next_poll = t + 0.25;
        PyGILState_STATE g = PyGILState_Ensure();
        PyObject *r = PyObject_CallFunction(s->poll, "KK", (unsigned long long)s->nodes,
                                            (unsigned long long)s->stored);
        if (!r) {
            s->stopped = 1;
            if (!s->err_type) PyErr_Fetch(&s->err_type, &s->err_value, &s->err_tb);
            PyErr_Clear();
        } else {
            if (PyObject_IsTrue(r) == 1) s->stopped = 1;
            PyErr_Clear();
            Py_DECREF(r);
        }
        PyGILState_Release(g);
    }
}

/* ---- loony endgames ------------------------------------------------------------------------ */
static int open_value(int loop, int n, int rest) {
    int a = n + rest, b;
    if (loop) {
        b = n - 8 - rest;
        return -(a > b ? a : b);
    }
    if (n <= 2) return -a;
    b = n - 4 - rest;
    return -(a > b ? a : b);
}

static int loony_value(Core *s, const uint8_t *ch, int nch, const uint8_t *lp, int nlp) {
    if (!nch && !nlp) return 0;
    uint8_t key[LKEY];
    int klen = nch + nlp + 1;
    LMemo *slot = NULL;
    if (klen <= LKEY) {
        memcpy(key, ch, nch);
        key[nch] = 255;
        memcpy(key + nch + 1, lp, nlp);
        uint64_t h = 1469598103934665603ULL;
        for (int i = 0; i < klen; i++) h = (h ^ key[i]) * 1099511628211ULL;
        slot = &s->lmemo[h & (LMEMO - 1)];
        if (slot->len == klen && !memcmp(slot->key, key, klen)) return slot->val;
    }
    uint8_t rest[MAXC];
    int best = -1000000;
    for (int i = 0; i < nch; i++) {
        if (i && ch[i - 1] == ch[i]) continue;
        memcpy(rest, ch, i);
        memcpy(rest + i, ch + i + 1, nch - i - 1);
        int v = open_value(0, ch[i], loony_value(s, rest, nch - 1, lp, nlp));
        if (v > best) best = v;
    }
    for (int i = 0; i < nlp; i++) {
        if (i && lp[i - 1] == lp[i]) continue;
        memcpy(rest, lp, i);
        memcpy(rest + i, lp + i + 1, nlp - i - 1);
        int v = open_value(1, lp[i], loony_value(s, ch, nch, rest, nlp - 1));
        if (v > best) best = v;
    }
    if (slot) {
        slot->len = (uint8_t)klen;
        memcpy(slot->key, key, klen);
        slot->val = (int16_t)best;
    }
    return best;
}

static void sort_bytes(uint8_t *a, int n) {
    for (int i = 1; i < n; i++) {
        uint8_t x = a[i];
        int j = i - 1;
        while (j >= 0 && a[j] > x) {
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = x;
    }
}

static inline int across(const Core *s, int line, int cell) {
    int a = s->pa[line], b = s->pb[line];
    return a == cell ? b : a; /* s->nc: the outside */
}

/* The value of a simple loony endgame (every unclaimed cell has two sides to go), or
 * returns 0 in *ok when the position is not one. */
static int loony_eval(Core *s, u128 drawn, const int *rem, int *ok) {
    int nc = s->nc;
    int fl[MAXC][2];
    uint8_t seen[MAXC];
    uint8_t ch[MAXC], lp[MAXC];
    int nch = 0, nlp = 0;
    *ok = 0;
    for (int c = 0; c < nc; c++) {
        seen[c] = 0;
        if (!rem[c]) continue;
        if (rem[c] != 2) return 0;
        u128 f = s->cmask[c] & ~drawn;
        fl[c][0] = lowbit(f);
        f &= f - 1;
        fl[c][1] = lowbit(f);
    }
    for (int c = 0; c < nc; c++) {
        if (!rem[c] || seen[c]) continue;
        int a = fl[c][0], b = fl[c][1], first;
        if (across(s, a, c) == nc)
            first = a;
        else if (across(s, b, c) == nc)
            first = b;
        else
            continue;
        int size = 1, cur = c, line = first == a ? b : a;
        seen[c] = 1;
        for (;;) {
            int nxt = across(s, line, cur);
            if (nxt == nc) break;
            seen[nxt] = 1;
            size++;
            line = fl[nxt][0] == line ? fl[nxt][1] : fl[nxt][0];
            cur = nxt;
        }
        ch[nch++] = (uint8_t)size;
    }
    for (int c = 0; c < nc; c++) {
        if (!rem[c] || seen[c]) continue;
        int size = 1, cur = c, line = fl[c][0];
        seen[c] = 1;
        for (;;) {
            int nxt = across(s, line, cur);
            if (nxt == c) break;
            if (nxt == nc || seen[nxt]) return 0; /* not a simple loop: leave it to search */
            seen[nxt] = 1;
            size++;
            line = fl[nxt][0] == line ? fl[nxt][1] : fl[nxt][0];
            cur = nxt;
        }
        lp[nlp++] = (uint8_t)size;
    }
    sort_bytes(ch, nch);
    sort_bytes(lp, nlp);
    *ok = 1;
    return loony_value(s, ch, nch, lp, nlp);
}

/* ---- loony positions with junctions --------------------------------------------------------
 * No capture on offer and no quiet line left, but some cell has three or four sides to go (a
 * junction): every line drawn opens a string of two-sided cells running between the ground
 * and junctions (or a cycle). Counted as Berlekamp's simple loony endgames are, opening by
 * opening: the opener picks a string, the other side takes it (or declines, keeping
 * control); a junction left with two arms joins them into one string, a junction left with
 * one arm is taken with it. A position is the set of the first strings taken (`JPos`); once
 * no junction is left, `loony_value` counts the chains and loops. Exact for chains and
 * loops alone; with junctions not proven, but it gave the exact search's value on every one
 * of ~3,000 random loony positions of six boards (tests/ai/test_junctions.py), and whole
 * searches with it the same values and best lines. Gives up (searched instead) past JMAX
 * strings or JWORK positions. */
#define JMAX 30
#define JMEMO 4096
#define JWORK 20000
typedef struct JPosS {
    int ns, nj, work;
    uint32_t stamp; /* a memo entry is this count's when its mstamp is */
    uint8_t len[JMAX];
    int8_t e0[JMAX], e1[JMAX]; /* a string's ends: a junction, or -1 for the ground */
    uint8_t cyc[JMAX];         /* a cycle of two-sided cells alone */
    uint8_t jn[MAXC], jarm[MAXC][4];
    uint32_t mkey[JMEMO];
    int16_t mval[JMEMO];
    uint32_t mstamp[JMEMO];
} JPos;

static int uf_find(int *up, int i) {
    while (up[i] != i) i = up[i] = up[up[i]];
    return i;
}

static int alive_arms(const JPos *p, int j, uint32_t gone, int *arm) {
    int k = 0;
    for (int a = 0; a < p->jn[j]; a++)
        if (!(gone >> p->jarm[j][a] & 1)) arm[k++] = p->jarm[j][a];
    return k;
}

/* a junction left with one arm is taken with that arm */
static uint32_t j_close(const JPos *p, uint32_t gone) {
    for (int again = 1; again;) {
        again = 0;
        for (int j = 0; j < p->nj; j++) {
            int arm[4];
            if (alive_arms(p, j, gone, arm) == 1) {
                gone |= 1u << arm[0];
                again = 1;
            }
        }
    }
    return gone;
}

static int j_cells(const JPos *p, uint32_t gone) {
    int n = 0, arm[4];
    for (int i = 0; i < p->ns; i++)
        if (!(gone >> i & 1)) n += p->len[i];
    for (int j = 0; j < p->nj; j++)
        if (alive_arms(p, j, gone, arm) >= 2) n++;
    return n;
}

static int j_value(Core *s, JPos *p, uint32_t gone) {
    if (++p->work > JWORK) return 0; /* too big: the caller searches instead */
    uint32_t h = (gone * 2654435761u) >> 20;
    for (int probe_ = 0; probe_ < 8; probe_++) {
        uint32_t at = (h + probe_) & (JMEMO - 1);
        if (p->mstamp[at] != p->stamp) break;
        if (p->mkey[at] == gone) return p->mval[at];
    }
    int up[JMAX], size[JMAX], cyc[JMAX], junctions = 0, arm[4];
    uint32_t members[JMAX];
    for (int i = 0; i < p->ns; i++) {
        up[i] = i;
        size[i] = p->len[i];
        cyc[i] = p->cyc[i];
        members[i] = 1u << i;
    }
    for (int j = 0; j < p->nj; j++) {
        int k = alive_arms(p, j, gone, arm);
        if (k >= 3) junctions = 1;
        if (k != 2) continue;
        int a = uf_find(up, arm[0]), b = uf_find(up, arm[1]);
        if (a == b) {
            cyc[a] = 1;
            size[a]++;
        } else {
            up[b] = a;
            size[a] += size[b] + 1;
            cyc[a] |= cyc[b];
            members[a] |= members[b];
        }
    }
    int best;
    if (!junctions) {
        uint8_t ch[MAXC], lp[MAXC];
        int nch = 0, nlp = 0;
        for (int i = 0; i < p->ns; i++) {
            if (gone >> i & 1 || uf_find(up, i) != i) continue;
            uint8_t n = (uint8_t)(size[i] > 255 ? 255 : size[i]);
            if (cyc[i])
                lp[nlp++] = n;
            else
                ch[nch++] = n;
        }
        sort_bytes(ch, nch);
        sort_bytes(lp, nlp);
        best = loony_value(s, ch, nch, lp, nlp);
    } else {
        int here = j_cells(p, gone);
        best = -1000000;
        for (int i = 0; i < p->ns; i++) {
            if (gone >> i & 1 || uf_find(up, i) != i) continue;
            uint32_t after = j_close(p, gone | members[i]);
            int n = here - j_cells(p, after);
            int loop = cyc[i] && n == size[i];
            int v = open_value(loop, n, j_value(s, p, after));
            if (v > best) best = v;
        }
    }
    for (int probe_ = 0; probe_ < 8; probe_++) {
        uint32_t at = (h + probe_) & (JMEMO - 1);
        if (p->mstamp[at] != p->stamp) {
            p->mstamp[at] = p->stamp;
            p->mkey[at] = gone;
            p->mval[at] = (int16_t)best;
            break;
        }
    }
    return best;
}

static int junction_eval(Core *s, u128 drawn, const int *rem, int *ok) {
    int nc = s->nc;
    int sid[MAXC], jid[MAXC];
    JPos *p = s->jpos;
    *ok = 0;
    if (!p) return 0;
    if (!++p->stamp) { /* once in 4 billion: forget every entry */
        memset(p->mstamp, 0, sizeof p->mstamp);
        p->stamp = 1;
    }
    p->ns = p->nj = p->work = 0;
    for (int c = 0; c < nc; c++) {
        sid[c] = -1;
        jid[c] = -1;
        if (rem[c] == 1) goto fail;
        if (rem[c] > 2) {
            jid[c] = p->nj;
            p->jn[p->nj++] = 0;
        }
    }
    /* strings from an end (a line to the ground or to a junction), then cycles alone */
    for (int pass = 0; pass < 2; pass++)
        for (int c = 0; c < nc; c++) {
            if (rem[c] != 2 || sid[c] >= 0) continue;
            u128 f = s->cmask[c] & ~drawn;
            int l0 = lowbit(f);
            f &= f - 1;
            int l1 = lowbit(f);
            int o0 = across(s, l0, c), o1 = across(s, l1, c), in;
            if (pass == 0) {
                if (o0 == nc || rem[o0] > 2)
                    in = l0;
                else if (o1 == nc || rem[o1] > 2)
                    in = l1;
                else
                    continue;
            } else
                in = l0;
            if (p->ns >= JMAX) goto fail;
            int id = p->ns++, end0 = across(s, in, c), n = 0, cur = c, line = in, end1;
            for (;;) {
                sid[cur] = id;
                n++;
                line = lowbit(s->cmask[cur] & ~drawn & ~BIT(line));
                int nxt = across(s, line, cur);
                if (nxt == nc || rem[nxt] > 2 || sid[nxt] == id) {
                    end1 = nxt;
                    break;
                }
                cur = nxt;
            }
            p->len[id] = (uint8_t)(n > 255 ? 255 : n);
            p->cyc[id] = pass == 1;
            p->e0[id] = p->e1[id] = -1;
            if (pass == 1) continue;
            int ends[2] = {end0, end1};
            for (int e = 0; e < 2; e++) {
                int c2 = ends[e];
                if (c2 == nc || rem[c2] <= 2) continue;
                int j = jid[c2];
                if (p->jn[j] >= 4) goto fail;
                p->jarm[j][p->jn[j]++] = (uint8_t)id;
                if (e)
                    p->e1[id] = (int8_t)j;
                else
                    p->e0[id] = (int8_t)j;
            }
        }
    int v = j_value(s, p, j_close(p, 0));
    *ok = p->work <= JWORK;
    return v;
fail:
    return 0;
}

/* ---- chains on offer ------------------------------------------------------------------------ */
/* The run of cells a capture line L opens (after the safe captures, its rem-1 cell's far side
 * is a cell with two sides to go): walk it to its end. Berlekamp's all-but-two: from a run of
 * cells on offer the mover either takes one more cell or, with exactly two left before the
 * ground (four with both ends open), declines them by the middle line; moving elsewhere
 * while cells are on offer never does better (take them first, then make that move).
 * Writes the moves worth searching into out and returns how many; 1 when only the capture. */
static int run_moves(const Core *s, u128 drawn, const int *rem, int L, int *out) {
    int a = s->pa[L], b = s->pb[L];
    int c = rem[a] == 1 ? a : b;
    int cur = across(s, L, c), in = L, n = 1, mid = -1, open = 0;
    out[0] = L;
    if (cur == s->nc || rem[cur] != 2) return 1;
    for (;;) {
        n++;
        int nxt_line = lowbit(s->cmask[cur] & ~drawn & ~BIT(in));
        if (n == 2) mid = nxt_line;
        int nxt = across(s, nxt_line, cur);
        if (nxt == s->nc || rem[nxt] >= 3) break;
        if (rem[nxt] == 1) {
            n++;
            open = 1;
            break;
        }
        if (n > 4) return 1;
        in = nxt_line;
        cur = nxt;
    }
    if ((!open && n == 2) || (open && n == 4)) {
        out[1] = mid;
        return 2;
    }
    return 1;
}

/* The cells a handout `line` (no capture) puts on offer: from each side it leaves with one
 * side to go, the run of two-sided cells behind it; counted up to `cap`. */
static int handout_size(const Core *s, u128 drawn, const int *rem, int line, int cap) {
    int n = 0;
    int sides[2] = {s->pa[line], s->pb[line]};
    for (int i = 0; i < 2 && n < cap; i++) {
        int cur = sides[i], in = line;
        if (cur == s->nc || rem[cur] != 2) continue;
        for (;;) {
            n++;
            if (n >= cap) break;
            u128 f = s->cmask[cur] & ~drawn & ~BIT(in);
            if (!f) break;
            int out = lowbit(f);
            int nxt = across(s, out, cur);
            if (nxt == s->nc || nxt == sides[i] || rem[nxt] != 2) break;
            in = out;
            cur = nxt;
        }
    }
    return n;
}

/* ---- search -------------------------------------------------------------------------------- */
static void fill_rem(const Core *s, u128 drawn, int *rem) {
    for (int c = 0; c < s->nc; c++) rem[c] = popc(s->cmask[c] & ~drawn);
    rem[s->nc] = OUTSIDE;
}

static inline int gains(const Core *s, u128 after, int line) {
    int k = 0, a = s->pa[line], b = s->pb[line];
    if ((after & s->cmask[a]) == s->cmask[a]) k++;
    if (b < s->nc && (after & s->cmask[b]) == s->cmask[b]) k++;
    return k;
}

/* The cells with one side to go, and with two: kept beside the counts so that a node sorts
 * its lines by cells, not line by line */
typedef struct {
    u128 one, two;
} Sides;

static inline Sides sides_of(const Core *s, const int *rem) {
    Sides k = {0, 0};
    for (int c = 0; c < s->nc; c++) {
        if (rem[c] == 1) k.one |= BIT(c);
        if (rem[c] == 2) k.two |= BIT(c);
    }
    return k;
}

/* One side fewer to go at cell c (not the outside) */
static inline void one_less(int *rem, Sides *k, int c) {
    int r = --rem[c];
    if (r == 2)
        k->two |= BIT(c);
    else if (r == 1) {
        k->two &= ~BIT(c);
        k->one |= BIT(c);
    } else if (r == 0)
        k->one &= ~BIT(c);
}

static int search(Core *s, u128 drawn, u128 reach, int alpha, int beta, int left);
static int search_rem(Core *s, u128 drawn, u128 reach, int alpha, int beta, int left, int *rem,
                      Sides k);

/* The search after `line`; `prem`, `pk`: the sides to go before it (NULL: counted anew),
 * so that a child's count is its parent's less the line's two cells. */
static int child(Core *s, u128 drawn, u128 reach, int line, int left, int alpha, int beta,
                 const int *prem, Sides pk) {
    u128 after = drawn | BIT(line);
    int k = gains(s, after, line);
    u128 r2 = s->touch ? (reach | s->reach_of[line]) : reach;
    int v, rem[MAXC + 1];
    if (prem) {
        int a = s->pa[line], b = s->pb[line];
        memcpy(rem, prem, (size_t)(s->nc + 1) * sizeof(int));
        one_less(rem, &pk, a);
        if (b < s->nc) one_less(rem, &pk, b);
    }
#define DEEPER(al, be, lf) \
    (prem ? search_rem(s, after, r2, al, be, lf, rem, pk) : search(s, after, r2, al, be, lf))
    s->ply++;
    if (k) {
        int gain = s->sign * k;
        if (s->extra)
            v = gain + DEEPER(alpha - gain, beta - gain, left - k);
        else
            v = gain - DEEPER(gain - beta, gain - alpha, left - k);
    } else
        v = -DEEPER(-beta, -alpha, left);
#undef DEEPER
    s->ply--;
    return v;
}

/* A line that hands out one lone cell: is it the first such line of its cell? (after the
 * forced capture every one of them gives the same position: one is searched). */
static inline int first_for_cell(const Core *s, const int *rem, int line, u128 *given) {
    int c = rem[s->pa[line]] == 2 ? s->pa[line] : s->pb[line];
    if (*given & BIT(c)) return 0;
    *given |= BIT(c);
    return 1;
}

/* The run of two-sided cells through cell c (ncap = 0: no cell has one side to go): 1 when
 * every line of it hands out the same — a loop of two-sided cells alone, or a chain of three
 * cells or more whose two ends are apart (the ground, or two different cells with three
 * sides or more to go). The taker's best answers then end in the same positions wherever it
 * is opened: all of it taken, or all but the last two (four of a loop) given back. *id: its
 * least cell. */
static int long_run(const Core *s, u128 drawn, const int *rem, int c, int *id) {
    int n = 1, least = c, ends[2];
    u128 f = s->cmask[c] & ~drawn;
    int first[2] = {lowbit(f), lowbit(f & (f - 1))};
    for (int d = 0; d < 2; d++) {
        int cur = c, line = first[d];
        for (;;) {
            int nxt = across(s, line, cur);
            if (nxt == c) { /* round: a loop */
                *id = least;
                return 1;
            }
            if (nxt == s->nc || rem[nxt] != 2) {
                ends[d] = nxt == s->nc ? -1 : nxt;
                break;
            }
            if (++n > s->nc) return 0; /* cells that share two lines: not a plain run */
            if (nxt < least) least = nxt;
            line = lowbit(s->cmask[nxt] & ~drawn & ~BIT(line));
            cur = nxt;
        }
    }
    *id = least;
    return n >= 3 && (ends[0] < 0 || ends[0] != ends[1]);
}

/* A handout `line` (no capture on offer): is it the first listed of its long run? (the
 * others of it give the same; `long_run`) */
static inline int first_for_run(const Core *s, u128 drawn, const int *rem, int line, u128 *runs) {
    int c = rem[s->pa[line]] == 2 ? s->pa[line] : s->pb[line], id;
    if (!long_run(s, drawn, rem, c, &id)) return 1;
    if (*runs & BIT(id)) return 0;
    *runs |= BIT(id);
    return 1;
}

/* The runs of two-sided cells at a node, walked once for all its handouts (`handout_size`
 * and `long_run` walk a run once per line of it): each two-sided cell's run, its cells, its
 * least cell, whether it closes on itself and whether its two ends are apart. */
typedef struct {
    uint8_t len, least, loop, apart;
} Run;
typedef struct {
    int8_t of[MAXC + 1]; /* a two-sided cell's run (set for those alone) */
    Run run[MAXC];
} Runs;

/* 0 when some two-sided cell has both its lines to one cell (cells that share two lines):
 * the walks then, not the labels. */
static int label_runs(const Core *s, u128 drawn, const int *rem, u128 two, Runs *r) {
    int nr = 0;
    for (u128 todo = two; todo; todo &= todo - 1) {
        int c = lowbit(todo);
        if (!(two & BIT(c))) continue; /* labelled with an earlier cell's run */
        u128 f = s->cmask[c] & ~drawn;
        int first[2] = {lowbit(f), lowbit(f & (f - 1))}, ends[2] = {-1, -1};
        if (across(s, first[0], c) == across(s, first[1], c) && across(s, first[0], c) != s->nc)
            return 0;
        Run *run = &r->run[nr];
        int n = 1, least = c, loop = 0;
        r->of[c] = (int8_t)nr;
        for (int d = 0; d < 2 && !loop; d++) {
            int cur = c, line = first[d];
            for (;;) {
                int nxt = across(s, line, cur);
                if (nxt == c) {
                    loop = 1;
                    break;
                }
                if (nxt == s->nc || rem[nxt] != 2) {
                    ends[d] = nxt == s->nc ? -1 : nxt;
                    break;
                }
                u128 g = s->cmask[nxt] & ~drawn;
                int l1 = lowbit(g), l2 = lowbit(g & (g - 1));
                if (across(s, l1, nxt) == across(s, l2, nxt) && across(s, l1, nxt) != s->nc)
                    return 0;
                r->of[nxt] = (int8_t)nr;
                two &= ~BIT(nxt);
                n++;
                if (nxt < least) least = nxt;
                line = l1 == line ? l2 : l1;
                cur = nxt;
            }
        }
        run->len = (uint8_t)n;
        run->least = (uint8_t)least;
        run->loop = (uint8_t)loop;
        run->apart = (uint8_t)(ends[0] < 0 || ends[0] != ends[1]);
        nr++;
    }
    return 1;
}

/* `handout_size` from the labels: a line at a run's end hands out the run, a line inside it
 * the run too (its two parts), a line of a loop walks it from both sides (twice its cells) */
static inline int run_handout(const Core *s, const Runs *r, const int *rem, int line, int cap) {
    int a = s->pa[line], b = s->pb[line], n;
    int ra = rem[a] == 2, rb = b != s->nc && rem[b] == 2;
    if (ra && rb)
        n = r->run[r->of[a]].loop ? 2 * r->run[r->of[a]].len : r->run[r->of[a]].len;
    else if (ra || rb)
        n = r->run[r->of[ra ? a : b]].len;
    else
        n = 0;
    return n < cap ? n : cap;
}

/* `first_for_run` from the labels */
static inline int run_first(const Core *s, const Runs *r, const int *rem, int line, u128 *seen) {
    int c = rem[s->pa[line]] == 2 ? s->pa[line] : s->pb[line];
    const Run *run = &r->run[r->of[c]];
    if (!run->loop && !(run->len >= 3 && run->apart)) return 1;
    if (*seen & BIT(run->least)) return 0;
    *seen |= BIT(run->least);
    return 1;
}

/* The handouts worth searching (g1: lines with a two-sided cell on one side, g2: on both;
 * two: the two-sided cells), appended to moves[0..n) but for `skip`; the new count. The middle game (quiet lines left,
 * `quiet`), pruned: no handout of `handout` cells or more, none at all while more than
 * `sac_quiet` quiet lines are left, and of the lines that hand out one cell alone one per
 * cell (after the forced capture they give the same position). `hard`: a chain of two
 * handed out from its end is dominated by its middle line (the same cells, and the taker
 * cannot decline them) — with one line per lone cell exact, and used in the exact search. */
static int handouts(Core *s, u128 drawn, const int *rem, u128 two, int nq, const int *g1,
                    int n1, const int *g2, int n2, int skip, int *moves, int n) {
    /* the skipped line (searched first) counts as its run's */
    int runs_on = s->hard && s->chains;
    u128 runs = 0;
    if (runs_on && skip >= 0 && (rem[s->pa[skip]] == 2 || rem[s->pb[skip]] == 2))
        first_for_run(s, drawn, rem, skip, &runs);
    Runs r;
    int labels = 0; /* the runs labelled, once; else the walks */
#define SIZE(line, cap) \
    (labels > 0 ? run_handout(s, &r, rem, line, cap) : handout_size(s, drawn, rem, line, cap))
#define FIRST_RUN(line) \
    (labels > 0 ? run_first(s, &r, rem, line, &runs) : first_for_run(s, drawn, rem, line, &runs))
    if (s->quiet && nq && s->ply + 1 >= s->quiet) {
        if (nq > s->sac_quiet) return n;
        if (n1 + n2 > 1) labels = label_runs(s, drawn, rem, two, &r);
        u128 given = 0;
        for (int i = 0; i < n1; i++) {
            int line = g1[i];
            int size = SIZE(line, s->handout > 3 ? s->handout : 3);
            if (size >= s->handout || (size == 2 && s->hard) || line == skip) continue;
            if (size == 1 && !first_for_cell(s, rem, line, &given)) continue;
            if (size >= 3 && runs_on && !FIRST_RUN(line)) continue;
            moves[n++] = line;
        }
        for (int i = 0; i < n2; i++)
            if (g2[i] != skip && SIZE(g2[i], s->handout) < s->handout &&
                (!runs_on || FIRST_RUN(g2[i])))
                moves[n++] = g2[i];
        return n;
    }
    int hard = s->hard && s->loony, n0 = n;
    if ((hard || runs_on) && n1 + n2 > 1) labels = label_runs(s, drawn, rem, two, &r);
    int size[MAXL]; /* hard: each listed handout's cells (up to 16), the smallest go first */
    u128 given = 0;
    for (int i = 0; i < n1; i++) {
        int line = g1[i];
        if (line == skip) continue;
        if (hard) {
            int k = SIZE(line, 16);
            if (k == 2) continue;
            if (k == 1 && !first_for_cell(s, rem, line, &given)) continue;
            if (k >= 3 && runs_on && !FIRST_RUN(line)) continue;
            size[n] = k;
        }
        moves[n++] = line;
    }
    for (int i = 0; i < n2; i++)
        if (g2[i] != skip && (!runs_on || FIRST_RUN(g2[i]))) {
            if (hard) size[n] = SIZE(g2[i], 16);
            moves[n++] = g2[i];
        }
    if (hard)
        for (int i = n0 + 1; i < n; i++) {
            int x = moves[i], sx = size[i], j = i - 1;
            while (j >= n0 && size[j] > sx) {
                moves[j + 1] = moves[j];
                size[j + 1] = size[j];
                j--;
            }
            moves[j + 1] = x;
            size[j + 1] = sx;
        }
#undef SIZE
#undef FIRST_RUN
    return n;
}

/* The lines of `mask` in `order` (the search's move order) into out; how many. */
static inline int in_order(const Core *s, u128 mask, int *out) {
    if (!mask) return 0;
    u128 places = 0;
    int n = 0;
    for (int j = 0; j < s->nchunk; j++)
        places |= s->ordtab[j * 256 + (unsigned)((mask >> (8 * j)) & 255)];
    while (places) {
        out[n++] = s->order[lowbit(places)];
        places &= places - 1;
    }
    return n;
}

static int node(Core *s, u128 drawn, u128 reach, int alpha, int beta, int left, int *rem,
                Sides sd) {
    if (left <= alpha) return left;
    if (-left >= beta) return -left;
    s->nodes++;
    if (!(s->nodes & 4095)) check_stop(s);
    if (s->stopped) return 0;
    uint64_t nodes0 = s->nodes;
    int sym, ttmove = -1;
    u128 key = canon(s, drawn, &sym);
    int lo = -left, hi = left;
    s->lookups++;
    int elo, ehi, emove;
    if (probe(s, key, &elo, &ehi, &emove)) {
        s->hits++;
        if (emove != 255) ttmove = sym < 0 ? emove : s->inv[sym][emove];
        if (elo > lo) lo = elo;
        if (ehi < hi) hi = ehi;
        if (lo >= beta) return lo;
        if (hi <= alpha) return hi;
        if (lo == hi) return lo;
    }
    if (lo > alpha) alpha = lo;
    if (hi < beta) beta = hi;
    u128 free = s->all & ~drawn;
    if (s->touch) free &= reach;
    int moves[MAXL], ncap = 0, nq = 0, n1 = 0, n2 = 0;
    int defer = 0, skip = -1;
    int quiet[MAXL], g1[MAXL], g2[MAXL];
    /* of lines that bound the same cells only one is searched: the others give the same
     * position (the key packs them alike) */
    u128 same = 0;
    for (int c = 0; c < s->nclass; c++) {
        u128 f = s->classmask[c] & free;
        same |= f & (f - 1);
    }
    /* the free lines by what they do, from the cells with one and two sides to go: the
     * captures, the quiet lines, and the handouts of two-sided cells on one side (g1) or
     * both (g2), each listed in `order` when it is needed */
    u128 cand = free & ~same, capm = 0, seen1 = 0, seen2 = 0;
    for (u128 o = sd.one; o; o &= o - 1) capm |= s->cmask[lowbit(o)];
    capm &= cand;
    for (u128 t = sd.two; t; t &= t - 1) {
        u128 m = s->cmask[lowbit(t)] & cand & ~capm;
        seen2 |= seen1 & m;
        seen1 |= m;
    }
    u128 quietm = cand & ~capm & ~seen1, g1m = seen1 & ~seen2;
    ncap = in_order(s, capm, moves);
    nq = popc(quietm);
    n1 = popc(g1m);
    n2 = popc(seen2);
    if (!(s->chains && ncap)) in_order(s, quietm, quiet);
    /* the lower bounds of quiet lines' positions, known from the table (the opponent's:
     * this side gets at most minus that by the line) */
    int8_t known[MAXL];
    int nknown = 0;
    if (!ncap && nq > 1) {
        /* enhanced transposition cut-off: a quiet line whose position is known to refute
         * ends the search here; the children's entries are fetched all at once */
        u128 ck[MAXL];
        for (int i = 0; i < nq; i++) {
            int csym;
            ck[i] = canon(s, drawn | BIT(quiet[i]), &csym);
            __builtin_prefetch(&s->tt[bucket_of(s, (uint64_t)ck[i], (uint64_t)(ck[i] >> 64))]);
        }
        for (int i = 0; i < nq; i++) {
            int clo, chi, cmv;
            if (!probe(s, ck[i], &clo, &chi, &cmv)) continue;
            if (-chi >= beta) {
                s->hits++;
                int line = quiet[i];
                store(s, key, -chi, hi, 1, sym < 0 ? line : s->perm[sym][line]);
                return -chi;
            }
            if (!nknown) memset(known, 127, sizeof known);
            known[quiet[i]] = (int8_t)clo;
            nknown++;
        }
    }
    int depth = popc(free), n;
    if (s->loony && !ncap && !nq) {
        int ok;
        int v = loony_eval(s, drawn, rem, &ok);
        if (!ok && s->junctions) v = junction_eval(s, drawn, rem, &ok);
        if (ok) {
            store(s, key, v, v, 1, -1);
            return v;
        }
    }
    if (s->chains && ncap) {
        /* cells on offer: only the moves of Berlekamp's rule (run_moves) */
        int picks[MAXL], np = 0, two[2];
        for (int i = 0; i < ncap; i++) {
            int k = run_moves(s, drawn, rem, moves[i], two);
            if (k == 1) {
                picks[0] = moves[i];
                np = 1;
                break;
            }
            for (int j = 0; j < k; j++) {
                int dup = 0;
                for (int x = 0; x < np; x++) dup |= picks[x] == two[j];
                if (!dup) picks[np++] = two[j];
            }
        }
        memcpy(moves, picks, np * sizeof(int));
        n = np;
        defer = 0;
        goto play;
    }
    if (s->history)
        for (int i = 1; i < nq; i++) {
            int x = quiet[i], j = i - 1;
            uint32_t hx = s->hist[x];
            while (j >= 0 && s->hist[quiet[j]] < hx) {
                quiet[j + 1] = quiet[j];
                j--;
            }
            quiet[j + 1] = x;
        }
    n = ncap;
    memcpy(moves + n, quiet, nq * sizeof(int));
    n += nq;
    /* the handouts are listed only when the captures and quiet lines gave no cut-off */
    defer = n1 + n2 > 0;
play:
    if (ttmove >= 0 && (!(free & BIT(ttmove)) || (same & BIT(ttmove))))
        for (int c = 0; c < s->nclass; c++) /* an equal line of the same cells */
            if (s->classmask[c] & BIT(ttmove)) {
                u128 f = s->classmask[c] & free;
                ttmove = f ? lowbit(f) : -1;
                break;
            }
    if (ttmove >= 0 && (!n || moves[0] != ttmove)) {
        int at = -1;
        for (int i = 1; i < n; i++)
            if (moves[i] == ttmove) at = i;
        if (at > 0) {
            memmove(moves + 1, moves, at * sizeof(int));
            moves[0] = ttmove;
        } else if (defer && at < 0) {
            /* a handout refuted here before: first, and not again with the others */
            memmove(moves + 1, moves, n * sizeof(int));
            moves[0] = skip = ttmove;
            n++;
        }
    }
    int bestmove = -1;
    int best = -left - 1, a = alpha;
    for (int i = 0;; i++) {
        if (i == n) {
            if (!defer) break;
            defer = 0;
            in_order(s, g1m, g1);
            in_order(s, seen2, g2);
            n = handouts(s, drawn, rem, sd.two, nq, g1, n1, g2, n2, skip, moves, n);
            if (i == n) break;
        }
        if (nknown && known[moves[i]] != 127 && -known[moves[i]] <= a) {
            /* known not to raise alpha: its bound stands for its value */
            if (-known[moves[i]] > best) best = -known[moves[i]];
            continue;
        }
        int v = child(s, drawn, reach, moves[i], left, a, beta, rem, sd);
        if (s->stopped) return 0;
        if (v > best) {
            best = v;
            bestmove = moves[i];
            if (v > a) {
                a = v;
                if (a >= beta) {
                    if (s->history && s->hist[moves[i]] < (1u << 30))
                        s->hist[moves[i]] += (uint32_t)(depth * depth);
                    break;
                }
            }
        }
    }
    if (!n) return 0; /* nothing may be drawn (touch rule): the game is over */
    int work = work_since(s, nodes0);
    int cm = bestmove < 0 || sym < 0 ? bestmove : s->perm[sym][bestmove];
    if (best <= alpha)
        store(s, key, lo, best < hi ? best : hi, work, -1);
    else if (best >= beta)
        store(s, key, best > lo ? best : lo, hi, work, cm);
    else
        store(s, key, best, best, work, cm);
    return best;
}

static int search(Core *s, u128 drawn, u128 reach, int alpha, int beta, int left) {
    if (left == 0) return 0;
    int rem[MAXC + 1];
    fill_rem(s, drawn, rem);
    return search_rem(s, drawn, reach, alpha, beta, left, rem, sides_of(s, rem));
}

/* `search` with the sides to go counted (rem, and k: the cells with one and two to go) */
static int search_rem(Core *s, u128 drawn, u128 reach, int alpha, int beta, int left, int *rem,
                      Sides k) {
    if (left == 0) return 0;
    int gain = 0;
    if (s->forced) {
        /* a cell taken without offering another is never worse than anything else; the
         * least such cell first, each time */
        u128 todo = k.one;
        while (todo && left) {
            int c = lowbit(todo);
            todo &= todo - 1;
            int line = lowbit(s->cmask[c] & ~drawn);
            int a = s->pa[line], b = s->pb[line];
            int other = a == c ? b : a;
            /* one that opens the next cell of a run: taken too when Berlekamp's rule
             * leaves nothing else to search there (run_moves), no node of its own */
            int two[2];
            if (rem[other] == 2 && (!s->chains || run_moves(s, drawn, rem, line, two) != 1))
                continue;
            int cells = 1 + (rem[other] == 1);
            gain += cells;
            left -= cells;
            drawn |= BIT(line);
            if (s->touch) reach |= s->reach_of[line];
            one_less(rem, &k, c);
            if (other < s->nc) one_less(rem, &k, other);
            todo = k.one;
        }
        if (gain) {
            if (!left) return gain;
            return gain + node(s, drawn, reach, alpha - gain, beta - gain, left, rem, k);
        }
    }
    return node(s, drawn, reach, alpha, beta, left, rem, k);
}

/* ---- the Python type ------------------------------------------------------------------------ */
static void free_tt(Core *self);

/* `ordtab` from `order` (a new table: the caller frees the old one); -1: no memory. */
static int build_ordtab(Core *self) {
    int at[MAXL];
    for (int i = 0; i < self->nl; i++) at[self->order[i]] = i;
    u128 *tab = PyMem_RawCalloc((size_t)self->nchunk * 256, sizeof(u128));
    if (!tab) return -1;
    for (int j = 0; j < self->nchunk; j++)
        for (int v = 1; v < 256; v++) {
            u128 bits = 0;
            for (int b = 0; b < 8; b++)
                if ((v >> b & 1) && 8 * j + b < self->nl) bits |= BIT(at[8 * j + b]);
            tab[j * 256 + v] = bits;
        }
    self->ordtab = tab;
    return 0;
}

static void Core_dealloc(Core *self) {
    free_tt(self);
    PyMem_RawFree(self->symtab);
    PyMem_RawFree(self->symtab64);
    PyMem_RawFree(self->ordtab);
    PyMem_RawFree(self->lmemo);
    PyMem_RawFree(self->jpos);
    Py_XDECREF(self->err_type);
    Py_XDECREF(self->err_value);
    Py_XDECREF(self->err_tb);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int int_list(PyObject *seq, int *out, int max, int lo, int hi, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > max) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: too many entries", what);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        if (v < lo || v > hi) {
            Py_DECREF(fast);
            PyErr_Format(PyExc_ValueError, "%s: %ld is out of range", what, v);
            return -1;
        }
        out[i] = (int)v;
    }
    Py_DECREF(fast);
    return (int)n;
}

/* As many buckets as `bytes` holds (the index is a multiply-shift: any count works). */
static void free_tt(Core *self) {
#ifdef __linux__
    if (self->tt_map) munmap(self->tt_raw, self->tt_map);
#endif
    if (!self->tt_map) PyMem_RawFree(self->tt_raw);
    PyMem_RawFree(self->khi);
    self->tt_raw = NULL;
    self->khi = NULL;
    self->tt_map = 0;
}

static int alloc_tt(Core *self, unsigned long long bytes) {
    size_t per = sizeof(Entry) + (self->nl > 96 ? sizeof(uint32_t) : 0);
    uint64_t nb = bytes / (per * BUCKET);
    if (nb < 1) nb = 1;
    uint64_t n = nb * BUCKET;
    void *raw = NULL;
    size_t map = 0;
#ifdef __linux__
    /* a big table in huge pages: one TLB entry per 2 MB, not per 4 KB, for random probes */
    if (n * sizeof(Entry) >= (32u << 20)) {
        map = ((n + BUCKET) * sizeof(Entry) + (2u << 20) - 1) & ~(size_t)((2u << 20) - 1);
        raw = mmap(NULL, map, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (raw == MAP_FAILED) {
            raw = NULL;
            map = 0;
        } else {
            madvise(raw, map, MADV_HUGEPAGE);
        }
    }
#endif
    if (!raw) raw = PyMem_RawCalloc(n + BUCKET, sizeof(Entry));
    uint32_t *khi = self->nl > 96 ? PyMem_RawCalloc(n, sizeof(uint32_t)) : NULL;
    if (!raw || (self->nl > 96 && !khi)) {
#ifdef __linux__
        if (map) munmap(raw, map);
#endif
        if (!map) PyMem_RawFree(raw);
        PyMem_RawFree(khi);
        PyErr_NoMemory();
        return -1;
    }
    free_tt(self);
    self->tt_raw = raw;
    self->tt_map = map;
    self->tt = (Entry *)(((uintptr_t)raw + 63) & ~(uintptr_t)63); /* a bucket per cache line */
    self->khi = khi;
    self->tt_entries = n;
    self->tt_buckets = nb;
    self->stored = 0;
    return 0;
}

static int Core_init(Core *self, PyObject *args, PyObject *kw) {
    static char *names[] = {"lines", "line_cells", "cell_lines", "misere", "extra_turn",
                            "touch_rule", "line_reach", "symmetries", "order", "table_bytes",
                            NULL};
    int nl, misere, extra, touch;
    PyObject *line_cells, *cell_lines, *line_reach, *syms, *order;
    unsigned long long bytes;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "iOOpppOOOK", names, &nl, &line_cells,
                                     &cell_lines, &misere, &extra, &touch, &line_reach, &syms,
                                     &order, &bytes))
        return -1;
    if (nl < 1 || nl > MAXL) {
        PyErr_Format(PyExc_ValueError, "the core takes boards of 1 to %d lines", MAXL);
        return -1;
    }
    self->nl = nl;
    self->all = nl == 128 ? ~(u128)0 : BIT(nl) - 1;
    Py_ssize_t nc = PySequence_Size(cell_lines);
    if (nc < 0) return -1;
    if (nc < 1 || nc > MAXC) {
        PyErr_Format(PyExc_ValueError, "the core takes boards of 1 to %d cells", MAXC);
        return -1;
    }
    self->nc = (int)nc;
    int tmp[MAXL + 1];
    for (int c = 0; c < nc; c++) {
        PyObject *item = PySequence_GetItem(cell_lines, c);
        if (!item) return -1;
        int n = int_list(item, tmp, MAXL, 0, nl - 1, "cell_lines");
        Py_DECREF(item);
        if (n < 0) return -1;
        self->cmask[c] = 0;
        for (int i = 0; i < n; i++) self->cmask[c] |= BIT(tmp[i]);
    }
    self->cmask[nc] = 0;
    if (PySequence_Size(line_cells) != nl || PySequence_Size(line_reach) != nl) {
        PyErr_SetString(PyExc_ValueError, "line_cells and line_reach need one entry a line");
        return -1;
    }
    for (int l = 0; l < nl; l++) {
        PyObject *item = PySequence_GetItem(line_cells, l);
        if (!item) return -1;
        int n = int_list(item, tmp, 2, 0, (int)nc - 1, "line_cells");
        Py_DECREF(item);
        if (n < 0) return -1;
        if (n < 1) {
            PyErr_SetString(PyExc_ValueError, "line_cells: every line bounds a cell");
            return -1;
        }
        self->pa[l] = (int16_t)tmp[0];
        self->pb[l] = (int16_t)(n > 1 ? tmp[1] : (int)nc);
        item = PySequence_GetItem(line_reach, l);
        if (!item) return -1;
        int bad = from_py(item, &self->reach_of[l]);
        Py_DECREF(item);
        if (bad) return -1;
    }
    if (int_list(order, self->order, MAXL, 0, nl - 1, "order") != nl) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "order: one entry a line");
        return -1;
    }
    self->misere = misere;
    self->extra = extra;
    self->touch = touch;
    self->sign = misere ? -1 : 1;
    self->forced = !misere && extra;
    self->loony = !misere && extra && !touch;
    /* symmetries: per 8-line chunk, the image of each byte */
    Py_ssize_t nsym = PySequence_Size(syms);
    if (nsym < 0) return -1;
    if (nsym > MAXSYM) nsym = MAXSYM;
    self->nchunk = (nl + 7) / 8;
    PyMem_RawFree(self->ordtab);
    self->ordtab = NULL;
    if (build_ordtab(self)) {
        PyErr_NoMemory();
        return -1;
    }
    PyMem_RawFree(self->symtab);
    self->symtab = NULL;
    self->nsym = 0;
    if (nsym) {
        self->symtab = PyMem_RawCalloc((size_t)nsym * self->nchunk * 256, sizeof(u128));
        if (!self->symtab) {
            PyErr_NoMemory();
            return -1;
        }
    }
    for (int k = 0; k < nsym; k++) {
        PyObject *item = PySequence_GetItem(syms, k);
        if (!item) return -1;
        int n = int_list(item, tmp, MAXL, 0, nl - 1, "symmetries");
        Py_DECREF(item);
        if (n < 0) return -1;
        if (n != nl) {
            PyErr_SetString(PyExc_ValueError, "symmetries: one image a line");
            return -1;
        }
        for (int l = 0; l < nl; l++) {
            self->perm[k][l] = (uint8_t)tmp[l];
            self->inv[k][tmp[l]] = (uint8_t)l;
        }
        u128 *tab = self->symtab + (size_t)k * self->nchunk * 256;
        for (int j = 0; j < self->nchunk; j++)
            for (int v = 1; v < 256; v++) {
                u128 img = 0;
                for (int b = 0; b < 8; b++)
                    if ((v >> b & 1) && 8 * j + b < nl) img |= BIT(tmp[8 * j + b]);
                tab[j * 256 + v] = img;
            }
    }
    self->nsym = (int)nsym;
    self->symon = nsym ? (uint32_t)((1ULL << nsym) - 1) : 0;
    PyMem_RawFree(self->symtab64);
    self->symtab64 = NULL;
    if (nsym && nl <= 64) {
        size_t n = (size_t)nsym * self->nchunk * 256;
        self->symtab64 = PyMem_RawMalloc(n * sizeof(uint64_t));
        if (!self->symtab64) {
            PyErr_NoMemory();
            return -1;
        }
        for (size_t i = 0; i < n; i++) self->symtab64[i] = (uint64_t)self->symtab[i];
    }
    /* lines that bound the same cells are interchangeable (not under the touch rule, where
     * the dots they touch matter too) */
    self->nclass = 0;
    if (!touch) {
        uint8_t done[MAXL] = {0};
        for (int l = 0; l < nl && self->nclass < MAXCLASS; l++) {
            if (done[l]) continue;
            int members[MAXL], m = 0;
            for (int j = l; j < nl; j++)
                if (!done[j] && self->pa[j] == self->pa[l] && self->pb[j] == self->pb[l]) {
                    members[m++] = j;
                    done[j] = 1;
                }
            if (m < 2 || m > CLASSMAX) continue;
            int c = self->nclass++;
            self->classmask[c] = 0;
            self->classlow[c][0] = 0;
            for (int i = 0; i < m; i++) {
                self->classmask[c] |= BIT(members[i]);
                self->classlow[c][i + 1] = self->classlow[c][i] | BIT(members[i]);
            }
        }
    }
    if (!self->jpos) self->jpos = PyMem_RawCalloc(1, sizeof(JPos));
    if (!self->lmemo) {
        self->lmemo = PyMem_RawCalloc(LMEMO, sizeof(LMemo));
        if (!self->lmemo || !self->jpos) {
            PyErr_NoMemory();
            return -1;
        }
    }
    return alloc_tt(self, bytes);
}

static int start_work(Core *self) {
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this solver is already searching");
        return -1;
    }
    self->busy = 1;
    self->stopped = 0;
    self->cancel = 0;
    return 0;
}

static int parse_control(Core *self, PyObject *deadline, PyObject *poll) {
    self->deadline = 0;
    if (deadline != Py_None) {
        double d = PyFloat_AsDouble(deadline);
        if (d == -1.0 && PyErr_Occurred()) return -1;
        self->deadline = d > 0 ? d : 1e-9;
    }
    self->poll = poll == Py_None ? NULL : poll;
    self->next_poll = now_s() + 0.25;
    return 0;
}

/* Finish a search: NULL with the poll's exception if it raised one. */
static int end_work(Core *self) {
    self->busy = 0;
    self->poll = NULL;
    if (self->err_type) {
        PyErr_Restore(self->err_type, self->err_value, self->err_tb);
        self->err_type = self->err_value = self->err_tb = NULL;
        return -1;
    }
    return 0;
}

static int root_value(Core *self, u128 drawn, u128 reach, int left, int mtdf, int guess) {
    if (!mtdf) return search(self, drawn, reach, -left - 1, left + 1, left);
    int lower = -left, upper = left, g = guess < -left ? -left : guess > left ? left : guess;
    while (lower < upper && !self->stopped) {
        int beta = g == lower ? g + 1 : g;
        g = search(self, drawn, reach, beta - 1, beta, left);
        if (g < beta)
            upper = g;
        else
            lower = g;
    }
    return g;
}

/* ---- helper threads (lazy SMP): the same search with other first guesses and move orders,
 * sharing the table, so that each finds what the others will ask for ---------------------- */
#define MAXTHREADS 16
/* The best-move pass: one line of each class, taken by whichever thread is free. */
typedef struct {
    int lines[MAXL], good[MAXL], n, g;
    int next; /* the next class to take (atomic) */
} RootJob;

typedef struct {
    Core c;
    pthread_t tid;
    u128 drawn, reach;
    int left, guess, started;
    RootJob *job; /* NULL: the value search */
} Helper;

static void root_classes(Core *s, RootJob *job, u128 drawn, u128 reach, int left) {
    for (;;) {
        int i = __atomic_fetch_add(&job->next, 1, __ATOMIC_RELAXED);
        if (i >= job->n || s->stopped) break;
        int v = child(s, drawn, reach, job->lines[i], left, job->g - 1, job->g, NULL, (Sides){0, 0});
        if (!s->stopped) job->good[i] = v >= job->g;
    }
}

static void *helper_main(void *arg) {
    Helper *h = arg;
    if (h->job)
        root_classes(&h->c, h->job, h->drawn, h->reach, h->left);
    else
        root_value(&h->c, h->drawn, h->reach, h->left, 1, h->guess);
    return NULL;
}

/* Start threads - 1 helpers; returns how many started. */
static int start_helpers(Core *self, Helper *hs, int threads, u128 drawn, u128 reach, int left,
                         int guess, volatile int *halt, RootJob *job) {
    int started = 0;
    for (int t = 0; t + 1 < threads; t++) {
        Helper *h = &hs[t];
        memcpy(&h->c, self, sizeof(Core));
        h->c.lmemo = PyMem_RawCalloc(LMEMO, sizeof(LMemo));
        h->c.jpos = PyMem_RawCalloc(1, sizeof(JPos));
        if (!h->c.lmemo || !h->c.jpos) {
            PyMem_RawFree(h->c.lmemo);
            PyMem_RawFree(h->c.jpos);
            break;
        }
        h->c.nodes = h->c.lookups = h->c.hits = h->c.stored = 0;
        h->c.poll = NULL;
        h->c.halt = halt;
        h->c.cancel = 0;
        h->c.stopped = 0;
        h->c.err_type = h->c.err_value = h->c.err_tb = NULL;
        memset(h->c.hist, 0, sizeof h->c.hist);
        h->c.history = t & 1;
        /* another order: neighbours swapped in pairs, shifted per helper */
        for (int i = t % 2; i + 1 < self->nl; i += 2) {
            int x = h->c.order[i];
            h->c.order[i] = h->c.order[i + 1];
            h->c.order[i + 1] = x;
        }
        if (build_ordtab(&h->c)) {
            PyMem_RawFree(h->c.lmemo);
            PyMem_RawFree(h->c.jpos);
            break;
        }
        h->drawn = drawn;
        h->reach = reach;
        h->left = left;
        /* beside the main thread's guess: with the value guessed right, the main thread
         * proves it from below while the first helper proves it from above */
        h->guess = guess + (t % 2 ? -1 : 1) * (t / 2 + 1);
        h->job = job;
        if (pthread_create(&h->tid, NULL, helper_main, h)) {
            PyMem_RawFree(h->c.lmemo);
            PyMem_RawFree(h->c.jpos);
            PyMem_RawFree(h->c.ordtab);
            break;
        }
        started++;
    }
    return started;
}

/* Join the helpers (told to stop first unless `wait`); a helper stopped early stops the
 * whole search. */
static void stop_helpers(Core *self, Helper *hs, int n, volatile int *halt, int wait) {
    if (!wait) *halt = 1;
    for (int t = 0; t < n; t++) {
        pthread_join(hs[t].tid, NULL);
        if (wait && hs[t].c.stopped) self->stopped = 1;
        PyMem_RawFree(hs[t].c.lmemo);
        PyMem_RawFree(hs[t].c.jpos);
        PyMem_RawFree(hs[t].c.ordtab);
        self->nodes += hs[t].c.nodes;
        self->helper_nodes += hs[t].c.nodes;
        self->lookups += hs[t].c.lookups;
        self->hits += hs[t].c.hits;
        self->stored += hs[t].c.stored;
    }
}

static PyObject *Core_solve(Core *self, PyObject *args, PyObject *kw) {
    static char *names[] = {"drawn", "reach", "deadline", "poll", "best", "mtdf", "history",
                            "chains", "threads", "guess", "quiet", "handout", "sac_quiet",
                            "junctions", "hard", "stabilizer", NULL};
    PyObject *drawn_o, *reach_o, *deadline = Py_None, *poll = Py_None;
    int want_best = 1, mtdf = 1, history = 0, chains = 1, threads = 1, guess = 0, quiet = 0;
    int handout = 3, sac_quiet = MAXL, junctions = 0, hard = 0,
        stabilizer = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|OOppppiiiiippp", names, &drawn_o, &reach_o,
                                     &deadline, &poll, &want_best, &mtdf, &history, &chains,
                                     &threads, &guess, &quiet, &handout, &sac_quiet, &junctions, &hard,
                                     &stabilizer))
        return NULL;
    if (threads < 1 || threads > MAXTHREADS) {
        PyErr_Format(PyExc_ValueError, "threads: 1 to %d", MAXTHREADS);
        return NULL;
    }
    self->history = history;
    self->chains = chains && self->loony;
    self->quiet = quiet < 0 ? 0 : quiet;
    self->ply = 0;
    self->handout = handout < 1 ? 1 : handout > MAXC ? MAXC : handout;
    self->sac_quiet = sac_quiet;
    self->junctions = junctions;
    self->hard = hard;
    u128 drawn, reach;
    if (from_py(drawn_o, &drawn) || from_py(reach_o, &reach)) return NULL;
    if (drawn & ~self->all) {
        PyErr_SetString(PyExc_ValueError, "drawn has lines the board does not have");
        return NULL;
    }
    if (poll != Py_None && !PyCallable_Check(poll)) {
        PyErr_SetString(PyExc_TypeError, "poll must be callable");
        return NULL;
    }
    /* keys under all the board's symmetries, or (stabilizer) only under those that map the
     * root on itself: positions below an asymmetric root seldom meet their images, and
     * each key then costs no symmetry at all */
    self->symon = self->nsym ? (uint32_t)((1ULL << self->nsym) - 1) : 0;
    if (stabilizer) {
        const u128 *tab = self->symtab;
        u128 here = pack(self, drawn);
        for (int k = 0; k < self->nsym; k++, tab += self->nchunk * 256) {
            u128 img = 0;
            for (int j = 0; j < self->nchunk; j++)
                img |= tab[j * 256 + (unsigned)((drawn >> (8 * j)) & 255)];
            if (pack(self, img) != here) self->symon &= ~(1u << k);
        }
    }
    if (parse_control(self, deadline, poll) || start_work(self)) return NULL;
    int left = 0;
    for (int c = 0; c < self->nc; c++)
        if (self->cmask[c] & ~drawn) left++;
    int g;
    int best[MAXL], nbest = 0;
    u128 free = self->all & ~drawn;
    if (self->touch) free &= reach;
    Py_BEGIN_ALLOW_THREADS;
    volatile int halt = 0;
    Helper *hs = NULL;
    int nh = 0;
    if (threads > 1 && mtdf && !self->khi) {
        hs = PyMem_RawCalloc((size_t)threads - 1, sizeof(Helper));
        if (hs) nh = start_helpers(self, hs, threads, drawn, reach, left, guess, &halt, NULL);
    }
    g = root_value(self, drawn, reach, left, mtdf, guess);
    if (hs) stop_helpers(self, hs, nh, &halt, 0);
    if (want_best && !self->stopped) {
        /* lines whose positions are images of each other under the board's symmetries are
         * equally good: search one of each, on every thread */
        u128 seen[MAXL];
        int cls[MAXL];
        RootJob job;
        job.n = job.next = 0;
        job.g = g;
        for (int l = 0; l < self->nl; l++) {
            if (!(free & BIT(l))) continue;
            int sym;
            u128 k = canon(self, drawn | BIT(l), &sym);
            int j = 0;
            while (j < job.n && seen[j] != k) j++;
            if (j == job.n) {
                seen[job.n] = k;
                job.good[job.n] = 0;
                job.lines[job.n++] = l;
            }
            cls[l] = j;
        }
        halt = 0;
        nh = 0;
        if (hs && job.n > 1) nh = start_helpers(self, hs, threads, drawn, reach, left, guess, &halt, &job);
        root_classes(self, &job, drawn, reach, left);
        if (nh) {
            if (self->stopped) halt = 1;
            stop_helpers(self, hs, nh, &halt, 1);
        }
        for (int l = 0; l < self->nl; l++)
            if ((free & BIT(l)) && job.good[cls[l]]) best[nbest++] = l;
    }
    if (hs) PyMem_RawFree(hs);
    Py_END_ALLOW_THREADS;
    int stopped = self->stopped;
    if (end_work(self)) return NULL;
    if (stopped) Py_RETURN_NONE;
    PyObject *lst = PyList_New(nbest);
    if (!lst) return NULL;
    for (int i = 0; i < nbest; i++) PyList_SET_ITEM(lst, i, PyLong_FromLong(best[i]));
    return Py_BuildValue("(iN)", g, lst);
}

static PyObject *Core_cancel(Core *self, PyObject *unused) {
    self->cancel = 1;
    Py_RETURN_NONE;
}

static void empty_table(Core *self) {
    memset(self->tt, 0, self->tt_entries * sizeof(Entry));
    if (self->khi) memset(self->khi, 0, self->tt_entries * sizeof(uint32_t));
    self->stored = 0;
}

static PyObject *Core_clear(Core *self, PyObject *unused) {
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this solver is searching");
        return NULL;
    }
    empty_table(self);
    Py_RETURN_NONE;
}

/* The table's entries written whole to a file descriptor, or read back from one: a long
 * solve goes on where it stopped (`vertex solve --table`). The caller checks that the file
 * is this board's and this size's (a header before the entries). Each entry checks itself
 * (w0 = key ^ w1), so a copy taken while helper threads store is still a set of finished
 * entries: one torn in the copy reads as empty. Bump TABLE_FORMAT when keys or entries
 * change their layout. */
#define TABLE_FORMAT 1
static int table_io(Core *self, PyObject *file, int writing) {
    if (self->khi) {
        PyErr_SetString(PyExc_ValueError,
                        "boards of more than 96 lines keep part of their keys beside the table; "
                        "it cannot be saved");
        return -1;
    }
    int fd = PyObject_AsFileDescriptor(file);
    if (fd < 0) return -1;
    char *p = (char *)self->tt;
    size_t n = self->tt_entries * sizeof(Entry);
    int err = 0, short_read = 0;
    Py_BEGIN_ALLOW_THREADS;
    while (n) {
        size_t want = n > ((size_t)1 << 30) ? ((size_t)1 << 30) : n;
        ssize_t k = writing ? write(fd, p, want) : read(fd, p, want);
        if (k < 0) {
            if (errno == EINTR) continue;
            err = errno;
            break;
        }
        if (k == 0) {
            short_read = 1;
            break;
        }
        p += k;
        n -= (size_t)k;
    }
    Py_END_ALLOW_THREADS;
    if (err) {
        errno = err;
        PyErr_SetFromErrno(PyExc_OSError);
        return -1;
    }
    if (short_read) {
        PyErr_SetString(PyExc_ValueError, "the table file ends before the table does");
        return -1;
    }
    return 0;
}

static PyObject *Core_save_table(Core *self, PyObject *file) {
    if (table_io(self, file, 1)) return NULL;
    Py_RETURN_NONE;
}

static PyObject *Core_load_table(Core *self, PyObject *file) {
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this solver is searching");
        return NULL;
    }
    if (table_io(self, file, 0)) {
        /* half a table is no table: whatever was read is dropped */
        PyObject *t, *v, *tb;
        PyErr_Fetch(&t, &v, &tb);
        empty_table(self);
        PyErr_Restore(t, v, tb);
        return NULL;
    }
    uint64_t stored = 0;
    for (uint64_t i = 0; i < self->tt_entries; i++) stored += W_WORK(self->tt[i].w1) != 0;
    self->stored = stored;
    return PyLong_FromUnsignedLongLong(stored);
}

static PyObject *Core_stats(Core *self, PyObject *unused) {
    return Py_BuildValue(
        "{sKsKsKsKsKsKsK}", "nodes", (unsigned long long)self->nodes, "helper_nodes",
        (unsigned long long)self->helper_nodes, "lookups", (unsigned long long)self->lookups,
        "hits", (unsigned long long)self->hits, "stored", (unsigned long long)self->stored,
        "capacity", (unsigned long long)self->tt_entries, "table_bytes",
        (unsigned long long)(self->tt_entries * (sizeof(Entry) + (self->khi ? 4 : 0))));
}

/* What the table holds for a position: (lo, hi, line) with line the move that refuted or
 * kept the value there (-1: none), in the position's own orientation; None when absent.
 * After a value search (best=False) the root's line keeps the value: the search's last
 * fail-high at the value stored it, and a later fail-low keeps the line found before. */
static PyObject *Core_probe(Core *self, PyObject *arg) {
    u128 d;
    if (from_py(arg, &d)) return NULL;
    int sym, lo, hi, mv;
    u128 key = canon(self, d, &sym);
    if (!probe(self, key, &lo, &hi, &mv)) Py_RETURN_NONE;
    int line = -1;
    if (mv != 255) {
        line = sym < 0 ? mv : self->inv[sym][mv];
        u128 free = self->all & ~d;
        if (!(free & BIT(line))) {
            line = -1;
            for (int c = 0; c < self->nclass; c++) /* an equal line of the same cells */
                if (self->classmask[c] & BIT(sym < 0 ? mv : self->inv[sym][mv])) {
                    u128 f = self->classmask[c] & free;
                    line = f ? lowbit(f) : -1;
                    break;
                }
        }
    }
    return Py_BuildValue("(iii)", lo, hi, line);
}

/* The chain-aware evaluation of a loony position (no capture on offer, no quiet line left)
 * for the player to move: (value, exact) — exact for chains and loops alone (Berlekamp's
 * control, counted), an estimate with junctions (`junction_eval`); None otherwise. */
static PyObject *Core_loony(Core *self, PyObject *arg) {
    u128 d;
    if (from_py(arg, &d)) return NULL;
    if (d & ~self->all) {
        PyErr_SetString(PyExc_ValueError, "drawn has lines the board does not have");
        return NULL;
    }
    if (self->busy) { /* its scratch is the search's */
        PyErr_SetString(PyExc_RuntimeError, "this solver is searching");
        return NULL;
    }
    if (!self->loony) Py_RETURN_NONE; /* the count is for normal play with extra turns */
    int rem[MAXC + 1];
    fill_rem(self, d, rem);
    u128 free = self->all & ~d;
    for (int l = 0; l < self->nl; l++)
        if ((free & BIT(l)) && rem[self->pa[l]] != 2 && rem[self->pb[l]] != 2) Py_RETURN_NONE;
    int ok, exact = 1;
    int v = loony_eval(self, d, rem, &ok);
    if (!ok) {
        exact = 0;
        v = junction_eval(self, d, rem, &ok);
    }
    if (!ok) Py_RETURN_NONE;
    return Py_BuildValue("(iO)", v, exact ? Py_True : Py_False);
}

static PyObject *Core_canonical(Core *self, PyObject *arg) {
    u128 d;
    if (from_py(arg, &d)) return NULL;
    int sym;
    uint32_t on = self->symon;
    self->symon = self->nsym ? (uint32_t)((1ULL << self->nsym) - 1) : 0; /* all of them */
    u128 key = canon(self, d, &sym);
    self->symon = on;
    return to_py(key);
}

/* The engine's primitive, for the differential test and fast playouts: draw `line` on
 * `drawn` and say which cells it closes. */
static PyObject *Core_draw(Core *self, PyObject *args) {
    PyObject *drawn_o;
    int line;
    if (!PyArg_ParseTuple(args, "Oi", &drawn_o, &line)) return NULL;
    u128 drawn;
    if (from_py(drawn_o, &drawn)) return NULL;
    if (line < 0 || line >= self->nl) {
        PyErr_SetString(PyExc_ValueError, "no such line");
        return NULL;
    }
    u128 after = drawn | BIT(line);
    u128 closed = 0;
    int a = self->pa[line], b = self->pb[line];
    if ((after & self->cmask[a]) == self->cmask[a]) closed |= BIT(a);
    if (b < self->nc && (after & self->cmask[b]) == self->cmask[b]) closed |= BIT(b);
    PyObject *x = to_py(after), *y = to_py(closed);
    if (!x || !y) {
        Py_XDECREF(x);
        Py_XDECREF(y);
        return NULL;
    }
    return Py_BuildValue("(NN)", x, y);
}

static PyObject *Core_legal(Core *self, PyObject *args) {
    PyObject *drawn_o, *reach_o;
    if (!PyArg_ParseTuple(args, "OO", &drawn_o, &reach_o)) return NULL;
    u128 drawn, reach;
    if (from_py(drawn_o, &drawn) || from_py(reach_o, &reach)) return NULL;
    u128 free = self->all & ~drawn;
    if (self->touch) free &= reach;
    return to_py(free);
}

static PyObject *Core_reach_after(Core *self, PyObject *args) {
    PyObject *reach_o;
    int line;
    if (!PyArg_ParseTuple(args, "Oi", &reach_o, &line)) return NULL;
    u128 reach;
    if (from_py(reach_o, &reach)) return NULL;
    if (line < 0 || line >= self->nl) {
        PyErr_SetString(PyExc_ValueError, "no such line");
        return NULL;
    }
    return to_py(reach | self->reach_of[line]);
}

/* A uniformly random playout to the end, for playout benches and RL: returns the cells each
 * turn index closed, as a list of ints (bit sets of cells). */

static PyObject *Core_random_playouts(Core *self, PyObject *args) {
    PyObject *drawn_o, *reach_o;
    int turn, seats, count;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "OOiiiK", &drawn_o, &reach_o, &turn, &seats, &count, &seed))
        return NULL;
    u128 drawn0, reach0;
    if (from_py(drawn_o, &drawn0) || from_py(reach_o, &reach0)) return NULL;
    if (seats < 1 || seats > 6 || turn < 0 || turn >= seats || count < 0) {
        PyErr_SetString(PyExc_ValueError, "bad seats, turn or count");
        return NULL;
    }
    PyObject *out = PyList_New(count);
    if (!out) return NULL;
    uint64_t st = seed * 0x9E3779B97F4A7C15ULL + 1;
    for (int i = 0; i < count; i++) {
        u128 drawn = drawn0, reach = reach0;
        int t = turn;
        int score[6] = {0};
        int lines[MAXL];
        for (;;) {
            u128 free = self->all & ~drawn;
            if (self->touch) free &= reach;
            if (!free) break;
            int n = 0;
            while (free) {
                lines[n++] = lowbit(free);
                free &= free - 1;
            }
            int line = lines[xorshift(&st) % (uint64_t)n];
            drawn |= BIT(line);
            if (self->touch) reach |= self->reach_of[line];
            int k = gains(self, drawn, line);
            score[t] += k;
            if (!(k && self->extra)) t = (t + 1) % seats;
        }
        PyObject *row = PyTuple_New(seats);
        if (!row) {
            Py_DECREF(out);
            return NULL;
        }
        for (int j = 0; j < seats; j++) PyTuple_SET_ITEM(row, j, PyLong_FromLong(score[j]));
        PyList_SET_ITEM(out, i, row);
    }
    return out;
}


/* ---- a plain UCT search with uniform random playouts (two seats), for speed comparisons
 * and as a fast search for researchers: one node per iteration, the tree in one block. */
typedef struct {
    u128 drawn, reach, untried;
    int32_t child, sibling, visits;
    float wins; /* for the seat that drew the line into this node */
    int16_t line;
    int8_t turn, mover;
    int16_t score[2];
} UNode;

static int rollout(Core *self, u128 drawn, u128 reach, int t, int *score, uint64_t *st) {
    int lines[MAXL];
    for (;;) {
        u128 free = self->all & ~drawn;
        if (self->touch) free &= reach;
        if (!free) break;
        int n = 0;
        while (free) {
            lines[n++] = lowbit(free);
            free &= free - 1;
        }
        int line = lines[xorshift(st) % (uint64_t)n];
        drawn |= BIT(line);
        if (self->touch) reach |= self->reach_of[line];
        int k = gains(self, drawn, line);
        score[t] += k;
        if (!(k && self->extra)) t ^= 1;
    }
    return 0;
}

static PyObject *Core_uct(Core *self, PyObject *args, PyObject *kw) {
    static char *names[] = {"drawn", "reach", "turn", "scores", "iterations", "seconds",
                            "seed", "c", NULL};
    PyObject *drawn_o, *reach_o;
    int turn, s0, s1, iterations;
    double seconds, c = 1.4;
    unsigned long long seed;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOi(ii)idK|d", names, &drawn_o, &reach_o, &turn,
                                     &s0, &s1, &iterations, &seconds, &seed, &c))
        return NULL;
    u128 drawn, reach;
    if (from_py(drawn_o, &drawn) || from_py(reach_o, &reach)) return NULL;
    if (turn < 0 || turn > 1 || iterations < 1) {
        PyErr_SetString(PyExc_ValueError, "turn is 0 or 1; iterations at least 1");
        return NULL;
    }
    /* one node per iteration, at most UCT_NODES (about 400 MB); past that the tree stops
     * growing and iterations only play out from its leaves */
    int cap = iterations < UCT_NODES ? iterations + 1 : UCT_NODES;
    UNode *tree = PyMem_RawMalloc(sizeof(UNode) * (size_t)cap);
    if (!tree) return PyErr_NoMemory();
    u128 free0 = self->all & ~drawn;
    if (self->touch) free0 &= reach;
    tree[0] = (UNode){drawn, reach, free0, -1, -1, 0, 0.0f, -1, (int8_t)turn, -1,
                      {(int16_t)s0, (int16_t)s1}};
    int used = 1, done = 0;
    uint64_t st = seed * 0x9E3779B97F4A7C15ULL + 7;
    double stop = seconds > 0 ? now_s() + seconds : 0;
    Py_BEGIN_ALLOW_THREADS;
    int path[MAXL + 2];
    for (; done < iterations; done++) {
        if (stop > 0 && !(done & 255) && now_s() > stop) break;
        int at = 0, depth = 0;
        path[depth++] = 0;
        for (;;) {
            UNode *nd = &tree[at];
            if (nd->untried) {
                if (used >= cap) break;
                int n = popc(nd->untried), pick = (int)(xorshift(&st) % (uint64_t)n);
                u128 m = nd->untried;
                while (pick--) m &= m - 1;
                int line = lowbit(m);
                nd->untried &= ~BIT(line);
                UNode *ch = &tree[used];
                ch->drawn = nd->drawn | BIT(line);
                ch->reach = self->touch ? nd->reach | self->reach_of[line] : nd->reach;
                int k = gains(self, ch->drawn, line);
                ch->score[0] = nd->score[0];
                ch->score[1] = nd->score[1];
                ch->score[nd->turn] += k;
                ch->turn = (k && self->extra) ? nd->turn : nd->turn ^ 1;
                ch->mover = nd->turn;
                ch->line = (int16_t)line;
                u128 f = self->all & ~ch->drawn;
                if (self->touch) f &= ch->reach;
                ch->untried = f;
                ch->child = -1;
                ch->visits = 0;
                ch->wins = 0;
                ch->sibling = nd->child;
                nd->child = used;
                at = used++;
                path[depth++] = at;
                break;
            }
            if (nd->child < 0) break; /* the end of the game */
            double logn = log((double)nd->visits + 1.0);
            int best = -1;
            double bv = -1e300;
            for (int x = nd->child; x >= 0; x = tree[x].sibling) {
                UNode *ch = &tree[x];
                double v = ch->visits ? ch->wins / ch->visits + c * sqrt(logn / ch->visits) : 1e300;
                if (v > bv) {
                    bv = v;
                    best = x;
                }
            }
            at = best;
            path[depth++] = at;
        }
        int score[2] = {tree[at].score[0], tree[at].score[1]};
        rollout(self, tree[at].drawn, tree[at].reach, tree[at].turn, score, &st);
        int diff = score[0] - score[1];
        if (self->misere) diff = -diff;
        float r0 = diff > 0 ? 1.0f : diff < 0 ? 0.0f : 0.5f;
        for (int i = 0; i < depth; i++) {
            UNode *nd = &tree[path[i]];
            nd->visits++;
            if (nd->mover >= 0) nd->wins += nd->mover == 0 ? r0 : 1.0f - r0;
        }
    }
    Py_END_ALLOW_THREADS;
    PyObject *rows = PyList_New(0);
    for (int x = tree[0].child; rows && x >= 0; x = tree[x].sibling) {
        PyObject *r = Py_BuildValue("(iid)", tree[x].line, tree[x].visits,
                                    tree[x].visits ? (double)tree[x].wins / tree[x].visits : 0.0);
        if (!r || PyList_Append(rows, r) < 0) Py_CLEAR(rows);
        Py_XDECREF(r);
    }
    PyMem_RawFree(tree);
    if (!rows) return NULL;
    return Py_BuildValue("(iN)", done, rows);
}

/* ---- the computer players' MCTS ----------------------------------------------------------
 * The search of `vertex.ai.mcts.Mcts` with `vertex.ai.dots.adapter.DotsAdapter` (smart), in C:
 * UCT on rewards per seat (0.9 for the win, shared in a tie, plus 0.1 of the cells won), the
 * strategy books' pruned moves in the tree (a free cell is taken; with cells on offer, take
 * one or decline the last two; else quiet lines while any are left), and playouts that take
 * what is offered, draw quiet lines at random, count a simple loony endgame exactly and only
 * then hand out at random. Two seats; scores and turns by turn index. */
typedef struct {
    u128 drawn, reach, untried;
    int32_t child, sibling, visits;
    float w[2];
    int16_t line;
    int8_t turn; /* the mover here (turn index), -1 once the game is over */
    int16_t score[2];
} MNode;

static inline int highbit(u128 x) {
    uint64_t hi = (uint64_t)(x >> 64);
    return hi ? 127 - __builtin_clzll(hi) : (uint64_t)x ? 63 - __builtin_clzll((uint64_t)x) : -1;
}

/* In a simple loony endgame (every unclaimed cell has two sides to go): one opening per
 * distinct chain or loop, as `endgame.components` finds them (chains from the lowest cell
 * with a side to the outside, then loops) and `Component.opening_line` opens them (a 2-chain
 * in the middle, else at its first line). 0 when the position is not one. */
static u128 loony_openings(const Core *s, u128 drawn, const int *rem) {
    int nc = s->nc, fl[MAXC][2];
    uint8_t seen[MAXC], kinds[2][MAXC + 1];
    u128 out = 0;
    int any = 0;
    memset(kinds, 0, sizeof kinds);
    for (int c = 0; c < nc; c++) {
        seen[c] = 0;
        if (!rem[c]) continue;
        if (rem[c] != 2) return 0;
        any = 1;
        u128 f = s->cmask[c] & ~drawn;
        fl[c][0] = lowbit(f);
        f &= f - 1;
        fl[c][1] = lowbit(f);
    }
    if (!any) return 0;
    for (int c = 0; c < nc; c++) {
        if (!rem[c] || seen[c]) continue;
        int a = fl[c][0], b = fl[c][1], first;
        if (across(s, a, c) == nc)
            first = a;
        else if (across(s, b, c) == nc)
            first = b;
        else
            continue;
        int size = 1, cur = c, line = first == a ? b : a, second = line;
        seen[c] = 1;
        for (;;) {
            int nxt = across(s, line, cur);
            if (nxt == nc) break;
            seen[nxt] = 1;
            size++;
            line = fl[nxt][0] == line ? fl[nxt][1] : fl[nxt][0];
            cur = nxt;
        }
        if (!kinds[0][size]) {
            kinds[0][size] = 1;
            out |= BIT(size == 2 ? second : first);
        }
    }
    for (int c = 0; c < nc; c++) {
        if (!rem[c] || seen[c]) continue;
        int size = 1, cur = c, line = fl[c][0];
        seen[c] = 1;
        for (;;) {
            int nxt = across(s, line, cur);
            if (nxt == c) break;
            if (nxt == nc || seen[nxt]) return 0;
            seen[nxt] = 1;
            size++;
            line = fl[nxt][0] == line ? fl[nxt][1] : fl[nxt][0];
            cur = nxt;
        }
        if (!kinds[1][size]) {
            kinds[1][size] = 1;
            out |= BIT(fl[c][0]);
        }
    }
    return out;
}

/* The lines worth searching (DotsAdapter.moves / candidate_lines) as a bit set. */
static u128 candidates(const Core *s, u128 drawn, u128 free, int prune) {
    if (!prune) return free;
    int rem[MAXC + 1];
    fill_rem(s, drawn, rem);
    u128 takes = 0, quiet = 0, f = free;
    while (f) {
        int line = lowbit(f);
        f &= f - 1;
        int ra = rem[s->pa[line]], rb = rem[s->pb[line]];
        if (ra == 1 || rb == 1) {
            if (ra != 2 && rb != 2) return BIT(line); /* a free cell: take it */
            takes |= BIT(line);
        } else if (ra > 2 && rb > 2) {
            quiet |= BIT(line);
        }
    }
    if (takes) {
        u128 out = takes, t = takes;
        while (t) {
            int line = lowbit(t);
            t &= t - 1;
            int cells[2] = {s->pa[line], s->pb[line]};
            for (int k = 0; k < 2; k++) {
                int n = cells[k];
                if (n >= s->nc || rem[n] != 2) continue;
                int d = highbit(s->cmask[n] & ~drawn & ~BIT(line));
                if (d < 0) continue;
                int other = s->pa[d] == n ? s->pb[d] : s->pa[d];
                if (other < s->nc && rem[other] == 2) continue;
                out |= BIT(d); /* decline: the far side of the last two cells */
            }
        }
        return out;
    }
    if (quiet) return quiet;
    if (!s->touch) {
        u128 open = loony_openings(s, drawn, rem);
        if (open) return open;
    }
    return free;
}

/* smart_playout: the cells won from here by turn index, added to score. */
static void smart_rollout(Core *s, u128 drawn, u128 reach, int t, int *score, int exact,
                          uint64_t *st) {
    int rem[MAXC + 1], pending[MAXL], later[MAXL], unsafe[MAXL], offered[2 * MAXL + MAXC];
    fill_rem(s, drawn, rem);
    int np = 0, nl = 0, nu = 0, no = 0, i = 0;
    u128 f = s->all & ~drawn;
    while (f) {
        pending[np++] = lowbit(f);
        f &= f - 1;
    }
    for (int k = np - 1; k > 0; k--) { /* Fisher-Yates */
        int j = (int)(xorshift(st) % (uint64_t)(k + 1)), x = pending[k];
        pending[k] = pending[j];
        pending[j] = x;
    }
    for (int c = 0; c < s->nc; c++)
        if (rem[c] == 1) offered[no++] = c;
    for (;;) {
        while (no) {
            int c = offered[--no];
            if (rem[c] != 1) continue;
            int line = highbit(s->cmask[c] & ~drawn);
            drawn |= BIT(line);
            if (s->touch) reach |= s->reach_of[line];
            int got = 0, cells[2] = {s->pa[line], s->pb[line]};
            for (int k = 0; k < 2; k++) {
                int d = cells[k];
                if (d >= s->nc) continue;
                int r = --rem[d];
                if (!r)
                    got++;
                else if (r == 1)
                    offered[no++] = d;
            }
            score[t] += got;
            if (!s->extra) t ^= 1;
        }
        int pick = -1;
        while (pick < 0) {
            while (i < np) {
                int line = pending[i++];
                if ((drawn >> line) & 1) continue;
                if (s->touch && !((reach >> line) & 1)) {
                    later[nl++] = line;
                    continue;
                }
                if (rem[s->pa[line]] > 2 && rem[s->pb[line]] > 2) {
                    pick = line;
                    break;
                }
                unsafe[nu++] = line;
            }
            if (pick >= 0 || !nl) break;
            int reachable = 0;
            for (int k = 0; k < nl && !reachable; k++) reachable = (reach >> later[k]) & 1;
            if (!reachable) break;
            memcpy(pending, later, sizeof(int) * nl);
            np = nl;
            nl = 0;
            i = 0;
        }
        if (pick < 0) {
            if (exact) {
                int simple = 1, left = 0;
                for (int c = 0; c < s->nc && simple; c++) {
                    if (rem[c] && rem[c] != 2) simple = 0;
                    left += rem[c] != 0;
                }
                if (simple) {
                    int ok;
                    int v = loony_eval(s, drawn, rem, &ok);
                    if (ok) {
                        score[t] += (left + v) / 2;
                        score[t ^ 1] += (left - v) / 2;
                        return;
                    }
                }
            }
            int unreachable[MAXL], nr = 0;
            while (nu) {
                int j = (int)(xorshift(st) % (uint64_t)nu), line = unsafe[j];
                unsafe[j] = unsafe[--nu];
                if ((drawn >> line) & 1) continue;
                if (s->touch && !((reach >> line) & 1)) {
                    unreachable[nr++] = line;
                    continue;
                }
                pick = line;
                break;
            }
            memcpy(unsafe + nu, unreachable, sizeof(int) * nr);
            nu += nr;
            if (pick < 0) return;
        }
        drawn |= BIT(pick);
        if (s->touch) reach |= s->reach_of[pick];
        int got = 0, cells[2] = {s->pa[pick], s->pb[pick]};
        for (int k = 0; k < 2; k++) {
            int d = cells[k];
            if (d >= s->nc) continue;
            int r = --rem[d];
            if (!r)
                got++;
            else if (r == 1)
                offered[no++] = d;
        }
        score[t] += got;
        if (got && s->extra) continue;
        t ^= 1;
    }
}

static void mnode_init(const Core *s, MNode *nd, u128 drawn, u128 reach, int turn, int s0, int s1,
                       int prune) {
    nd->drawn = drawn;
    nd->reach = reach;
    u128 free = s->all & ~drawn;
    if (s->touch) free &= reach;
    nd->untried = free ? candidates(s, drawn, free, prune) : 0;
    nd->turn = (int8_t)(free ? turn : -1);
    nd->child = nd->sibling = -1;
    nd->visits = 0;
    nd->w[0] = nd->w[1] = 0.0f;
    nd->line = -1;
    nd->score[0] = (int16_t)s0;
    nd->score[1] = (int16_t)s1;
}

/* mcts(drawn, reach, turn, scores, iterations, seconds, seed, only=0, c=0.7, live=cells,
 *      smart=True) -> (iterations done, [(line, visits, mean reward of the mover)]) */
static PyObject *Core_mcts(Core *self, PyObject *args, PyObject *kw) {
    static char *names[] = {"drawn", "reach", "turn",  "scores", "iterations", "seconds",
                            "seed",  "only",  "c",     "live",   "smart",      NULL};
    PyObject *drawn_o, *reach_o, *only_o = NULL;
    int turn, s0, s1, live = -1, smart = 1;
    long long iterations;
    double seconds, c = 0.7;
    unsigned long long seed;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOi(ii)LdK|Odip", names, &drawn_o, &reach_o,
                                     &turn, &s0, &s1, &iterations, &seconds, &seed, &only_o, &c,
                                     &live, &smart))
        return NULL;
    u128 drawn, reach, only = 0;
    if (from_py(drawn_o, &drawn) || from_py(reach_o, &reach)) return NULL;
    if (only_o && only_o != Py_None && from_py(only_o, &only)) return NULL;
    if (turn < 0 || turn > 1 || iterations < 1) {
        PyErr_SetString(PyExc_ValueError, "turn is 0 or 1; iterations at least 1");
        return NULL;
    }
    if (live <= 0) live = self->nc;
    int prune = smart && !self->misere && self->extra;
    int exact = smart && !self->misere && self->extra && !self->touch;
    int cap = iterations < UCT_NODES ? (int)iterations + 1 : UCT_NODES;
    MNode *tree = PyMem_RawMalloc(sizeof(MNode) * (size_t)cap);
    if (!tree) return PyErr_NoMemory();
    mnode_init(self, &tree[0], drawn, reach, turn, s0, s1, prune);
    if (only) tree[0].untried = only & (self->all & ~drawn);
    long long done = 0;
    int used = 1;
    uint64_t st = seed * 0x9E3779B97F4A7C15ULL + 7;
    double stop = seconds > 0 ? now_s() + seconds : 0;
    Py_BEGIN_ALLOW_THREADS;
    int path[MAXL + 2];
    for (; done < iterations; done++) {
        if (stop > 0 && !(done & 63) && now_s() > stop) break;
        int at = 0, depth = 0;
        path[depth++] = 0;
        for (;;) {
            MNode *nd = &tree[at];
            if (nd->untried) {
                if (used >= cap) break;
                int n = popc(nd->untried), pick = (int)(xorshift(&st) % (uint64_t)n);
                u128 m = nd->untried;
                while (pick--) m &= m - 1;
                int line = lowbit(m);
                nd->untried &= ~BIT(line);
                MNode *ch = &tree[used];
                u128 after = nd->drawn | BIT(line);
                int k = gains(self, after, line);
                int sc[2] = {nd->score[0], nd->score[1]};
                sc[nd->turn] += k;
                mnode_init(self, ch, after, self->touch ? nd->reach | self->reach_of[line] : nd->reach,
                           (k && self->extra) ? nd->turn : nd->turn ^ 1, sc[0], sc[1], prune);
                ch->line = (int16_t)line;
                ch->sibling = nd->child;
                nd->child = used;
                at = used++;
                path[depth++] = at;
                break;
            }
            if (nd->child < 0) break; /* the end of the game, or the tree is full */
            double logn = log((double)nd->visits);
            int me = nd->turn, best = nd->child;
            double bv = -1.0;
            for (int x = nd->child; x >= 0; x = tree[x].sibling) {
                MNode *ch = &tree[x];
                double v = ch->w[me] / ch->visits + c * sqrt(logn / ch->visits);
                if (v > bv) {
                    bv = v;
                    best = x;
                }
            }
            at = best;
            path[depth++] = at;
        }
        MNode *leaf = &tree[at];
        int score[2] = {leaf->score[0], leaf->score[1]};
        if (leaf->turn >= 0) {
            if (smart && !self->misere)
                smart_rollout(self, leaf->drawn, leaf->reach, leaf->turn, score, exact, &st);
            else
                rollout(self, leaf->drawn, leaf->reach, leaf->turn, score, &st);
        }
        /* DotsAdapter.rewards: mostly the share of the win, a little the margin */
        float rw[2];
        int lead = self->misere ? score[1] - score[0] : score[0] - score[1];
        for (int p = 0; p < 2; p++) {
            float frac = (float)score[p] / (float)live;
            if (self->misere) frac = 1.0f - frac;
            int mine = p == 0 ? lead : -lead;
            rw[p] = (mine > 0 ? 0.9f : mine == 0 ? 0.45f : 0.0f) + 0.1f * frac;
        }
        for (int i = 0; i < depth; i++) {
            MNode *nd = &tree[path[i]];
            nd->visits++;
            nd->w[0] += rw[0];
            nd->w[1] += rw[1];
        }
    }
    Py_END_ALLOW_THREADS;
    PyObject *rows = PyList_New(0);
    int me = tree[0].turn < 0 ? 0 : tree[0].turn;
    for (int x = tree[0].child; rows && x >= 0; x = tree[x].sibling) {
        PyObject *r = Py_BuildValue("(iid)", tree[x].line, tree[x].visits,
                                    tree[x].visits ? (double)tree[x].w[me] / tree[x].visits : 0.0);
        if (!r || PyList_Append(rows, r) < 0) Py_CLEAR(rows);
        Py_XDECREF(r);
    }
    PyMem_RawFree(tree);
    if (!rows) return NULL;
    return Py_BuildValue("(LN)", done, rows);
}

/* names_of(mask, names): names[i] for each set bit i of mask, lowest first. Only bits: the
 * engine's legal_moves uses it for speed (with a Python fallback of the same meaning). */
static PyObject *names_of(PyObject *mod, PyObject *args) {
    PyObject *mask_o, *names;
    if (!PyArg_ParseTuple(args, "OO!", &mask_o, &PyTuple_Type, &names)) return NULL;
    if (!PyLong_Check(mask_o) || _PyLong_Sign(mask_o) < 0) {
        PyErr_SetString(PyExc_ValueError, "mask must be a non-negative int");
        return NULL;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(names);
    size_t nbits = _PyLong_NumBits(mask_o);
    if ((Py_ssize_t)nbits > n) {
        PyErr_SetString(PyExc_ValueError, "mask has bits beyond the names");
        return NULL;
    }
    size_t nbytes = (nbits + 7) / 8 + 1;
    unsigned char stack[64];
    unsigned char *buf = nbytes <= sizeof stack ? stack : PyMem_Malloc(nbytes);
    if (!buf) return PyErr_NoMemory();
#if PY_VERSION_HEX >= 0x030D0000
    if (_PyLong_AsByteArray((PyLongObject *)mask_o, buf, nbytes, 1, 0, 1) < 0) {
#else
    if (_PyLong_AsByteArray((PyLongObject *)mask_o, buf, nbytes, 1, 0) < 0) {
#endif
        if (buf != stack) PyMem_Free(buf);
        return NULL;
    }
    Py_ssize_t count = 0;
    for (size_t i = 0; i < nbytes; i++) count += __builtin_popcount(buf[i]);
    PyObject *out = PyList_New(count);
    Py_ssize_t at = 0;
    for (size_t i = 0; out && i < nbytes; i++) {
        unsigned b = buf[i];
        while (b) {
            PyObject *name = PyTuple_GET_ITEM(names, (Py_ssize_t)(8 * i + __builtin_ctz(b)));
            b &= b - 1;
            Py_INCREF(name);
            PyList_SET_ITEM(out, at++, name);
        }
    }
    if (buf != stack) PyMem_Free(buf);
    return out;
}

static PyMethodDef module_methods[] = {
    {"names_of", names_of, METH_VARARGS, "names_of(mask, names) -> names of the set bits"},
    {NULL, NULL, 0, NULL}};

static PyMethodDef Core_methods[] = {
    {"solve", (PyCFunction)(void (*)(void))Core_solve, METH_VARARGS | METH_KEYWORDS,
     "solve(drawn, reach, deadline=None, poll=None, best=True, mtdf=True, history=False, "
     "chains=True, threads=1, guess=0, quiet=0, handout=3, sac_quiet=128) -> (value, best "
     "lines) or None when stopped; guess: the first try of the value search (MTD(f)); quiet "
     "> 0: the middle game's pruned search (a heuristic: from ply quiet - 1, where a quiet "
     "line is left, no handout of `handout` cells or more, none while more than sac_quiet "
     "quiet lines are left)"},
    {"loony", (PyCFunction)Core_loony, METH_O,
     "loony(drawn) -> (value, exact) for the player to move in a loony position, or None"},
    {"probe", (PyCFunction)Core_probe, METH_O,
     "probe(drawn) -> (lo, hi, line) the table holds for the position, or None"},
    {"cancel", (PyCFunction)Core_cancel, METH_NOARGS, "stop a running search (any thread)"},
    {"clear", (PyCFunction)Core_clear, METH_NOARGS, "empty the transposition table"},
    {"stats", (PyCFunction)Core_stats, METH_NOARGS, "search counters and table size"},
    {"save_table", (PyCFunction)Core_save_table, METH_O,
     "save_table(file) writes the table's entries to a file (a file object or descriptor)"},
    {"load_table", (PyCFunction)Core_load_table, METH_O,
     "load_table(file) -> entries stored: the table's entries read back from a file"},
    {"canonical", (PyCFunction)Core_canonical, METH_O, "the table key of a set of lines"},
    {"draw", (PyCFunction)Core_draw, METH_VARARGS, "draw(drawn, line) -> (drawn, closed cells)"},
    {"legal", (PyCFunction)Core_legal, METH_VARARGS, "legal(drawn, reach) -> open lines"},
    {"reach_after", (PyCFunction)Core_reach_after, METH_VARARGS,
     "reach_after(reach, line) -> reach"},
    {"uct", (PyCFunction)(void (*)(void))Core_uct, METH_VARARGS | METH_KEYWORDS,
     "uct(drawn, reach, turn, scores, iterations, seconds, seed, c=1.4) -> (iterations done, "
     "[(line, visits, win rate of the mover)]): plain UCT, uniform random playouts"},
    {"mcts", (PyCFunction)(void (*)(void))Core_mcts, METH_VARARGS | METH_KEYWORDS,
     "mcts(drawn, reach, turn, scores, iterations, seconds, seed, only=0, c=0.7, live=cells, "
     "smart=True) -> (iterations done, [(line, visits, mean reward of the mover)]): the "
     "computer players' MCTS (pruned moves, chain-aware playouts)"},
    {"random_playouts", (PyCFunction)Core_random_playouts, METH_VARARGS,
     "random_playouts(drawn, reach, turn, seats, count, seed) -> [cells per turn index]"},
    {NULL, NULL, 0, NULL}};

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "vertex.ai.dots._core.Core",
    .tp_basicsize = sizeof(Core),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Tables of one Dots-family game and its exact solver.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Core_init,
    .tp_dealloc = (destructor)Core_dealloc,
    .tp_methods = Core_methods,
};

static struct PyModuleDef coremodule = {PyModuleDef_HEAD_INIT, "_core",
                                        "The compiled core of the Dots family.", -1, module_methods};

int dots_play_init(PyObject *m); /* _play.c: the public state's hot path */
int dots_env_init(PyObject *m);  /* _env.c: the PettingZoo step */

PyMODINIT_FUNC PyInit__core(void) {
    if (PyType_Ready(&CoreType) < 0) return NULL;
    PyObject *m = PyModule_Create(&coremodule);
    if (!m) return NULL;
    Py_INCREF(&CoreType);
    if (PyModule_AddObject(m, "Core", (PyObject *)&CoreType) < 0) {
        Py_DECREF(&CoreType);
        Py_DECREF(m);
        return NULL;
    }
    PyModule_AddIntConstant(m, "MAX_LINES", MAXL);
    PyModule_AddIntConstant(m, "MAX_CELLS", MAXC);
    PyModule_AddIntConstant(m, "MAX_THREADS", MAXTHREADS);
    PyModule_AddIntConstant(m, "TABLE_FORMAT", TABLE_FORMAT);
    if (dots_play_init(m) < 0 || dots_env_init(m) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
