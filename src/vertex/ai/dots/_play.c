/* The hot path of the public Dots-family position (`vertex.games.dots.engine.DotsState`):
 * `play`, `legal_moves`, `open_lines`, `is_over` and `to_move` in C, so that playouts through the game
 * contract (DESIGN §2) cost about what OpenSpiel's C++ game costs driven from Python.
 *
 * Nothing here knows a rule by heart. The tables (the cells each line bounds, the lines of
 * each cell, the dots' lines for the touch rule, extra turns, the line names) come from the
 * engine's board (`DotsGame.compiled`), and the states made here are plain `DotsState`
 * objects with the fields the Python `DotsState.draw` would give them. Anything off the
 * usual path (another spelling of a line, a seat that is not due, a drawn line, a board of
 * more than MAXW*64 lines) goes to the Python contract, which checks and refuses exactly as
 * before. The Python methods stay the reference: tests/games/dots/test_compiled_state.py
 * plays both on every board kind and compares every field.
 */
#include "_play.h"

/* ---- the bound state class ------------------------------------------------------------ */
enum { F_GAME, F_SEED, F_HISTORY, F_DRAWN, F_OWNED, F_DEAD, F_ORDER, F_TURN, F_REACH, NF };
static const char *field_names[NF] = {"game",  "seed",  "history", "drawn", "owned",
                                      "dead",  "order", "turn",    "reach"};
static Py_ssize_t field_at[NF];
static PyTypeObject *state_type; /* DotsState, once bound */
static PyObject *fallback_play;  /* the contract's State.play(state, move, seat) */
static PyObject *rules_attr;     /* "compiled" */
static PyObject *last_game, *last_rules; /* a one-game cache of game.compiled */

#define FIELD(obj, f) (*(PyObject **)((char *)(obj) + field_at[f]))

/* The game's Rules (borrowed), or NULL (no error) when it has none. */
static Rules *rules_of(PyObject *state) {
    PyObject *game = FIELD(state, F_GAME);
    if (!game) return NULL;
    if (game == last_game) return (Rules *)last_rules;
    PyObject *r = PyObject_GetAttr(game, rules_attr);
    if (!r) {
        PyErr_Clear();
        return NULL;
    }
    if (!PyObject_TypeCheck(r, &RulesType)) {
        Py_DECREF(r);
        return NULL;
    }
    Py_INCREF(game);
    Py_XSETREF(last_game, game);
    Py_XSETREF(last_rules, r);
    return (Rules *)r;
}

/* The open lines of a bound state: 1 with `free` filled, 0 when it must go the Python way,
 * -1 on an error. */
static int open_of(PyObject *state, Rules **out, uint64_t *free) {
    if (Py_TYPE(state) != state_type) return 0;
    Rules *r = rules_of(state);
    if (!r) return 0;
    PyObject *drawn_o = FIELD(state, F_DRAWN);
    if (!drawn_o) return 0;
    uint64_t drawn[MAXW];
    int got = get_words(drawn_o, drawn, r->nw);
    if (got) return got < 0 ? -1 : 0;
    for (int i = 0; i < r->nw; i++) free[i] = r->all[i] & ~drawn[i];
    if (r->touch) {
        uint64_t reach[MAXW];
        PyObject *reach_o = FIELD(state, F_REACH);
        if (!reach_o || (got = get_words(reach_o, reach, r->nw))) return got < 0 ? -1 : 0;
        for (int i = 0; i < r->nw; i++) free[i] &= reach[i];
    }
    *out = r;
    return 1;
}

static int any(const uint64_t *w, int n) {
    for (int i = 0; i < n; i++)
        if (w[i]) return 1;
    return 0;
}

static PyObject *call_python(PyObject *state, const char *name) {
    /* the reference method of the class, for states the hot path does not take */
    PyObject *fn = PyObject_GetAttrString((PyObject *)Py_TYPE(state), name);
    if (!fn) return NULL;
    PyObject *out = PyObject_CallOneArg(fn, state);
    Py_DECREF(fn);
    return out;
}

