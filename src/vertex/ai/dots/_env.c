/* The PettingZoo environment's hot path for the Dots family (`vertex.interop.pettingzoo`):
 * `step`, the order-checking wrapper's `step` and `legal_actions` in C, so that a step costs
 * about what OpenSpiel's `apply_action` costs driven from Python.
 *
 * Only the usual call is made here: a Dots game going on (the environment's `_live`), an
 * action given as an int in range. The move is played by the public state's `play` (_play.c,
 * the same path as `DotsState.play`), then the seat due is selected, or the environment's
 * own `_finish` hands out the rewards. Everything else (numpy integers, None, an action out
 * of range, a terminated seat, another game, a wrapper not reset) goes to the Python methods,
 * which stay the reference: tests/interop/test_pettingzoo.py steps both and compares them.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

PyObject *dots_play_name(PyObject *state, PyObject *name); /* _play.c */
PyObject *dots_play_index(PyObject *state, long line);
PyObject *dots_to_move(PyObject *state);
Py_ssize_t dots_seat_due(PyObject *state);
PyObject *dots_open_indices(PyObject *state);

static PyObject *s_live, *s_state, *s_actions, *s_agents, *s_selection, *s_finish;
static PyObject *s_has_reset, *s_has_updated, *s_env, *s_lines;
static PyObject *slow_step, *slow_ordered, *slow_legal; /* the Python methods */

/* The instance dict's item (borrowed), NULL without an error when absent. */
static PyObject *item(PyObject *d, PyObject *key) {
    PyObject *v = PyDict_GetItemWithError(d, key);
    if (!v && PyErr_Occurred()) PyErr_Clear();
    return v;
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
        *out = PyObject_CallMethodOneArg(env, s_finish, next); /* the last move */
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

static PyMethodDef env_defs[] = {
    {"step", (PyCFunction)(void (*)(void))env_step, METH_FASTCALL, "step(action)"},
    {"ordered_step", (PyCFunction)(void (*)(void))ordered_step, METH_FASTCALL, "step(action)"},
    {"legal_actions", (PyCFunction)env_legal, METH_O, "legal_actions() -> action numbers"},
};

/* bind_env(step, ordered_step, legal_actions) -> the same three as compiled methods; the
 * Python ones are called for everything off the usual path. */
static PyObject *bind_env(PyObject *mod, PyObject *args) {
    PyObject *st, *ord, *leg;
    if (!PyArg_ParseTuple(args, "OOO", &st, &ord, &leg)) return NULL;
    if (slow_step) {
        PyErr_SetString(PyExc_TypeError, "the environment is bound already");
        return NULL;
    }
    const char *names[] = {"_live", "state_",         "actions",      "possible_agents",
                           "agent_selection", "_finish", "_has_reset", "_has_updated",
                           "env",   "lines_are_actions"};
    PyObject **slots[] = {&s_live,   &s_state,      &s_actions,     &s_agents, &s_selection,
                          &s_finish, &s_has_reset,  &s_has_updated, &s_env,    &s_lines};
    for (int i = 0; i < 10; i++)
        if (!(*slots[i] = PyUnicode_InternFromString(names[i]))) return NULL;
    slow_step = Py_NewRef(st);
    slow_ordered = Py_NewRef(ord);
    slow_legal = Py_NewRef(leg);
    PyObject *out = PyDict_New();
    if (!out) return NULL;
    for (int i = 0; i < 3; i++) {
        PyObject *fn = PyCFunction_New(&env_defs[i], NULL);
        PyObject *method = fn ? PyInstanceMethod_New(fn) : NULL;
        Py_XDECREF(fn);
        if (!method || PyDict_SetItemString(out, env_defs[i].ml_name, method) < 0) {
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
     "bind_env(step, ordered_step, legal_actions) -> their compiled versions"},
    {NULL, NULL, 0, NULL}};

/* Called from PyInit__core. */
int dots_env_init(PyObject *m) { return PyModule_AddFunctions(m, env_methods); }
