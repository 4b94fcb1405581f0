/* The compiled core of the Dots family: the exact solver and a few engine primitives. What
 * its files share.
 *
 * Nothing here knows a board or a rule by heart: every table (the cells each line bounds,
 * the lines of each cell, the pre-drawn lines, misère, extra turns, the touch rule, the
 * board's symmetries, the move order) comes from the Python engine at construction
 * (`vertex.ai.dots.core.CoreSolver`), so the Python engine stays the one reference.
 *
 * Positions are bit sets of drawn lines (up to 128 lines, as unsigned __int128; the search
 * works in 64 bits where they fit, `_search.h`). The search is the Python solver's
 * (`vertex.ai.dots.solver`), made fast: negamax alpha-beta on the score-free value (the mover's
 * net cells from here on), a fixed-size transposition table of two bounds per canonical
 * position (memory given in bytes), canonical keys under the board's symmetries and the swap of
 * lines that bound the same cells (Barker & Korf's corner equivalence, generalised), safe
 * captures taken at once, loony endgames counted. The search releases the GIL; a deadline,
 * `cancel()` from another thread and a poll callback (progress, or a cancel flag across
 * processes) stop it cleanly.
 *
 * The files, one concern each (with the engine's hot path: `_play.c`, `_rules.c` and
 * `_bits.c`, sharing `_play.h`, and `_env.c`):
 *   _core.c    the Python type: a board's tables built and freed; the module
 *   _table.c   canonical keys, the transposition table, stopping a search
 *   _tablefile.c  the table's file: whole, or its costly entries only
 *   _loony.c   loony endgames counted: chains and loops, and with junctions
 *   _search.h  the search: chains on offer, negamax on the table, built in two widths
 *              (_search64.c, _search128.c); its parts _handouts.h (the handouts searched,
 *              the middle game's pruning), _alone.h (keyed runs), _images.h (keys from the
 *              parent's)
 *   _solve.c   the methods that run a search (MTD(f), helper threads) or read its table
 *   _mcts.c    the computer players' MCTS, plain UCT and random playouts
 * One extension built with hidden visibility (setup.py): what is declared here is shared
 * by these files only.
 */
#ifndef VERTEX_DOTS_CORE_H
#define VERTEX_DOTS_CORE_H

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
/* The exact search's threads tell each other what they search in the first plies
 * (`inflight`): below the root, a line another thread searches waits until the others are
 * searched, so threads that would search the same subtree in step search different ones
 * (simplified ABDADA, Weill 1996). Five plies since a node's first line is never put off:
 * the value proved from below 7-9% sooner on Triangles 6 and 4×4 than with three (eight: as
 * five). */
#define BUSY_PLIES 5
/* The value search's passes that ended, on any thread, as they ended (`Core.passes`): when
 * the root's bounds were proved. A search stopped at a deadline leaves the line of the
 * highest lower bound proved (`proven_line`), so these times, not the search's end, tell
 * whether a computer player's line kept the value. */
#define MAXPASS 64
typedef struct {
    double seconds; /* since the search started */
    int lower, upper, tid;
} Pass;
typedef struct {
    Pass pass[MAXPASS];
    int n; /* passes ended (those past MAXPASS not kept) */
    double t0;
} PassLog;
/* Where the main thread's search is, for a long solve's progress (`Core.walk`): the pass's
 * null window (the value it asks whether the root reaches), and at each of the first plies
 * the line searched, its place among the node's lines and how many there are. */