/* legal_moves(state) -> the names of the open lines, lowest first */
static PyObject *hot_legal_moves(PyObject *mod, PyObject *state) {
    Rules *r;
    uint64_t free[MAXW];
    int ok = open_of(state, &r, free);
    if (ok < 0) return NULL;
    if (!ok) return call_python(state, "python_legal_moves");
    Py_ssize_t count = 0;
    for (int i = 0; i < r->nw; i++) count += __builtin_popcountll(free[i]);
    PyObject *out = PyList_New(count);
    if (!out) return NULL;
    Py_ssize_t at = 0;
    for (int i = 0; i < r->nw; i++) {
        uint64_t b = free[i];
        while (b) {
            PyObject *name = PyTuple_GET_ITEM(r->names, 64 * i + __builtin_ctzll(b));
            b &= b - 1;
            Py_INCREF(name);
            PyList_SET_ITEM(out, at++, name);
        }
    }
    return out;
}

/* open_lines(state) -> the bit set of the lines that may be drawn now */
static PyObject *hot_open_lines(PyObject *mod, PyObject *state) {
    Rules *r;
    uint64_t free[MAXW];
    int ok = open_of(state, &r, free);
    if (ok < 0) return NULL;
    if (!ok) return call_python(state, "python_open_lines");
    return from_words(free, r->nw);
}

/* is_over(state) -> no line may be drawn */
static PyObject *hot_is_over(PyObject *mod, PyObject *state) {
    Rules *r;
    uint64_t free[MAXW];
    int ok = open_of(state, &r, free);
    if (ok < 0) return NULL;
    if (!ok) return call_python(state, "python_is_over");
    return PyBool_FromLong(!any(free, r->nw));
}

/* to_move(state) -> () when over, else (the seat due,) */
static PyObject *hot_to_move(PyObject *mod, PyObject *state) {
    Rules *r;
    uint64_t free[MAXW];
    int ok = open_of(state, &r, free);
    if (ok < 0) return NULL;
    PyObject *order = FIELD(state, F_ORDER), *turn_o = FIELD(state, F_TURN);
    if (!ok || !order || !turn_o || !PyTuple_CheckExact(order))
        return call_python(state, "python_to_move");
    if (!any(free, r->nw)) return PyTuple_New(0);
    Py_ssize_t turn = PyLong_AsSsize_t(turn_o);
    if (turn < 0 || turn >= PyTuple_GET_SIZE(order)) {
        if (PyErr_Occurred()) PyErr_Clear();
        return call_python(state, "python_to_move");
    }
    return PyTuple_Pack(1, PyTuple_GET_ITEM(order, turn));
}

static PyObject *slow_play(PyObject *state, PyObject *move, PyObject *seat) {
    PyObject *args[3] = {state, move, seat ? seat : Py_None};
    return PyObject_Vectorcall(fallback_play, args, 3, NULL);
}

static PyObject *play_line(PyObject *state, Rules *r, long line, PyObject *move, PyObject *seat);

/* play(state, move, seat=None): the usual call (a line by its own name, for the seat due)
 * made here; every other call, and every refusal, by the contract in Python. */
static PyObject *hot_play(PyObject *mod, PyObject *const *args, Py_ssize_t nargs,
                          PyObject *kwnames) {
    PyObject *state, *move, *seat = NULL;
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    if (nargs + nkw < 2 || nargs + nkw > 3 || nargs < 1) {
        PyErr_SetString(PyExc_TypeError, "play(move, seat=None)");
        return NULL;
    }
    state = args[0];
    move = nargs >= 2 ? args[1] : NULL;
    if (nargs == 3) seat = args[2];
    for (Py_ssize_t i = 0; i < nkw; i++) {
        PyObject *key = PyTuple_GET_ITEM(kwnames, i), *val = args[nargs + i];
        if (PyUnicode_CompareWithASCIIString(key, "seat") == 0 && !seat)
            seat = val;
        else if (PyUnicode_CompareWithASCIIString(key, "move") == 0 && !move)
            move = val;
        else {
            PyErr_Format(PyExc_TypeError, "play() got an unexpected keyword argument '%U'", key);
            return NULL;
        }
    }
    if (!move) {
        PyErr_SetString(PyExc_TypeError, "play() missing the move");
        return NULL;
    }
    if (seat == Py_None) seat = NULL;
    if (Py_TYPE(state) != state_type || !PyUnicode_CheckExact(move))
        return slow_play(state, move, seat);
    Rules *r = rules_of(state);
    if (!r) return slow_play(state, move, seat);
    PyObject *line_o = PyDict_GetItemWithError(r->by_name, move);
    if (!line_o) {
        if (PyErr_Occurred()) return NULL;
        return slow_play(state, move, seat);
    }
    long line = PyLong_AsLong(line_o);
    if (line < 0 || line >= r->lines) {
        if (PyErr_Occurred()) return NULL;
        return slow_play(state, move, seat);
    }
    return play_line(state, r, line, move, seat);
}

