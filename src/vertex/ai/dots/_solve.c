/* The methods that run a search or read its table: solve (MTD(f), the best-move pass, helper
 * threads), cancel, clear, stats, probes of one position (`_core.h`). */
#include "_core.h"

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
        self->walk = (Walk){.beta = beta};
        g = search(self, drawn, reach, beta - 1, beta, left);
        g = to_parity(self, g, left, g >= beta); /* the next pass two cells on, not one */
        if (g < beta)
            upper = g;
        else
            lower = g;
        if (!self->stopped && self->plog) {
            PassLog *log = self->plog;
            int i = __atomic_fetch_add(&log->n, 1, __ATOMIC_RELAXED);
            if (i < MAXPASS) log->pass[i] = (Pass){now_s() - log->t0, lower, upper, self->tid};
        }
    }
    return g;
}

/* ---- helper threads (lazy SMP): the same search with other first guesses and move orders,
 * sharing the table, so that each finds what the others will ask for ---------------------- */
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
        if (!s->tid)
            s->walk = (Walk){.beta = job->g, .best = 1, .step = {{job->lines[i], i, job->n}}};
        int v = child(s, drawn, reach, job->lines[i], left, job->g - 1, job->g);
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
        h->c.jpos = jpos_new();
        if (!h->c.lmemo || !h->c.jpos) {
            PyMem_RawFree(h->c.lmemo);
            PyMem_RawFree(h->c.jpos);
            break;
        }
        h->c.nodes = h->c.lookups = h->c.hits = h->c.stored = h->c.deferred = 0;
        h->c.poll = NULL;
        h->c.halt = halt;
        h->c.cancel = 0;
        h->c.stopped = 0;
        h->c.err_type = h->c.err_value = h->c.err_tb = NULL;
        memset(h->c.hist, 0, sizeof h->c.hist);
        h->c.history = t & 1;
        h->c.tid = t + 1;
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
        /* beside the main thread's guess, two cells apart (a value has the parity of the
         * cells to go, so one cell apart is the same test where that is odd): with the value
         * guessed right, the main thread proves it from below while the first helper proves
         * it from above */
        h->guess = guess + (t % 2 ? -1 : 1) * 2 * (t / 2 + 1);
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
        self->deferred += hs[t].c.deferred;
        self->lookups += hs[t].c.lookups;
        self->hits += hs[t].c.hits;
        self->stored += hs[t].c.stored;
    }
}

PyObject *Core_solve(Core *self, PyObject *args, PyObject *kw) {
    static char *names[] = {"drawn", "reach", "deadline", "poll", "best", "mtdf", "history",
                            "chains", "threads", "guess", "quiet", "handout", "sac_quiet",
                            "junctions", "hard", "stabilizer", "alone", "first", NULL};
    PyObject *drawn_o, *reach_o, *deadline = Py_None, *poll = Py_None;
    int want_best = 1, mtdf = 1, history = 0, chains = 1, threads = 1, guess = 0, quiet = 0;
    int handout = 3, sac_quiet = MAXL, junctions = 0, hard = 0,
        stabilizer = 0, alone = -1, first = -1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|OOppppiiiiipppii", names, &drawn_o, &reach_o,
                                     &deadline, &poll, &want_best, &mtdf, &history, &chains,
                                     &threads, &guess, &quiet, &handout, &sac_quiet, &junctions, &hard,
                                     &stabilizer, &alone, &first))
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
    /* runs alone and runs hanging from a junction keyed by their lengths (`_search.c`): by
     * default where every cell has three sides (Dots and Triangles: 1.73x faster, 2.4x
     * fewer positions); on Dots and Boxes (1.4-1.5x fewer positions) the walks cost about
     * what the positions saved do */
    if (alone < 0) {
        alone = 3;
        for (int c = 0; c < self->nc; c++)
            if (popc(self->cmask[c]) != 3) alone = 0;
    }
    self->alone = self->nl <= 64 && !self->touch ? alone & 3 : 0;
    self->pal = NULL;
    self->hand_line = -1;
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
    self->first = first >= 0 && first < self->nl && (free & BIT(first)) ? first : -1;
    Py_BEGIN_ALLOW_THREADS;
    volatile int halt = 0;
    Helper *hs = NULL;
    int nh = 0;
    volatile uint64_t inflight[MAXTHREADS][BUSY_PLIES];
    memset((void *)inflight, 0, sizeof inflight);
    self->inflight = NULL;
    self->tid = 0;
    self->nthreads = threads;
    self->log.n = 0;
    self->log.t0 = now_s();
    self->plog = &self->log;
    self->walk = (Walk){0};
    if (threads > 1 && mtdf && !self->khi) {
        /* (the helpers copy it). Not in the pruned search: its table's bounds are not exact,
         * so its line came to depend on the order the threads met the lines (a line worth 6
         * to a one-thread search named where 10 was, Triangles 6 bench seed 3) */
        if (!self->quiet) self->inflight = inflight;
        hs = PyMem_RawCalloc((size_t)threads - 1, sizeof(Helper));
        if (hs) nh = start_helpers(self, hs, threads, drawn, reach, left, guess, &halt, NULL);
    }
    g = root_value(self, drawn, reach, left, mtdf, guess);
    if (hs) stop_helpers(self, hs, nh, &halt, 0);
    self->inflight = NULL;
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
    self->walk = (Walk){0};
    if (end_work(self)) return NULL;
    if (stopped) Py_RETURN_NONE;
    PyObject *lst = PyList_New(nbest);
    if (!lst) return NULL;
    for (int i = 0; i < nbest; i++) PyList_SET_ITEM(lst, i, PyLong_FromLong(best[i]));
    return Py_BuildValue("(iN)", g, lst);
}

