/*
 * The open-hand search in C: the same exact alpha-beta as texas42_log/engine/solver.py
 * (the reference), with no Python object in the inner loop.
 *
 * Everything the search knows of the rules arrives from Python as whole numbers in one
 * "setup" tuple (texas42_log/engine/native.py builds it from the same tables the
 * reference uses), so this file holds no rule of its own: it walks bitboards of 28
 * tiles, four hands, a transposition table at the trick boundaries of bounded size
 * (direct-mapped, always replaced; a generation counter empties it in O(1)), and the
 * reference's move ordering. Values never depend on the ordering or on what the
 * table still remembers; only the node count does.
 *
 * It is a trust boundary: every number that crosses into it is checked first — types,
 * ranges, lengths, tiles held twice, hand sizes against the trick — and anything wrong
 * is a ValueError with a sentence. The search itself then only ever indexes arrays with
 * values those checks bounded.
 *
 * A search object is not shared between threads at one time: a call made while another
 * is running on the same object (the GIL is released during the search) is refused.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define NTILES 28
#define NSUITS 9
#define NSEATS 4
#define TRICKS 7
#define INF 1000
#define DECLARED 32
#define ALL_TILES ((1u << NTILES) - 1u)
#define MAX_GROUPS 9
#define MIN_BITS 4
#define MAX_BITS 24

typedef struct {
    /* The count (R6), all of it data (texas42_log/engine/count.py): each tile's count,
       the counting tiles grouped by value, the points for winning trick n (1..7), the
       trick points from trick n on (1..8), and the hand's total (at most 63: the table
       packs bounds in 6 bits). */
    int counts[NTILES];
    int nvalues;
    int value_pts[NTILES];
    uint32_t value_mask[NTILES];
    int trick_pts[TRICKS + 2];
    int after[TRICKS + 2];
    int total;
    uint32_t follow[NSUITS];
    int leads[NTILES];
    int key[NSUITS][NTILES];
    int low[NTILES];
    uint32_t declarable;
    int declared_lead; /* 0 never, 1 the first trick, 2 always */
    int closest;       /* Sevens played closest to 7 */
    uint32_t by_distance[8];
    int ngroups;
    int glen[MAX_GROUPS];
    int groups[MAX_GROUPS][NTILES];
    uint32_t group_mask;
    int size;
    int next_of[NSEATS];
    int playing[NSEATS];
    int bidder_seat[NSEATS];
    int maximiser[NSEATS];
} Setup;

/* A table entry in one word: the key (the tiles left and the leader, 30 bits), the
   generation it was written in (16 bits), the bounds lo and hi on the points still
   to come (6 bits each) and the lead that last proved best (6 bits; 63 for none). */
typedef uint64_t Entry;
#define E_KEY(e) ((uint32_t)((e) & 0x3FFFFFFFu))
#define E_GEN(e) ((uint32_t)(((e) >> 30) & 0xFFFFu))
#define E_LO(e) ((int)(((e) >> 46) & 63u))
#define E_HI(e) ((int)(((e) >> 52) & 63u))
#define E_BEST(e) ((int)(((e) >> 58) & 63u))
#define NO_BEST 63
#define MAX_GEN 0xFFFFu

typedef struct {
    int number, k, seat, led, win_seat, win_key, pts;
} Position;

typedef struct {
    PyObject_HEAD
    Setup s;
    uint32_t hands[NSEATS];
    Entry *table;
    uint32_t mask;
    int bits;
    uint32_t gen;
    unsigned long long nodes;
    unsigned long long passes; /* null-window searches, the benchmark's figure */
    int busy;
} SearchObject;

/* -- bits ------------------------------------------------------------------------- */

/* Counted in registers: __builtin_popcount without -mpopcnt is a call into libgcc,
   and a wheel for every x86-64 machine cannot assume the instruction. */
static inline int popcount32(uint32_t x) {
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0F0F0F0Fu;
    return (int)((x * 0x01010101u) >> 24);
}

static inline int msb32(uint32_t x) { /* x != 0 */
#if defined(__GNUC__) || defined(__clang__)
    return 31 - __builtin_clz(x);
#else
    int n = -1;
    while (x) { x >>= 1; n++; }
    return n;
#endif
}

static inline int lsb32(uint32_t x) { /* x != 0 */
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctz(x);
#else
    int n = 0;
    while (!(x & 1u)) { x >>= 1; n++; }
    return n;
#endif
}

static int bits_of(uint32_t mask, int *out) {
    int n = 0;
    while (mask) {
        out[n++] = lsb32(mask);
        mask &= mask - 1;
    }
    return n;
}

/* -- the search (a line-for-line reading of the reference's) ---------------------- */

static inline int points_left(const Setup *s, uint32_t remaining, int number) {
    int p = s->after[number];
    for (int j = 0; j < s->nvalues; j++) p += s->value_pts[j] * popcount32(remaining & s->value_mask[j]);
    return p;
}

static inline uint32_t nearest(const Setup *s, uint32_t hand) {
    for (int d = 0; d < 8; d++) {
        if (hand & s->by_distance[d]) return hand & s->by_distance[d];
    }
    return hand;
}

static inline uint32_t legal_of(const Setup *s, uint32_t hand, int led) {
    if (s->closest) return nearest(s, hand);
    uint32_t f = hand & s->follow[led];
    return f ? f : hand;
}

static int lead_codes(const Setup *s, uint32_t hand, int number, int *out) {
    if (s->closest) hand = nearest(s, hand);
    int n = bits_of(hand, out);
    if (s->declared_lead == 2 || (s->declared_lead == 1 && number == 1)) {
        int extra[NTILES];
        int m = bits_of(hand & s->declarable, extra);
        for (int j = 0; j < m; j++) out[n++] = extra[j] | DECLARED;
    }
    return n;
}