/* The line `line` (named `move`) drawn on a bound state of the game `r` for the seat due
 * (or `seat`, when given); anything off the usual path goes to the contract's play. */
static PyObject *play_line(PyObject *state, Rules *r, long line, PyObject *move, PyObject *seat) {
    int nw = r->nw, w = (int)(line / 64);
    uint64_t bit = (uint64_t)1 << (line % 64);
    PyObject *f[NF];
    for (int i = 0; i < NF; i++)
        if (!(f[i] = FIELD(state, i))) return slow_play(state, move, seat);
    uint64_t drawn[MAXW], reach[MAXW];
    int got = get_words(f[F_DRAWN], drawn, nw);
    if (got) return got < 0 ? NULL : slow_play(state, move, seat);
    if (drawn[w] & bit || !(r->all[w] & bit)) return slow_play(state, move, seat);
    if (r->touch) {
        if ((got = get_words(f[F_REACH], reach, nw))) return got < 0 ? NULL : slow_play(state, move, seat);
        if (!(reach[w] & bit)) return slow_play(state, move, seat);
    }
    PyObject *order = f[F_ORDER], *owned = f[F_OWNED], *history = f[F_HISTORY];
    if (!PyTuple_CheckExact(order) || !PyTuple_CheckExact(owned) || !PyTuple_CheckExact(history))
        return slow_play(state, move, seat);
    Py_ssize_t seats = PyTuple_GET_SIZE(order);
    Py_ssize_t turn = PyLong_AsSsize_t(f[F_TURN]);
    if (turn < 0 || turn >= seats) {
        if (PyErr_Occurred()) PyErr_Clear();
        return slow_play(state, move, seat);
    }
    PyObject *seat_o = PyTuple_GET_ITEM(order, turn);
    Py_ssize_t who = PyLong_AsSsize_t(seat_o);
    if (who < 0 || who >= PyTuple_GET_SIZE(owned)) {
        if (PyErr_Occurred()) PyErr_Clear();
        return slow_play(state, move, seat);
    }
    if (seat) { /* a seat named: the usual path only for the seat due, as an exact int */
        if (!PyLong_CheckExact(seat)) return slow_play(state, move, seat);
        Py_ssize_t s = PyLong_AsSsize_t(seat);
        if (s == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            return slow_play(state, move, seat);
        }
        if (s != who) return slow_play(state, move, seat);
    }
    /* the move: the line drawn, the cells it closes for the seat due */
    drawn[w] |= bit;
    uint64_t closed[MAXW];
    int any_closed = 0;
    memset(closed, 0, sizeof(uint64_t) * r->cw);
    for (int k = 0; k < 2; k++) {
        int c = r->lcells[line][k];
        if (c < 0) continue;
        const uint64_t *m = r->cmask + (size_t)c * nw;
        int full = 1;
        for (int i = 0; i < nw && full; i++) full = (drawn[i] & m[i]) == m[i];
        if (full) {
            closed[c / 64] |= (uint64_t)1 << (c % 64);
            any_closed = 1;
        }
    }
    PyObject *new_drawn = NULL, *new_reach = NULL, *new_owned = NULL, *new_turn = NULL;
    PyObject *entry = NULL, *new_history = NULL, *out = NULL;
    new_drawn = from_words(drawn, nw);
    if (!new_drawn) goto fail;
    if (r->touch) {
        const uint64_t *add = r->reach + (size_t)line * nw;
        for (int i = 0; i < nw; i++) reach[i] |= add[i];
        if (!(new_reach = from_words(reach, nw))) goto fail;
    } else {
        new_reach = Py_NewRef(f[F_REACH]);
    }
    if (any_closed) {
        uint64_t mine[MAXW];
        PyObject *had = PyTuple_GET_ITEM(owned, who);
        got = get_words(had, mine, r->cw);
        if (got) {
            Py_DECREF(new_drawn);
            Py_DECREF(new_reach);
            return got < 0 ? NULL : slow_play(state, move, seat);
        }
        for (int i = 0; i < r->cw; i++) mine[i] |= closed[i];
        Py_ssize_t n = PyTuple_GET_SIZE(owned);
        if (!(new_owned = PyTuple_New(n))) goto fail;
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *v = i == who ? from_words(mine, r->cw) : Py_NewRef(PyTuple_GET_ITEM(owned, i));
            if (!v) goto fail;
            PyTuple_SET_ITEM(new_owned, i, v);
        }
    } else {
        new_owned = Py_NewRef(owned);
    }
    if (any_closed && r->extra)
        new_turn = Py_NewRef(f[F_TURN]);
    else if (!(new_turn = PyLong_FromSsize_t((turn + 1) % seats)))
        goto fail;
    /* the entry (seat, line name): a tuple of two constants, the same one every time */
    if (who < ENTRY_SEATS && !r->entries)
        r->entries = PyMem_Calloc((size_t)ENTRY_SEATS * r->lines, sizeof(PyObject *));
    if (who < ENTRY_SEATS && r->entries) {
        PyObject **slot = &r->entries[who * r->lines + line];
        if (!*slot && !(*slot = PyTuple_Pack(2, seat_o, PyTuple_GET_ITEM(r->names, line))))
            goto fail;
        entry = Py_NewRef(*slot);
    } else if (!(entry = PyTuple_Pack(2, seat_o, PyTuple_GET_ITEM(r->names, line)))) {
        goto fail;
    }
    Py_ssize_t h = PyTuple_GET_SIZE(history);
    if (!(new_history = PyTuple_New(h + 1))) goto fail;
    for (Py_ssize_t i = 0; i < h; i++)
        PyTuple_SET_ITEM(new_history, i, Py_NewRef(PyTuple_GET_ITEM(history, i)));
    PyTuple_SET_ITEM(new_history, h, entry);
    entry = NULL;
    if (!(out = state_type->tp_alloc(state_type, 0))) goto fail;
    FIELD(out, F_GAME) = Py_NewRef(f[F_GAME]);
    FIELD(out, F_SEED) = Py_NewRef(f[F_SEED]);
    FIELD(out, F_DEAD) = Py_NewRef(f[F_DEAD]);
    FIELD(out, F_ORDER) = Py_NewRef(order);
    FIELD(out, F_HISTORY) = new_history;
    FIELD(out, F_DRAWN) = new_drawn;
    FIELD(out, F_OWNED) = new_owned;
    FIELD(out, F_TURN) = new_turn;
    FIELD(out, F_REACH) = new_reach;
    return out;
