/* The PettingZoo environment's hot path for the Dots family (`vertex.interop.pettingzoo`):
 * `step`, `reset`, the last move's rewards (`_finish`), the order-checking wrapper's `step`
 * and `reset`, and `legal_actions` in C, so that a step costs about what OpenSpiel's
 * `apply_action` costs driven from Python, and a game's `reset` what `new_initial_state`
 * does.
 *
 * Only the usual call is made here: a Dots game going on (the environment's `_live`), an
 * action given as an int in range. The move is played by the public state's `play` (_play.c,
 * the same path as `DotsState.play`), then the seat due is selected, or the environment's
 * `_finish` hands out the rewards (here, unless a subclass has its own). `reset` is made here
 * when the seed's starting position is kept (`_starts`). Everything else (numpy integers,
 * None, an action out of range, a terminated seat, another game, a wrapper not reset, a new
 * seed) goes to the Python methods, which stay the reference: tests/interop/test_pettingzoo.py
 * steps and resets both and compares them.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

PyObject *dots_play_name(PyObject *state, PyObject *name); /* _play.c */
PyObject *dots_play_index(PyObject *state, long line);
PyObject *dots_to_move(PyObject *state);
Py_ssize_t dots_seat_due(PyObject *state);
PyObject *dots_open_indices(PyObject *state);
int dots_winners(PyObject *state, unsigned char *win, Py_ssize_t max, Py_ssize_t *seats);
PyObject *dots_self_first(PyObject *(*fn)(PyObject *, PyObject *const *, Py_ssize_t, PyObject *),
                          PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                          PyObject *kwnames);

#define NS 18
static PyObject *s_live, *s_state, *s_actions, *s_agents, *s_selection, *s_finish;
static PyObject *s_has_reset, *s_has_updated, *s_env, *s_lines, *s_now, *s_seat_of;
static PyObject *s_rewards, *s_cum, *s_terms, *s_truncs, *s_infos, *s_starts;
static PyObject *s_zeros, *s_falses, *s_reset, *kw_reset, *zero;
/* the Python methods */
static PyObject *slow_step, *slow_ordered, *slow_legal, *slow_finish, *slow_reset;
static PyObject *slow_ordered_reset;

/* The instance dict's item (borrowed), NULL without an error when absent. */
static PyObject *item(PyObject *d, PyObject *key) {
    PyObject *v = PyDict_GetItemWithError(d, key);
    if (!v && PyErr_Occurred()) PyErr_Clear();
    return v;
}

/* Sets d[key] = v and drops the reference to v; -1 on an error. */
static int put(PyObject *d, PyObject *key, PyObject *v) {
    if (!v) return -1;
    int r = PyDict_SetItem(d, key, v);
    Py_DECREF(v);
    return r;
}

/* VertexEnv._finish(state), the last move, as the Python one does it: `_live` off, a reward
 * to every agent (+1 a winner, -1 the others, 0 all in a draw), every agent terminated, the
 * rewards added to the cumulative ones (the mover's first set to 0). Taken here when the
 * method is VertexEnv's own and the state one the hot path takes, else called. */
