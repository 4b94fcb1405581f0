/* The exact search and the middle game's pruned one: chains on offer, handouts, negamax
 * on the transposition table (`_core.h`). */
#include "_core.h"

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

/* ---- runs alone, and runs hanging from a junction --------------------------------------------
 * A run of two-sided cells whose ends are both on the ground, or a loop of them, touches no
 * other cell: what is left of the game after it does not depend on where it lies, only on
 * its length and kind (the strings and coins are the same). Below the root such runs are
 * keyed by their lengths: their lines count as drawn and their codes go into the key's
 * bits above the board's 64 lines, so that positions alike but for where their runs lie
 * share one entry. Values are of the game from here on (score-free), so they agree.
 * A run with one end on the ground and the other at a junction (a cell with three sides or
 * more to go), by line `at`, is the same strings and coins wherever its other cells lie
 * (`Core.alone` & 2): its lines but `at` count as drawn (its first cell then shows one side
 * to go, which no listed node has otherwise: no cell is on offer there), and its code goes
 * into the key in the order of the lines `at` under the key's symmetry, so that each such
 * cell of the key has its own length. */
#define ALONE_MAX 4 /* runs in a key (the longest; the others keep their places) */
#define ALONE_LIST 24
#define NOWHERE 255 /* `at` of a run alone: it hangs from nothing */

typedef struct AloneS {
    uint64_t lines; /* the lines that count as drawn in the key (boards of up to 64 lines) */
    uint64_t watch; /* lines whose drawing ends the run as listed: its own and its junction's */
    uint8_t code, least, at; /* code: the cells, plus 128 for a loop; at: see above */
} Alone;


/* The run through two-sided cell c, marked in *seen: 1 when it is alone or hangs from a
 * junction (`hang`: keyed so too), written to *out. In 64 bits: runs are keyed on boards of
 * up to 64 lines (so of fewer cells), and the walks are most of their cost. */
static int alone_run(const Core *s, uint64_t drawn, const int *rem, int c, uint64_t *seen,
                     int hang, Alone *out) {
    uint64_t f = (uint64_t)s->cmask[c] & ~drawn, cells = 1ULL << c, lines = f;
    int first[2] = {__builtin_ctzll(f), __builtin_ctzll(f & (f - 1))};
    int n = 1, least = c, loop = 0, ok = 1;
    int junction[2] = {-1, -1}, at[2] = {-1, -1}; /* each end's junction cell and its line */
    for (int d = 0; d < 2 && !loop && ok; d++) {
        int cur = c, line = first[d];
        for (;;) {
            int nxt = across(s, line, cur);
            if (nxt == c) {
                loop = 1;
                break;
            }
            if (nxt == s->nc) break; /* the ground */
            if (rem[nxt] >= 3 && hang) {
                junction[d] = nxt;
                at[d] = line;
                break;
            }
            if (rem[nxt] != 2 || (cells >> nxt & 1)) {
                ok = 0;
                break;
            }
            uint64_t g = (uint64_t)s->cmask[nxt] & ~drawn;
            int out_line = __builtin_ctzll(g & ~(1ULL << line));
            if (across(s, out_line, nxt) == cur) { /* two cells that share two lines */
                ok = 0;
                break;
            }
            cells |= 1ULL << nxt;
            lines |= g;
            n++;
            if (nxt < least) least = nxt;
            line = out_line;
            cur = nxt;
        }
        if (junction[0] >= 0 && junction[1] >= 0) ok = 0; /* between junctions: by place */
    }
    /* a run keyed by place is left as soon as that is seen: any walk of it finds the same,
     * so no run is listed twice */
    *seen |= cells;
    if (!ok || (loop && n < 3) || n > 63) return 0;
    int d = junction[0] >= 0 ? 0 : junction[1] >= 0 ? 1 : -1;
    out->code = (uint8_t)((loop << 7) | n);
    out->least = (uint8_t)least;
    out->at = NOWHERE;
    out->lines = out->watch = lines;
    if (d >= 0) {
        /* one cell hanging lies where it lies (across `at`, its other line to the ground):
         * nothing to share; of lines that bound the same cells (the key packs them alike)
         * it would not tell which */
        if (n < 2 || (s->inclass & BIT(at[d]))) return 0;
        out->code = (uint8_t)(64 | n);
        out->at = (uint8_t)at[d];
        out->lines = lines & ~(1ULL << at[d]);
        out->watch = lines | ((uint64_t)s->cmask[junction[d]] & ~drawn);
    }
    return 1;
}

/* The runs alone or hanging (`Core.alone` & 2) through `cells` (those two-sided, each run
 * once), after the n in out (at most ALONE_LIST in all); the new count. */
