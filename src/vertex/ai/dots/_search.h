/* The exact search and the middle game's pruned one: chains on offer, handouts, negamax
 * on the transposition table (`_core.h`).
 *
 * One body, built in two widths (`_search64.c`, `_search128.c`): its sets of lines and of
 * cells (`Bits`) are 64-bit words on boards of up to 64 lines, which are most boards played,
 * and 128-bit elsewhere. A 128-bit set costs two instructions an operation and a branch for
 * its lowest bit; in 64 bits the same search runs about a quarter fewer instructions.
 * Keys stay 128-bit (`canon`, the table): their top half carries the keyed runs' codes.
 * `search` and `child` (`_core.h`) pick the width by the board. Its parts, included below
 * in the same width: `_handouts.h`, `_alone.h`, `_images.h`. */
#ifndef W
#error "_search.h is included by _search64.c and _search128.c, with W set"
#endif
#include "_core.h"

#if W == 64
typedef uint64_t Bits;
/* the same names as the 128-bit ones (`_core.h`), for this body only */
#undef BIT
#define BIT(i) (((uint64_t)1) << (i))
#define lowbit(x) __builtin_ctzll(x)
#define popc(x) __builtin_popcountll(x)
#define WIDE(f) f##_64
#else
typedef u128 Bits;
#define WIDE(f) f##_128
#endif

/* The cells with one side to go, and with two: kept beside the counts so that a node sorts
 * its lines by cells, not line by line */
typedef struct {
    Bits one, two;
} Sides;

/* ---- chains on offer ------------------------------------------------------------------------ */
/* The run of cells a capture line L opens (after the safe captures, its rem-1 cell's far side
 * is a cell with two sides to go): walk it to its end. Berlekamp's all-but-two: from a run of
 * cells on offer the mover either takes one more cell or, with exactly two left before the
 * ground (four with both ends open), declines them by the middle line; moving elsewhere
 * while cells are on offer never does better (take them first, then make that move).
 * Writes the moves worth searching into out and returns how many; 1 when only the capture. */