static inline int lead_suit(const Setup *s, int code) {
    int i = code & 31;
    return (code & DECLARED) ? s->low[i] : s->leads[i];
}

static uint32_t reduce_moves(SearchObject *o, uint32_t moves, const int *keys, int win_key) {
    const Setup *s = &o->s;
    uint32_t grouped = moves & s->group_mask;
    if (!(grouped & (grouped - 1u))) return moves; /* fewer than two: nothing to merge */
    uint32_t remaining = o->hands[0] | o->hands[1] | o->hands[2] | o->hands[3];
    for (int g = 0; g < s->ngroups; g++) {
        int prev = -1;
        for (int j = 0; j < s->glen[g]; j++) {
            int i = s->groups[g][j];
            if (!((remaining >> i) & 1u)) continue;
            if (prev >= 0 && ((moves >> i) & 1u) && ((moves >> prev) & 1u) && s->counts[i] == s->counts[prev] &&
                ((keys[i] > win_key) == (keys[prev] > win_key))) {
                moves &= ~(1u << i);
                continue; /* prev stays the representative of the run */
            }
            prev = i;
        }
    }
    return moves;
}

static int ordered(const Setup *s, uint32_t moves, const int *keys, int win_key, int ours, int *out) {
    int n = bits_of(moves, out);
    if (n < 2) return n;
    int scored[NTILES];
    for (int j = 0; j < n; j++) {
        int i = out[j], score;
        if (ours) score = 64 - s->counts[i];
        else if (keys[i] > win_key) score = keys[i] - 200;
        else score = s->counts[i];
        scored[j] = score * 32 + i;
    }
    for (int a = 1; a < n; a++) { /* insertion sort, ascending */
        int x = scored[a], b = a - 1;
        while (b >= 0 && scored[b] > x) { scored[b + 1] = scored[b]; b--; }
        scored[b + 1] = x;
    }
    for (int j = 0; j < n; j++) out[j] = scored[j] & 31;
    return n;
}

static int last_trick(SearchObject *o, int leader, int top, int led) {
    const Setup *s = &o->s;
    int seat = leader;
    const int *keys = s->key[led];
    int win_seat = seat, win_key = keys[msb32(o->hands[seat])];
    for (int j = 0; j < s->size - 1; j++) {
        seat = s->next_of[seat];
        int i = msb32(o->hands[seat]);
        if (keys[i] > win_key) { win_seat = seat; win_key = keys[i]; }
    }
    return s->bidder_seat[win_seat] ? top : 0;
}

static inline Entry *probe(SearchObject *o, uint32_t key) {
    uint32_t h = (uint32_t)(((uint64_t)key * 0x9E3779B97F4A7C15ull) >> 32) & o->mask;
    return &o->table[h];
}

static int ply(SearchObject *o, int seat, int k, int number, int led, int win_seat, int win_key, int pts,
               int alpha, int beta);

#if defined(__GNUC__) || defined(__clang__)
#define PREFETCH(p) __builtin_prefetch((p), 0, 1)
#else
#define PREFETCH(p) ((void)(p))
#endif

static int trick(SearchObject *o, int leader, int number, int alpha, int beta) {
    const Setup *s = &o->s;
    uint32_t *hands = o->hands;
    if (number > TRICKS || hands[leader] == 0) return 0;
    uint32_t remaining = hands[0] | hands[1] | hands[2] | hands[3];
    int top = points_left(s, remaining, number);
    if (number == TRICKS) {
        o->nodes++;
        int tile = msb32(hands[leader]);
        int v = last_trick(o, leader, top, s->leads[tile]);
        if (s->declared_lead == 2 && ((s->declarable >> tile) & 1u)) {
            int w = last_trick(o, leader, top, s->low[tile]);
            if (s->maximiser[leader]) v = v > w ? v : w;
            else v = v < w ? v : w;
        }
        return v;
    }
    uint32_t key = remaining | ((uint32_t)leader << 28);
    Entry *e = probe(o, key);
    int lo = 0, hi = top, first = -1;
    Entry old = *e;
    if (E_GEN(old) == o->gen && E_KEY(old) == key) {
        lo = E_LO(old);
        hi = E_HI(old);
        first = E_BEST(old) == NO_BEST ? -1 : E_BEST(old);
    }
    if (lo == hi || lo >= beta) return lo;
    if (hi <= alpha) return hi;
    int a0 = alpha > lo ? alpha : lo;
    int b0 = beta < hi ? beta : hi;
    int a = a0, b = b0;
    o->nodes++;
    int maxing = s->maximiser[leader];
    int best = maxing ? -INF : INF, best_code = -1;
    int codes[2 * NTILES];
    int n = lead_codes(s, reduce_moves(o, hands[leader], s->key[7], INF), number, codes);
    /* Leads in order of their rank in the suit they lead, high first (then the code, high first). */
    int ranked[2 * NTILES];
    for (int j = 0; j < n; j++) ranked[j] = (s->key[lead_suit(s, codes[j])][codes[j] & 31] + 2) * 64 + codes[j];
    for (int x = 1; x < n; x++) {
        int y = ranked[x], z = x - 1;
        while (z >= 0 && ranked[z] < y) { ranked[z + 1] = ranked[z]; z--; }
        ranked[z + 1] = y;
    }
    for (int j = 0; j < n; j++) codes[j] = ranked[j] & 63;
    if (first >= 0) {
        for (int j = 0; j < n; j++) {
            if (codes[j] == first) {
                for (int m = j; m > 0; m--) codes[m] = codes[m - 1];
                codes[0] = first;
                break;
            }
        }
    }
    int nxt = s->next_of[leader];
    for (int j = 0; j < n; j++) {
        int code = codes[j], i = code & 31;
        int ld = lead_suit(s, code);
        uint32_t bit = 1u << i;
        hands[leader] ^= bit;
        int v = ply(o, nxt, 1, number, ld, leader, s->key[ld][i], s->counts[i], a, b);
        hands[leader] ^= bit;
        if (maxing) {
            if (v > best) { best = v; best_code = code; if (v > a) a = v; }
        } else if (v < best) {
            best = v; best_code = code; if (v < b) b = v;
        }
        if (a >= b) break;
    }
    /* Fail-soft: below the window the result bounds the value from above, above it
       from below, inside it the value is exact. */
    if (best <= a0) hi = best;
    else if (best >= b0) lo = best;
    else lo = hi = best;
    if (lo >= 0 && lo <= 63 && hi >= 0 && hi <= 63) { /* always: the points still to come are 0 to the total */
        *e = (uint64_t)key | ((uint64_t)o->gen << 30) | ((uint64_t)lo << 46) | ((uint64_t)hi << 52) |
             ((uint64_t)(best_code < 0 ? NO_BEST : best_code) << 58);
    }
    return best;
}

