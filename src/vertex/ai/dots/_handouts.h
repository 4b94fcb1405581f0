/* ---- the handouts worth searching ------------------------------------------------------------
 * (a part of the search's body, `_search.h`, in the width it is included in) The cells a
 * handout puts on offer, and which handouts are searched: one line per lone cell, one per
 * long run or loop, none of a chain of two from its end (`hard`), and the middle game's cap
 * on what is handed out (`handouts`). */

/* The cells a handout `line` (no capture) puts on offer: from each side it leaves with one
 * side to go, the run of two-sided cells behind it; counted up to `cap`. */
static int handout_size(const Core *s, Bits drawn, const int *rem, int line, int cap) {
    int n = 0;
    int sides[2] = {s->pa[line], s->pb[line]};
    for (int i = 0; i < 2 && n < cap; i++) {
        int cur = sides[i], in = line;
        if (cur == s->nc || rem[cur] != 2) continue;
        for (;;) {
            n++;
            if (n >= cap) break;
            Bits f = s->cmask[cur] & ~drawn & ~BIT(in);
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

/* A line that hands out one lone cell: is it the first such line of its cell? (after the
 * forced capture every one of them gives the same position: one is searched). */
static inline int first_for_cell(const Core *s, const int *rem, int line, Bits *given) {
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
static int long_run(const Core *s, Bits drawn, const int *rem, int c, int *id) {
    int n = 1, least = c, ends[2];
    Bits f = s->cmask[c] & ~drawn;
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
static inline int first_for_run(const Core *s, Bits drawn, const int *rem, int line, Bits *runs) {
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
static int label_runs(const Core *s, Bits drawn, const int *rem, Bits two, Runs *r) {
    int nr = 0;
    for (Bits todo = two; todo; todo &= todo - 1) {
        int c = lowbit(todo);
        if (!(two & BIT(c))) continue; /* labelled with an earlier cell's run */
        Bits f = s->cmask[c] & ~drawn;
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
                Bits g = s->cmask[nxt] & ~drawn;
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
static inline int run_first(const Core *s, const Runs *r, const int *rem, int line, Bits *seen) {
    int c = rem[s->pa[line]] == 2 ? s->pa[line] : s->pb[line];
    const Run *run = &r->run[r->of[c]];
    if (!run->loop && !(run->len >= 3 && run->apart)) return 1;
    if (*seen & BIT(run->least)) return 0;
    *seen |= BIT(run->least);
    return 1;
}

/* The handouts worth searching (g1: lines with a two-sided cell on one side, g2: on both;
 * two: the two-sided cells), appended to moves[0..n) but for `skip`; the new count. The
 * middle game (quiet lines left, `quiet`), pruned: no handout of `handout` cells or more,
 * none at all while more than `sac_quiet` quiet lines are left, and of the lines that hand
 * out one cell alone one per cell (after the forced capture they give the same position).
 * `hard`: a chain of two handed out from its end is dominated by its middle line (the same
 * cells, and the taker cannot decline them) — with one line per lone cell exact, and used in
 * the exact search. There, floor[line] for a chain of k >= 3 cells handed out from an end:
 * k - 2, the least the taker gets (all but the last two, then `declinable`; a cell on the
 * line's other side that the line leaves with two sides to go only makes the run longer). */
static int handouts(Core *s, Bits drawn, const int *rem, Bits two, int nq, const int *g1,
                    int n1, const int *g2, int n2, int skip, int *moves, int n,
                    int8_t *floor) {
    /* the skipped line (searched first) counts as its run's */
    int runs_on = s->hard && s->chains;
    Bits runs = 0;
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
        Bits given = 0;
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
    Bits given = 0;
    for (int i = 0; i < n1; i++) {
        int line = g1[i];
        if (line == skip) continue;
        if (hard) {
            int k = SIZE(line, 16);
            if (k == 2) continue;
            if (k == 1 && !first_for_cell(s, rem, line, &given)) continue;
            if (k >= 3 && runs_on && !FIRST_RUN(line)) continue;
            size[n] = k;
            if (k >= 3) floor[line] = (int8_t)(k - 2);
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
