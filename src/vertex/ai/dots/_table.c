/* Canonical keys, the transposition table and stopping a search (`_core.h`). */
#include "_core.h"

/* ---- canonical keys ----------------------------------------------------------------------- */

/* The table key of `d`; *sym: the symmetry that gives it (-1: none). */
u128 canon(const Core *s, u128 d, int *sym) {
    u128 best = pack(s, d);
    const u128 *tab = s->symtab;
    *sym = -1;
    if (!s->symon) return best;
    if (s->symtab64) { /* 64 lines or fewer: half the table, the same images */
        for (int k = 0; k < s->nsym; k++) {
            if (!(s->symon >> k & 1)) continue;
            u128 key = pack(s, (u128)image64(s, k, (uint64_t)d));
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
int probe(Core *s, u128 key, int *lo, int *hi, int *move) {
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
void store(Core *s, u128 key, int lo, int hi, int work, int move) {
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


/* ---- stopping ----------------------------------------------------------------------------- */
void check_stop(Core *s) {
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