static int ply(SearchObject *o, int seat, int k, int number, int led, int win_seat, int win_key, int pts,
               int alpha, int beta) {
    const Setup *s = &o->s;
    uint32_t *hands = o->hands;
    uint32_t hand = hands[seat];
    o->nodes++;
    const int *keys = s->key[led];
    uint32_t legal = legal_of(s, hand, led);
    uint32_t moves = reduce_moves(o, legal, keys, win_key);
    int maxing = s->maximiser[seat];
    int last = k + 1 == s->size;
    int nxt = s->next_of[seat];
    int best = maxing ? -INF : INF;
    int ours = s->bidder_seat[win_seat] == s->bidder_seat[seat];
    int order[NTILES];
    int n = ordered(s, moves, keys, win_key, ours, order);
    if (last && number + 1 < TRICKS) {
        /* Each play ends the trick: ask the memory for the table entries of the tricks
           that follow now, so that they arrive while the first is searched. */
        uint32_t rest = hands[0] | hands[1] | hands[2] | hands[3];
        for (int j = 0; j < n; j++) {
            int i = order[j];
            int ws = keys[i] > win_key ? seat : win_seat;
            PREFETCH(probe(o, (rest ^ (1u << i)) | ((uint32_t)ws << 28)));
        }
    }
    for (int j = 0; j < n; j++) {
        int i = order[j];
        uint32_t bit = 1u << i;
        int kk = keys[i];
        int ws = win_seat, wk = win_key;
        if (kk > win_key) { ws = seat; wk = kk; }
        int p = pts + s->counts[i];
        hands[seat] = hand ^ bit;
        int v;
        if (last) {
            int gain = s->bidder_seat[ws] ? p + s->trick_pts[number] : 0;
            v = gain + trick(o, ws, number + 1, alpha - gain, beta - gain);
        } else {
            v = ply(o, nxt, k + 1, number, led, ws, wk, p, alpha, beta);
        }
        hands[seat] = hand;
        if (maxing) {
            if (v > best) { best = v; if (v > alpha) alpha = v; }
        } else if (v < best) {
            best = v; if (v < beta) beta = v;
        }
        if (alpha >= beta) break;
    }
    return best;
}

/* The points still to come at the position (code < 0), or after the seat to play plays code. */
static int window(SearchObject *o, const Position *p, int code, int alpha, int beta) {
    const Setup *s = &o->s;
    if (code < 0) {
        if (p->k == 0) return trick(o, p->seat, p->number, alpha, beta);
        return ply(o, p->seat, p->k, p->number, p->led, p->win_seat, p->win_key, p->pts, alpha, beta);
    }
    int i = code & 31, led = p->led, ws = p->win_seat, wk = p->win_key;
    if (p->k == 0) led = lead_suit(s, code);
    int kk = s->key[led][i];
    if (kk > wk) { ws = p->seat; wk = kk; }
    uint32_t bit = 1u << i;
    int v;
    o->hands[p->seat] ^= bit;
    if (p->k + 1 == s->size) {
        int gain = s->bidder_seat[ws] ? p->pts + s->counts[i] + s->trick_pts[p->number] : 0;
        v = gain + trick(o, ws, p->number + 1, alpha - gain, beta - gain);
    } else {
        v = ply(o, s->next_of[p->seat], p->k + 1, p->number, led, ws, wk, p->pts + s->counts[i], alpha, beta);
    }
    o->hands[p->seat] ^= bit;
    return v;
}

/* The exact points still to come, known to lie in lo..hi, by null-window searches:
   MTD(f) from the guess, a bisection without one. */
static int exact(SearchObject *o, const Position *p, int code, int has_guess, int guess, int lo, int hi) {
    int g = -1;
    if (has_guess) g = guess < lo ? lo : (guess > hi ? hi : guess);
    while (lo < hi) {
        int mid;
        if (g < 0) {
            mid = (lo + hi + 1) / 2;
        } else {
            mid = g == lo ? g + 1 : g;
            if (mid < lo + 1) mid = lo + 1;
            if (mid > hi) mid = hi;
        }
        int v = window(o, p, code, mid - 1, mid);
        o->passes++;
        if (v >= mid) lo = v;
        else hi = v;
        if (g >= 0) g = v;
    }
    return lo;
}

