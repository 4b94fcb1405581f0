/* The table's file (`vertex.ai.dots.tablefile`): the entries written whole, or only the
 * costly ones with their places, and read back (`_core.h`).
 *
 * Either way a long solve goes on where it stopped (`vertex solve --table`). The caller
 * checks that the file is this board's and this size's (a header before the entries). Each
 * entry checks itself (w0 = key ^ w1), so a copy taken while helper threads store is still
 * a set of finished entries: one torn in the copy reads as empty. The layout's version:
 * TABLE_FORMAT (`_core.h`). */
#include "_core.h"

void empty_table(Core *self) {
    memset(self->tt, 0, self->tt_entries * sizeof(Entry));
    if (self->khi) memset(self->khi, 0, self->tt_entries * sizeof(uint32_t));
    self->stored = 0;
}

static int savable(Core *self) {
    if (self->khi) {
        PyErr_SetString(PyExc_ValueError,
                        "boards of more than 96 lines keep part of their keys beside the table; "
                        "it cannot be saved");
        return 0;
    }
    return 1;
}

/* n bytes written from p, or read into it (without the GIL): 0, or -1 with errno in *err,
 * or the bytes a read got short of n when the file ended first (> 0) */
static ssize_t io_all(int fd, char *p, size_t n, int writing, int *err) {
    while (n) {
        size_t want = n > ((size_t)1 << 30) ? ((size_t)1 << 30) : n;
        ssize_t k = writing ? write(fd, p, want) : read(fd, p, want);
        if (k < 0) {
            if (errno == EINTR) continue;
            *err = errno;
            return -1;
        }
        if (k == 0) return (ssize_t)n;
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

static void count_stored(Core *self) {
    uint64_t stored = 0;
    for (uint64_t i = 0; i < self->tt_entries; i++) stored += W_WORK(self->tt[i].w1) != 0;
    self->stored = stored;
}

/* Whatever a failed read left is dropped (half a table is no table), the error kept. */
static PyObject *load_failed(Core *self) {
    PyObject *t, *v, *tb;
    PyErr_Fetch(&t, &v, &tb);
    empty_table(self);
    PyErr_Restore(t, v, tb);
    return NULL;
}

static int load_check(Core *self) {
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this solver is searching");
        return 0;
    }
    return savable(self);
}

/* The whole table written to `file`, or read from it: 0, or -1 with the error set */
static int whole_io(Core *self, PyObject *file, int writing) {
    int fd = PyObject_AsFileDescriptor(file), err = 0;
    if (fd < 0) return -1;
    ssize_t r;
    Py_BEGIN_ALLOW_THREADS;
    r = io_all(fd, (char *)self->tt, self->tt_entries * sizeof(Entry), writing, &err);
    Py_END_ALLOW_THREADS;
    if (r < 0) {
        errno = err;
        PyErr_SetFromErrno(PyExc_OSError);
        return -1;
    }
    if (r > 0) {
        PyErr_SetString(PyExc_ValueError, "the table file ends before the table does");
        return -1;
    }
    return 0;
}

PyObject *Core_save_table(Core *self, PyObject *file) {
    if (!savable(self) || whole_io(self, file, 1)) return NULL;
    Py_RETURN_NONE;
}

PyObject *Core_load_table(Core *self, PyObject *file) {
    if (!load_check(self)) return NULL;
    if (whole_io(self, file, 0)) return load_failed(self);
    count_stored(self);
    return PyLong_FromUnsignedLongLong(self->stored);
}

/* ---- the costly entries only -------------------------------------------------------------- */
/* A record: the entry's place in the table, then its two words. Near the root an entry
 * stands for a subtree: one settled with 2^14 positions or more is about one entry in 5,000
 * of a long solve's table (Triangles 6 from empty), so a 16 GB table is carried to another
 * machine in a few megabytes, and a search read back from them finds its settled subtrees
 * at once and searches again only what they leave out. The places tie the file to a table
 * of the same size (its buckets), as the whole table's file is. */
#define RECORDS 4096

PyObject *Core_save_entries(Core *self, PyObject *args) {
    PyObject *file;
    int min_work;
    if (!PyArg_ParseTuple(args, "Oi", &file, &min_work)) return NULL;
    if (min_work < 1 || min_work > 255) {
        PyErr_SetString(PyExc_ValueError, "min_work: 1 to 255");
        return NULL;
    }
    if (!savable(self)) return NULL;
    int fd = PyObject_AsFileDescriptor(file), err = 0;
    if (fd < 0) return NULL;
    uint64_t *buf = PyMem_RawMalloc(RECORDS * 3 * sizeof(uint64_t));
    if (!buf) return PyErr_NoMemory();
    uint64_t count = 0;
    ssize_t r = 0;
    Py_BEGIN_ALLOW_THREADS;
    size_t nb = 0;
    for (uint64_t i = 0; i < self->tt_entries && !r; i++) {
        uint64_t w1 = __atomic_load_n(&self->tt[i].w1, __ATOMIC_RELAXED);
        if (W_WORK(w1) < (unsigned)min_work) continue;
        buf[3 * nb] = i;
        buf[3 * nb + 1] = __atomic_load_n(&self->tt[i].w0, __ATOMIC_RELAXED);
        buf[3 * nb + 2] = w1;
        count++;
        if (++nb == RECORDS) {
            r = io_all(fd, (char *)buf, nb * 3 * sizeof(uint64_t), 1, &err);
            nb = 0;
        }
    }
    if (!r && nb) r = io_all(fd, (char *)buf, nb * 3 * sizeof(uint64_t), 1, &err);
    Py_END_ALLOW_THREADS;
    PyMem_RawFree(buf);
    if (r) {
        errno = err;
        return PyErr_SetFromErrno(PyExc_OSError);
    }
    return PyLong_FromUnsignedLongLong(count);
}

PyObject *Core_load_entries(Core *self, PyObject *file) {
    if (!load_check(self)) return NULL;
    int fd = PyObject_AsFileDescriptor(file), err = 0;
    if (fd < 0) return NULL;
    uint64_t *buf = PyMem_RawMalloc(RECORDS * 3 * sizeof(uint64_t));
    if (!buf) return PyErr_NoMemory();
    empty_table(self);
    const size_t full = RECORDS * 3 * sizeof(uint64_t);
    ssize_t r = 0;
    int outside = 0;
    Py_BEGIN_ALLOW_THREADS;
    for (;;) {
        r = io_all(fd, (char *)buf, full, 0, &err);
        if (r < 0) break;
        size_t got = full - (size_t)r, n = got / (3 * sizeof(uint64_t));
        for (size_t j = 0; j < n && !outside; j++) {
            uint64_t at = buf[3 * j];
            if (at >= self->tt_entries) {
                outside = 1;
                break;
            }
            self->tt[at].w0 = buf[3 * j + 1];
            self->tt[at].w1 = buf[3 * j + 2];
        }
        if (outside || r > 0) break; /* (r > 0: the file ended) */
    }
    Py_END_ALLOW_THREADS;
    PyMem_RawFree(buf);
    if (r < 0) {
        errno = err;
        PyErr_SetFromErrno(PyExc_OSError);
        return load_failed(self);
    }
    if (outside) {
        PyErr_SetString(PyExc_ValueError, "an entry's place lies outside the table");
        return load_failed(self);
    }
    if (r > 0 && (full - (size_t)r) % (3 * sizeof(uint64_t))) {
        PyErr_SetString(PyExc_ValueError, "the file ends inside an entry");
        return load_failed(self);
    }
    count_stored(self);
    return PyLong_FromUnsignedLongLong(self->stored);
}