static int alone_from(const Core *s, u128 drawn, const int *rem, u128 cells, Alone *out, int n) {
    uint64_t seen = 0, d = (uint64_t)drawn;
    int hang = s->alone & 2;
    for (uint64_t t = (uint64_t)cells; t && n < ALONE_LIST; t &= t - 1) {
        int c = __builtin_ctzll(t);
        if (rem[c] != 2 || (seen >> c & 1)) continue;
        /* most often both its lines lead to cells with three sides or more to go: a run
         * between junctions, keyed by place */
        uint64_t f = (uint64_t)s->cmask[c] & ~d;
        int x = across(s, __builtin_ctzll(f), c), y = across(s, __builtin_ctzll(f & (f - 1)), c);
        if (x != s->nc && y != s->nc && rem[x] >= 3 && rem[y] >= 3) continue;
        n += alone_run(s, d, rem, c, &seen, hang, &out[n]);
    }
    return n;
}

/* The order in which runs are picked for a key: longer first, then runs alone, then by least
 * cell */
static int before(const Alone *x, const Alone *y) {
    int lx = x->code & 63, ly = y->code & 63;
    if (lx != ly) return lx > ly;
    if ((x->at == NOWHERE) != (y->at == NOWHERE)) return x->at == NOWHERE;
    return x->least < y->least;
}

/* Runs r[ns..n) put in order (`before`) among r[0..ns), which are in order */
static void in_place(Alone *r, int ns, int n) {
    for (int i = ns; i < n; i++) {
        Alone x = r[i];
        int j = i;
        for (; j > 0 && before(&x, &r[j - 1]); j--) r[j] = r[j - 1];
        r[j] = x;
    }
}

/* The key of `drawn` with runs `runs` (runs[0..ns) in order, `before`; those with a line in
 * `gone` are not this position's): the ALONE_MAX longest drawn, their codes in bits 64..95
 * (the part of a key's top half the table keeps on boards of up to 64 lines): the runs
 * alone's from the largest down, then the hanging runs' by their lines `at` as the key has
 * them; *keyed: their lines. */
static u128 alone_key(const Core *s, u128 drawn, const Alone *runs, int ns, int n, u128 gone,
                      int *sym, u128 *keyed) {
    *keyed = 0;
    if (!n) return canon(s, drawn, sym);
    const Alone *pick[ALONE_MAX];
    int np = 0, i = 0;
    for (; i < ns && np < ALONE_MAX; i++)
        if (!(runs[i].watch & gone)) pick[np++] = &runs[i];
    for (i = ns; i < n; i++) {
        const Alone *r = &runs[i];
        int j = np < ALONE_MAX ? np++ : ALONE_MAX;
        while (j > 0 && before(r, pick[j - 1])) { /* insertion; the last falls off */
            if (j < ALONE_MAX) pick[j] = pick[j - 1];
            j--;
        }
        if (j < ALONE_MAX) pick[j] = r;
    }
    uint64_t lines = 0;
    for (int i = 0; i < np; i++) lines |= pick[i]->lines;
    *keyed = lines;
    u128 key = canon(s, drawn | lines, sym);
    /* alone codes (1..63, loops 128..191) and hanging ones (64..127) tell themselves apart,
     * so the list reads back one way: alone by code down, then hanging by where they hang */
    uint8_t code[ALONE_MAX];
    int where[ALONE_MAX];
    for (int i = 0; i < np; i++) {
        const Alone *r = pick[i];
        code[i] = r->code;
        where[i] = r->at == NOWHERE ? -256 - r->code : *sym < 0 ? r->at : s->perm[*sym][r->at];
    }
    for (int i = 1; i < np; i++)
        for (int j = i; j > 0 && where[j - 1] > where[j]; j--) {
            int w = where[j];
            where[j] = where[j - 1];
            where[j - 1] = w;
            uint8_t c = code[j];
            code[j] = code[j - 1];
            code[j - 1] = c;
        }
    uint64_t sig = 0;
    for (int i = 0; i < np; i++) sig = (sig << 8) | code[i];
    return key | ((u128)sig << 64);
}

/* The runs of a node: those of the nearest ancestor that listed its own (`Core.pal`) where
 * no line they watch was drawn since, and the runs through the cells of the lines drawn
 * since and through the runs dropped, where now two-sided (a run alone or hanging here and
 * not there has such a cell; those the parent's cut-off found for this line, `hand`); with no
 * such ancestor, all walked. In order (`before`): an ancestor's list keeps its order, so
 * each key picks its runs from the front. */