#define WALK_PLIES 6
typedef struct {
    int line, at, of; /* of = 0: no line searched at this ply */
} Step;
typedef struct {
    int beta, best; /* best: the best-move pass (one line of each class at the root) */
    Step step[WALK_PLIES];
} Walk;
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
    /* first: the root's line to search first, before the table's (-1: none) */
    int first;
    /* junctions: loony positions with junctions counted (`junction_eval`), not searched */
    int junctions;
    /* hard: of a chain of two, only the middle line is handed out (the middle game) */
    int hard;
    /* alone: below the root, runs of two-sided cells alone (1) and also runs hanging from a
     * junction (3) keyed by their lengths, not their places (`alone_key`; boards of up to
     * 64 lines, no touch rule) */
    int alone;
    /* the runs alone (pnal of them) and the lines of the nearest ancestor that listed its
     * own, for the node being searched (`alone_here`) */
    const struct AloneS *pal;
    int pnal;
    u128 pdrawn;
    /* the runs a child's line adds to them, found by the parent's transposition cut-off
     * (nhand of them, when the child's line is hand_line; -1: none handed) */
    const struct AloneS *hand;
    int nhand, hand_line;
    /* a node's packed images, handed to the child being searched (the 64-bit search's
     * `Images`; NULL when none), and the lines drawn they are of */
    const struct ImagesS *himg;
    uint64_t hdrawn;
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
    u128 inclass; /* the lines of all classes */
    int8_t lineclass[MAXL]; /* each line's class, -1 for none */
    u128 classlow[MAXCLASS][CLASSMAX + 1];
    Entry *tt;
    void *tt_raw;
    size_t tt_map; /* bytes mapped (Linux, huge pages asked for); 0: tt_raw is from calloc */
    uint32_t *khi;
    uint64_t tt_entries, tt_buckets, stored;
    uint64_t nodes, lookups, hits;
    uint64_t helper_nodes;
    uint64_t deferred; /* lines put off because another thread searched them (`inflight`) */
    volatile int *halt; /* a helper thread's stop flag, set by the thread that owns the search */
    int threads;
    uint32_t hist[MAXL]; /* cut-offs per line: quiet lines that refuted before go first */
    int history;
    /* with helper threads: per thread and ply below BUSY_PLIES, the position it searches
     * (its lines drawn, hashed; 0: none), shared; NULL with one thread */
    volatile uint64_t (*inflight)[BUSY_PLIES];
    int tid, nthreads; /* this thread's row of `inflight` (0: the main one), and the rows */
    PassLog log, *plog; /* the search's passes (the main thread's log; helpers point to it) */
    Walk walk; /* written by the main thread (tid 0) only */
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

#define MAXTHREADS 16
/* The layout of the table's file (`_tablefile.c`): bump it when keys, entries or the buckets
 * change their layout. */
#define TABLE_FORMAT 1

/* ---- bits ------------------------------------------------------------------------------- */
static inline int popc(u128 x) {
    return __builtin_popcountll((uint64_t)x) + __builtin_popcountll((uint64_t)(x >> 64));
}
static inline int lowbit(u128 x) {
    uint64_t lo = (uint64_t)x;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(x >> 64));
}
#define BIT(i) (((u128)1) << (i))

static inline double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static inline uint64_t xorshift(uint64_t *st) {
    uint64_t x = *st;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *st = x;
}

static inline int across(const Core *s, int line, int cell) {
    int a = s->pa[line], b = s->pb[line];
    return a == cell ? b : a; /* s->nc: the outside */
}

/* ---- keys and the table's buckets --------------------------------------------------------- */
static inline u128 pack(const Core *s, u128 x) {
    for (int c = 0; c < s->nclass; c++) {
        u128 m = s->classmask[c];
        x = (x & ~m) | s->classlow[c][popc(x & m)];
    }
    return x;
}

/* The image of lines `d` under symmetry k, unpacked (boards of up to 64 lines: `symtab64`) */
static inline uint64_t image64(const Core *s, int k, uint64_t d) {
    const uint64_t *t = s->symtab64 + (size_t)k * s->nchunk * 256;
    uint64_t img = 0;
    for (int j = 0; j < s->nchunk; j++) img |= t[j * 256 + (unsigned)((d >> (8 * j)) & 255)];
    return img;
}