fail:
    Py_XDECREF(new_drawn);
    Py_XDECREF(new_reach);
    Py_XDECREF(new_owned);
    Py_XDECREF(new_turn);
    Py_XDECREF(entry);
    Py_XDECREF(new_history);
    return NULL;
}

/* A method descriptor's call (self apart) handed to `fn` with self first, as an unbound call
 * gives it: the compiled methods are method descriptors of their classes, so that
 * `obj.method(...)` binds no new object each call (an instancemethod would). */
PyObject *dots_self_first(PyObject *(*fn)(PyObject *, PyObject *const *, Py_ssize_t, PyObject *),
                          PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                          PyObject *kwnames) {
    Py_ssize_t n = nargs + (kwnames ? PyTuple_GET_SIZE(kwnames) : 0);
    PyObject *small[8], **stack = n < 8 ? small : PyMem_Malloc((size_t)(n + 1) * sizeof(PyObject *));
    if (!stack) return PyErr_NoMemory();
    stack[0] = self;
    for (Py_ssize_t i = 0; i < n; i++) stack[i + 1] = args[i];
    PyObject *out = fn(NULL, stack, nargs + 1, kwnames);
    if (stack != small) PyMem_Free(stack);
    return out;
}

static PyObject *d_play(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw) {
    return dots_self_first(hot_play, self, args, nargs, kw);
}
static PyObject *d_legal_moves(PyObject *self, PyObject *unused) {
    return hot_legal_moves(NULL, self);
}
static PyObject *d_open_lines(PyObject *self, PyObject *unused) {
    return hot_open_lines(NULL, self);
}

