/* The win/loss search of engines/varanasi_grundy.py (`PySolver`), compiled: the same children
 * in the same order, the same keys, the same count of positions, so it returns exactly what
 * the Python search returns (tests/engines/test_varanasi_native.py), about 20 times faster.
 * Every rule comes from Python as tables (tower heights, tops, splits, the counts of discs a
 * move may take under each height rule), so the rules live in one place; this file holds the
 * loop and the memo.
 *
 * The memo keeps a 126-bit fingerprint of each position and its result: two of the n
 * positions of a search share one with a chance of about n^2 / 2^127, far below any hardware
 * fault rate. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define N_CODES 4096
#define MAX_TOWERS 32

static uint8_t HEIGHT[N_CODES];
static uint8_t TOP_SIZE[N_CODES];
static int8_t TOP_COLOUR[N_CODES];
static uint16_t POP[N_CODES];
static uint8_t BELOW[N_CODES][5];
static uint16_t MOVED[N_CODES][5]; /* MOVED[code][k]: the top k discs */
static uint16_t REST[N_CODES][5];  /* REST[code][k]: what stays */
static int SQUARE[N_CODES];
/* K_FIRST/K_LAST[before][source height][destination height][discs that fit]: the counts of
 * top discs a move may take (none when first > last). */
static int8_t K_FIRST[2][5][5][5], K_LAST[2][5][5][5];
static int KEY_TOWERS;
static int tables_ready;

typedef struct {
    uint64_t *slots; /* pairs: (h1 | 1 << 63, h2 with the result in bit 0); 0 = empty */
    size_t cap, used;
    int before, misere;
    int64_t nodes, limit;
    char *arena; /* the frames' children, depth first: a stack */
    size_t arena_used, arena_size;
} Search;

/* Zobrist fingerprints: a position (a set of distinct tower codes; discs are unique, so no two
 * towers share a code) hashes to the XOR of its codes' random words, so a child's fingerprint is
 * its parent's with the changed towers XOR-ed in and out, before the child is even made. */
static uint64_t ZOBRIST_A[N_CODES], ZOBRIST_B[N_CODES];