static inline uint64_t mix(uint64_t a, uint64_t b) {
    uint64_t z = a ^ (b * 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline uint64_t bucket_of(const Core *s, uint64_t k0, uint64_t k1) {
    return (uint64_t)(((u128)mix(k0, k1) * s->tt_buckets) >> 64) * BUCKET;
}

/* A bound v of a position with `left` cells to go, made as tight as the value's parity
 * allows: the value is the difference of the two sides' cells from here, all of which are
 * taken by the end (`left` in all), so it has the parity of `left`. `up`: v is a lower
 * bound (else an upper one). Not under the touch rule, where the game may end first. */
static inline int to_parity(const Core *s, int v, int left, int up) {
    if (s->touch) return v;
    return v + (up ? 1 : -1) * ((v - left) & 1);
}

static inline int work_since(const Core *s, uint64_t nodes0) {
    uint64_t d = s->nodes - nodes0 + 1;
    return 64 - __builtin_clzll(d);
}

/* ---- counts of sides to go ------------------------------------------------------------------ */
static inline void fill_rem(const Core *s, u128 drawn, int *rem) {
    for (int c = 0; c < s->nc; c++) rem[c] = popc(s->cmask[c] & ~drawn);
    rem[s->nc] = OUTSIDE;
}

static inline int gains(const Core *s, u128 after, int line) {
    int k = 0, a = s->pa[line], b = s->pb[line];
    if ((after & s->cmask[a]) == s->cmask[a]) k++;
    if (b < s->nc && (after & s->cmask[b]) == s->cmask[b]) k++;
    return k;
}

/* _core.c */
int from_py(PyObject *obj, u128 *out);
PyObject *to_py(u128 x);
int build_ordtab(Core *self);
/* _table.c: keys, the table, stopping */
u128 canon(const Core *s, u128 d, int *sym);
int probe(Core *s, u128 key, int *lo, int *hi, int *move);
void store(Core *s, u128 key, int lo, int hi, int work, int move);
void check_stop(Core *s);
/* _loony.c: a simple loony endgame's chains and loops (`loony_components`) and values */
typedef struct {
    uint8_t size, loop;    /* cells; 1: a loop */
    int16_t first, second; /* its first line (a chain's at the ground) and a chain's next */
} Comp;
int loony_components(const Core *s, u128 drawn, const int *rem, Comp *out);
int loony_eval(Core *s, u128 drawn, const int *rem, int *ok);
int junction_eval(Core *s, u128 drawn, const int *rem, int *ok);
struct JPosS *jpos_new(void); /* a thread's scratch for `junction_eval` (PyMem_RawFree it) */
/* _search64.c, _search128.c (`_search.h`): the value of a position for the player to move,
 * within (alpha, beta), on sets of 64 bits (boards of up to 64 lines) or of 128; `child`: of
 * the position after `line` */
int search_64(Core *s, u128 drawn, u128 reach, int alpha, int beta, int left);
int search_128(Core *s, u128 drawn, u128 reach, int alpha, int beta, int left);
int child_64(Core *s, u128 drawn, u128 reach, int line, int left, int alpha, int beta);
int child_128(Core *s, u128 drawn, u128 reach, int line, int left, int alpha, int beta);
#ifndef W /* the search's body has its own (`_search.h`) */
static inline int search(Core *s, u128 drawn, u128 reach, int alpha, int beta, int left) {
    return s->nl <= 64 ? search_64(s, drawn, reach, alpha, beta, left)
                       : search_128(s, drawn, reach, alpha, beta, left);
}
static inline int child(Core *s, u128 drawn, u128 reach, int line, int left, int alpha,
                        int beta) {
    return s->nl <= 64 ? child_64(s, drawn, reach, line, left, alpha, beta)
                       : child_128(s, drawn, reach, line, left, alpha, beta);
}
#endif
/* _tablefile.c: the table's file */
void empty_table(Core *self);
PyObject *Core_save_table(Core *self, PyObject *file);
PyObject *Core_load_table(Core *self, PyObject *file);
PyObject *Core_save_entries(Core *self, PyObject *args);
PyObject *Core_load_entries(Core *self, PyObject *file);
/* _solve.c: the type's methods */
PyObject *Core_solve(Core *self, PyObject *args, PyObject *kw);
PyObject *Core_cancel(Core *self, PyObject *unused);
PyObject *Core_clear(Core *self, PyObject *unused);
PyObject *Core_stats(Core *self, PyObject *unused);
PyObject *Core_passes(Core *self, PyObject *unused);
PyObject *Core_walk(Core *self, PyObject *unused);
PyObject *Core_probe(Core *self, PyObject *arg);
PyObject *Core_loony(Core *self, PyObject *arg);
PyObject *Core_canonical(Core *self, PyObject *arg);
PyObject *Core_draw(Core *self, PyObject *args);
PyObject *Core_legal(Core *self, PyObject *args);
PyObject *Core_reach_after(Core *self, PyObject *args);
/* _mcts.c */
PyObject *Core_random_playouts(Core *self, PyObject *args);
PyObject *Core_uct(Core *self, PyObject *args, PyObject *kw);
PyObject *Core_mcts(Core *self, PyObject *args, PyObject *kw);

#endif