static int alone_here(Core *s, u128 drawn, const int *rem, u128 two, Alone *out) {
    if (!s->pal) {
        int n = alone_from(s, drawn, rem, two, out, 0);
        in_place(out, 0, n);
        return n;
    }
    u128 since = drawn & ~s->pdrawn, cells = 0;
    int handed = s->hand_line >= 0 && since == BIT(s->hand_line);
    int n = 0;
    for (int i = 0; i < s->pnal; i++) {
        if (!(s->pal[i].watch & since))
            out[n++] = s->pal[i];
        else
            cells |= BIT(s->pal[i].least);
    }
    int kept = n;
    if (handed) { /* the parent's cut-off walked them */
        for (int i = 0; i < s->nhand; i++) out[n++] = s->hand[i];
        in_place(out, kept, n);
        return n;
    }
    for (u128 t = since; t; t &= t - 1) {
        int line = lowbit(t);
        cells |= BIT(s->pa[line]);
        if (s->pb[line] < s->nc) cells |= BIT(s->pb[line]);
    }
    n = alone_from(s, drawn, rem, cells & two, out, n);
    in_place(out, kept, n);
    return n;
}

/* ---- search -------------------------------------------------------------------------------- */

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

static int search_rem(Core *s, u128 drawn, u128 reach, int alpha, int beta, int left, int *rem,
                      Sides k);

/* The search after `line`; `prem`, `pk`: the sides to go before it (NULL: counted anew),
 * so that a child's count is its parent's less the line's two cells. */
int child(Core *s, u128 drawn, u128 reach, int line, int left, int alpha, int beta,
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
    Alone alone[ALONE_LIST];
    /* the runs keyed by their lengths (alone, or hanging from a junction): listed below the
     * root where no cell is on offer; the children are handed this node's list, or else the
     * one it was handed */
    const Alone *pal = s->pal;
    int pnal = s->pnal;
    u128 pdrawn = s->pdrawn;
    int listed = s->alone && s->ply && !sd.one;
    int nalone = listed ? alone_here(s, drawn, rem, sd.two, alone) : 0;
    if (listed) {
        pal = alone;
        pnal = nalone;
        pdrawn = drawn;
    }
    u128 keyed; /* the lines of the runs in the key */
    u128 key = alone_key(s, drawn, alone, nalone, nalone, 0, &sym, &keyed);
    int lo = -left, hi = left;
    s->lookups++;
    int elo, ehi, emove;
    if (probe(s, key, &elo, &ehi, &emove)) {
        s->hits++;
        if (emove != 255) ttmove = sym < 0 ? emove : s->inv[sym][emove];
        /* an entry shared with positions whose keyed runs lie elsewhere: its line is this
         * position's own only where neither has a keyed run (there the two are the same;
         * a line `at` is the same line in both); elsewhere it may be drawn here, or open
         * another run */
        if (ttmove >= 0 && keyed && ((keyed | drawn) & BIT(ttmove))) ttmove = -1;
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
    /* the runs each quiet line's child adds, found below (up to two; the others walk) */
    Alone kid[MAXL][2];
    int8_t nkid[MAXL];
    u128 handed = 0;
    if (!ncap && nq > 1) {
        /* enhanced transposition cut-off: a quiet line whose position is known to refute
         * ends the search here; the children's entries are fetched all at once */
        u128 ck[MAXL];
        int kids = listed; /* the children's keys as they key themselves */
        for (int i = 0; i < nq; i++) {
            int csym;
            if (kids) {
                /* as `alone_here` finds them: this node's but those the line ends, and
                 * through the line's cells and theirs (written after this node's own,
                 * which stay as they are) */
                int a = s->pa[quiet[i]], b = s->pb[quiet[i]];
                u128 cells = BIT(a) | (b < s->nc ? BIT(b) : 0), ckeyed, gone = BIT(quiet[i]);
                for (int j = 0; j < nalone; j++)
                    if (alone[j].watch & gone) cells |= BIT(alone[j].least);
                rem[a]--;
                if (b < s->nc) rem[b]--;
                int nm = alone_from(s, drawn | BIT(quiet[i]), rem, cells, alone, nalone);
                rem[a]++;
                if (b < s->nc) rem[b]++;
                ck[i] = alone_key(s, drawn | BIT(quiet[i]), alone, nalone, nm, gone, &csym,
                                  &ckeyed);
                if (nm - nalone <= 2 && nm < ALONE_LIST) { /* not cut short */
                    handed |= BIT(quiet[i]);
                    nkid[quiet[i]] = (int8_t)(nm - nalone);
                    for (int j = nalone; j < nm; j++) kid[quiet[i]][j - nalone] = alone[j];
                }
            } else
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
        s->pal = pal; /* `alone_here` */
        s->pnal = pnal;
        s->pdrawn = pdrawn;
        s->hand_line = -1;
        if (handed & BIT(moves[i])) {
            s->hand = kid[moves[i]];
            s->nhand = nkid[moves[i]];
            s->hand_line = moves[i];
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

int search(Core *s, u128 drawn, u128 reach, int alpha, int beta, int left) {
    if (left == 0) return 0;
    s->pal = NULL; /* a root: no ancestor's keyed runs */
    s->hand_line = -1;
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