static PyObject *finish(PyObject *env, PyObject *d, PyObject *state) {
    unsigned char win[64];
    Py_ssize_t seats = 0;
    PyObject *agents = item(d, s_now), *seat_of = item(d, s_seat_of), *cum = item(d, s_cum);
    PyObject *mover = item(d, s_selection);
    int ok = 0;
    if (_PyType_Lookup(Py_TYPE(env), s_finish) == slow_finish && !item(d, s_finish) && agents &&
        PyList_CheckExact(agents) && seat_of && PyDict_CheckExact(seat_of) && cum &&
        PyDict_CheckExact(cum) && mover)
        ok = dots_winners(state, win, 64, &seats);
    if (ok < 0) return NULL;
    if (!ok) return PyObject_CallMethodOneArg(env, s_finish, state);
    Py_ssize_t won = 0;
    for (Py_ssize_t s = 0; s < seats; s++) won += win[s];
    int draw = won == seats; /* every seat a winner (seats: the game's, one owned set each) */
    PyObject *out = NULL, *rewards = NULL, *terms = NULL;
    Py_INCREF(agents);
    Py_INCREF(seat_of);
    Py_INCREF(cum);
    Py_INCREF(mover);
    if (PyDict_SetItem(d, s_live, Py_False) < 0 || !(rewards = PyDict_New())) goto end;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(agents); i++) {
        PyObject *a = PyList_GET_ITEM(agents, i);
        long r = 0;
        if (!draw) {
            PyObject *seat = PyDict_GetItemWithError(seat_of, a);
            if (!seat) {
                if (!PyErr_Occurred()) PyErr_SetObject(PyExc_KeyError, a);
                goto end;
            }
            Py_ssize_t k = PyLong_CheckExact(seat) ? PyLong_AsSsize_t(seat) : -1;
            if (k == -1 && PyErr_Occurred()) PyErr_Clear();
            r = k >= 0 && k < seats && win[k] ? 1 : -1;
        }
        if (put(rewards, a, PyLong_FromLong(r)) < 0) goto end;
    }
    if (!(terms = PyDict_New())) goto end;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(agents); i++)
        if (PyDict_SetItem(terms, PyList_GET_ITEM(agents, i), Py_True) < 0) goto end;
    if (PyDict_SetItem(d, s_rewards, rewards) < 0 || PyDict_SetItem(d, s_terms, terms) < 0 ||
        PyDict_SetItem(cum, mover, zero) < 0)
        goto end;
    /* _accumulate_rewards: each agent's cumulative reward += its reward */
    Py_ssize_t pos = 0;
    PyObject *a, *r;
    while (PyDict_Next(rewards, &pos, &a, &r)) {
        PyObject *had = PyDict_GetItemWithError(cum, a);
        if (!had) {
            if (!PyErr_Occurred()) PyErr_SetObject(PyExc_KeyError, a);
            goto end;
        }
        if (put(cum, a, PyNumber_InPlaceAdd(had, r)) < 0) goto end;
    }
    out = Py_NewRef(Py_None);
end:
    Py_XDECREF(rewards);
    Py_XDECREF(terms);
    Py_DECREF(agents);
    Py_DECREF(seat_of);
    Py_DECREF(cum);
    Py_DECREF(mover);
    return out;
}

/* The usual step of `env`: 1 when taken here (*out: None, or NULL with an error set),
 * 0 when it is not the usual step (nothing changed, no error). */
static int fast_step(PyObject *env, PyObject *action, PyObject **out) {
    if (!PyLong_CheckExact(action)) return 0;
    PyObject *d = PyObject_GenericGetDict(env, NULL);
    if (!d) {
        PyErr_Clear();
        return 0;
    }
    int taken = 0;
    PyObject *state = item(d, s_state), *actions = item(d, s_actions);
    PyObject *agents = item(d, s_agents);
    if (item(d, s_live) != Py_True || !state || !actions || !agents ||
        !PyList_CheckExact(actions) || !PyList_CheckExact(agents))
        goto end;
    Py_ssize_t a = PyLong_AsSsize_t(action);
    if (a == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        goto end;
    }
    if (a < 0 || a >= PyList_GET_SIZE(actions)) goto end;
    taken = 1;
    *out = NULL;
    PyObject *name = Py_NewRef(PyList_GET_ITEM(actions, a));
    Py_INCREF(state);
    Py_INCREF(agents);
    /* the action's number is the line's (`lines_are_actions`, which `_live` implies) */
    PyObject *next = dots_play_index(state, (long)a);
    if (!next && !PyErr_Occurred()) next = dots_play_name(state, name);
    Py_DECREF(name);
    Py_DECREF(state);
    /* a refusal (a line drawn already) raises here and changes nothing */
    if (!next || PyDict_SetItem(d, s_state, next) < 0) goto done;
    Py_ssize_t seat = dots_seat_due(next);
    if (seat == -2) { /* not a state the hot path takes: its own to_move */
        PyObject *due = dots_to_move(next);
        if (!due) goto done;
        seat = PyTuple_Check(due) && PyTuple_GET_SIZE(due)
                   ? PyLong_AsSsize_t(PyTuple_GET_ITEM(due, 0))
                   : -1;
        Py_DECREF(due);
        if (seat == -1 && PyErr_Occurred()) goto done;
    }
    if (seat == -3) goto done;
    if (seat == -1) {
        *out = finish(env, d, next); /* the last move */
        goto done;
    }
    if (seat < 0 || seat >= PyList_GET_SIZE(agents)) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_RuntimeError, "the seat due has no agent");
        goto done;
    }
    if (PyDict_SetItem(d, s_selection, PyList_GET_ITEM(agents, seat)) == 0)
        *out = Py_NewRef(Py_None);