PyObject *Core_cancel(Core *self, PyObject *unused) {
    self->cancel = 1;
    Py_RETURN_NONE;
}

PyObject *Core_clear(Core *self, PyObject *unused) {
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this solver is searching");
        return NULL;
    }
    empty_table(self);
    Py_RETURN_NONE;
}

PyObject *Core_stats(Core *self, PyObject *unused) {
    return Py_BuildValue(
        "{sKsKsKsKsKsKsKsK}", "nodes", (unsigned long long)self->nodes, "helper_nodes",
        (unsigned long long)self->helper_nodes, "deferred", (unsigned long long)self->deferred,
        "lookups", (unsigned long long)self->lookups,
        "hits", (unsigned long long)self->hits, "stored", (unsigned long long)self->stored,
        "capacity", (unsigned long long)self->tt_entries, "table_bytes",
        (unsigned long long)(self->tt_entries * (sizeof(Entry) + (self->khi ? 4 : 0))));
}

PyObject *Core_passes(Core *self, PyObject *unused) {
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this solver is searching");
        return NULL;
    }
    int n = self->log.n < MAXPASS ? self->log.n : MAXPASS;
    PyObject *lst = PyList_New(n);
    if (!lst) return NULL;
    for (int i = 0; i < n; i++) {
        const Pass *p = &self->log.pass[i];
        PyObject *row = Py_BuildValue("(diii)", p->seconds, p->lower, p->upper, p->tid);
        if (!row) {
            Py_DECREF(lst);
            return NULL;
        }
        PyList_SET_ITEM(lst, i, row);
    }
    return lst;
}

/* Where the search is (`Walk`): None when no value search or best-move pass runs; else
 * (beta, best, [(line, at, of), ...]) for the plies searched now. Read from the search's
 * own thread (its progress poll): the main thread writes it. */
PyObject *Core_walk(Core *self, PyObject *unused) {
    if (!self->busy || !self->walk.step[0].of) Py_RETURN_NONE;
    Walk w = self->walk;
    int n = 0;
    while (n < WALK_PLIES && w.step[n].of) n++;
    PyObject *lst = PyList_New(n);
    if (!lst) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *row = Py_BuildValue("(iii)", w.step[i].line, w.step[i].at, w.step[i].of);
        if (!row) {
            Py_DECREF(lst);
            return NULL;
        }
        PyList_SET_ITEM(lst, i, row);
    }
    return Py_BuildValue("(iNN)", w.beta, PyBool_FromLong(w.best), lst);
}

/* What the table holds for a position: (lo, hi, line) with line the move that refuted or
 * kept the value there (-1: none), in the position's own orientation; None when absent.
 * After a value search (best=False) the root's line keeps the value: the search's last
 * fail-high at the value stored it, and a later fail-low keeps the line found before. */
PyObject *Core_probe(Core *self, PyObject *arg) {
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
PyObject *Core_loony(Core *self, PyObject *arg) {
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

PyObject *Core_canonical(Core *self, PyObject *arg) {
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
PyObject *Core_draw(Core *self, PyObject *args) {
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

PyObject *Core_legal(Core *self, PyObject *args) {
    PyObject *drawn_o, *reach_o;
    if (!PyArg_ParseTuple(args, "OO", &drawn_o, &reach_o)) return NULL;
    u128 drawn, reach;
    if (from_py(drawn_o, &drawn) || from_py(reach_o, &reach)) return NULL;
    u128 free = self->all & ~drawn;
    if (self->touch) free &= reach;
    return to_py(free);
}

PyObject *Core_reach_after(Core *self, PyObject *args) {
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