static int position_moves(const Setup *s, const uint32_t *hands, const Position *p, int *out) {
    if (p->k == 0) return lead_codes(s, hands[p->seat], p->number, out);
    return bits_of(legal_of(s, hands[p->seat], p->led), out);
}

/* -- reading Python values, every one checked ------------------------------------ */

static int read_int(PyObject *obj, long long lo, long long hi, const char *what, long long *out) {
    if (!PyLong_Check(obj)) {
        PyErr_Format(PyExc_ValueError, "%s must be a whole number, not %.100s", what, Py_TYPE(obj)->tp_name);
        return -1;
    }
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(obj, &overflow);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (overflow || v < lo || v > hi) {
        PyErr_Format(PyExc_ValueError, "%s must be between %lld and %lld", what, lo, hi);
        return -1;
    }
    *out = v;
    return 0;
}

/* A tuple or list of exactly n whole numbers in lo..hi. */
static int read_ints(PyObject *obj, Py_ssize_t n, long long lo, long long hi, const char *what, long long *out) {
    if (!PyTuple_Check(obj) && !PyList_Check(obj)) {
        PyErr_Format(PyExc_ValueError, "%s must be a tuple of %zd whole numbers, not %.100s", what, n,
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    PyObject *seq = PySequence_Fast(obj, what);
    if (seq == NULL) return -1;
    if (PySequence_Fast_GET_SIZE(seq) != n) {
        PyErr_Format(PyExc_ValueError, "%s must hold %zd numbers, not %zd", what, n, PySequence_Fast_GET_SIZE(seq));
        Py_DECREF(seq);
        return -1;
    }
    for (Py_ssize_t j = 0; j < n; j++) {
        if (read_int(PySequence_Fast_GET_ITEM(seq, j), lo, hi, what, &out[j]) < 0) {
            Py_DECREF(seq);
            return -1;
        }
    }
    Py_DECREF(seq);
    return 0;
}

#define SETUP_FIELDS 15

static int read_setup(PyObject *obj, Setup *s) {
    long long v[NSUITS * NTILES];
    memset(s, 0, sizeof(*s));
    if (!PyTuple_Check(obj) || PyTuple_GET_SIZE(obj) != SETUP_FIELDS) {
        PyErr_SetString(PyExc_ValueError, "the search setup must be a tuple of 15 fields (texas42_log.engine.native)");
        return -1;
    }
    /* 0 counts, 14 the points for each trick: every value lies in 0..total <= 63, which
       the search's bounds and its table rely on. */
    if (read_ints(PyTuple_GET_ITEM(obj, 0), NTILES, 0, 63, "the tiles' counts", v) < 0) return -1;
    int total = 0;
    for (int i = 0; i < NTILES; i++) {
        s->counts[i] = (int)v[i];
        total += (int)v[i];
        if (v[i] == 0) continue;
        int j = 0;
        while (j < s->nvalues && s->value_pts[j] != (int)v[i]) j++;
        if (j == s->nvalues) { s->value_pts[j] = (int)v[i]; s->value_mask[j] = 0; s->nvalues++; }
        s->value_mask[j] |= 1u << i;
    }
    if (read_ints(PyTuple_GET_ITEM(obj, 14), TRICKS, 0, 63, "the points for each trick", v) < 0) return -1;
    for (int n = 1; n <= TRICKS; n++) s->trick_pts[n] = (int)v[n - 1];
    for (int n = TRICKS; n >= 1; n--) s->after[n] = s->after[n + 1] + s->trick_pts[n];
    total += s->after[1];
    if (total > 63) {
        PyErr_Format(PyExc_ValueError, "the tiles and tricks add up to %d points, past the 63 the search can value (R6)", total);
        return -1;
    }
    s->total = total;
    /* 1 follow */
    if (read_ints(PyTuple_GET_ITEM(obj, 1), NSUITS, 0, ALL_TILES, "the followers of each suit", v) < 0) return -1;
    for (int j = 0; j < NSUITS; j++) s->follow[j] = (uint32_t)v[j];
    /* 2 leads */
    if (read_ints(PyTuple_GET_ITEM(obj, 2), NTILES, 0, NSUITS - 1, "the suit each tile leads", v) < 0) return -1;
    for (int i = 0; i < NTILES; i++) s->leads[i] = (int)v[i];
    /* 3 key */
    if (read_ints(PyTuple_GET_ITEM(obj, 3), NSUITS * NTILES, -1, 200, "the trick-winner keys", v) < 0) return -1;
    for (int j = 0; j < NSUITS; j++)
        for (int i = 0; i < NTILES; i++) s->key[j][i] = (int)v[j * NTILES + i];
    /* 4 low */
    if (read_ints(PyTuple_GET_ITEM(obj, 4), NTILES, 0, 6, "the tiles' lower numbers", v) < 0) return -1;
    for (int i = 0; i < NTILES; i++) s->low[i] = (int)v[i];
    /* 5 declarable, 6 declared lead, 7 closest */
    if (read_int(PyTuple_GET_ITEM(obj, 5), 0, ALL_TILES, "the declarable tiles", &v[0]) < 0) return -1;
    s->declarable = (uint32_t)v[0];
    if (read_int(PyTuple_GET_ITEM(obj, 6), 0, 2, "the declared-lead rule", &v[0]) < 0) return -1;
    s->declared_lead = (int)v[0];
    if (read_int(PyTuple_GET_ITEM(obj, 7), 0, 1, "the closest-to-seven flag", &v[0]) < 0) return -1;
    s->closest = (int)v[0];
    /* 8 by distance */
    if (read_ints(PyTuple_GET_ITEM(obj, 8), 8, 0, ALL_TILES, "the tiles by distance from 7", v) < 0) return -1;
    for (int d = 0; d < 8; d++) s->by_distance[d] = (uint32_t)v[d];
    /* 9 groups: a tuple of tuples of distinct tile indices */
    PyObject *groups = PyTuple_GET_ITEM(obj, 9);
    if (!PyTuple_Check(groups) || PyTuple_GET_SIZE(groups) > MAX_GROUPS) {
        PyErr_SetString(PyExc_ValueError, "the one-suit groups must be a tuple of at most 9 tuples");
        return -1;
    }
    uint32_t grouped = 0;
    s->ngroups = (int)PyTuple_GET_SIZE(groups);
    for (int g = 0; g < s->ngroups; g++) {
        PyObject *grp = PyTuple_GET_ITEM(groups, g);
        Py_ssize_t n = PyTuple_Check(grp) ? PyTuple_GET_SIZE(grp) : -1;
        if (n < 0 || n > NTILES) {
            PyErr_SetString(PyExc_ValueError, "a one-suit group must be a tuple of at most 28 tile indices");
            return -1;
        }
        if (read_ints(grp, n, 0, NTILES - 1, "a one-suit group", v) < 0) return -1;
        s->glen[g] = (int)n;
        for (Py_ssize_t j = 0; j < n; j++) {
            if (grouped >> v[j] & 1u) {
                PyErr_SetString(PyExc_ValueError, "a tile stands in two one-suit groups, or twice in one");
                return -1;
            }
            grouped |= 1u << v[j];
            s->groups[g][j] = (int)v[j];
        }
    }
    s->group_mask = grouped;
    /* 10 size, 11 next_of, 12 bidder_seat, 13 maximiser */
    if (read_int(PyTuple_GET_ITEM(obj, 10), 3, 4, "the number of seats that play", &v[0]) < 0) return -1;
    s->size = (int)v[0];
    if (read_ints(PyTuple_GET_ITEM(obj, 11), NSEATS, 0, NSEATS - 1, "the playing order", v) < 0) return -1;
    for (int j = 0; j < NSEATS; j++) s->next_of[j] = (int)v[j];
    if (read_ints(PyTuple_GET_ITEM(obj, 12), NSEATS, 0, 1, "the bidders' seats", v) < 0) return -1;
    for (int j = 0; j < NSEATS; j++) s->bidder_seat[j] = (int)v[j];
    if (read_ints(PyTuple_GET_ITEM(obj, 13), NSEATS, 0, 1, "the maximising seats", v) < 0) return -1;
    for (int j = 0; j < NSEATS; j++) s->maximiser[j] = (int)v[j];
    /* The playing order is one cycle of `size` seats (Nel-O's partner sits out). */
    int found = 0;
    for (int start = 0; start < NSEATS && !found; start++) {
        int seen[NSEATS] = {0, 0, 0, 0}, x = start, len = 0;
        while (!seen[x]) { seen[x] = 1; x = s->next_of[x]; len++; }
        if (x == start && len == s->size) {
            for (int j = 0; j < NSEATS; j++) s->playing[j] = seen[j];
            found = 1;
        }
    }
    if (!found) {
        PyErr_Format(PyExc_ValueError, "the playing order is not one round of %d seats", s->size);
        return -1;
    }
    /* Every lead wins its own trick until beaten: a tile's key in the suit it leads (or,
       declarable, in its lower number) is never -1. */
    for (int i = 0; i < NTILES; i++) {
        if (s->key[s->leads[i]][i] < 0 || (((s->declarable >> i) & 1u) && s->key[s->low[i]][i] < 0)) {
            PyErr_SetString(PyExc_ValueError, "a tile cannot win the suit it leads: the keys do not fit the leads");
            return -1;
        }
    }
    return 0;
}

/* hands: a sequence of 4 masks of distinct tiles; pos: (number, k, seat, led, win_seat,
   win_key, pts). The hand sizes must fit the trick: the seats still to play in it hold
   8 - number tiles, the ones that played 7 - number, a seat that sits out none. */
static int read_hands(PyObject *obj, uint32_t *hands) {
    long long v[NSEATS];
    if (read_ints(obj, NSEATS, 0, ALL_TILES, "a world's hands", v) < 0) return -1;
    uint32_t seen = 0;
    for (int j = 0; j < NSEATS; j++) {
        uint32_t h = (uint32_t)v[j];
        if (h & seen) {
            PyErr_SetString(PyExc_ValueError, "a tile is held by two seats");
            return -1;
        }
        seen |= h;
        hands[j] = h;
    }
    return 0;
}

static int read_position(const Setup *s, PyObject *obj, Position *p) {
    long long v[7];
    if (read_ints(obj, 7, -1, 255, "the position (number, plays, seat, led, winner, key, points)", v) < 0) return -1;
    p->number = (int)v[0]; p->k = (int)v[1]; p->seat = (int)v[2]; p->led = (int)v[3];
    p->win_seat = (int)v[4]; p->win_key = (int)v[5]; p->pts = (int)v[6];
    if (p->number < 1 || p->number > TRICKS) {
        PyErr_SetString(PyExc_ValueError, "the trick number must be 1 to 7");
        return -1;
    }
    if (p->k < 0 || p->k >= s->size) {
        PyErr_Format(PyExc_ValueError, "the plays in the trick must be 0 to %d", s->size - 1);
        return -1;
    }
    if (p->seat < 0 || p->seat >= NSEATS || !s->playing[p->seat]) {
        PyErr_SetString(PyExc_ValueError, "the seat to play must be a seat that plays");
        return -1;
    }
    if (p->k == 0) {
        if (p->led != -1 || p->win_seat != -1 || p->win_key != -1 || p->pts != 0) {
            PyErr_SetString(PyExc_ValueError, "a trick with no play has no led suit, winner, key or points (-1, -1, -1, 0)");
            return -1;
        }
    } else {
        if (p->led < 0 || p->led >= NSUITS) {
            PyErr_SetString(PyExc_ValueError, "the led suit must be 0 to 8");
            return -1;
        }
        if (p->win_seat < 0 || p->win_seat >= NSEATS || !s->playing[p->win_seat] || p->win_seat == p->seat) {
            PyErr_SetString(PyExc_ValueError, "the trick's winner so far must be a seat that already played in it");
            return -1;
        }
        if (p->win_key < 0 || p->pts > s->total) {
            PyErr_SetString(PyExc_ValueError, "the winner's key must be at least 0 and the trick's count at most the hand's total");
            return -1;
        }
    }
    return 0;
}

static int check_sizes(const Setup *s, const uint32_t *hands, const Position *p) {
    int expected[NSEATS] = {0, 0, 0, 0};
    int x = p->seat;
    for (int j = 0; j < s->size; j++) {
        expected[x] = j < s->size - p->k ? 8 - p->number : 7 - p->number;
        x = s->next_of[x];
    }
    uint32_t all = hands[0] | hands[1] | hands[2] | hands[3];
    if (p->pts + points_left(s, all, 0) > s->total - s->after[1]) {
        PyErr_Format(PyExc_ValueError,
                     "the trick's count so far (%d) and the counting tiles still held add up to more than the %d the tiles count",
                     p->pts, s->total - s->after[1]);
        return -1;
    }
    for (int j = 0; j < NSEATS; j++) {
        int held = popcount32(hands[j]);
        if (held != expected[j]) {
            PyErr_Format(PyExc_ValueError,
                         "seat %c holds %d tiles, but at trick %d after %d plays it must hold %d",
                         "ABCD"[j], held, p->number, p->k, expected[j]);
            return -1;
        }
    }
    return 0;
}

/* -- the type --------------------------------------------------------------------- */

static PyObject *Search_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"setup", "table_bits", NULL};
    PyObject *setup;
    int bits = 16;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|i:Search", kwlist, &setup, &bits)) {
        if (PyErr_ExceptionMatches(PyExc_TypeError) || PyErr_ExceptionMatches(PyExc_OverflowError)) {
            PyErr_Clear();
            PyErr_SetString(PyExc_ValueError, "Search(setup, table_bits=16): table_bits must be a small whole number");
        }
        return NULL;
    }
    if (bits < MIN_BITS || bits > MAX_BITS) {
        PyErr_Format(PyExc_ValueError, "table_bits must be %d to %d", MIN_BITS, MAX_BITS);
        return NULL;
    }
    SearchObject *o = (SearchObject *)type->tp_alloc(type, 0);
    if (o == NULL) return NULL;
    if (read_setup(setup, &o->s) < 0) {
        Py_DECREF(o);
        return NULL;
    }
    o->bits = bits;
    o->mask = (1u << bits) - 1u;
    o->table = (Entry *)PyMem_RawCalloc((size_t)1 << bits, sizeof(Entry));
    if (o->table == NULL) {
        Py_DECREF(o);
        return PyErr_NoMemory();
    }
    o->gen = 1;
    return (PyObject *)o;
}