done:
    Py_XDECREF(next);
    Py_DECREF(agents);
end:
    Py_DECREF(d);
    return taken;
}

static PyObject *call_slow(PyObject *fn, PyObject *const *args, Py_ssize_t nargs) {
    return PyObject_Vectorcall(fn, args, nargs, NULL);
}

/* VertexEnv.step(env, action) */
static PyObject *env_step(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    PyObject *out;
    if (nargs == 2 && fast_step(args[0], args[1], &out)) return out;
    return call_slow(slow_step, args, nargs);
}

/* OrderEnforcing.step(wrapper, action): PettingZoo's checks hold (reset first; a game going
 * on has its agents), so only the wrapper's `_has_updated` is set, as its step does. */
static PyObject *ordered_step(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs == 2 && PyLong_CheckExact(args[1])) {
        PyObject *d = PyObject_GenericGetDict(args[0], NULL);
        if (!d) return NULL;
        PyObject *inner = item(d, s_env);
        if (item(d, s_has_reset) == Py_True && inner) {
            Py_INCREF(inner);
            int ok = PyDict_SetItem(d, s_has_updated, Py_True);
            Py_DECREF(d);
            if (ok < 0) {
                Py_DECREF(inner);
                return NULL;
            }
            PyObject *out;
            int taken = fast_step(inner, args[1], &out);
            Py_DECREF(inner);
            if (taken) return out;
        } else {
            Py_DECREF(d);
        }
    }
    return call_slow(slow_ordered, args, nargs);
}

/* VertexEnv.legal_actions(env): the open lines' numbers when the lines are the actions */
static PyObject *env_legal(PyObject *mod, PyObject *env) {
    PyObject *d = PyObject_GenericGetDict(env, NULL);
    if (!d) return NULL;
    PyObject *out = NULL, *state = item(d, s_state);
    if (item(d, s_lines) == Py_True && state) {
        Py_INCREF(state);
        out = dots_open_indices(state);
        Py_DECREF(state);
    }
    Py_DECREF(d);
    if (out || PyErr_Occurred()) return out;
    return PyObject_CallOneArg(slow_legal, env);
}

/* The seed and options of reset(self, seed=None, options=None): 1 when parsed, 0 when it is
 * not the usual call (the Python method then refuses or takes it). */
static int reset_args(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, PyObject **seed,
                      PyObject **options) {
    *seed = *options = NULL;
    if (nargs < 1 || nargs > 3) return 0;
    if (nargs >= 2) *seed = args[1];
    if (nargs == 3) *options = args[2];
    Py_ssize_t nk = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t i = 0; i < nk; i++) {
        PyObject *k = PyTuple_GET_ITEM(kwnames, i), **to;
        if (PyUnicode_CompareWithASCIIString(k, "seed") == 0)
            to = seed;
        else if (PyUnicode_CompareWithASCIIString(k, "options") == 0)
            to = options;
        else
            return 0;
        if (*to) return 0;
        *to = args[nargs + i];
    }
    return 1;
}

/* Python's `{a: {} for a in agents}` */
static PyObject *empty_infos(PyObject *agents) {
    PyObject *out = PyDict_New();
    for (Py_ssize_t i = 0; out && i < PyList_GET_SIZE(agents); i++)
        if (put(out, PyList_GET_ITEM(agents, i), PyDict_New()) < 0) Py_CLEAR(out);
    return out;
}

/* VertexEnv.reset(env, seed=None, options=None) with the seed's starting position kept: the
 * same fields as the Python one (new lists and dicts, copied from the templates). */
