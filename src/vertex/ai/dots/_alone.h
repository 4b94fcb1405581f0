/* ---- runs alone, and runs hanging from a junction --------------------------------------------
 * (`Core.alone`; a part of the search's body, `_search.h`, in the width it is included in)
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
static int alone_from(const Core *s, Bits drawn, const int *rem, Bits cells, Alone *out, int n) {
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
static u128 alone_key(const Core *s, Bits drawn, const Alone *runs, int ns, int n, Bits gone,
                      int *sym, Bits *keyed) {
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

/* The key of `after`, lines `gone` on from a node whose runs are runs[0..ns), as that
 * position's node will key itself (`alone_here`): the node's runs but those the lines end,
 * and the runs through `cells` (the cells the lines touch; `rem`: after them) and through the
 * runs dropped, written after runs[ns) (*n: the new count). */
static u128 key_after(const Core *s, Bits after, const int *rem, Bits cells, Bits gone,
                      Alone *runs, int ns, int *n, int *sym) {
    Bits keyed;
    for (int j = 0; j < ns; j++)
        if (runs[j].watch & gone) cells |= BIT(runs[j].least);
    *n = alone_from(s, after, rem, cells, runs, ns);
    return alone_key(s, after, runs, ns, *n, gone, sym, &keyed);
}

/* The runs of a node: those of the nearest ancestor that listed its own (`Core.pal`) where
 * no line they watch was drawn since, and the runs through the cells of the lines drawn
 * since and through the runs dropped, where now two-sided (a run alone or hanging here and
 * not there has such a cell; those the parent's cut-off found for this line, `hand`); with no
 * such ancestor, all walked. In order (`before`): an ancestor's list keeps its order, so
 * each key picks its runs from the front. */
static int alone_here(Core *s, Bits drawn, const int *rem, Bits two, Alone *out) {
    if (!s->pal) {
        int n = alone_from(s, drawn, rem, two, out, 0);
        in_place(out, 0, n);
        return n;
    }
    Bits since = drawn & ~s->pdrawn, cells = 0;
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
    for (Bits t = since; t; t &= t - 1) {
        int line = lowbit(t);
        cells |= BIT(s->pa[line]);
        if (s->pb[line] < s->nc) cells |= BIT(s->pb[line]);
    }
    n = alone_from(s, drawn, rem, cells & two, out, n);
    in_place(out, kept, n);
    return n;
}