static void Search_dealloc(SearchObject *o) {
    PyMem_RawFree(o->table);
    Py_TYPE(o)->tp_free((PyObject *)o);
}

static void next_generation(SearchObject *o) {
    o->gen++;
    if (o->gen > MAX_GEN) { /* wrapped: empty the table for real */
        memset(o->table, 0, ((size_t)1 << o->bits) * sizeof(Entry));
        o->gen = 1;
    }
}

enum { VALUE = 0, PLAY_VALUES = 1, REACHES = 2, LEVELS = 3 };

/* The most levels one LEVELS question may ask (the auction asks 13: 30 … 41, 42). */
#define MAX_LEVELS 64

/* solve(kind, position, worlds, arg=None, fresh=True)

   kind 0, the value: per world the exact points still to come (arg: a guess, or None);
   kind 1, every legal play's value: per world a list in the order of moves() (arg: the
   position's own value when the caller knows it, for one world only, or None);
   kind 2, reaches: per world whether the points still to come reach arg;
   kind 3, levels: arg a list of 1 to MAX_LEVELS levels in ascending order; per world how
   many of them the points still to come reach, settled by null-window searches on one
   table (each search's bound settles every level on its side; the lowest level undecided
   first, then the highest, then halving).
   fresh: every world starts with an empty table (worlds are different deals); without
   it the table is kept from the call before (moments of one deal). */
