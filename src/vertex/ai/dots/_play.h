/* What the hot path of the public Dots-family position shares between its files: the
 * Rules type (`_rules.c`: one game's tables), the words of Python ints (here, inline: the
 * hot path reads them at every move), the bit helpers of the PettingZoo step (`_bits.c`)
 * and the play itself (`_play.c`). */
#ifndef VERTEX_PLAY_H
#define VERTEX_PLAY_H
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <stdint.h>
#include <string.h>

#define MAXW 16 /* lines (and cells) up to 1024: every board the options allow */

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define HOT_PATH 1
#else
#define HOT_PATH 0 /* the words below are read as little-endian bytes */
#endif

#if PY_VERSION_HEX >= 0x030D0000
#define AS_BYTES(v, b, n) _PyLong_AsByteArray((PyLongObject *)(v), (b), (n), 1, 0, 1)
#else
#define AS_BYTES(v, b, n) _PyLong_AsByteArray((PyLongObject *)(v), (b), (n), 1, 0)
#endif

typedef struct {
    PyObject_HEAD
    int lines, nw, cw, touch, extra;
    uint64_t all[MAXW];
    int16_t (*lcells)[2]; /* per line, the (at most two) cells it bounds, -1 for none */
    uint64_t *cmask;      /* per cell, its lines (nw words) */
    uint64_t *reach;      /* per line, the lines sharing a dot with it (nw words) */
    PyObject *names;      /* tuple of the line names */
    PyObject *by_name;    /* dict: line name -> index */
    PyObject **entries;   /* the history entries (seat, name) by seat and line, made once */
} Rules;

#define ENTRY_SEATS 8 /* seats whose history entries are kept (the options allow 6) */

/* ---- Python ints <-> words (non-negative, at most nw*64 bits) ------------------------ */
/* 0: done; 1: not an int of that size (go the Python way); -1: an error is set. */
static inline int get_words(PyObject *v, uint64_t *w, int nw) {
    if (!PyLong_CheckExact(v) || _PyLong_Sign(v) < 0) return 1;
    if (nw == 1) {
        unsigned long long x = PyLong_AsUnsignedLongLong(v);
        if (x == (unsigned long long)-1 && PyErr_Occurred()) {
            PyErr_Clear();
            return 1;
        }
        w[0] = x;
        return 0;
    }
    if (_PyLong_NumBits(v) > (size_t)nw * 64) return 1;
    return AS_BYTES(v, (unsigned char *)w, (size_t)nw * 8) < 0 ? -1 : 0;
}

static inline PyObject *from_words(const uint64_t *w, int nw) {
    if (nw == 1) return PyLong_FromUnsignedLongLong(w[0]);
    return _PyLong_FromByteArray((const unsigned char *)w, (size_t)nw * 8, 1, 0);
}

static inline int mask_arg(PyObject *v, uint64_t *w, int nw, const char *what) {
    int r = get_words(v, w, nw);
    if (r > 0) PyErr_Format(PyExc_ValueError, "%s: a non-negative int of at most %d bits", what,
                            nw * 64);
    return r ? -1 : 0;
}

extern PyTypeObject RulesType;

/* the indices of the set bits of nw words, lowest first (new reference) */
PyObject *index_list(const uint64_t *words, int nw);
/* adds bit_bytes and bit_indices to the module */
int dots_bits_init(PyObject *m);

#endif