static int run_moves(const Core *s, Bits drawn, const int *rem, int L, int *out) {
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

/* Whether a run of cells on offer may be declined (run_moves: two ways; Berlekamp's rule
 * leaves n = 2 cells of a run with one end on offer, 4 with both). Then the mover gets at
 * least 0 from here: taking the run and declining it end in the same position G (the same
 * lines drawn, as the other side takes what is declined: a line that only completes cells
 * is never worse to draw), with the other side to move there instead, so the two are
 * worth n + V and -n - V for G's value V to its mover, and one of them is at least 0.
 * A null window at or below 0 ends here unsearched: a quarter of the positions on
 * Triangles 6, most of them answers to a handout searched only to be refuted. */
static int declinable(const Core *s, Bits drawn, const int *rem, Bits one) {
    Bits caps = 0;
    for (; one; one &= one - 1) caps |= s->cmask[lowbit(one)];
    caps &= s->all & ~drawn;
    int two[2];
    for (; caps; caps &= caps - 1)
        if (run_moves(s, drawn, rem, lowbit(caps), two) == 2) return 1;
    return 0;
}

#include "_handouts.h"
#include "_alone.h"
#include "_images.h"

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

static int search_rem(Core *s, Bits drawn, Bits reach, int alpha, int beta, int left, int *rem,
                      Sides k);

/* The search after `line`; `prem`, `pk`: the sides to go before it (NULL: counted anew),
 * so that a child's count is its parent's less the line's two cells. */
static int search(Core *s, Bits drawn, Bits reach, int alpha, int beta, int left);
static int child(Core *s, Bits drawn, Bits reach, int line, int left, int alpha, int beta,
                 const int *prem, Sides pk) {
    Bits after = drawn | BIT(line);
    int k = gains(s, after, line);
    Bits r2 = s->touch ? (reach | s->reach_of[line]) : reach;
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

/* The lines of `mask` in `order` (the search's move order) into out; how many. */
static inline int in_order(const Core *s, Bits mask, int *out) {
    if (!mask) return 0;
    Bits places = 0;
    int n = 0;
    for (int j = 0; j < s->nchunk; j++)
        places |= s->ordtab[j * 256 + (unsigned)((mask >> (8 * j)) & 255)];
    while (places) {
        out[n++] = s->order[lowbit(places)];
        places &= places - 1;
    }
    return n;
}

/* The entries of the positions after each lone cell handed out by `lines` is taken (the
 * capture is forced: `search_rem`), fetched at once before the handouts are searched, as the
 * transposition cut-off fetches the quiet lines': else each one's probe waits on memory in
 * turn. On 4×4 from ply 8 six in ten probes are of positions after a capture, most of them
 * after a lone cell's, at some 170 cycles a probe against 40 for one fetched before. The
 * keys are made as the node will make them (`alone_here`), for the first FETCH_CAP
 * handouts only: the first one often refutes, and on Triangles 6 (its probes cheaper, its
 * keys dearer) fetching them all cost 2-6% where 4×4 gained 10%. */
#define FETCH_CAP 3
static void fetch_lone(Core *s, Bits drawn, int *rem, const int *lines, int n, Alone *alone,
                       int nalone, int listed
#if W == 64
                       , const Images *im
#endif
) {
    for (int i = 0; i < n; i++) {
        int L = lines[i], a = s->pa[L], b = s->pb[L], c, x;
        if (rem[a] == 2 && (b == s->nc || rem[b] != 2)) {
            c = a;
            x = b;
        } else if (b < s->nc && rem[b] == 2 && rem[a] != 2) {
            c = b;
            x = a;
        } else
            continue; /* two-sided cells on both sides */
        Bits f = s->cmask[c] & ~drawn & ~BIT(L);
        if (!f) continue;
        int M = lowbit(f), y = across(s, M, c); /* the taker's line */
        if (y < s->nc && rem[y] <= 2) continue; /* a longer run */
        Bits after = drawn | BIT(L) | BIT(M);
        u128 key;
        int sym;
        if (listed) {
            Bits cells = 0;
            int nm;
            rem[c] -= 2;
            if (x < s->nc) {
                rem[x]--;
                cells |= BIT(x);
            }
            if (y < s->nc) {
                rem[y]--;
                cells |= BIT(y);
            }
            key = key_after(s, after, rem, cells, BIT(L) | BIT(M), alone, nalone, &nm, &sym);
            rem[c] += 2;
            if (x < s->nc) rem[x]++;
            if (y < s->nc) rem[y]++;
        } else {
#if W == 64
            Images one = *im;
            images_plus(s, &one, L);
            key = least_image(s, &one, M, &sym);
#else
            key = canon(s, after, &sym);
#endif
        }
        __builtin_prefetch(&s->tt[bucket_of(s, (uint64_t)key, (uint64_t)(key >> 64))]);
    }
}

static int node(Core *s, Bits drawn, Bits reach, int alpha, int beta, int left, int *rem,
                Sides sd) {
    if (left <= alpha) return left;
    if (-left >= beta) return -left;
    s->nodes++;
    if (!(s->nodes & 4095)) check_stop(s);
    if (s->stopped) return 0;
    if (s->chains && sd.one && beta <= 0 && s->ply && declinable(s, drawn, rem, sd.one))
        return to_parity(s, 0, left, 1);
    uint64_t nodes0 = s->nodes;
    int sym, ttmove = -1;
    Alone alone[ALONE_LIST];
    /* the runs keyed by their lengths (alone, or hanging from a junction): listed below the
     * root where no cell is on offer; the children are handed this node's list, or else the
     * one it was handed */
    const Alone *pal = s->pal;
    int pnal = s->pnal;
    Bits pdrawn = s->pdrawn;
    int listed = W == 64 && s->alone && s->ply && !sd.one; /* (runs: 64 lines or fewer) */
    int nalone = listed ? alone_here(s, drawn, rem, sd.two, alone) : 0;
    if (listed) {
        pal = alone;
        pnal = nalone;
        pdrawn = drawn;
    }
    /* A position with cells on offer below the root is not kept in the table: its lines
     * (`run_moves`) lead to the position after the run, with one side or the other to move
     * (`declinable`), and that one is kept. Fewer entries, and no probe that misses: 3-10%
     * faster, with 1-6% more positions searched (Triangles 6, 4×4). */
    int kept = !(s->chains && sd.one && s->ply);
    Bits keyed = 0; /* the lines of the runs in the key */
    u128 key = 0;
    sym = -1;
#if W == 64
    Images im; /* (the children's keys are made from these) */
    images_here(s, drawn, &im);
#endif
    if (kept) {
#if W == 64
        if (!nalone)
            key = least_image(s, &im, -1, &sym);
        else
#endif
            key = alone_key(s, drawn, alone, nalone, nalone, 0, &sym, &keyed);
    }
    int lo = -left, hi = left;
    s->lookups += kept;
    int elo, ehi, emove;
    if (kept && probe(s, key, &elo, &ehi, &emove)) {
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
    Bits free = s->all & ~drawn;
    if (s->touch) free &= reach;
    int moves[MAXL], ncap = 0, nq = 0, n1 = 0, n2 = 0;
    int defer = 0, skip = -1;
    int quiet[MAXL], g1[MAXL], g2[MAXL];
    /* of lines that bound the same cells only one is searched: the others give the same
     * position (the key packs them alike) */
    Bits same = 0;
    for (int c = 0; c < s->nclass; c++) {
        Bits f = s->classmask[c] & free;
        same |= f & (f - 1);
    }
    /* the free lines by what they do, from the cells with one and two sides to go: the
     * captures, the quiet lines, and the handouts of two-sided cells on one side (g1) or
     * both (g2), each listed in `order` when it is needed */
    Bits cand = free & ~same, capm = 0, seen1 = 0, seen2 = 0;
    for (Bits o = sd.one; o; o &= o - 1) capm |= s->cmask[lowbit(o)];
    capm &= cand;
    for (Bits t = sd.two; t; t &= t - 1) {
        Bits m = s->cmask[lowbit(t)] & cand & ~capm;
        seen2 |= seen1 & m;
        seen1 |= m;
    }
    Bits quietm = cand & ~capm & ~seen1, g1m = seen1 & ~seen2;
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
    Alone kid[W == 64 ? MAXL : 1][2]; /* (none in the 128-bit build: no runs listed) */
    int8_t nkid[W == 64 ? MAXL : 1];
    Bits handed = 0;
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
                int a = s->pa[quiet[i]], b = s->pb[quiet[i]], nm;
                Bits cells = BIT(a) | (b < s->nc ? BIT(b) : 0);
                rem[a]--;
                if (b < s->nc) rem[b]--;
                ck[i] = key_after(s, drawn | BIT(quiet[i]), rem, cells, BIT(quiet[i]), alone,
                                  nalone, &nm, &csym);
                rem[a]++;
                if (b < s->nc) rem[b]++;
                if (nm - nalone <= 2 && nm < ALONE_LIST) { /* not cut short */
                    handed |= BIT(quiet[i]);
                    nkid[quiet[i]] = (int8_t)(nm - nalone);
                    for (int j = nalone; j < nm; j++) kid[quiet[i]][j - nalone] = alone[j];
                }
            } else
#if W == 64
                ck[i] = least_image(s, &im, quiet[i], &csym);
#else
                ck[i] = canon(s, drawn | BIT(quiet[i]), &csym);
#endif
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
        if (np == 2) {
            /* the decline first: with the null window above 0 (at or below it, `declinable`
             * ended the search) it refutes more often than taking all (Triangles 6: 8% fewer
             * positions; 4×4 the same within 1%) */
            int take = picks[0];
            picks[0] = picks[1];
            picks[1] = take;
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
    /* the caller's guess first, where it is still to draw (not a capture the root took) */
    if (!s->ply && s->first >= 0 && (free & BIT(s->first))) ttmove = s->first;
    if (ttmove >= 0 && (!(free & BIT(ttmove)) || (same & BIT(ttmove))))
        for (int c = 0; c < s->nclass; c++) /* an equal line of the same cells */
            if (s->classmask[c] & BIT(ttmove)) {
                Bits f = s->classmask[c] & free;
                ttmove = f ? lowbit(f) : -1;
                break;
            }
    if (ttmove >= 0 && !(free & BIT(ttmove))) ttmove = -1; /* never a line drawn */
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
    Bits deferred = 0;
    int best = -left - 1, a = alpha;
    for (int i = 0;; i++) {
        if (i == n) {
            if (!defer) break;
            defer = 0;
            in_order(s, g1m, g1);
            in_order(s, seen2, g2);
            /* the chains handed out from an end come with the least the other side gets
             * from them: a bound like the cut-off's (`known`) */
            if (!nknown) memset(known, 127, sizeof known);
            nknown = 1;
            n = handouts(s, drawn, rem, sd.two, nq, g1, n1, g2, n2, skip, moves, n, known);
            if (i == n) break;
            if (s->forced && n - i > 1)
                fetch_lone(s, drawn, rem, moves + i, n - i < FETCH_CAP ? n - i : FETCH_CAP,
                           alone, nalone, listed
#if W == 64
                           , &im
#endif
                );
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
#if W == 64
        s->himg = &im;
        s->hdrawn = drawn;
#endif
        /* with helper threads, near the root: a line another thread searches now waits
         * until the others are searched (`inflight`) */
        uint64_t bk = 0;
        if (s->inflight && s->ply < BUSY_PLIES) {
            /* the child's mark: its lines drawn, hashed (not the key: no symmetry or run
             * is worth its cost here) */
            Bits after = drawn | BIT(moves[i]);
            bk = mix((uint64_t)after, (uint64_t)((u128)after >> 64)) | 1;
            int other = 0;
            for (int t = 0; t < s->nthreads; t++)
                other |= t != s->tid && s->inflight[t][s->ply] == bk;
            if (other && i && s->ply && !(deferred & BIT(moves[i])) && n - i > 1) {
                /* another thread searches it: the others first, it at the end; but never
                 * the first line (the eldest son: at a node that cuts off it mostly does,
                 * and the others are then searched for nothing), nor at the root, where
                 * the threads search a line together: a pass that proves the value from
                 * below needs one line, and a thread gone on to the next searched lines
                 * that line then made needless (the value proved from below 8% sooner on
                 * Triangles 6 and Figures 6×6; 4×4 and 5×5 alike: bench/RESULTS.md) */
                int m = moves[i];
                deferred |= BIT(m);
                s->deferred++;
                memmove(moves + i, moves + i + 1, (size_t)(n - i - 1) * sizeof(int));
                moves[n - 1] = m;
                i--;
                continue;
            }
            s->inflight[s->tid][s->ply] = bk;
        }
        if (s->ply < WALK_PLIES && !s->tid) {
            s->walk.step[s->ply] = (Step){moves[i], i, n};
            if (s->ply + 1 < WALK_PLIES) s->walk.step[s->ply + 1].of = 0;
        }
        int v = child(s, drawn, reach, moves[i], left, a, beta, rem, sd);
        if (bk) s->inflight[s->tid][s->ply] = 0;
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
    if (best >= beta || best <= alpha) best = to_parity(s, best, left, best >= beta);
    int work = work_since(s, nodes0);
    if (!kept) return best;
    int cm = bestmove < 0 || sym < 0 ? bestmove : s->perm[sym][bestmove];
    if (best <= alpha)
        store(s, key, lo, best < hi ? best : hi, work, -1);
    else if (best >= beta)
        store(s, key, best > lo ? best : lo, hi, work, cm);
    else
        store(s, key, best, best, work, cm);
    return best;
}

static int search(Core *s, Bits drawn, Bits reach, int alpha, int beta, int left) {
    if (left == 0) return 0;
    s->pal = NULL; /* a root: no ancestor's keyed runs */
    s->hand_line = -1;
    s->himg = NULL;
    int rem[MAXC + 1];
    fill_rem(s, drawn, rem);
    return search_rem(s, drawn, reach, alpha, beta, left, rem, sides_of(s, rem));
}

/* `search` with the sides to go counted (rem, and k: the cells with one and two to go) */
static int search_rem(Core *s, Bits drawn, Bits reach, int alpha, int beta, int left, int *rem,
                      Sides k) {
    if (left == 0) return 0;
    int gain = 0;
    if (s->forced) {
        /* a cell taken without offering another is never worse than anything else; the
         * least such cell first, each time */
        Bits todo = k.one;
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

/* This width's search and child from a root (`search` and `child` in `_core.h`) */
int WIDE(search)(Core *s, u128 drawn, u128 reach, int alpha, int beta, int left) {
    return search(s, (Bits)drawn, (Bits)reach, alpha, beta, left);
}
int WIDE(child)(Core *s, u128 drawn, u128 reach, int line, int left, int alpha, int beta) {
    return child(s, (Bits)drawn, (Bits)reach, line, left, alpha, beta, NULL, (Sides){0, 0});
}