static PyObject *env_reset(PyObject *mod, PyObject *const *args, Py_ssize_t nargs,
                           PyObject *kwnames) {
    PyObject *seed, *options, *d = NULL, *out = NULL;
    if (!reset_args(args, nargs, kwnames, &seed, &options)) goto slow;
    if (!seed || seed == Py_None)
        seed = zero;
    else if (!PyLong_CheckExact(seed))
        goto slow;
    if (!(d = PyObject_GenericGetDict(args[0], NULL))) {
        PyErr_Clear();
        goto slow;
    }
    PyObject *starts = item(d, s_starts), *agents = item(d, s_agents), *zeros = item(d, s_zeros);
    PyObject *falses = item(d, s_falses), *lines = item(d, s_lines), *state = NULL;
    if (!starts || !PyDict_CheckExact(starts) || !agents || !PyList_CheckExact(agents) ||
        !zeros || !PyDict_CheckExact(zeros) || !falses || !PyDict_CheckExact(falses) || !lines)
        goto slow;
    if (!(state = PyDict_GetItemWithError(starts, seed))) {
        if (PyErr_Occurred()) goto end;
        goto slow; /* a new seed: made and kept by the Python method */
    }
    Py_ssize_t seat = dots_seat_due(state);
    if (seat == -3) goto end;
    if (seat < 0 || seat >= PyList_GET_SIZE(agents)) goto slow;
    PyObject *fields[][2] = {
        {s_state, Py_NewRef(state)},
        {s_now, PyList_GetSlice(agents, 0, PyList_GET_SIZE(agents))},
        {s_rewards, PyDict_Copy(zeros)},
        {s_cum, PyDict_Copy(zeros)},
        {s_terms, PyDict_Copy(falses)},
        {s_truncs, PyDict_Copy(falses)},
        {s_infos, NULL},
        {s_selection, Py_NewRef(PyList_GET_ITEM(agents, seat))},
        {s_live, Py_NewRef(lines)},
    };
    int n = (int)(sizeof fields / sizeof fields[0]), failed = 0;
    if (fields[1][1]) fields[6][1] = empty_infos(fields[1][1]);
    for (int i = 0; i < n; i++) failed |= !fields[i][1];
    for (int i = 0; i < n; i++) {
        if (!failed && PyDict_SetItem(d, fields[i][0], fields[i][1]) < 0) failed = 1;
        Py_XDECREF(fields[i][1]);
    }
    if (!failed) out = Py_NewRef(Py_None);
end:
    Py_XDECREF(d);
    return out;
slow:
    Py_XDECREF(d);
    if (PyErr_Occurred()) return NULL;
    return PyObject_Vectorcall(slow_reset, args, nargs, kwnames);
}

/* OrderEnforcing.reset(wrapper, seed=None, options=None): PettingZoo's (the two flags set,
 * then the environment's reset(seed=seed, options=options)) without its two Python frames. */
static PyObject *ordered_reset(PyObject *mod, PyObject *const *args, Py_ssize_t nargs,
                               PyObject *kwnames) {
    PyObject *seed, *options, *d, *inner;
    if (!reset_args(args, nargs, kwnames, &seed, &options) ||
        !(d = PyObject_GenericGetDict(args[0], NULL))) {
        PyErr_Clear();
        return PyObject_Vectorcall(slow_ordered_reset, args, nargs, kwnames);
    }
    if (!(inner = item(d, s_env))) {
        Py_DECREF(d);
        return PyObject_Vectorcall(slow_ordered_reset, args, nargs, kwnames);
    }
    Py_INCREF(inner);
    PyObject *out = NULL;
    if (PyDict_SetItem(d, s_has_reset, Py_True) == 0 &&
        PyDict_SetItem(d, s_has_updated, Py_True) == 0) {
        PyObject *stack[3] = {inner, seed ? seed : Py_None, options ? options : Py_None};
        out = PyObject_VectorcallMethod(s_reset, stack, 1, kw_reset);
    }
    Py_DECREF(inner);
    Py_DECREF(d);
    return out;
}

/* The methods are method descriptors of their classes (`dots_self_first`, _play.c, hands the
 * functions above the arguments with self first). */
static PyObject *step_kw(PyObject *m, PyObject *const *a, Py_ssize_t n, PyObject *kw) {
    /* step takes no keywords here: the Python method names the error */
    return kw && PyTuple_GET_SIZE(kw) ? PyObject_Vectorcall(slow_step, a, n, kw) : env_step(m, a, n);
}
static PyObject *ordered_kw(PyObject *m, PyObject *const *a, Py_ssize_t n, PyObject *kw) {
    return kw && PyTuple_GET_SIZE(kw) ? PyObject_Vectorcall(slow_ordered, a, n, kw)
                                      : ordered_step(m, a, n);
}
static PyObject *d_step(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw) {
    return dots_self_first(step_kw, self, args, nargs, kw);
}
static PyObject *d_ordered_step(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                PyObject *kw) {
    return dots_self_first(ordered_kw, self, args, nargs, kw);
}
static PyObject *d_reset(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw) {
    return dots_self_first(env_reset, self, args, nargs, kw);
}
static PyObject *d_ordered_reset(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                 PyObject *kw) {
    return dots_self_first(ordered_reset, self, args, nargs, kw);
}
static PyObject *d_legal(PyObject *self, PyObject *unused) { return env_legal(NULL, self); }