static uint64_t splitmix(uint64_t *state) {
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void init_zobrist(void) {
    uint64_t state = 20121203;
    for (int c = 0; c < N_CODES; c++) {
        ZOBRIST_A[c] = splitmix(&state);
        ZOBRIST_B[c] = splitmix(&state) & ~1ULL; /* bit 0 holds the result */
    }
    ZOBRIST_A[0] = ZOBRIST_B[0] = 0; /* an emptied tower is no tower */
}

static void fingerprint(const uint16_t *pos, int n, uint64_t *h1, uint64_t *h2) {
    uint64_t a = 0, b = 0;
    for (int i = 0; i < n; i++) {
        a ^= ZOBRIST_A[pos[i]];
        b ^= ZOBRIST_B[pos[i]];
    }
    *h1 = a;
    *h2 = b;
}

/* The table stores h1 with bit 63 set (so that 0 marks an empty slot) and h2 with the result
 * in bit 0; a fingerprint's first slot to try: */
static inline size_t slot_of(size_t cap, uint64_t h1, uint64_t h2) {
    return (size_t)((h1 | 1ULL << 63) ^ ((h2 & ~1ULL) >> 17)) & (cap - 1);
}

/* 1 or 0 when remembered, -1 when not. */
static int lookup(const Search *s, uint64_t h1, uint64_t h2) {
    h1 |= 1ULL << 63;
    size_t mask = s->cap - 1, i = slot_of(s->cap, h1, h2);
    for (;;) {
        uint64_t a = s->slots[2 * i];
        if (!a) return -1;
        if (a == h1 && (s->slots[2 * i + 1] & ~1ULL) == h2) return (int)(s->slots[2 * i + 1] & 1);
        i = (i + 1) & mask;
    }
}

static void put(uint64_t *slots, size_t cap, uint64_t h1, uint64_t h2v) {
    size_t mask = cap - 1, i = slot_of(cap, h1, h2v);
    while (slots[2 * i]) i = (i + 1) & mask;
    slots[2 * i] = h1;
    slots[2 * i + 1] = h2v;
}

static uint64_t *new_table(size_t cap) { return calloc(2 * cap, sizeof(uint64_t)); }

static int remember(Search *s, uint64_t h1, uint64_t h2, int value) {
    if (4 * (s->used + 1) > 3 * s->cap) { /* at most three quarters full */
        size_t cap = s->cap * 2;
        uint64_t *slots = new_table(cap);
        if (!slots) return -1;
        for (size_t i = 0; i < s->cap; i++)
            if (s->slots[2 * i]) put(slots, cap, s->slots[2 * i], s->slots[2 * i + 1]);
        free(s->slots);
        s->slots = slots;
        s->cap = cap;
    }
    put(s->slots, s->cap, h1 | 1ULL << 63, h2 | (uint64_t)value);
    s->used++;
    return 0;
}

static inline void sort_codes(uint16_t *a, int n) {
    for (int i = 1; i < n; i++) {
        uint16_t x = a[i];
        int j = i - 1;
        while (j >= 0 && a[j] > x) {
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = x;
    }
}

/* A child not yet proven: how to make it, its key and its fingerprint. */
typedef struct {
    uint64_t h1, h2;
    int key;
    int8_t colour; /* a take, or -1 for a move */
    uint8_t from, k, to;
} Child;

static int make_child(const uint16_t *pos, int n, const Child *c, uint16_t *out) {
    int m = 0;
    if (c->colour >= 0) {
        for (int i = 0; i < n; i++) {
            uint16_t x = TOP_COLOUR[pos[i]] == c->colour ? POP[pos[i]] : pos[i];
            if (x) out[m++] = x;
        }
    } else {
        uint16_t src = pos[c->from];
        uint16_t rest = REST[src][c->k];
        for (int t = 0; t < n; t++) {
            if (t == c->to) out[m++] = pos[t] | MOVED[src][c->k];
            else if (t == c->from) {
                if (rest) out[m++] = rest;
            } else out[m++] = pos[t];
        }
    }
    sort_codes(out, m);
    return m;
}

/* -2: out of memory, -1: past the count, else 1 (the side to move wins) or 0. */
static int wins(Search *s, const uint16_t *pos, int n, uint64_t h1, uint64_t h2) {
    int known = lookup(s, h1, h2);
    if (known >= 0) return known;
    if (++s->nodes > s->limit) return -1;

    size_t need = (size_t)(6 + n * (n - 1) * 4) * sizeof(Child);
    Child *kids;
    int own = s->arena_used + need > s->arena_size;
    if (own) {
        kids = malloc(need);
        if (!kids) return -2;
    } else {
        kids = (Child *)(s->arena + s->arena_used);
        s->arena_used += need;
    }
    int result = 0, count = 0, emptied = 0;

    /* Every child's fingerprint first, fetching its memo slot meanwhile; then the lookups,
     * in the order the children were made (the first proven loss ends the node). */
    int tops = 0;
    for (int i = 0; i < n; i++) tops |= 1 << TOP_COLOUR[pos[i]];
    for (int c = 0; c < 6; c++) {
        if (!(tops >> c & 1)) continue;
        uint64_t c1 = h1, c2 = h2;
        int m = 0, squares = 0;
        for (int i = 0; i < n; i++) {
            uint16_t x = pos[i];
            if (TOP_COLOUR[x] == c) {
                uint16_t y = POP[x];
                c1 ^= ZOBRIST_A[x] ^ ZOBRIST_A[y];
                c2 ^= ZOBRIST_B[x] ^ ZOBRIST_B[y];
                x = y;
            }
            if (x) {
                m++;
                squares += SQUARE[x];
            }
        }
        if (!m) {
            emptied = 1; /* normal play: take the last disc and win; misère: never */
            continue;
        }
        Child *k = &kids[count++];
        k->h1 = c1, k->h2 = c2, k->key = KEY_TOWERS * m - squares, k->colour = (int8_t)c;
        __builtin_prefetch(&s->slots[2 * slot_of(s->cap, c1, c2)]);
    }
    if (emptied && !s->misere) {
        result = 1;
        goto done;
    }

    int squares = KEY_TOWERS * n;
    for (int i = 0; i < n; i++) squares -= SQUARE[pos[i]];
    for (int i = 0; i < n; i++) {
        uint16_t src = pos[i];
        int s_height = HEIGHT[src];
        uint64_t a_src = h1 ^ ZOBRIST_A[src], b_src = h2 ^ ZOBRIST_B[src];
        for (int j = 0; j < n; j++) {
            uint16_t dst = pos[j];
            int kmax = BELOW[src][TOP_SIZE[dst]];
            if (!kmax) continue;
            int d_height = HEIGHT[dst];
            int k_first = K_FIRST[s->before][s_height][d_height][kmax];
            int k_last = K_LAST[s->before][s_height][d_height][kmax];
            uint64_t a_both = a_src ^ ZOBRIST_A[dst], b_both = b_src ^ ZOBRIST_B[dst];
            int base = squares + SQUARE[src] + SQUARE[dst];
            for (int k = k_first; k <= k_last; k++) {
                uint16_t rest = REST[src][k], fresh = dst | MOVED[src][k];
                Child *kid = &kids[count++];
                kid->h1 = a_both ^ ZOBRIST_A[fresh] ^ ZOBRIST_A[rest];
                kid->h2 = b_both ^ ZOBRIST_B[fresh] ^ ZOBRIST_B[rest];
                kid->colour = -1;
                kid->from = (uint8_t)i, kid->k = (uint8_t)k, kid->to = (uint8_t)j;
                kid->key = base - SQUARE[fresh] - (rest ? SQUARE[rest] : KEY_TOWERS);
                __builtin_prefetch(&s->slots[2 * slot_of(s->cap, kid->h1, kid->h2)]);
            }
        }
    }

    /* Keep the children not proven yet, in order; a proven loss for the opponent wins. */
    int unknown = 0;
    for (int a = 0; a < count; a++) {
        int v = lookup(s, kids[a].h1, kids[a].h2);
        if (v < 0) kids[unknown++] = kids[a];
        else if (!v) {
            result = 1;
            goto done;
        }
    }
    /* Stable: equal keys keep the order they were made in. */
    for (int a = 1; a < unknown; a++) {
        Child x = kids[a];
        int b = a - 1;
        while (b >= 0 && kids[b].key > x.key) {
            kids[b + 1] = kids[b];
            b--;
        }
        kids[b + 1] = x;
    }
    uint16_t child[MAX_TOWERS];
    for (int a = 0; a < unknown; a++) {
        int m = make_child(pos, n, &kids[a], child);
        int r = wins(s, child, m, kids[a].h1, kids[a].h2);
        if (r < 0) {
            result = r;
            break;
        }
        if (!r) {
            result = 1;
            break;
        }
    }
done:
    if (own) free(kids);
    else s->arena_used -= need;
    if (result >= 0 && remember(s, h1, h2, result) < 0) return -2;
    return result;
}

/* -- Python ------------------------------------------------------------------------------- */

static void search_free(PyObject *capsule) {
    Search *s = PyCapsule_GetPointer(capsule, "varanasi_search");
    if (s) {
        free(s->arena);
        free(s->slots);
        free(s);
    }
}

static Search *get_search(PyObject *capsule) {
    return PyCapsule_GetPointer(capsule, "varanasi_search");
}

static int read_codes(PyObject *seq, uint16_t *out) {
    PyObject *fast = PySequence_Fast(seq, "codes must be a sequence");
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > MAX_TOWERS) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "too many towers");
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v < 1 || v >= N_CODES) {
            Py_DECREF(fast);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "not a tower code");
            return -1;
        }
        out[i] = (uint16_t)v;
    }
    Py_DECREF(fast);
    return (int)n;
}

