/* Rules: one Dots-family game's tables (the cells each line bounds, the lines of each cell,
 * the dots' lines for the touch rule, the line names), made once per game from the engine's
 * board (`DotsGame.compiled`) for the hot path of its states (`_play.c`). */
#include "_play.h"

/* ---- Rules: one game's tables --------------------------------------------------------- */
static void Rules_dealloc(Rules *self) {
    PyMem_Free(self->lcells);
    PyMem_Free(self->cmask);
    PyMem_Free(self->reach);
    Py_XDECREF(self->names);
    Py_XDECREF(self->by_name);
    if (self->entries) {
        for (Py_ssize_t i = 0; i < (Py_ssize_t)ENTRY_SEATS * self->lines; i++)
            Py_XDECREF(self->entries[i]);
        PyMem_Free(self->entries);
    }
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Rules(all_lines, line_cells, cell_lines, line_reach, touch_rule, extra_turn, names,
 * by_name) */
static int Rules_init(Rules *self, PyObject *args, PyObject *kw) {
    PyObject *all_o, *line_cells, *cell_lines, *reach_o, *names, *by_name;
    int touch, extra;
    static char *kwlist[] = {"all_lines", "line_cells", "cell_lines", "line_reach",
                             "touch_rule", "extra_turn", "names",      "by_name",
                             NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOOOppO!O!", kwlist, &all_o, &line_cells,
                                     &cell_lines, &reach_o, &touch, &extra, &PyTuple_Type,
                                     &names, &PyDict_Type, &by_name))
        return -1;
    if (self->names) {
        PyErr_SetString(PyExc_TypeError, "Rules are made once");
        return -1;
    }
    Py_ssize_t lines = PyTuple_GET_SIZE(names);
    Py_ssize_t cells = PySequence_Size(cell_lines);
    if (cells < 0) return -1;
    if (lines < 1 || lines > MAXW * 64 || cells > MAXW * 64 || !HOT_PATH) {
        PyErr_SetString(PyExc_ValueError, "board too big for the compiled hot path");
        return -1;
    }
    if (PySequence_Size(line_cells) != lines || PySequence_Size(reach_o) != lines) {
        PyErr_SetString(PyExc_ValueError, "a table per line");
        return -1;
    }
    int nw = (int)((lines + 63) / 64), cw = (int)((cells + 63) / 64);
    if (cw < 1) cw = 1;
    self->lines = (int)lines;
    self->nw = nw;
    self->cw = cw;
    self->touch = touch;
    self->extra = extra;
    memset(self->all, 0, sizeof self->all);
    if (mask_arg(all_o, self->all, nw, "all_lines") < 0) return -1;
    self->lcells = PyMem_Calloc((size_t)lines, sizeof *self->lcells);
    self->cmask = PyMem_Calloc((size_t)(cells ? cells : 1) * nw, sizeof(uint64_t));
    self->reach = PyMem_Calloc((size_t)lines * nw, sizeof(uint64_t));
    if (!self->lcells || !self->cmask || !self->reach) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t ln = 0; ln < lines; ln++) {
        PyObject *row = PySequence_GetItem(line_cells, ln);
        if (!row) return -1;
        PyObject *fast = PySequence_Fast(row, "line_cells: a sequence of cells per line");
        Py_DECREF(row);
        if (!fast) return -1;
        Py_ssize_t k = PySequence_Fast_GET_SIZE(fast);
        self->lcells[ln][0] = self->lcells[ln][1] = -1;
        for (Py_ssize_t i = 0; i < k; i++) {
            long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
            if (c == -1 && PyErr_Occurred()) {
                Py_DECREF(fast);
                return -1;
            }
            if (k > 2 || c < 0 || c >= cells) {
                Py_DECREF(fast);
                PyErr_SetString(PyExc_ValueError, "line_cells: at most two cells a line");
                return -1;
            }
            self->lcells[ln][i] = (int16_t)c;
        }
        Py_DECREF(fast);
        PyObject *r = PySequence_GetItem(reach_o, ln);
        if (!r) return -1;
        int bad = mask_arg(r, self->reach + ln * nw, nw, "line_reach");
        Py_DECREF(r);
        if (bad) return -1;
    }
    for (Py_ssize_t c = 0; c < cells; c++) {
        PyObject *row = PySequence_GetItem(cell_lines, c);
        if (!row) return -1;
        PyObject *fast = PySequence_Fast(row, "cell_lines: a sequence of lines per cell");
        Py_DECREF(row);
        if (!fast) return -1;
        for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(fast); i++) {
            long ln = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
            if (ln < 0 || ln >= lines) {
                Py_DECREF(fast);
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_ValueError, "cell_lines: a line out of range");
                return -1;
            }
            self->cmask[c * nw + ln / 64] |= (uint64_t)1 << (ln % 64);
        }
        Py_DECREF(fast);
    }
    Py_INCREF(names);
    self->names = names;
    Py_INCREF(by_name);
    self->by_name = by_name;
    return 0;
}

PyTypeObject RulesType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "vertex.ai.dots._core.Rules",
    .tp_basicsize = sizeof(Rules),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One Dots-family game's tables for the compiled play/legal_moves of its states.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Rules_init,
    .tp_dealloc = (destructor)Rules_dealloc,
};
