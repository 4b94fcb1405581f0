/* ---- keys from the parent's ------------------------------------------------------------------
 * (a part of the search's body, `_search.h`, in the width it is included in)
 * A key is the least of the lines drawn, packed (`pack`), and their packed images under the
 * key's symmetries (`canon`), which looks up every byte of the position under each of them:
 * 40% of 4×4's search from empty, under its eight. In 64 bits a node keeps its images and
 * hands them to the child it searches: a line more sets one bit of an image, or repacks its
 * class. (Keys with runs in them, `alone_key`, still go through `canon`.) */
#if W == 64
typedef struct ImagesS {
    uint64_t own;         /* the lines drawn, packed */
    uint64_t img[MAXSYM]; /* their packed images, under the symmetries of `symon` */
} Images;

/* `packed` with one more line, not yet in it */
static inline uint64_t plus_line(const Core *s, uint64_t packed, int line) {
    int c = s->lineclass[line];
    if (c < 0) return packed | BIT(line);
    uint64_t m = (uint64_t)s->classmask[c];
    return (packed & ~m) | (uint64_t)s->classlow[c][popc(packed & m) + 1];
}

/* `im` with one more line, not yet in it */
static inline void images_plus(const Core *s, Images *im, int line) {
    im->own = plus_line(s, im->own, line);
    for (uint32_t on = s->symon; on; on &= on - 1) {
        int k = lowbit(on);
        im->img[k] = plus_line(s, im->img[k], s->perm[k][line]);
    }
}

/* The images of `drawn`: from those handed down when they are of some of its lines (the rest
 * added a line at a time), else looked up as `canon` does. */
static inline void images_here(Core *s, uint64_t drawn, Images *im) {
    const Images *h = s->himg;
    s->himg = NULL;
    if (h && !(s->hdrawn & ~drawn)) {
        *im = *h;
        for (uint64_t t = drawn & ~s->hdrawn; t; t &= t - 1) images_plus(s, im, lowbit(t));
        return;
    }
    im->own = (uint64_t)pack(s, drawn);
    for (uint32_t on = s->symon; on; on &= on - 1)
        im->img[lowbit(on)] = (uint64_t)pack(s, image64(s, lowbit(on), drawn));
}

/* `canon` of the images' position, and of it with `line` more (-1: none); the same key and
 * symmetry (*sym) */
static inline u128 least_image(const Core *s, const Images *im, int line, int *sym) {
    uint64_t best = line < 0 ? im->own : plus_line(s, im->own, line);
    *sym = -1;
    for (uint32_t on = s->symon; on; on &= on - 1) {
        int k = lowbit(on);
        uint64_t key = line < 0 ? im->img[k] : plus_line(s, im->img[k], s->perm[k][line]);
        if (key < best) {
            best = key;
            *sym = k;
        }
    }
    return best;
}
#endif