/* `count` ints from a Python sequence into `dest`, each of `bytes` bytes (1, 2 or 4). */
static int read_ints(PyObject *seq, Py_ssize_t count, void *dest, int bytes) {
    PyObject *fast = PySequence_Fast(seq, "a table must be a sequence");
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != count) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "a table of %zd entries expected", count);
        return -1;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        if (bytes == 1) ((int8_t *)dest)[i] = (int8_t)v;
        else if (bytes == 2) ((uint16_t *)dest)[i] = (uint16_t)v;
        else ((int *)dest)[i] = (int)v;
    }
    Py_DECREF(fast);
    return 0;
}

static PyObject *py_tables(PyObject *self, PyObject *args) {
    PyObject *height, *top_size, *top_colour, *pop, *below, *moved, *rest, *square, *first,
        *last;
    if (!PyArg_ParseTuple(args, "OOOOOOOOOOi", &height, &top_size, &top_colour, &pop, &below,
                          &moved, &rest, &square, &first, &last, &KEY_TOWERS))
        return NULL;
    const Py_ssize_t codes = N_CODES, ks = sizeof K_FIRST;
    if (read_ints(height, codes, HEIGHT, 1) || read_ints(top_size, codes, TOP_SIZE, 1) ||
        read_ints(top_colour, codes, TOP_COLOUR, 1) || read_ints(pop, codes, POP, 2) ||
        read_ints(below, 5 * codes, BELOW, 1) || read_ints(moved, 5 * codes, MOVED, 2) ||
        read_ints(rest, 5 * codes, REST, 2) || read_ints(square, codes, SQUARE, 4) ||
        read_ints(first, ks, K_FIRST, 1) || read_ints(last, ks, K_LAST, 1))
        return NULL;
    tables_ready = 1;
    Py_RETURN_NONE;
}

