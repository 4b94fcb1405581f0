/* Loony endgames counted, not searched: simple chains and loops (Berlekamp), and strings
 * between junctions (`_core.h`). */
#include "_core.h"

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


/* The chains and loops of a simple loony endgame (every unclaimed cell has two sides to
 * go), as `endgame.components` finds them: chains from the lowest cell with a side to the
 * outside, then loops. Returns how many (written to out), or -1 when the position is not one
 * (a cell with another count to go, or a run of two-sided cells that is neither). */
int loony_components(const Core *s, u128 drawn, const int *rem, Comp *out) {
    int nc = s->nc, n = 0;
    int fl[MAXC][2];
    uint8_t seen[MAXC];
    for (int c = 0; c < nc; c++) {
        seen[c] = 0;
        if (!rem[c]) continue;
        if (rem[c] != 2) return -1;
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
        out[n++] = (Comp){(uint8_t)size, 0, (int16_t)first, (int16_t)second};
    }
    for (int c = 0; c < nc; c++) {
        if (!rem[c] || seen[c]) continue;
        int size = 1, cur = c, line = fl[c][0];
        seen[c] = 1;
        for (;;) {
            int nxt = across(s, line, cur);
            if (nxt == c) break;
            if (nxt == nc || seen[nxt]) return -1; /* not a simple loop: leave it to search */
            seen[nxt] = 1;
            size++;
            line = fl[nxt][0] == line ? fl[nxt][1] : fl[nxt][0];
            cur = nxt;
        }
        out[n++] = (Comp){(uint8_t)size, 1, (int16_t)fl[c][0], -1};
    }
    return n;
}

/* The value of a simple loony endgame (`loony_components`), or returns 0 in *ok when the
 * position is not one. */
int loony_eval(Core *s, u128 drawn, const int *rem, int *ok) {
    Comp comps[MAXC];
    uint8_t ch[MAXC], lp[MAXC];
    int nch = 0, nlp = 0;
    int n = loony_components(s, drawn, rem, comps);
    *ok = 0;
    if (n < 0) return 0;
    for (int i = 0; i < n; i++) {
        if (comps[i].loop)
            lp[nlp++] = comps[i].size;
        else
            ch[nch++] = comps[i].size;
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

struct JPosS *jpos_new(void) {
    return PyMem_RawCalloc(1, sizeof(JPos));
}

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

int junction_eval(Core *s, u128 drawn, const int *rem, int *ok) {
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