#define KW METH_FASTCALL | METH_KEYWORDS
#define F(fn) (PyCFunction)(void (*)(void))(fn)
/* the first three are VertexEnv's, the last two OrderEnforcing's */
static PyMethodDef env_defs[] = {
    {"step", F(d_step), KW, "step(action)"},
    {"legal_actions", d_legal, METH_NOARGS, "legal_actions() -> action numbers"},
    {"reset", F(d_reset), KW, "reset(seed=None, options=None)"},
    {"step", F(d_ordered_step), KW, "step(action)"},
    {"reset", F(d_ordered_reset), KW, "reset(seed=None, options=None)"},
};
#define NDEFS 5

/* bind_env(step, ordered_step, legal_actions, finish, reset, ordered_reset, env_cls,
 * wrapper_cls) -> the compiled step, legal_actions and reset (env_cls's methods) and
 * ordered_step and ordered_reset (wrapper_cls's); the Python ones are called for everything
 * off the usual path (`finish` is VertexEnv._finish, made here when not overridden). */
static PyObject *bind_env(PyObject *mod, PyObject *args) {
    PyObject *st, *ord, *leg, *fin, *res, *ores;
    PyTypeObject *env_cls, *wrapper_cls;
    if (!PyArg_ParseTuple(args, "OOOOOOO!O!", &st, &ord, &leg, &fin, &res, &ores, &PyType_Type,
                          &env_cls, &PyType_Type, &wrapper_cls))
        return NULL;
    if (slow_step) {
        PyErr_SetString(PyExc_TypeError, "the environment is bound already");
        return NULL;
    }
    const char *names[NS] = {"_live",     "state_",          "actions",     "possible_agents",
                             "agent_selection", "_finish",   "_has_reset",  "_has_updated",
                             "env",       "lines_are_actions", "agents",    "seat_of",
                             "rewards",   "_cumulative_rewards", "terminations", "truncations",
                             "infos",     "_starts"};
    PyObject **slots[NS] = {&s_live,    &s_state,   &s_actions,  &s_agents,  &s_selection,
                            &s_finish,  &s_has_reset, &s_has_updated, &s_env, &s_lines,
                            &s_now,     &s_seat_of, &s_rewards,  &s_cum,     &s_terms,
                            &s_truncs,  &s_infos,   &s_starts};
    for (int i = 0; i < NS; i++)
        if (!(*slots[i] = PyUnicode_InternFromString(names[i]))) return NULL;
    if (!(s_zeros = PyUnicode_InternFromString("_zeros")) ||
        !(s_falses = PyUnicode_InternFromString("_falses")) ||
        !(s_reset = PyUnicode_InternFromString("reset")) ||
        !(kw_reset = Py_BuildValue("(ss)", "seed", "options")) || !(zero = PyLong_FromLong(0)))
        return NULL;
    slow_step = Py_NewRef(st);
    slow_ordered = Py_NewRef(ord);
    slow_legal = Py_NewRef(leg);
    slow_finish = Py_NewRef(fin);
    slow_reset = Py_NewRef(res);
    slow_ordered_reset = Py_NewRef(ores);
    PyObject *out = PyDict_New();
    if (!out) return NULL;
    const char *keys[NDEFS] = {"step", "legal_actions", "reset", "ordered_step", "ordered_reset"};
    for (int i = 0; i < NDEFS; i++) {
        PyObject *method = PyDescr_NewMethod(i < 3 ? env_cls : wrapper_cls, &env_defs[i]);
        if (!method || PyDict_SetItemString(out, keys[i], method) < 0) {
            Py_XDECREF(method);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(method);
    }
    return out;
}

static PyMethodDef env_methods[] = {
    {"bind_env", bind_env, METH_VARARGS,
     "bind_env(step, ordered_step, legal_actions, finish, reset, ordered_reset, env_cls, "
     "wrapper_cls) -> the compiled versions"},
    {NULL, NULL, 0, NULL}};

/* Called from PyInit__core. */
int dots_env_init(PyObject *m) { return PyModule_AddFunctions(m, env_methods); }