static PyObject *Search_solve(SearchObject *o, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"kind", "position", "worlds", "arg", "fresh", NULL};
    int kind;
    PyObject *posobj, *worlds, *arg = Py_None;
    int fresh = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iOO|Op:solve", kwlist, &kind, &posobj, &worlds, &arg, &fresh)) {
        if (PyErr_ExceptionMatches(PyExc_TypeError) || PyErr_ExceptionMatches(PyExc_OverflowError)) {
            PyErr_Clear();
            PyErr_SetString(PyExc_ValueError, "solve(kind, position, worlds, arg=None, fresh=True): kind must be 0, 1, 2 or 3");
        }
        return NULL;
    }
    if (kind < VALUE || kind > LEVELS) {
        PyErr_SetString(PyExc_ValueError, "kind must be 0 (value), 1 (every play's value), 2 (reaches) or 3 (levels)");
        return NULL;
    }
    if (o->busy) {
        PyErr_SetString(PyExc_ValueError, "this search is in use by another thread");
        return NULL;
    }
    Position p;
    if (read_position(&o->s, posobj, &p) < 0) return NULL;
    long long a = 0;
    int has_arg = arg != Py_None;
    long long levels[MAX_LEVELS];
    int nlevels = 0;
    if (kind == LEVELS) {
        if (!has_arg || (!PyList_Check(arg) && !PyTuple_Check(arg))) {
            PyErr_SetString(PyExc_ValueError, "levels needs a list of levels");
            return NULL;
        }
        Py_ssize_t nl = PySequence_Fast_GET_SIZE(arg);
        if (nl < 1 || nl > MAX_LEVELS) {
            PyErr_Format(PyExc_ValueError, "levels asks 1 to %d levels, not %zd", MAX_LEVELS, nl);
            return NULL;
        }
        if (read_ints(arg, nl, -1000, 1000, "a level", levels) < 0) return NULL;
        for (Py_ssize_t j = 1; j < nl; j++) {
            if (levels[j] < levels[j - 1]) {
                PyErr_SetString(PyExc_ValueError, "the levels must be in ascending order");
                return NULL;
            }
        }
        nlevels = (int)nl;
    } else if (has_arg && read_int(arg, -1000000, 1000000, "the search's argument", &a) < 0) {
        return NULL;
    }
    if (kind == REACHES && !has_arg) {
        PyErr_SetString(PyExc_ValueError, "reaches needs a threshold");
        return NULL;
    }
    if (kind == PLAY_VALUES && has_arg && (a < 0 || a > o->s.total)) {
        PyErr_SetString(PyExc_ValueError, "a position's own value is 0 to the hand's total points still to come");
        return NULL;
    }
    if (!PyList_Check(worlds) && !PyTuple_Check(worlds)) {
        PyErr_SetString(PyExc_ValueError, "the worlds must be a list of hands (four masks each)");
        return NULL;
    }
    Py_ssize_t nw = PySequence_Fast_GET_SIZE(worlds);
    if (kind == PLAY_VALUES && has_arg && nw != 1) {
        PyErr_SetString(PyExc_ValueError, "a known value fits one world only");
        return NULL;
    }
    uint32_t *all = (uint32_t *)PyMem_Malloc((size_t)(nw ? nw : 1) * NSEATS * sizeof(uint32_t));
    int *codes = NULL, *out = NULL, ncodes = 0;
    if (all == NULL) return PyErr_NoMemory();
    for (Py_ssize_t w = 0; w < nw; w++) {
        uint32_t *h = all + w * NSEATS;
        if (read_hands(PySequence_Fast_GET_ITEM(worlds, w), h) < 0 || check_sizes(&o->s, h, &p) < 0) {
            PyMem_Free(all);
            return NULL;
        }
    }
    int codebuf[2 * NTILES];
    if (kind == PLAY_VALUES && nw > 0) {
        /* The seat to play holds the same tiles in every world (they are its own). */
        for (Py_ssize_t w = 1; w < nw; w++) {
            if (all[w * NSEATS + p.seat] != all[p.seat]) {
                PyMem_Free(all);
                PyErr_SetString(PyExc_ValueError, "the seat to play holds other tiles in another world");
                return NULL;
            }
        }
        ncodes = position_moves(&o->s, all, &p, codebuf);
        codes = codebuf;
    }
    size_t per = kind == PLAY_VALUES ? (size_t)ncodes : 1;
    out = (int *)PyMem_Malloc((size_t)(nw ? nw : 1) * per * sizeof(int));
    if (out == NULL) {
        PyMem_Free(all);
        return PyErr_NoMemory();
    }
    o->busy = 1;
    Py_BEGIN_ALLOW_THREADS
    /* The worlds of one decision are alike: each world's value search starts from the
       value of the world before (MTD(f)'s first guess; for the plays, the best play's).
       A guess changes how many null-window passes find a value, never the value. Each
       play's own search starts from the position's value, as the reference's does
       (guessing it from the world before measured slower). */
    int maxing = o->s.maximiser[p.seat];
    const int total = o->s.total;
    for (Py_ssize_t w = 0; w < nw; w++) {
        if (fresh) next_generation(o);
        memcpy(o->hands, all + w * NSEATS, sizeof(o->hands));
        if (kind == VALUE) {
            if (w == 0) out[w] = exact(o, &p, -1, has_arg, (int)a, 0, total);
            else out[w] = exact(o, &p, -1, 1, out[w - 1], 0, total);
        } else if (kind == REACHES) {
            int need = (int)a;
            out[w] = need <= 0 ? 1 : (need > total ? 0 : window(o, &p, -1, need - 1, need) >= need);
        } else if (kind == LEVELS) {
            /* The value lies in lo..hi; a level t is settled once t <= lo (reached) or
               t > hi (not). A null window at t fails soft: its answer bounds the value. */
            int lo = 0, hi = total, asked = 0;
            for (;;) {
                int first = -1, last = -1;
                for (int j = 0; j < nlevels; j++) {
                    if (levels[j] > lo && levels[j] <= hi) {
                        if (first < 0) first = j;
                        last = j;
                    }
                }
                if (first < 0) break;
                int t = (int)levels[asked == 0 ? first : (asked == 1 ? last : (first + last) / 2)];
                int v = window(o, &p, -1, t - 1, t);
                o->passes++;
                if (v >= t) lo = v > lo ? v : lo;
                else hi = v < hi ? v : hi;
                asked++;
            }
            int count = 0;
            for (int j = 0; j < nlevels; j++) count += levels[j] <= lo;
            out[w] = count;
        } else {
            if (has_arg || w == 0) {
                int own = has_arg ? (int)a : exact(o, &p, -1, 0, 0, 0, total);
                for (int c = 0; c < ncodes; c++) {
                    out[w * per + c] = maxing ? exact(o, &p, codes[c], 1, own, 0, own)
                                              : exact(o, &p, codes[c], 1, own, own, total);
                }
            } else {
                /* The plays in the order the world before ranked them, best first: the
                   first from its value there, each other one from the best so far. */
                const int *prev = out + (w - 1) * per;
                int order[2 * NTILES];
                for (int c = 0; c < ncodes; c++) {
                    int x = c, b = c - 1;
                    while (b >= 0 && (maxing ? prev[order[b]] < prev[x] : prev[order[b]] > prev[x])) {
                        order[b + 1] = order[b];
                        b--;
                    }
                    order[b + 1] = x;
                }
                int best = prev[order[0]];
                for (int j = 0; j < ncodes; j++) {
                    int c = order[j];
                    int v = exact(o, &p, codes[c], 1, best, 0, total);
                    out[w * per + c] = v;
                    if (j == 0 || (maxing ? v > best : v < best)) best = v;
                }
            }
        }
    }
    Py_END_ALLOW_THREADS
    o->busy = 0;
    PyMem_Free(all);
    PyObject *result = PyList_New(nw);
    for (Py_ssize_t w = 0; result != NULL && w < nw; w++) {
        PyObject *item;
        if (kind == PLAY_VALUES) {
            item = PyList_New(ncodes);
            for (int c = 0; item != NULL && c < ncodes; c++) {
                PyObject *x = PyLong_FromLong(out[w * per + c]);
                if (x == NULL) { Py_CLEAR(item); break; }
                PyList_SET_ITEM(item, c, x);
            }
        } else if (kind == REACHES) {
            item = PyBool_FromLong(out[w]);
        } else {
            item = PyLong_FromLong(out[w]);
        }
        if (item == NULL) { Py_CLEAR(result); break; }
        PyList_SET_ITEM(result, w, item);
    }
    PyMem_Free(out);
    return result;
}

