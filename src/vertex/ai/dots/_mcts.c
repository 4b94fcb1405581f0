/* The Monte Carlo searches: random playouts, plain UCT (for speed comparisons) and the
 * computer players' MCTS with chain-aware playouts (`_core.h`). */
#include "_core.h"

/* A tree node's next child: one of its untried lines at random, taken off the list. */
static inline int take_untried(u128 *untried, uint64_t *st) {
    int pick = (int)(xorshift(st) % (uint64_t)popc(*untried));
    u128 m = *untried;
    while (pick--) m &= m - 1;
    int line = lowbit(m);
    *untried &= ~BIT(line);
    return line;
}

PyObject *Core_random_playouts(Core *self, PyObject *args) {
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

PyObject *Core_uct(Core *self, PyObject *args, PyObject *kw) {
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
        /* at least one simulation, however late the call: a root with no child has no line */
        if (stop > 0 && done && !(done & 255) && now_s() > stop) break;
        int at = 0, depth = 0;
        path[depth++] = 0;
        for (;;) {
            UNode *nd = &tree[at];
            if (nd->untried) {
                if (used >= cap) break;
                int line = take_untried(&nd->untried, &st);
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
 * distinct chain or loop (`loony_components`, in `endgame.components`' order), as
 * `Component.opening_line` opens them (a 2-chain in the middle, else at its first line). 0
 * when the position is not one. */
static u128 loony_openings(const Core *s, u128 drawn, const int *rem) {
    Comp comps[MAXC];
    uint8_t kinds[2][MAXC + 1];
    u128 out = 0;
    int n = loony_components(s, drawn, rem, comps);
    memset(kinds, 0, sizeof kinds);
    for (int i = 0; i < n; i++) {
        const Comp *k = &comps[i];
        if (kinds[k->loop][k->size]) continue;
        kinds[k->loop][k->size] = 1;
        out |= BIT(!k->loop && k->size == 2 ? k->second : k->first);
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
PyObject *Core_mcts(Core *self, PyObject *args, PyObject *kw) {
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
        /* at least one simulation, however late the call (a loaded box can be past `stop`
         * already): a root with no child would leave the player no line */
        if (stop > 0 && done && !(done & 63) && now_s() > stop) break;
        int at = 0, depth = 0;
        path[depth++] = 0;
        for (;;) {
            MNode *nd = &tree[at];
            if (nd->untried) {
                if (used >= cap) break;
                int line = take_untried(&nd->untried, &st);
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
