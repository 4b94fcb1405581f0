/* Bits of Python ints as the PettingZoo step wants them (`_env.c`, `vertex.ai.pettingzoo`):
 * bytes of 0/1 (or codes) for observations and masks, and the indices of the set bits. */
#include "_play.h"

/* The low n bits of a non-negative int, as bytes 0/1 (a writable bytearray), lowest first;
 * or with `codes`, bits of several masks at once: out[i] = sum of codes[k] where bit i of
 * masks[k] is set. Only bits: the PettingZoo observations and masks are made of these. */
static int bits_into(PyObject *mask, unsigned char *out, Py_ssize_t n, unsigned char code) {
    if (!PyLong_Check(mask) || _PyLong_Sign(mask) < 0) {
        PyErr_SetString(PyExc_ValueError, "masks must be non-negative ints");
        return -1;
    }
    size_t nbits = _PyLong_NumBits(mask);
    if (nbits == 0) return 0;
    if ((Py_ssize_t)nbits > n) {
        PyErr_SetString(PyExc_ValueError, "a mask has bits beyond n");
        return -1;
    }
    uint64_t w[MAXW];
    int nw = (int)((nbits + 63) / 64);
    if (nw > MAXW) {
        PyErr_SetString(PyExc_ValueError, "mask too wide");
        return -1;
    }
    if (mask_arg(mask, w, nw, "mask") < 0) return -1;
    for (int i = 0; i < nw; i++) {
        uint64_t b = w[i];
        while (b) {
            out[64 * i + __builtin_ctzll(b)] += code;
            b &= b - 1;
        }
    }
    return 0;
}

static PyObject *bit_bytes(PyObject *mod, PyObject *args) {
    PyObject *masks, *codes = NULL;
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "On|O!", &masks, &n, &PyTuple_Type, &codes)) return NULL;
    if (n < 0 || n > MAXW * 64) {
        PyErr_SetString(PyExc_ValueError, "n out of range");
        return NULL;
    }
    PyObject *out = PyByteArray_FromStringAndSize(NULL, n);
    if (!out) return NULL;
    unsigned char *buf = (unsigned char *)PyByteArray_AS_STRING(out);
    memset(buf, 0, (size_t)n);
    if (!codes) {
        if (bits_into(masks, buf, n, 1) < 0) goto fail;
        return out;
    }
    if (!PyTuple_Check(masks) || PyTuple_GET_SIZE(masks) != PyTuple_GET_SIZE(codes)) {
        PyErr_SetString(PyExc_ValueError, "a code per mask");
        goto fail;
    }
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(masks); k++) {
        long code = PyLong_AsLong(PyTuple_GET_ITEM(codes, k));
        if (code < 0 || code > 127) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "codes are 0..127");
            goto fail;
        }
        if (bits_into(PyTuple_GET_ITEM(masks, k), buf, n, (unsigned char)code) < 0) goto fail;
    }
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

/* the indices of the set bits of words[0..nw), lowest first, as a new list */
PyObject *index_list(const uint64_t *words, int nw) {
    Py_ssize_t count = 0;
    for (int i = 0; i < nw; i++) count += __builtin_popcountll(words[i]);
    PyObject *out = PyList_New(count);
    if (!out) return NULL;
    Py_ssize_t at = 0;
    for (int i = 0; i < nw; i++) {
        uint64_t b = words[i];
        while (b) {
            PyObject *v = PyLong_FromLong(64 * i + __builtin_ctzll(b));
            if (!v) {
                Py_DECREF(out);
                return NULL;
            }
            PyList_SET_ITEM(out, at++, v);
            b &= b - 1;
        }
    }
    return out;
}

/* bit_indices(mask) -> the indices of the set bits, lowest first */
static PyObject *bit_indices(PyObject *mod, PyObject *mask) {
    if (!PyLong_Check(mask) || _PyLong_Sign(mask) < 0) {
        PyErr_SetString(PyExc_ValueError, "mask must be a non-negative int");
        return NULL;
    }
    size_t nbits = _PyLong_NumBits(mask);
    int nw = (int)((nbits + 63) / 64);
    if (nw > MAXW) {
        PyErr_SetString(PyExc_ValueError, "mask too wide");
        return NULL;
    }
    uint64_t w[MAXW];
    if (nw && mask_arg(mask, w, nw, "mask") < 0) return NULL;
    return index_list(w, nw);
}

static PyMethodDef bits_methods[] = {
    {"bit_bytes", bit_bytes, METH_VARARGS,
     "bit_bytes(mask, n) or bit_bytes(masks, n, codes) -> bytearray of n bytes"},
    {"bit_indices", bit_indices, METH_O, "bit_indices(mask) -> indices of the set bits"},
    {NULL, NULL, 0, NULL}};

/* Called from dots_play_init: adds bit_bytes and bit_indices to the module. */
int dots_bits_init(PyObject *m) { return PyModule_AddFunctions(m, bits_methods); }