/* moves(position, hands): the codes of the legal plays of the seat to play, in the order
   solve() values them (tile index, +32 for a lead declared as its lower number). */
static PyObject *Search_moves(SearchObject *o, PyObject *args) {
    PyObject *posobj, *handsobj;
    if (!PyArg_ParseTuple(args, "OO:moves", &posobj, &handsobj)) return NULL;
    Position p;
    uint32_t hands[NSEATS];
    if (read_position(&o->s, posobj, &p) < 0 || read_hands(handsobj, hands) < 0 || check_sizes(&o->s, hands, &p) < 0)
        return NULL;
    int codes[2 * NTILES];
    int n = position_moves(&o->s, hands, &p, codes);
    PyObject *out = PyList_New(n);
    for (int j = 0; out != NULL && j < n; j++) {
        PyObject *x = PyLong_FromLong(codes[j]);
        if (x == NULL) { Py_CLEAR(out); break; }
        PyList_SET_ITEM(out, j, x);
    }
    return out;
}

static PyObject *Search_clear(SearchObject *o, PyObject *Py_UNUSED(ignored)) {
    if (o->busy) {
        PyErr_SetString(PyExc_ValueError, "this search is in use by another thread");
        return NULL;
    }
    next_generation(o);
    Py_RETURN_NONE;
}