/* play, legal_moves and open_lines: methods of the class; is_over and to_move: getters */
static PyMethodDef method_defs[] = {
    {"play", (PyCFunction)(void (*)(void))d_play, METH_FASTCALL | METH_KEYWORDS,
     "play(move, seat=None) -> the new state"},
    {"legal_moves", d_legal_moves, METH_NOARGS, "legal_moves() -> line names"},
    {"open_lines", d_open_lines, METH_NOARGS, "open_lines() -> bit set of lines"},
};
static PyMethodDef hot_defs[] = {
    {"is_over", (PyCFunction)hot_is_over, METH_O, "is_over(state) -> bool"},
    {"to_move", (PyCFunction)hot_to_move, METH_O, "to_move(state) -> seats due"},
};

/* bind_state(cls, fallback) -> {"play": method, "legal_moves": method, "is_over": fget,
 * "to_move": fget, "open_lines": method}: the compiled methods for the class `cls` (its slots are read and written
 * in place); `fallback(state, move, seat)` is the contract's play for everything else. */
static PyObject *bind_state(PyObject *mod, PyObject *args) {
    PyObject *cls, *fallback;
    if (!PyArg_ParseTuple(args, "O!O", &PyType_Type, &cls, &fallback)) return NULL;
    if (state_type) {
        PyErr_SetString(PyExc_TypeError, "a state class is bound already");
        return NULL;
    }
    for (int i = 0; i < NF; i++) {
        PyObject *d = PyObject_GetAttrString(cls, field_names[i]);
        if (!d) return NULL;
        int ok = Py_IS_TYPE(d, &PyMemberDescr_Type) &&
                 ((PyMemberDescrObject *)d)->d_member->type == T_OBJECT_EX;
        if (ok) field_at[i] = ((PyMemberDescrObject *)d)->d_member->offset;
        Py_DECREF(d);
        if (!ok) {
            PyErr_Format(PyExc_TypeError, "%s is not a slot of the state class", field_names[i]);
            return NULL;
        }
    }
    if (!(rules_attr = PyUnicode_InternFromString("compiled"))) return NULL;
    Py_INCREF(cls);
    state_type = (PyTypeObject *)cls;
    Py_INCREF(fallback);
    fallback_play = fallback;
    PyObject *out = PyDict_New();
    if (!out) return NULL;
    for (int i = 0; i < 5; i++) {
        PyMethodDef *def = i < 3 ? &method_defs[i] : &hot_defs[i - 3];
        PyObject *fn = i < 3 ? PyDescr_NewMethod((PyTypeObject *)cls, def) : PyCFunction_New(def, NULL);
        if (!fn || PyDict_SetItemString(out, def->ml_name, fn) < 0) {
            Py_XDECREF(fn);
            goto fail;
        }
        Py_DECREF(fn);
    }
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

/* ---- for _env.c (the PettingZoo step) ------------------------------------------------- */
/* play(state, name) as the public `play` does it (new reference, NULL with an error set) */
PyObject *dots_play_name(PyObject *state, PyObject *name) {
    PyObject *args[2] = {state, name};
    return hot_play(NULL, args, 2, NULL);
}

/* play(state, the line numbered `line`) as the public `play` does it, for the seat due;
 * NULL without an error when the state is not one the hot path takes (use the name) */
PyObject *dots_play_index(PyObject *state, long line) {
    Rules *r = Py_TYPE(state) == state_type ? rules_of(state) : NULL;
    if (!r || line < 0 || line >= r->lines) return NULL;
    return play_line(state, r, line, PyTuple_GET_ITEM(r->names, line), NULL);
}

/* the public `to_move` (new reference) */
PyObject *dots_to_move(PyObject *state) { return hot_to_move(NULL, state); }

/* The seat due on a bound state: >= 0, -1 when the game is over, -2 when the state is not
 * one the hot path takes (ask `to_move`), -3 on an error. */
Py_ssize_t dots_seat_due(PyObject *state) {
    Rules *r;
    uint64_t free[MAXW];
    int ok = open_of(state, &r, free);
    if (ok < 0) return -3;
    PyObject *order = FIELD(state, F_ORDER), *turn_o = FIELD(state, F_TURN);
    if (!ok || !order || !turn_o || !PyTuple_CheckExact(order)) return -2;
    if (!any(free, r->nw)) return -1;
    Py_ssize_t turn = PyLong_AsSsize_t(turn_o);
    if (turn < 0 || turn >= PyTuple_GET_SIZE(order)) {
        if (PyErr_Occurred()) PyErr_Clear();
        return -2;
    }
    Py_ssize_t seat = PyLong_AsSsize_t(PyTuple_GET_ITEM(order, turn));
    if (seat < 0) {
        if (PyErr_Occurred()) PyErr_Clear();
        return -2;
    }
    return seat;
}

/* The winners of a bound state whose game is over, as `DotsState.winners` gives them (the
 * highest count of cells; the lowest when the game is misère): win[s] = 1 for each, for
 * s < *seats (the owned tuple's size, at most `max`). 1 done, 0 when the state is not one
 * the hot path takes (ask `winners`), -1 on an error. */
int dots_winners(PyObject *state, unsigned char *win, Py_ssize_t max, Py_ssize_t *seats) {
    Rules *r;
    uint64_t free[MAXW];
    int ok = open_of(state, &r, free);
    if (ok <= 0) return ok;
    PyObject *owned = FIELD(state, F_OWNED), *game = FIELD(state, F_GAME);
    if (any(free, r->nw) || !owned || !PyTuple_CheckExact(owned)) return 0;
    Py_ssize_t n = PyTuple_GET_SIZE(owned);
    long score[64];
    if (n < 1 || n > max || n > 64) return 0;
    for (Py_ssize_t s = 0; s < n; s++) {
        uint64_t w[MAXW];
        int got = get_words(PyTuple_GET_ITEM(owned, s), w, r->cw);
        if (got) return got < 0 ? -1 : 0;
        score[s] = 0;
        for (int i = 0; i < r->cw; i++) score[s] += __builtin_popcountll(w[i]);
    }
    /* game.misere, kept for the last game asked (a game's options do not change) */
    static PyObject *s_misere, *misere_game;
    static int misere;
    if (game != misere_game) {
        if (!s_misere && !(s_misere = PyUnicode_InternFromString("misere"))) return -1;
        PyObject *m = PyObject_GetAttr(game, s_misere);
        int lowest = m ? PyObject_IsTrue(m) : -1;
        Py_XDECREF(m);
        if (lowest < 0) return -1;
        Py_INCREF(game);
        Py_XSETREF(misere_game, game);
        misere = lowest;
    }
    int lowest = misere;
    long target = score[0];
    for (Py_ssize_t s = 1; s < n; s++)
        if (lowest ? score[s] < target : score[s] > target) target = score[s];
    for (Py_ssize_t s = 0; s < n; s++) win[s] = score[s] == target;
    *seats = n;
    return 1;
}

/* the indices of the open lines, lowest first (new reference); NULL without an error when the
 * state is not one the hot path takes */
PyObject *dots_open_indices(PyObject *state) {
    Rules *r;
    uint64_t free[MAXW];
    int ok = open_of(state, &r, free);
    if (ok <= 0) return NULL;
    return index_list(free, r->nw);
}

static PyMethodDef play_methods[] = {
    {"bind_state", bind_state, METH_VARARGS,
     "bind_state(cls, fallback) -> the compiled play/legal_moves/is_over/to_move of cls"},
    {NULL, NULL, 0, NULL}};

/* Called from PyInit__core: adds Rules and bind_state to the module. */
int dots_play_init(PyObject *m) {
    if (PyType_Ready(&RulesType) < 0) return -1;
    Py_INCREF(&RulesType);
    if (PyModule_AddObject(m, "Rules", (PyObject *)&RulesType) < 0) {
        Py_DECREF(&RulesType);
        return -1;
    }
    if (dots_bits_init(m) < 0) return -1;
    return PyModule_AddFunctions(m, play_methods);
}
