/* The compiled core of the Dots family: the Python type (a board's tables built and freed)
 * and the module. The rest is in the files `_core.h` lists. */
#include "_core.h"

int from_py(PyObject *obj, u128 *out) {
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

PyObject *to_py(u128 x) {
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

/* ---- the Python type ------------------------------------------------------------------------ */
static void free_tt(Core *self);

/* `ordtab` from `order` (a new table: the caller frees the old one); -1: no memory. */
int build_ordtab(Core *self) {
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
    self->inclass = 0;
    memset(self->lineclass, -1, sizeof self->lineclass);
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
                self->inclass |= BIT(members[i]);
                self->lineclass[members[i]] = (int8_t)c;
                self->classlow[c][i + 1] = self->classlow[c][i] | BIT(members[i]);
            }
        }
    }
    if (!self->jpos) self->jpos = jpos_new();
    if (!self->lmemo) {
        self->lmemo = PyMem_RawCalloc(LMEMO, sizeof(LMemo));
        if (!self->lmemo || !self->jpos) {
            PyErr_NoMemory();
            return -1;
        }
    }
    return alloc_tt(self, bytes);
}

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
     "quiet lines are left); alone: runs of two-sided cells keyed by their lengths below the "
     "root (-1: both kinds where every cell has three sides, else none; 0: none; 1: runs "
     "alone; 3: runs alone and runs hanging from a junction)"},
    {"loony", (PyCFunction)Core_loony, METH_O,
     "loony(drawn) -> (value, exact) for the player to move in a loony position, or None"},
    {"probe", (PyCFunction)Core_probe, METH_O,
     "probe(drawn) -> (lo, hi, line) the table holds for the position, or None"},
    {"cancel", (PyCFunction)Core_cancel, METH_NOARGS, "stop a running search (any thread)"},
    {"clear", (PyCFunction)Core_clear, METH_NOARGS, "empty the transposition table"},
    {"stats", (PyCFunction)Core_stats, METH_NOARGS, "search counters and table size"},
    {"passes", (PyCFunction)Core_passes, METH_NOARGS,
     "passes() -> [(seconds, lower, upper, thread)]: the last value search's passes that "
     "ended, on any thread (0: the main one), as they ended: the root's bounds proved so far"},
    {"walk", (PyCFunction)Core_walk, METH_NOARGS,
     "walk() -> (beta, best, [(line, at, of), ...]) or None: where the running search is (from "
     "its progress poll): the pass's null window, whether it is the best-move pass, and at "
     "each of the first plies the line searched, its place and the node's count of lines"},
    {"save_table", (PyCFunction)Core_save_table, METH_O,
     "save_table(file) writes the table's entries to a file (a file object or descriptor)"},
    {"load_table", (PyCFunction)Core_load_table, METH_O,
     "load_table(file) -> entries stored: the table's entries read back from a file"},
    {"save_entries", (PyCFunction)Core_save_entries, METH_VARARGS,
     "save_entries(file, min_work) -> entries written: those settled by at least "
     "2**(min_work - 1) positions, each with its place in the table"},
    {"load_entries", (PyCFunction)Core_load_entries, METH_O,
     "load_entries(file) -> entries stored: the table emptied, then filled from save_entries"},
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