static PyObject *Search_get_nodes(SearchObject *o, void *Py_UNUSED(closure)) {
    return PyLong_FromUnsignedLongLong(o->nodes);
}

static PyObject *Search_get_passes(SearchObject *o, void *Py_UNUSED(closure)) {
    return PyLong_FromUnsignedLongLong(o->passes);
}

static PyObject *Search_get_table_bytes(SearchObject *o, void *Py_UNUSED(closure)) {
    return PyLong_FromSize_t(((size_t)1 << o->bits) * sizeof(Entry));
}

static PyMethodDef Search_methods[] = {
    {"solve", (PyCFunction)(void (*)(void))Search_solve, METH_VARARGS | METH_KEYWORDS,
     "solve(kind, position, worlds, arg=None, fresh=True) -> list: values per world (see the C source)."},
    {"moves", (PyCFunction)Search_moves, METH_VARARGS, "moves(position, hands) -> list of move codes."},
    {"clear", (PyCFunction)Search_clear, METH_NOARGS, "Forget every table entry (another deal follows)."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Search_getset[] = {
    {"nodes", (getter)Search_get_nodes, NULL, "Search nodes visited since the object was made.", NULL},
    {"passes", (getter)Search_get_passes, NULL, "Null-window searches made since the object was made.", NULL},
    {"table_bytes", (getter)Search_get_table_bytes, NULL, "The transposition table's size in bytes.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "texas42_log.engine._native.Search",
    .tp_basicsize = sizeof(SearchObject),
    .tp_itemsize = 0,
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Search(setup, table_bits=16): the open-hand search of one suit system, with its table.",
    .tp_methods = Search_methods,
    .tp_getset = Search_getset,
    .tp_new = Search_new,
};

static struct PyModuleDef native_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "texas42_log.engine._native",
    .m_doc = "The open-hand search in C (texas42_log.engine.native wraps it).",
    .m_size = -1,
};

PyMODINIT_FUNC PyInit__native(void) {
    if (PyType_Ready(&SearchType) < 0) return NULL;
    PyObject *m = PyModule_Create(&native_module);
    if (m == NULL) return NULL;
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(m, "Search", (PyObject *)&SearchType) < 0) {
        Py_DECREF(&SearchType);
        Py_DECREF(m);
        return NULL;
    }
    /* The setup's shape: 2 since the count crosses as data (15 fields). */
    if (PyModule_AddIntConstant(m, "ABI", 2) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