static PyObject *py_new(PyObject *self, PyObject *args) {
    int before, misere;
    if (!PyArg_ParseTuple(args, "pp", &before, &misere)) return NULL;
    if (!tables_ready) {
        PyErr_SetString(PyExc_RuntimeError, "tables() first");
        return NULL;
    }
    Search *s = calloc(1, sizeof(Search));
    if (!s) return PyErr_NoMemory();
    s->cap = 1024;
    s->slots = new_table(s->cap);
    if (!s->slots) {
        free(s);
        return PyErr_NoMemory();
    }
    s->arena_size = 4 << 20;
    s->arena = malloc(s->arena_size);
    if (!s->arena) s->arena_size = 0; /* every frame then mallocs its own */
    s->before = before;
    s->misere = misere;
    return PyCapsule_New(s, "varanasi_search", search_free);
}

/* wins(search, codes, nodes, limit) -> (1, 0 or -1 past the count, nodes) */
static PyObject *py_wins(PyObject *self, PyObject *args) {
    PyObject *capsule, *codes;
    long long nodes, limit;
    if (!PyArg_ParseTuple(args, "OOLL", &capsule, &codes, &nodes, &limit)) return NULL;
    Search *s = get_search(capsule);
    if (!s) return NULL;
    uint16_t pos[MAX_TOWERS];
    int n = read_codes(codes, pos);
    if (n < 0) return NULL;
    if (n == 0) {
        PyErr_SetString(PyExc_ValueError, "an empty board has no search");
        return NULL;
    }
    s->nodes = nodes;
    s->limit = limit;
    uint64_t h1, h2;
    fingerprint(pos, n, &h1, &h2);
    int r;
    Py_BEGIN_ALLOW_THREADS
    r = wins(s, pos, n, h1, h2);
    Py_END_ALLOW_THREADS
    if (r == -2) return PyErr_NoMemory();
    return Py_BuildValue("iL", r, (long long)s->nodes);
}

/* known(search, codes) -> 1, 0, or -1 when not proven */
static PyObject *py_known(PyObject *self, PyObject *args) {
    PyObject *capsule, *codes;
    if (!PyArg_ParseTuple(args, "OO", &capsule, &codes)) return NULL;
    Search *s = get_search(capsule);
    if (!s) return NULL;
    uint16_t pos[MAX_TOWERS];
    int n = read_codes(codes, pos);
    if (n < 0) return NULL;
    uint64_t h1, h2;
    fingerprint(pos, n, &h1, &h2);
    return PyLong_FromLong(lookup(s, h1, h2));
}

static PyObject *py_size(PyObject *self, PyObject *args) {
    PyObject *capsule;
    if (!PyArg_ParseTuple(args, "O", &capsule)) return NULL;
    Search *s = get_search(capsule);
    if (!s) return NULL;
    return PyLong_FromSize_t(s->used);
}

static PyObject *py_forget(PyObject *self, PyObject *args) {
    PyObject *capsule;
    if (!PyArg_ParseTuple(args, "O", &capsule)) return NULL;
    Search *s = get_search(capsule);
    if (!s) return NULL;
    uint64_t *slots = new_table(1024);
    if (!slots) return PyErr_NoMemory();
    free(s->slots);
    s->slots = slots;
    s->cap = 1024;
    s->used = 0;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"tables", py_tables, METH_VARARGS, "Give the search the tower tables (once)."},
    {"new", py_new, METH_VARARGS, "new(before, misere): an empty search."},
    {"wins", py_wins, METH_VARARGS, "wins(search, codes, nodes, limit) -> (result, nodes)"},
    {"known", py_known, METH_VARARGS, "known(search, codes) -> 1, 0 or -1"},
    {"size", py_size, METH_VARARGS, "size(search): positions remembered"},
    {"forget", py_forget, METH_VARARGS, "forget(search): remember nothing"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_varanasi_search",
                                    "The compiled win/loss search of varanasi_grundy.", -1,
                                    methods};

PyMODINIT_FUNC PyInit__varanasi_search(void) {
    init_zobrist();
    return PyModule_Create(&module);
}
