/* gibson_core._kernel: the fast path for data-only variants (docs/fastpath.md).
 *
 * A C mirror of gibson_core.state.GameState over flat int32 tables that gibson_core.fastpath compiles from a
 * Variant. It knows only the data features listed in fastpath.KERNEL_FEATURES; anything else never reaches it
 * (the Python feature check falls back to the reference engine). Moves are packed integers
 * (origin | dest << 12 | target << 24 | kind << 36, target 0xFFF = none); events are fixed records of 8 ints
 * decoded into gibson_core.events objects by fastpath. Random choices use CPython's MT19937 and its
 * Random.choice algorithm bit for bit, so a playout from a Random's state picks the same moves as the
 * Python engine would and hands the advanced state back.
 *
 * Everything a Game owns is plain C memory: batch playouts run with the GIL released.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include <stdlib.h>
#include <math.h>
#include <time.h>

/* ---- table layout (must match fastpath.py) ---------------------------------------------------------- */
enum {
    S_SCALARS, S_TYPE, S_LEAN, S_MAYWIN, S_CONF, S_MASK, S_TABLE, S_WIN, S_WINDATA, S_PATHENT, S_PATHINNER,
    S_TRANSIT, S_COMBAT, S_CDATA, S_OUTCOME, S_ELEM, S_BACK, S_SQLIST, S_EFFECT, S_REACH, S_ACTION, S_FLAGS,
    S_NSECTIONS
};
enum { SC_SIZE, SC_NTYPES, SC_COMPULSORY, SC_PLY_LIMIT, SC_NPATHS, SC_HAS_LWOL, SC_HAS_DWNL, SC_FILES, SC_N };
/* effects: kind, targets mask, spare mask, backfire mask, cause word, effect id */
enum { F_KIND, F_TARGETS, F_SPARE, F_BACKFIRE, F_CAUSE, F_ID, F_STRIDE };
/* actions: kind (1 illuminate, 2 fire), square list (illuminate), range, targets mask, revealed only,
 * reveal self, action id */
enum { A_KIND, A_SQLIST, A_RANGE, A_TARGETS, A_REVEALED_ONLY, A_REVEAL_SELF, A_ID, A_STRIDE };
enum { KIND_MOVE = 0, KIND_ILLUMINATE = 1, KIND_FIRE = 2, KIND_HANDOVER = 3 };
enum { W_COMBAT = 0, W_SPOTTED, W_ILLUMINATED, W_ILLUMINATE, W_FIRE, W_NONE, W_SHOT_DOWN, W_AGROUND };
/* Flags (tokens.FlagRules): has flags, base of each player, cannot-carry mask, mined-pickup mask, leave the
 * enemy Base, then the removal causes that mine a dropped Flag: count, words */
enum { G_HAS, G_BASE0, G_BASE1, G_CANNOT, G_PICKUP, G_LEAVE, G_NMINED, G_MINED };
enum { TK_LEFT = 0, TK_PICKED, TK_DROPPED, TK_DROPPED_MINED, TK_HANDED_HOME, TK_HANDED };
enum { T_SLIDES, T_TABLE, T_CAN_ATTACK, T_LONG_ONLY, T_LWR, T_LWOL, T_DWNL, T_SPARE, T_STRIDE };
enum { C_ACROSS = 1, C_SAME, C_BOTH, C_PRED };
enum { EV_MOVED = 1, EV_ATTACKED, EV_REVEALED, EV_REMOVED, EV_RETREATED, EV_GAMEOVER, EV_ACTED, EV_TOKEN };
/* removal reasons: the argument of blast/backfire/fire is id * 1024 + the other piece's type */
enum { RM_COMBAT = 0, RM_FORFEIT, RM_BLAST, RM_BACKFIRE, RM_FIRE, RM_AGROUND };
enum { K_NONE = 0, K_ARRIVE, K_BOTH_LOST, K_LOSER, K_NONE_LEFT, K_PLY_LIMIT, K_NO_MOVES, K_FLAGS_HOME,
       K_STALEMATE_LOSS, K_STALEMATE_DRAW };
#define NO_TARGET 0xFFF
#define EVW 8
#define MAGIC 0x47494231

typedef struct {
    int32_t *buf;
    const int32_t *sec[S_NSECTIONS];
    int size, ntypes, compulsory, ply_limit, npaths, has_lwol, has_dwnl, files;
} Rules;

typedef struct {
    PyObject_HEAD
    Rules r;
} RulesObject;

/* Mutable state lives in one int16 block so a snapshot is one memcpy:
 * board[size] square[n] revealed[n] moved[n] track[n] then the scalars below. */
enum { X_TO_MOVE, X_PLY_LO, X_PLY_HI, X_RES_KIND, X_RES_WINNER, X_RES_A, X_RES_B, X_RES_C,
       X_F0_SQ, X_F0_CARRIER, X_F0_MINED, X_F1_SQ, X_F1_CARRIER, X_F1_MINED,
       X_AG0_PID, X_AG0_PLY_LO, X_AG0_PLY_HI, X_AG1_PID, X_AG1_PLY_LO, X_AG1_PLY_HI, X_N };
/* the aground watch of player p: the piece that must leave the enemy Base (0: none) and the ply it came to
 * hold the Flag there */
#define AG(g, p, field) ((g)->x[X_AG0_PID + 3 * (p) + (field)])
#define FLAG(g, p, field) ((g)->x[X_F0_SQ + 3 * (p) + (field)])

typedef struct {
    const Rules *r;
    int n, size, block;
    int16_t *st;                     /* the state block */
    int16_t *board, *square, *revealed, *moved, *track, *x;
    int16_t *owner, *ptype;          /* fixed for a game */
    int16_t *pids[2];
    int npids[2];
    int16_t *stack;                  /* undo snapshots */
    int nstack, capstack;
    int64_t *moves;                  /* legal moves of the side to move */
    int nmoves, capmoves, moves_valid;
    int32_t *events;                 /* event records of the last push */
    int nevents, capevents, record;
    /* per move */
    int losers, removed_this_move;
    int32_t *blast, *back;           /* effects met on arrival: (piece, effect offset) pairs */
    int capblast, capback;
    int loss[2][4];                  /* has, type, reason code, reason argument */
    uint32_t mt[624];
    int mti;
} Game;

typedef struct {
    PyObject_HEAD
    PyObject *rules;
    Game g;
} GameObject;

static PyTypeObject RulesType, GameType;
static int handovers(Game *g, int me);
static void flags_filter(Game *g, int me);

/* ---- MT19937 exactly as CPython's _random ------------------------------------------------------------- */
static uint32_t mt_next(Game *g) {
    static const uint32_t mag01[2] = {0x0U, 0x9908b0dfU};
    uint32_t y, *mt = g->mt;
    if (g->mti >= 624) {
        int kk;
        for (kk = 0; kk < 624 - 397; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + 397] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        for (; kk < 623; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + (397 - 624)] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        y = (mt[623] & 0x80000000U) | (mt[0] & 0x7fffffffU);
        mt[623] = mt[396] ^ (y >> 1) ^ mag01[y & 0x1U];
        g->mti = 0;
    }
    y = mt[g->mti++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

/* random.Random(seed) for an int 0 <= seed < 2**64: init_by_array over the seed's 32-bit words */
static void mt_seed(Game *g, unsigned long long seed) {
    uint32_t key[2] = {(uint32_t)seed, (uint32_t)(seed >> 32)}, *mt = g->mt;
    int len = seed >> 32 ? 2 : 1, i = 1, j = 0, k;
    mt[0] = 19650218U;
    for (i = 1; i < 624; i++) mt[i] = 1812433253U * (mt[i - 1] ^ (mt[i - 1] >> 30)) + (uint32_t)i;
    i = 1;
    for (k = 624; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525U)) + key[j] + (uint32_t)j;
        i++; j++;
        if (i >= 624) { mt[0] = mt[623]; i = 1; }
        if (j >= len) j = 0;
    }
    for (k = 623; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941U)) - (uint32_t)i;
        i++;
        if (i >= 624) { mt[0] = mt[623]; i = 1; }
    }
    mt[0] = 0x80000000U;
    g->mti = 624;
}

/* random.Random._randbelow_with_getrandbits(n) for 0 < n < 2**32 */
static uint32_t mt_below(Game *g, uint32_t n) {
    int k = 0;
    uint32_t v = n, r;
    while (v) { k++; v >>= 1; }
    do { r = mt_next(g) >> (32 - k); } while (r >= n);
    return r;
}

/* ---- small helpers ------------------------------------------------------------------------------------ */
static inline int64_t pack(int o, int d, int a) { return (int64_t)o | ((int64_t)d << 12) | ((int64_t)a << 24); }

static int grow(void **p, int *cap, int need, size_t item) {
    if (need <= *cap) return 0;
    int c = *cap ? *cap : 64;
    while (c < need) c *= 2;
    void *q = realloc(*p, (size_t)c * item);
    if (!q) return -1;
    *p = q;
    *cap = c;
    return 0;
}

static inline int add_move(Game *g, int64_t m) {
    if (g->nmoves >= g->capmoves && grow((void **)&g->moves, &g->capmoves, g->nmoves + 1, sizeof(int64_t)))
        return -1;
    g->moves[g->nmoves++] = m;
    return 0;
}

static void event(Game *g, int a, int b, int c, int d, int e, int f, int h, int i) {
    if (!g->record) return;
    if (grow((void **)&g->events, &g->capevents, (g->nevents + 1) * EVW, sizeof(int32_t))) return;
    int32_t *p = g->events + g->nevents * EVW;
    p[0] = a; p[1] = b; p[2] = c; p[3] = d; p[4] = e; p[5] = f; p[6] = h; p[7] = i;
    g->nevents++;
}

static inline int ply_of(Game *g) { return (uint16_t)g->x[X_PLY_LO] | ((int)g->x[X_PLY_HI] << 16); }
static inline void set_ply(Game *g, int ply) { g->x[X_PLY_LO] = (int16_t)(ply & 0xFFFF); g->x[X_PLY_HI] = (int16_t)(ply >> 16); }

static void finish(Game *g, int winner, int kind, int a, int b, int c) {
    g->x[X_RES_KIND] = (int16_t)kind;
    g->x[X_RES_WINNER] = (int16_t)winner;
    g->x[X_RES_A] = (int16_t)a;
    g->x[X_RES_B] = (int16_t)b;
    g->x[X_RES_C] = (int16_t)c;
    event(g, EV_GAMEOVER, winner, kind, a, b, c, 0, 0);
}

/* ---- arrival wins and path tracks -------------------------------------------------------------------- */
static int arrival_entry(Game *g, int pid, int o, int d, int check_path) {
    /* the index in S_WINDATA of the first entry that wins (check_path) or whose types hold the piece */
    const Rules *r = g->r;
    int off = r->sec[S_WIN][g->owner[pid] * r->size + d];
    if (off < 0) return -1;
    const int32_t *w = r->sec[S_WINDATA];
    int cnt = w[off], t = g->ptype[pid];
    for (int i = 0; i < cnt; i++) {
        const int32_t *e = w + off + 1 + 4 * i; /* type mask offset, path id, path penultimate, reason id */
        if (!r->sec[S_MASK][e[0] + t]) continue;
        if (!check_path || e[1] < 0 || (o == e[2] && g->track[pid] == e[1])) return off + 1 + 4 * i;
    }
    return -1;
}

static void update_track(Game *g, int pid, int o, int d) {
    const Rules *r = g->r;
    const int32_t *pe = r->sec[S_PATHENT];
    if (!pe[0]) return;
    int k = g->track[pid], size = r->size;
    const int32_t *inner = r->sec[S_PATHINNER];
    if (k >= 0 && !(inner[k * size + o] && inner[k * size + d])) k = -1;
    for (int i = 0; i < pe[0]; i++)
        if (pe[1 + 3 * i] == o && pe[2 + 3 * i] == d) { k = pe[3 + 3 * i]; break; }
    g->track[pid] = (int16_t)k;
}

/* ---- actions (effects.EffectTables.action_moves): after every move, piece by piece --------------------- */
static inline int64_t pack_action(int kind, int o, int target) {
    return (int64_t)o | ((int64_t)NO_TARGET << 12) | ((int64_t)target << 24) | ((int64_t)kind << 36);
}

static int actions(Game *g, int me) {
    const Rules *r = g->r;
    const int32_t *acts = r->sec[S_ACTION], *mask = r->sec[S_MASK];
    if (!acts[0]) return 0;
    int them = 1 - me, files = r->files;
    for (int i = 0; i < g->npids[me]; i++) {
        int pid = g->pids[me][i], o = g->square[pid];
        int off = acts[1 + g->ptype[pid]];
        if (o < 0 || off < 0) continue;
        int n = acts[off];
        for (int k = 0; k < n; k++) {
            const int32_t *a = acts + off + 1 + k * A_STRIDE;
            if (a[A_KIND] == KIND_ILLUMINATE) {
                if (add_move(g, pack_action(KIND_ILLUMINATE, o, NO_TARGET))) return -1;
                continue;
            }
            int f0 = o % files, r0 = o / files;
            for (int j = 0; j < g->npids[them]; j++) {
                int q = g->pids[them][j], d = g->square[q];
                if (d < 0 || (a[A_REVEALED_ONLY] && !g->revealed[q]) || !mask[a[A_TARGETS] + g->ptype[q]]) continue;
                if (abs(d % files - f0) + abs(d / files - r0) <= a[A_RANGE] && add_move(g, pack_action(KIND_FIRE, o, d)))
                    return -1;
            }
        }
    }
    return 0;
}

/* ---- legal moves (GameState._generate / _moves_of) ---------------------------------------------------- */
static int generate(Game *g) {
    const Rules *r = g->r;
    int me = g->x[X_TO_MOVE], them = 1 - me, nt = r->ntypes, size = r->size;
    const int32_t *types = r->sec[S_TYPE], *tab = r->sec[S_TABLE];
    const uint8_t dummy = 0;
    (void)dummy;
    g->nmoves = 0;
    g->moves_valid = 1;
    if (g->x[X_RES_KIND]) return 0;
    int16_t *board = g->board, *owner = g->owner;
    for (int i = 0; i < g->npids[me]; i++) {
        int pid = g->pids[me][i], o = g->square[pid];
        if (o < 0) continue;
        int t = g->ptype[pid];
        const int32_t *ty = types + t * T_STRIDE;
        if (ty[T_TABLE] < 0) continue;
        const int32_t *p = tab + tab[ty[T_TABLE] + o];
        int nrays = *p++;
        int can_attack = ty[T_CAN_ATTACK], may_win = r->sec[S_MAYWIN][me * nt + t];
        if (r->sec[S_LEAN][me * nt + t]) {
            int nent = *p++;
            for (int e = 0; e < nent; e++) {
                int d = p[0], natt = p[1];
                const int32_t *att = p + 2;
                p += 2 + natt;
                if (board[d]) continue;
                if (add_move(g, pack(o, d, NO_TARGET))) return -1;
                if (may_win && arrival_entry(g, pid, o, d, 1) >= 0) continue;
                if (can_attack)
                    for (int j = 0; j < natt; j++) {
                        int q = board[att[j]];
                        if (q && owner[q] == them && add_move(g, pack(o, d, att[j]))) return -1;
                    }
            }
            continue;
        }
        int slides = ty[T_SLIDES], long_only = ty[T_LONG_ONLY];
        int conf = r->sec[S_CONF][me * nt + t];
        const int32_t *allowed = conf >= 0 ? r->sec[S_MASK] + conf : NULL;
        for (int ray = 0; ray < nrays; ray++) {
            int nent = *p++, stop = 0;
            for (int step = 0; step < nent; step++) {
                int d = p[0], natt = p[1];
                const int32_t *att = p + 2;
                p += 2 + natt;
                if (stop) continue;
                if (board[d] || (allowed && !allowed[d])) {
                    if (slides) stop = 1;
                    continue;
                }
                if (may_win && arrival_entry(g, pid, o, d, 1) >= 0) {
                    if (add_move(g, pack(o, d, NO_TARGET))) return -1;
                    continue;
                }
                int base = g->nmoves, ntargets = 0;
                /* targets first into the list tail, then the plain move inserted before them if it is legal */
                if (can_attack)
                    for (int j = 0; j < natt; j++) {
                        int q = board[att[j]];
                        if (q && owner[q] == them) {
                            if (add_move(g, pack(o, d, att[j]))) return -1;
                            ntargets++;
                        }
                    }
                int long_slide = slides && step > 0;
                if (!(ntargets && r->compulsory) && !(long_slide && long_only)) {
                    if (add_move(g, 0)) return -1;
                    memmove(g->moves + base + 1, g->moves + base, (size_t)ntargets * sizeof(int64_t));
                    g->moves[base] = pack(o, d, NO_TARGET);
                }
            }
        }
    }
    (void)size;
    int flags = r->sec[S_FLAGS][G_HAS];
    if (flags && handovers(g, me)) return -1; /* the extra-move hooks in pluggy's order: Flags, then effects */
    if (actions(g, me)) return -1;
    if (flags) flags_filter(g, me);
    return 0;
}

/* ---- making moves -------------------------------------------------------------------------------------- */
static void reveal(Game *g, int pid, int reason) {
    if (!g->revealed[pid]) {
        g->revealed[pid] = 1;
        event(g, EV_REVEALED, g->square[pid], g->owner[pid], g->ptype[pid], pid, reason, 0, 0);
    }
}

static void flag_set(Game *g, int p, int sq, int carrier, int mined, int reason) {
    FLAG(g, p, 0) = (int16_t)sq;
    FLAG(g, p, 1) = (int16_t)carrier;
    FLAG(g, p, 2) = (int16_t)mined;
    event(g, EV_TOKEN, p, sq, carrier, reason, 0, 0, 0);
}

/* tokens.FlagRules.dropped: a removed carrier's Flags lie where it stood (mined after some causes) */
static void flags_dropped(Game *g, int pid, int sq, int cause) {
    const int32_t *fl = g->r->sec[S_FLAGS];
    for (int p = 0; p < 2; p++)
        if (FLAG(g, p, 1) == pid) {
            int mined = 0;
            for (int i = 0; i < fl[G_NMINED]; i++)
                if (fl[G_MINED + i] == cause) mined = 1;
            flag_set(g, p, sq, 0, mined, mined ? TK_DROPPED_MINED : TK_DROPPED);
        }
    for (int p = 0; p < 2; p++)
        if (AG(g, p, 0) == pid) AG(g, p, 0) = 0;
}

static void remove_piece(Game *g, int pid, int code, int arg, int cause) {
    int sq = g->square[pid];
    if (sq < 0) return;
    const int32_t *ty = g->r->sec[S_TYPE] + g->ptype[pid] * T_STRIDE;
    g->board[sq] = 0;
    g->square[pid] = -1;
    event(g, EV_REMOVED, sq, g->owner[pid], g->ptype[pid], pid, g->revealed[pid], code, arg);
    if (ty[T_DWNL]) g->removed_this_move = 1;
    if (ty[T_LWR]) {
        int p = g->owner[pid];
        g->losers |= 1 << p;
        g->loss[p][0] = 1; g->loss[p][1] = g->ptype[pid]; g->loss[p][2] = code; g->loss[p][3] = arg;
    }
    if (g->r->sec[S_FLAGS][G_HAS]) flags_dropped(g, pid, sq, cause);
}

/* effects.EffectTables.on_arrival: the effects in reach of the square piece pid ended its move on */
static int on_arrival(Game *g, int pid, int square) {
    const Rules *r = g->r;
    const int32_t *reach = r->sec[S_REACH], *sql = r->sec[S_SQLIST], *eff = r->sec[S_EFFECT], *mask = r->sec[S_MASK];
    int nreach = reach[0], nt = r->ntypes;
    if (!nreach) return 0;
    int me = g->owner[pid], t = g->ptype[pid], nblast = 0, nback = 0, spotted = 0;
    int16_t *board = g->board;
    const int32_t *p = reach + 1;
    for (int k = 0; k < nreach; k++, p += 1 + nt) {
        const int32_t *row = sql + sql[p[0] + square];
        for (int i = 1; i <= row[0]; i++) {
            int q = board[row[i]];
            if (!q || g->owner[q] == me) continue;
            int lst = p[1 + g->ptype[q]];
            for (int e = 0; e < eff[lst]; e++) {
                int fo = eff[lst + 1 + e];
                const int32_t *f = eff + fo;
                if (mask[f[F_BACKFIRE] + t]) {
                    if (grow((void **)&g->back, &g->capback, 2 * nback + 2, sizeof(int32_t))) return -1;
                    g->back[2 * nback] = q;
                    g->back[2 * nback + 1] = fo;
                    nback++;
                } else if (!mask[f[F_TARGETS] + t] || mask[f[F_SPARE] + t]) {
                    continue;
                } else if (f[F_KIND] == 1) {
                    spotted = 1;
                } else {
                    if (grow((void **)&g->blast, &g->capblast, 2 * nblast + 2, sizeof(int32_t))) return -1;
                    g->blast[2 * nblast] = q;
                    g->blast[2 * nblast + 1] = fo;
                    nblast++;
                }
            }
        }
    }
    if (spotted) reveal(g, pid, W_SPOTTED);
    for (int i = 0; i < nback; i++) {
        int q = g->back[2 * i];
        const int32_t *f = eff + g->back[2 * i + 1];
        if (g->square[q] >= 0) {
            reveal(g, pid, f[F_CAUSE]);
            reveal(g, q, f[F_CAUSE]);
            remove_piece(g, q, RM_BACKFIRE, f[F_ID] * 1024 + t, f[F_CAUSE]);
        }
    }
    if (nblast && g->square[pid] >= 0) {
        for (int i = 0; i < nblast; i++) reveal(g, g->blast[2 * i], eff[g->blast[2 * i + 1] + F_CAUSE]);
        const int32_t *f = eff + g->blast[1];
        reveal(g, pid, f[F_CAUSE]);
        remove_piece(g, pid, RM_BLAST, f[F_ID] * 1024 + g->ptype[g->blast[0]], f[F_CAUSE]);
    }
    return 0;
}

/* effects.EffectTables.apply: illuminate or fire (assumed legal) */
static void apply_action(Game *g, int kind, int o, int target) {
    const Rules *r = g->r;
    const int32_t *acts = r->sec[S_ACTION];
    int pid = g->board[o], me = g->x[X_TO_MOVE], off = acts[1 + g->ptype[pid]];
    const int32_t *a = NULL;
    for (int k = 0; k < acts[off]; k++)
        if (acts[off + 1 + k * A_STRIDE + A_KIND] == kind) { a = acts + off + 1 + k * A_STRIDE; break; }
    event(g, EV_ACTED, me, kind, o, target, 0, 0, 0);
    if (a[A_REVEAL_SELF]) reveal(g, pid, kind == KIND_ILLUMINATE ? W_ILLUMINATE : W_FIRE);
    if (kind == KIND_ILLUMINATE) {
        const int32_t *sql = r->sec[S_SQLIST], *row = sql + sql[a[A_SQLIST] + o];
        for (int i = 1; i <= row[0]; i++) {
            int q = g->board[row[i]];
            if (q && g->owner[q] != me) reveal(g, q, W_ILLUMINATED);
        }
        return;
    }
    remove_piece(g, g->board[target], RM_FIRE, a[A_ID] * 1024 + g->ptype[pid], W_SHOT_DOWN);
}

static int condition(Game *g, const int32_t *c, int attacker, int defender) {
    const Rules *r = g->r;
    int size = r->size;
    int a_sq = g->square[attacker], d_sq = g->square[defender];
    const int32_t *elem = r->sec[S_ELEM];
    int ea = elem[g->ptype[attacker] * size + a_sq], ed = elem[g->ptype[defender] * size + d_sq];
    switch (c[0]) {
    case C_ACROSS: return ea != ed;
    case C_SAME: return ea == ed;
    case C_BOTH: return ea == ed && ea == c[2];
    case C_PRED: {
        int pid = c[1] ? defender : attacker, sq = c[1] ? d_sq : a_sq;
        return r->sec[S_MASK][c[2] + g->owner[pid] * size + sq] != 0;
    }
    }
    return 0;
}

static int resolve(Game *g, int attacker, int defender) {
    const Rules *r = g->r;
    const int32_t *cd = r->sec[S_CDATA];
    const int32_t *p = cd + r->sec[S_COMBAT][g->ptype[attacker] * r->ntypes + g->ptype[defender]];
    int nrules = *p++;
    for (int i = 0; i < nrules; i++) {
        int nconds = *p++, ok = 1;
        for (int j = 0; j < nconds; j++, p += 3)
            if (ok && !condition(g, p, attacker, defender)) ok = 0;
        int outcome = *p++;
        if (ok) return outcome;
    }
    return *p;
}

static void fight(Game *g, int attacker, int defender) {
    event(g, EV_ATTACKED, g->owner[attacker], g->square[attacker], g->square[defender], g->ptype[attacker],
          g->ptype[defender], 0, 0);
    reveal(g, attacker, W_COMBAT);
    reveal(g, defender, W_COMBAT);
    int oc = resolve(g, attacker, defender);
    const int32_t *o = g->r->sec[S_OUTCOME] + 4 * oc; /* nremoved, role, role, retreat role */
    for (int i = 0; i < o[0]; i++) remove_piece(g, o[1 + i] ? defender : attacker, RM_COMBAT, oc, W_COMBAT);
    if (o[3] >= 0) {
        int pid = o[3] ? defender : attacker, sq = g->square[pid];
        int dest = g->r->sec[S_BACK][g->owner[pid] * g->r->size + sq];
        if (dest >= 0 && !g->board[dest]) {
            g->board[sq] = 0;
            g->board[dest] = (int16_t)pid;
            g->square[pid] = (int16_t)dest;
            event(g, EV_RETREATED, sq, dest, pid, oc, 0, 0, 0);
        }
    }
}

/* tokens.FlagRules._watch: pid came to hold p's Flag on sq: on the enemy Base, its owner must move it off */
static void flags_watch(Game *g, int pid, int p, int sq) {
    const int32_t *fl = g->r->sec[S_FLAGS];
    int me = g->owner[pid], ply = ply_of(g);
    if (p != me && sq == fl[G_BASE0 + p] && fl[G_LEAVE]) {
        AG(g, me, 0) = (int16_t)pid;
        AG(g, me, 1) = (int16_t)(ply & 0xFFFF);
        AG(g, me, 2) = (int16_t)(ply >> 16);
    }
}

/* tokens.FlagRules.arrive: piece pid ended its move where it stands: carry, leave or pick up Flags */
static void flags_arrive(Game *g, int pid) {
    const int32_t *fl = g->r->sec[S_FLAGS];
    int me = g->owner[pid], sq = g->square[pid];
    for (int p = 0; p < 2; p++) {
        int where = FLAG(g, p, 0), carrier = FLAG(g, p, 1);
        if (carrier == pid) {
            if (p == me && sq == fl[G_BASE0 + me]) flag_set(g, p, sq, 0, 0, TK_LEFT);
            else if (where != sq) { FLAG(g, p, 0) = (int16_t)sq; FLAG(g, p, 2) = 0; }
        } else if (carrier == 0 && where == sq && !g->r->sec[S_MASK][fl[G_CANNOT] + g->ptype[pid]]) {
            if (p == me && sq == fl[G_BASE0 + me]) continue;
            flag_set(g, p, sq, pid, 0, TK_PICKED);
            flags_watch(g, pid, p, sq);
        }
    }
}

/* tokens.FlagRules.arrival_wins: piece pid arriving on square wins by the Flags (before any blast) */
static int flags_arrival_wins(Game *g, int pid, int square) {
    int me = g->owner[pid];
    if (square != g->r->sec[S_FLAGS][G_BASE0 + me]) return 0;
    for (int p = 0; p < 2; p++) {
        int where = FLAG(g, p, 0), carrier = FLAG(g, p, 1);
        if (carrier == pid || (carrier == 0 && where == square)) continue;
        return 0;
    }
    return 1;
}

/* tokens.FlagRules.run_aground */
static void run_aground(Game *g, int me) {
    int pid = AG(g, me, 0);
    int ply = (uint16_t)AG(g, me, 1) | ((int)AG(g, me, 2) << 16);
    if (!pid || ply == ply_of(g)) return;
    AG(g, me, 0) = 0;
    if (g->square[pid] == g->r->sec[S_FLAGS][G_BASE0 + 1 - me]) remove_piece(g, pid, RM_AGROUND, 0, W_AGROUND);
}

/* tokens.FlagRules.handovers: a carrier off the Bases may hand a Flag to an own piece next to it */
static int handovers(Game *g, int me) {
    const Rules *r = g->r;
    const int32_t *fl = r->sec[S_FLAGS], *sql = r->sec[S_SQLIST];
    int seen = 0;
    for (int p = 0; p < 2; p++) {
        int carrier = FLAG(g, p, 1);
        if (!carrier || g->owner[carrier] != me || carrier == seen) continue;
        seen = carrier;
        int o = g->square[carrier];
        if (o == fl[G_BASE0] || o == fl[G_BASE1]) continue;
        const int32_t *row = sql + sql[fl[G_MINED + fl[G_NMINED]] + o]; /* the orthogonal neighbours */
        for (int i = 1; i <= row[0]; i++) {
            int q = g->board[row[i]];
            if (q && g->owner[q] == me && !r->sec[S_MASK][fl[G_CANNOT] + g->ptype[q]]
                && add_move(g, pack_action(KIND_HANDOVER, o, row[i])))
                return -1;
        }
    }
    return 0;
}

static void hand_over(Game *g, int o, int a) {
    const int32_t *fl = g->r->sec[S_FLAGS];
    int carrier = g->board[o], receiver = g->board[a], me = g->owner[carrier];
    event(g, EV_ACTED, me, KIND_HANDOVER, o, a, 0, 0, 0);
    int p = FLAG(g, 1 - me, 1) == carrier ? 1 - me : me, sq = g->square[receiver];
    if (p == me && sq == fl[G_BASE0 + me]) {
        flag_set(g, p, sq, 0, 0, TK_HANDED_HOME);
    } else {
        flag_set(g, p, sq, receiver, 0, TK_HANDED);
        flags_watch(g, receiver, p, sq);
    }
}

/* tokens.FlagRules.filter: moves onto mined Flags (but a sweeper's), attacks between carriers of the two
 * Flags, and attacks carried by a move that wins */
static void flags_filter(Game *g, int me) {
    const Rules *r = g->r;
    const int32_t *fl = r->sec[S_FLAGS], *mask = r->sec[S_MASK];
    int w[2], c[2], m[2], base = fl[G_BASE0 + me];
    for (int p = 0; p < 2; p++) { w[p] = FLAG(g, p, 0); c[p] = FLAG(g, p, 1); m[p] = FLAG(g, p, 2); }
    if (!c[0] && !c[1] && !m[0] && !m[1]) return;
    int home = 0, all_home_free_or[2] = {0, 0};
    for (int p = 0; p < 2; p++) {
        int in_mine = c[p] && g->owner[c[p]] == me;
        if ((c[p] == 0 && w[p] == base) || in_mine) { all_home_free_or[home] = c[p]; home++; }
    }
    int kept = 0;
    for (int i = 0; i < g->nmoves; i++) {
        int64_t mv = g->moves[i];
        if ((mv >> 36) == KIND_MOVE) {
            int o = (int)(mv & 0xFFF), d = (int)((mv >> 12) & 0xFFF), a = (int)((mv >> 24) & 0xFFF);
            int mover = g->board[o], drop = 0;
            for (int p = 0; p < 2; p++)
                if (c[p] == 0 && m[p] && w[p] == d && !mask[fl[G_PICKUP] + g->ptype[mover]]) drop = 1;
            if (!drop && a != NO_TARGET) {
                int target = g->board[a], mover_mine = 0, target_theirs = 0;
                for (int p = 0; p < 2; p++) {
                    if (c[p] && c[p] == mover && g->owner[c[p]] == me) mover_mine = 1;
                    if (c[p] && c[p] == target && g->owner[c[p]] != me) target_theirs = 1;
                }
                if (mover_mine && target_theirs) drop = 1;
                else if (d == base && home == 2) {
                    int all = 1;
                    for (int k = 0; k < home; k++)
                        if (all_home_free_or[k] != 0 && all_home_free_or[k] != mover) all = 0;
                    if (all) drop = 1;
                }
            }
            if (drop) continue;
        }
        g->moves[kept++] = mv;
    }
    g->nmoves = kept;
}

static int alive_all_in(Game *g, int p, int field) {
    const int32_t *types = g->r->sec[S_TYPE];
    for (int i = 0; i < g->npids[p]; i++) {
        int pid = g->pids[p][i];
        if (g->square[pid] >= 0 && !types[g->ptype[pid] * T_STRIDE + field]) return 0;
    }
    return 1;
}

static void check_endings(Game *g) {
    const Rules *r = g->r;
    int losers = g->losers;
    if (r->has_lwol)
        for (int p = 0; p < 2; p++)
            if (alive_all_in(g, p, T_LWOL)) losers |= 1 << p;
    if (losers) {
        if (losers == 3) {
            finish(g, -1, K_BOTH_LOST, 0, 0, 0);
        } else {
            int loser = losers == 1 ? 0 : 1;
            if (g->loss[loser][0])
                finish(g, 1 - loser, K_LOSER, g->loss[loser][1], g->loss[loser][2], g->loss[loser][3]);
            else
                finish(g, 1 - loser, K_LOSER, -1, 0, 0);
        }
        return;
    }
    if (r->has_dwnl && g->removed_this_move) {
        const int32_t *types = r->sec[S_TYPE];
        int any = 0;
        for (int p = 0; p < 2 && !any; p++)
            for (int i = 0; i < g->npids[p]; i++) {
                int pid = g->pids[p][i];
                if (g->square[pid] >= 0 && types[g->ptype[pid] * T_STRIDE + T_DWNL]) { any = 1; break; }
            }
        if (!any) {
            finish(g, -1, K_NONE_LEFT, 0, 0, 0);
            return;
        }
    }
    if (r->sec[S_FLAGS][G_HAS]) { /* tokens.FlagRules.winner: both Flags on the mover's Base, lying or own-carried */
        int me = g->x[X_TO_MOVE], base = r->sec[S_FLAGS][G_BASE0 + me], all = 1;
        for (int p = 0; p < 2; p++) {
            int carrier = FLAG(g, p, 1);
            if (FLAG(g, p, 0) != base || (carrier && g->owner[carrier] != me)) all = 0;
        }
        if (all) finish(g, me, K_FLAGS_HOME, 0, 0, 0);
    }
}

static int push(Game *g, int64_t m) {
    if (grow((void **)&g->stack, &g->capstack, (g->nstack + 1) * g->block, sizeof(int16_t))) return -1;
    memcpy(g->stack + (size_t)g->nstack * g->block, g->st, (size_t)g->block * sizeof(int16_t));
    g->nstack++;
    g->moves_valid = 0;
    g->nevents = 0;
    g->losers = 0;
    g->removed_this_move = 0;
    memset(g->loss, 0, sizeof(g->loss));
    const Rules *r = g->r;
    int me = g->x[X_TO_MOVE], kind = (int)(m >> 36);
    int o = (int)(m & 0xFFF), d = (int)((m >> 12) & 0xFFF), a = (int)((m >> 24) & 0xFFF);
    if (kind == KIND_HANDOVER) {
        hand_over(g, o, a);
    } else if (kind != KIND_MOVE) {
        apply_action(g, kind, o, a);
    } else {
        int pid = g->board[o];
        g->board[o] = 0;
        g->board[d] = (int16_t)pid;
        g->square[pid] = (int16_t)d;
        g->moved[pid] = 1;
        event(g, EV_MOVED, me, o, d, pid, 0, 0, 0);
        int won = arrival_entry(g, pid, o, d, 1);
        update_track(g, pid, o, d);
        if (won >= 0) {
            int first = arrival_entry(g, pid, o, d, 0);
            finish(g, me, K_ARRIVE, r->sec[S_WINDATA][first + 3], g->ptype[pid], 0);
        } else if (!(r->sec[S_FLAGS][G_HAS] && flags_arrival_wins(g, pid, d))) {
            if (on_arrival(g, pid, d)) return -1;
            if (a != NO_TARGET && g->square[pid] == d) {
                int target = g->board[a];
                if (target) fight(g, pid, target);
            }
        }
    }
    if (!g->x[X_RES_KIND]) {
        int moved_pid = kind == KIND_MOVE ? g->board[d] : 0;
        const int32_t *tr = r->sec[S_TRANSIT];
        for (int i = 0; i < tr[0]; i++) {
            int sq = tr[1 + i], q = g->board[sq];
            if (q && g->owner[q] == me && q != moved_pid) remove_piece(g, q, RM_FORFEIT, sq, W_NONE);
        }
        if (r->sec[S_FLAGS][G_HAS]) {
            if (kind == KIND_MOVE) {
                int pid = g->board[d];
                if (pid && g->owner[pid] == me) flags_arrive(g, pid);
            }
            run_aground(g, me);
        }
        check_endings(g);
    }
    int ply = ply_of(g) + 1;
    set_ply(g, ply);
    g->x[X_TO_MOVE] = (int16_t)(1 - me);
    if (!g->x[X_RES_KIND] && r->ply_limit && ply >= r->ply_limit) finish(g, -1, K_PLY_LIMIT, 0, 0, 0);
    return 0;
}

static void pop(Game *g) {
    g->nstack--;
    memcpy(g->st, g->stack + (size_t)g->nstack * g->block, (size_t)g->block * sizeof(int16_t));
    g->moves_valid = 0;
}

/* no legal move: the side to move loses (the Python engine's outcome()); with Flags, tokens.FlagRules.stalemate */
static void no_moves(Game *g) {
    int me = g->x[X_TO_MOVE], them = 1 - me;
    const int32_t *fl = g->r->sec[S_FLAGS];
    g->nevents = 0;
    if (!fl[G_HAS]) finish(g, them, K_NO_MOVES, me, 0, 0);
    else if (FLAG(g, them, 1) == 0 && FLAG(g, them, 0) == fl[G_BASE0 + them]) finish(g, them, K_STALEMATE_LOSS, me, 0, 0);
    else finish(g, -1, K_STALEMATE_DRAW, me, 0, 0);
}

/* a random playout: returns plies played, or -1 on memory failure. It clears the undo stack (a playout is
 * not undone; its snapshots are dropped as it goes). */
static long playout(Game *g, long max_plies) {
    long n = 0;
    int base = 0;
    g->nstack = 0;
    while (n < max_plies) {
        if (generate(g)) return -1;
        if (!g->nmoves) {
            if (!g->x[X_RES_KIND]) no_moves(g);
            break;
        }
        if (push(g, g->moves[mt_below(g, (uint32_t)g->nmoves)])) return -1;
        g->nstack = base;
        n++;
    }
    return n;
}

/* ---- the search agent's tail playout (ai.search.Playout.choose / finish, ai.values.evaluate) ------------
 * The policy buffer (doubles, built by fastpath.Kernel.policy): a header (P_*), piece values [ntypes], scarce
 * types [ntypes] (0/1), which types can move, vital immobile types and their breakers, the worth of each type
 * unseen [ntypes], which types the hunt counts as prey [ntypes], which types guard the goal [ntypes], which
 * types are Mines (immobile prey) and which sweep them [ntypes each], which types hunt which
 * [attacker][defender] (0/1), square terms [player][type][square], steps to the goal of the winners by
 * arriving [player][type][square] (-1: not a winner), the steps of each type to take a piece on each square
 * [type][target][square], the squares a step of each type away [type][square][4] (-1: none), then with Flags
 * the steps of each type to each player's Base [player][type][square] and to every square
 * [type][target][square]. The same operations in the same order as the Python code, so the floating-point
 * results (and so every choice) are identical. */
enum { P_SCARCE, P_FLAG_HELD, P_FLAG_HOME, P_FLAG_REACH, P_FLAG_AWAY, P_HAS_SCARCE, P_SIEGE, P_MOPUP, P_MOPUP_FROM, P_MOPUP_FULL,
       P_MOPUP_WORTH, P_PUSH, P_GUARD, P_BOXED, P_HOPELESS, P_HEADER };

typedef struct {
    const double *head, *values, *scarce, *mobile, *vital, *breaker, *secret, *prey, *guard, *walls, *sweepers, *hunts,
        *tables, *goal;
    const double *attack, *steps, *home, *to;
} Policy;

static void policy_view(const Rules *r, const double *buf, Policy *pol) {
    size_t nt = (size_t)r->ntypes, size = (size_t)r->size;
    pol->head = buf;
    pol->values = buf + P_HEADER;
    pol->scarce = pol->values + nt;
    pol->mobile = pol->scarce + nt;
    pol->vital = pol->mobile + nt;
    pol->breaker = pol->vital + nt;
    pol->secret = pol->breaker + nt;
    pol->prey = pol->secret + nt;
    pol->guard = pol->prey + nt;
    pol->walls = pol->guard + nt;
    pol->sweepers = pol->walls + nt;
    pol->hunts = pol->sweepers + nt;
    pol->tables = pol->hunts + nt * nt;
    pol->goal = pol->tables + 2 * nt * size;
    pol->attack = pol->goal + 2 * nt * size;
    pol->steps = pol->attack + nt * size * size;
    pol->home = pol->steps + 4 * nt * size;
    pol->to = pol->home + 2 * nt * size;
}

static size_t policy_size(const Rules *r) {
    size_t nt = (size_t)r->ntypes, size = (size_t)r->size;
    return P_HEADER + 10 * nt + nt * nt + 8 * nt * size + nt * size * size + (r->sec[S_FLAGS][G_HAS] ? 2 * nt * size + nt * size * size : 0);
}

/* ai.values.blasted_types: would an enemy effect in reach of square destroy player's type t arriving there */
static int blasted(const Game *g, int t, int square, int player) {
    const Rules *r = g->r;
    const int32_t *reach = r->sec[S_REACH], *sql = r->sec[S_SQLIST], *eff = r->sec[S_EFFECT], *mask = r->sec[S_MASK];
    int nreach = reach[0], nt = r->ntypes;
    const int32_t *p = reach + 1;
    for (int k = 0; k < nreach; k++, p += 1 + nt) {
        const int32_t *row = sql + sql[p[0] + square];
        for (int i = 1; i <= row[0]; i++) {
            int q = g->board[row[i]];
            if (!q || g->owner[q] == player) continue;
            int lst = p[1 + g->ptype[q]];
            for (int e = 0; e < eff[lst]; e++) {
                const int32_t *f = eff + eff[lst + 1 + e];
                if (f[F_KIND] != 1 && mask[f[F_TARGETS] + t] && !mask[f[F_SPARE] + t] && !mask[f[F_BACKFIRE] + t]) return 1;
            }
        }
    }
    return 0;
}

/* ai.values.flag_terms */
static double flag_terms(Game *g, const Policy *pol, int player) {
    const Rules *r = g->r;
    const int32_t *fl = r->sec[S_FLAGS], *mask = r->sec[S_MASK];
    size_t nt = (size_t)r->ntypes, size = (size_t)r->size;
    int far = r->files + size / r->files, home = fl[G_BASE0 + player];
    int sq = FLAG(g, 1 - player, 0), carrier = FLAG(g, 1 - player, 1), mined = FLAG(g, 1 - player, 2);
    double score = 0.0;
    if (carrier && g->owner[carrier] == player) {
        double d = pol->home[((size_t)player * nt + g->ptype[carrier]) * size + sq];
        double m = 1.0 - d / far;
        score += pol->head[P_FLAG_HELD] + pol->head[P_FLAG_HOME] * (m > 0.0 ? m : 0.0);
    } else if (!carrier) {
        double best = far;
        for (int i = 0; i < g->npids[player]; i++) {
            int pid = g->pids[player][i], at = g->square[pid], t = g->ptype[pid];
            if (at < 0 || mask[fl[G_CANNOT] + t] || (mined && !mask[fl[G_PICKUP] + t])) continue;
            double d = pol->to[((size_t)t * size + sq) * size + at];
            if (d < best && !blasted(g, t, sq, player)) best = d; /* the effects read only for a nearer piece */
        }
        double m = 1.0 - best / far;
        score += pol->head[P_FLAG_REACH] * (m > 0.0 ? m : 0.0);
    }
    if (FLAG(g, player, 1) || FLAG(g, player, 0) != home) score -= pol->head[P_FLAG_AWAY];
    return score;
}

/* grid.manhattan: orthogonal steps between two squares of a board `files` wide */
static inline int manhattan(int a, int b, int files) { return abs(a % files - b % files) + abs(a / files - b / files); }

/* ai.values.siege: how near player's vital immobile pieces the enemy's nearest breaker stands */
static double siege(Game *g, const Policy *pol, int player) {
    int files = g->r->files, far = files + g->size / files;
    double best = 0.0;
    for (int i = 0; i < g->npids[player]; i++) {
        int pid = g->pids[player][i], sq = g->square[pid];
        if (sq < 0 || pol->vital[g->ptype[pid]] == 0.0) continue;
        for (int j = 0; j < g->npids[1 - player]; j++) {
            int e = g->pids[1 - player][j], at = g->square[e];
            if (at < 0 || pol->breaker[g->ptype[e]] == 0.0) continue;
            double near = 1.0 - (double)manhattan(sq, at, files) / far;
            if (near > best) best = near;
        }
    }
    return best;
}

/* ai.values.hunt_lead: how far ahead player is, 0..1, by its share of both sides' mobile worth */
static double hunt_lead(Game *g, const Policy *pol, int player) {
    double worth[2] = {0.0, 0.0}, cap = pol->head[P_MOPUP_WORTH];
    int sides[2] = {player, 1 - player};
    for (int k = 0; k < 2; k++) {
        int side = sides[k];
        for (int i = 0; i < g->npids[side]; i++) {
            int pid = g->pids[side][i], t = g->ptype[pid];
            if (g->square[pid] >= 0 && pol->mobile[t] != 0.0) worth[side] += pol->values[t] < cap ? pol->values[t] : cap;
        }
    }
    if (worth[player] == 0.0) return 0.0;
    double from = pol->head[P_MOPUP_FROM];
    double lead = (worth[player] / (worth[player] + worth[1 - player]) - from) / (pol->head[P_MOPUP_FULL] - from);
    if (lead <= 0.0) return 0.0;
    return lead > 1.0 ? 1.0 : lead;
}

/* ai.values._hunts_any: whether player's piece q takes an enemy piece of a type counted marks */
static int hunts_any(const Game *g, const Policy *pol, int player, int q, const double *counted) {
    size_t nt = (size_t)g->r->ntypes;
    const double *row = pol->hunts + (size_t)g->ptype[q] * nt;
    for (int j = 0; j < g->npids[1 - player]; j++) {
        int e = g->pids[1 - player][j], te = g->ptype[e];
        if (g->square[e] >= 0 && counted[te] != 0.0 && row[te] != 0.0) return 1;
    }
    return 0;
}

/* ai.values.boxed: every square a step of type t away from sq that dist counts nearer holds one of player's
 * pieces (and there is one); with counted (the hunt's prey, given while the enemy has a wall), none of them a
 * hunter of such prey */
static int boxed(const Game *g, const Policy *pol, int player, int t, int sq, const double *dist,
                 const double *counted) {
    const double *step = pol->steps + ((size_t)t * (size_t)g->size + sq) * 4;
    int nearer = 0;
    for (int k = 0; k < 4 && step[k] >= 0.0; k++) {
        int n = (int)step[k];
        if (dist[n] < dist[sq]) {
            int q = g->board[n];
            if (!q || g->owner[q] != player || (counted && hunts_any(g, pol, player, q, counted))) return 0;
            nearer = 1;
        }
    }
    return nearer;
}

/* ai.values.hunted: for every enemy piece of a type `counted` marks, the steps of player's nearest piece that
 * takes it (ai.values.attack_distance), over the board, summed */
static double hunted(Game *g, const Policy *pol, int player, const double *counted) {
    size_t nt = (size_t)g->r->ntypes, size = (size_t)g->size;
    int files = g->r->files, far = files + g->size / files;
    double total = 0.0;
    const double *leaders = NULL; /* before a walled fortress our hunters queue at its gaps (boxed) */
    for (int j = 0; j < g->npids[1 - player] && !leaders; j++) {
        int e = g->pids[1 - player][j];
        if (g->square[e] >= 0 && pol->walls[g->ptype[e]] != 0.0) leaders = counted;
    }
    for (int j = 0; j < g->npids[1 - player]; j++) {
        int e = g->pids[1 - player][j], at = g->square[e], te = g->ptype[e];
        if (at < 0 || counted[te] == 0.0) continue;
        double best = far;
        for (int i = 0; i < g->npids[player]; i++) {
            int q = g->pids[player][i], sq = g->square[q], tq = g->ptype[q];
            if (sq < 0 || pol->hunts[(size_t)tq * nt + te] == 0.0) continue;
            const double *dist = pol->attack + ((size_t)tq * size + at) * size;
            double d = dist[sq];
            if (d < best && boxed(g, pol, player, tq, sq, dist, leaders)) d += pol->head[P_BOXED];
            if (d < best) best = d;
        }
        total += best / far;
    }
    return total;
}

/* ai.values.mopup: far ahead (lead > 0), the steps left to hunt down the enemy's prey pieces (lower is better) */
static double mopup(Game *g, const Policy *pol, int player, double lead) {
    return lead * hunted(g, pol, player, pol->prey);
}

/* ai.values.arrival: how near player's nearest winner by arriving stands to its goal, 1 - steps / far */
static double arrival(Game *g, const Policy *pol, int player) {
    size_t nt = (size_t)g->r->ntypes, size = (size_t)g->size;
    int files = g->r->files, far = files + g->size / files;
    double best = (double)far;
    for (int i = 0; i < g->npids[player]; i++) {
        int pid = g->pids[player][i], sq = g->square[pid];
        if (sq < 0) continue;
        const double *dist = pol->goal + ((size_t)player * nt + g->ptype[pid]) * size;
        double d = dist[sq];
        if (d < 0.0) continue;
        if (d < best && boxed(g, pol, player, g->ptype[pid], sq, dist, NULL)) d += pol->head[P_BOXED];
        if (d < best) best = d;
    }
    double near = 1.0 - best / far;
    return near > 0.0 ? near : 0.0;
}

/* ai.values.pull_terms: ours near the enemy's guards of the goal and theirs near ours (ai.values.guards), and
 * the searcher's own hunt and push */
static double pull_terms(Game *g, const Policy *pol, int player) {
    double score = 0.0;
    if (pol->head[P_GUARD] != 0.0)
        score -= pol->head[P_GUARD] * (hunted(g, pol, player, pol->guard) - hunted(g, pol, 1 - player, pol->guard));
    double lead = hunt_lead(g, pol, player);
    if (lead > 0.0) {
        score -= pol->head[P_MOPUP] * mopup(g, pol, player, lead);
        score += pol->head[P_PUSH] * (lead * arrival(g, pol, player));
    }
    return score;
}

static double winner_bonus(const Policy *pol, int k) { return pol->head[P_SCARCE] * (1.0 - pow(0.5, k)); }

/* ai.values.evaluate */
static double evaluate(Game *g, const Policy *pol, int player) {
    if (g->x[X_RES_KIND]) {
        int w = g->x[X_RES_WINNER];
        return w < 0 ? 0.0 : (w == player ? 1000.0 : -1000.0);
    }
    size_t nt = (size_t)g->r->ntypes, size = (size_t)g->r->size;
    double score = 0.0;
    int counts[2] = {0, 0}, guarded[2] = {0, 0}, walled[2] = {0, 0}, swept[2] = {0, 0};
    for (int pid = 1; pid < g->n; pid++) {
        int sq = g->square[pid];
        if (sq < 0) continue;
        int t = g->ptype[pid], p = g->owner[pid];
        double v = pol->values[t] + pol->tables[((size_t)p * nt + t) * size + sq];
        if (!g->revealed[pid]) v += pol->secret[t];
        score += p == player ? v : -v;
        if (pol->scarce[t] != 0.0) counts[p]++;
        if (pol->guard[t] != 0.0) guarded[p]++;
        if (pol->walls[t] != 0.0) walled[p]++;
        if (pol->sweepers[t] != 0.0) swept[p]++;
    }
    if (pol->head[P_HAS_SCARCE] != 0.0) score += winner_bonus(pol, counts[player]) - winner_bonus(pol, counts[1 - player]);
    if (guarded[0] || guarded[1]) /* the last guards of a goal the enemy can still reach */
        score += (counts[1 - player] ? winner_bonus(pol, guarded[player]) : 0.0)
               - (counts[player] ? winner_bonus(pol, guarded[1 - player]) : 0.0);
    if (walled[0] || walled[1]) /* the last sweepers of the enemy's Mines */
        score += (walled[1 - player] ? winner_bonus(pol, swept[player]) : 0.0)
               - (walled[player] ? winner_bonus(pol, swept[1 - player]) : 0.0);
    if (g->r->sec[S_FLAGS][G_HAS]) score += flag_terms(g, pol, player) - flag_terms(g, pol, 1 - player);
    if (pol->head[P_SIEGE] != 0.0) score += pol->head[P_SIEGE] * (siege(g, pol, 1 - player) - siege(g, pol, player));
    score += pull_terms(g, pol, player);
    double share = pol->head[P_HOPELESS]; /* a side that can no longer win is at best drawing */
    if (share != 0.0 && ((score > 0.0 && !counts[player]) || (score < 0.0 && !counts[1 - player]))) score *= share;
    return score;
}

/* ai.values.CombatProbe.gain: the fight of a (moved to a_sq) against d, as the attacker's material change */
static double probe_gain(Game *g, const Policy *pol, int a, int d, int a_sq) {
    int old = g->square[a];
    g->square[a] = (int16_t)a_sq;
    int oc = resolve(g, a, d);
    g->square[a] = (int16_t)old;
    const int32_t *o = g->r->sec[S_OUTCOME] + 4 * oc;
    int attacker_out = 0, defender_out = 0;
    for (int i = 0; i < o[0]; i++) {
        if (o[1 + i]) defender_out = 1;
        else attacker_out = 1;
    }
    double gain = 0.0;
    if (defender_out) gain += pol->values[g->ptype[d]];
    if (attacker_out) gain -= pol->values[g->ptype[a]];
    if (o[3] == 1) gain += 0.1;
    else if (o[3] == 0) gain -= 0.1;
    return gain;
}

/* ai.search.Playout._blind_gain: the mean of probe_gain over the types the hidden defender d may be, as
 * counts[type] of the enemy's hidden pieces say (total of them) */
static double blind_gain(Game *g, const Policy *pol, int a, int d, int a_sq, const int64_t *counts, int64_t total) {
    int td = g->ptype[d];
    double gain = 0.0;
    for (int t = 0; t < g->r->ntypes; t++) {
        if (!counts[t]) continue;
        g->ptype[d] = (int16_t)t;
        gain += (double)counts[t] * probe_gain(g, pol, a, d, a_sq);
    }
    g->ptype[d] = (int16_t)td;
    return gain / (double)total;
}

static double mt_random(Game *g) {
    uint32_t a = mt_next(g) >> 5, b = mt_next(g) >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

/* ai.search.Playout.choose: a move, -1 when there is none, -2 on memory failure */
static int64_t greedy_choose(Game *g, const Policy *pol, double greed, int64_t **buf, int *cap) {
    if (generate(g)) return -2;
    int n = g->nmoves;
    if (!n) return -1;
    const Rules *r = g->r;
    size_t nt = (size_t)r->ntypes, size = (size_t)r->size;
    if (grow((void **)buf, cap, 2 * n + 2 * (int)nt, sizeof(int64_t))) return -2;
    int64_t *moves = *buf, *quiet = *buf + n, *hidden = *buf + 2 * n, best = -1, best_quiet = -1, carry = -1;
    memcpy(moves, g->moves, (size_t)n * sizeof(int64_t));
    /* the enemy's hidden pieces by type, all and those that can move: what an attack on one may meet */
    int foe = 1 - g->x[X_TO_MOVE];
    int64_t total = 0, total_mobile = 0;
    memset(hidden, 0, 2 * nt * sizeof(int64_t));
    for (int i = 0; i < g->npids[foe]; i++) {
        int pid = g->pids[foe][i], t = g->ptype[pid];
        if (g->square[pid] < 0 || g->revealed[pid]) continue;
        hidden[t]++;
        total++;
        if (pol->mobile[t] != 0.0) { hidden[nt + t]++; total_mobile++; }
    }
    int nq = 0, flags = r->sec[S_FLAGS][G_HAS];
    int c0 = flags ? FLAG(g, 0, 1) : 0, c1 = flags ? FLAG(g, 1, 1) : 0;
    double best_gain = 0.0, best_quiet_gain = 0.0, carry_gain = 0.0;
    for (int i = 0; i < n; i++) {
        int64_t m = moves[i];
        int o = (int)(m & 0xFFF), d = (int)((m >> 12) & 0xFFF), a = (int)((m >> 24) & 0xFFF);
        double gain;
        if (m >> 36) { /* firing is worth its target; other actions are left to the tree */
            if ((m >> 36) == KIND_FIRE) {
                gain = pol->values[g->ptype[g->board[a]]];
                if (gain > best_gain) { best = m; best_gain = gain; }
            }
            continue;
        }
        if (a == NO_TARGET) {
            int pid = g->board[o], t = g->ptype[pid], p = g->owner[pid];
            if (arrival_entry(g, pid, o, d, 1) >= 0) return m;
            const double *row = pol->tables + ((size_t)p * nt + t) * size;
            gain = row[d] - row[o];
            if (pid && (pid == c0 || pid == c1)) {
                const double *dist = pol->home + ((size_t)p * nt + t) * size;
                double home = 2.0 * (dist[o] - dist[d]);
                if (home > carry_gain) { carry = m; carry_gain = home; }
            }
            if (gain > best_quiet_gain) { best_quiet = m; best_quiet_gain = gain; }
            quiet[nq++] = m;
            continue;
        }
        int att = g->board[o], def = g->board[a];
        if (g->revealed[def]) gain = probe_gain(g, pol, att, def, d);
        else if (g->moved[def] && total_mobile) gain = blind_gain(g, pol, att, def, d, hidden + nt, total_mobile);
        else gain = blind_gain(g, pol, att, def, d, hidden, total);
        if (gain > best_gain) { best = m; best_gain = gain; }
        else if (gain >= 0) quiet[nq++] = m;
    }
    if (best >= 0 && mt_random(g) < greed) return best;
    if (carry >= 0 && mt_random(g) < greed) return carry;
    if (best_quiet >= 0 && mt_random(g) < greed / 2) return best_quiet;
    return nq ? quiet[mt_below(g, (uint32_t)nq)] : moves[mt_below(g, (uint32_t)n)];
}

/* ai.search.Playout.finish: up to depth greedy plies, the no-move ending, the evaluation for player me.
 * Returns 0, or -1 on memory failure. */
static int greedy_finish(Game *g, int depth, double greed, const Policy *pol, int me, double *value) {
    int64_t *buf = NULL;
    int cap = 0, rc = 0;
    g->record = 0;
    for (int i = 0; i < depth && !g->x[X_RES_KIND]; i++) {
        int64_t m = greedy_choose(g, pol, greed, &buf, &cap);
        if (m == -2) rc = -1;
        if (m < 0) break;
        if (push(g, m)) { rc = -1; break; }
    }
    if (!rc && !g->x[X_RES_KIND]) {
        if (generate(g)) rc = -1;
        else if (!g->nmoves) no_moves(g);
    }
    g->record = 1;
    g->nevents = 0;
    free(buf);
    *value = evaluate(g, pol, me);
    return rc;
}

/* ---- ai.search's tree: information-set MCTS nodes and iterations, exactly as SearchAgent's Python loop -- */
typedef struct {
    int64_t key;         /* the packed move that leads here */
    int32_t child, next; /* first child and next sibling, -1 for none */
    int32_t visits, avail;
    double total;        /* sum of the backed-up values, from the side of the player who made the move */
} TNode;

typedef struct {
    TNode *n;
    int len, cap;
} Tree;

/* search constants, in the order SearchAgent passes them */
enum { C_EXPLORE, C_PRIOR, C_PRIOR_VISITS, C_CLAMP, C_WIDEN, C_GREED, C_DEPTH, C_ME, C_REACH, C_N };

static int32_t tree_find(const Tree *t, int32_t node, int64_t key) {
    for (int32_t c = t->n[node].child; c >= 0; c = t->n[c].next)
        if (t->n[c].key == key) return c;
    return -1;
}

/* a new child of node (-1 on memory failure) */
static int32_t tree_add(Tree *t, int32_t node, int64_t key) {
    if (grow((void **)&t->n, &t->cap, t->len + 1, sizeof(TNode))) return -1;
    int32_t c = t->len++;
    t->n[c] = (TNode){key, -1, t->n[node].child, 0, 0, 0.0};
    t->n[node].child = c;
    return c;
}

/* back to the position before the mark-th push still on the undo stack (nothing when none is after it) */
static void rewind_to(Game *g, int mark) {
    if (mark < g->nstack) {
        memcpy(g->st, g->stack + (size_t)mark * g->block, (size_t)g->block * sizeof(int16_t));
        g->nstack = mark;
        g->moves_valid = 0;
    }
}

/* the buffers one Tree.run lends its iterations: the path (node, mover pairs), the children available at a
 * node, and the playout policy's scratch */
typedef struct {
    int32_t *path;
    int64_t *avail, *choice;
    int cappath, capavail, capchoice;
} Scratch;

static double clamp(double v, double limit) { return v < -limit ? -limit : v > limit ? limit : v; }

/* SearchAgent._select_root: UCB1 with a fading prior over the candidates; the first candidate not yet in the
 * tree is added with its heuristic score counted as PRIOR_VISITS visits. Returns the child, -1 on failure. */
static int32_t select_root(Tree *t, const int64_t *cands, const double *heur, const double *priors, int ncand,
                           long done, const double *c) {
    int32_t best = -1;
    double best_value = -INFINITY, log_n = log((double)done + 1.0);
    for (int i = 0; i < ncand; i++) {
        int32_t ch = tree_find(t, 0, cands[i]);
        if (ch < 0) {
            ch = tree_add(t, 0, cands[i]);
            if (ch < 0) return -1;
            t->n[ch].visits = (int32_t)c[C_PRIOR_VISITS];
            t->n[ch].total = c[C_PRIOR_VISITS] * clamp(heur[i], c[C_CLAMP]);
            return ch;
        }
        const TNode *nd = &t->n[ch];
        double mean = nd->visits ? nd->total / nd->visits : 0.0;
        double value = mean + c[C_EXPLORE] * sqrt(log_n / nd->visits) + c[C_PRIOR] * priors[i] / (nd->visits + 1);
        if (value > best_value) { best = ch; best_value = value; }
    }
    return best;
}

/* One iteration of SearchAgent._search in this determinization: the root move, the descent (UCB1 over
 * availability with progressive widening, a new node by the playout policy), the tail playout, the clamped
 * change of the evaluation against base, backed up along the path; then the game is rewound. 0, or -1 on
 * memory failure. */
static int iterate(Tree *t, Game *g, const Policy *pol, const int64_t *cands, const double *heur,
                   const double *priors, int ncand, long done, double base, const double *c, Scratch *s) {
    int me = (int)c[C_ME], mark = g->nstack, np = 0, rc = 0;
    int32_t node = select_root(t, cands, heur, priors, ncand, done, c);
    if (node < 0 || grow((void **)&s->path, &s->cappath, 2, sizeof(int32_t))) return -1;
    g->record = 0;
    s->path[np++] = node;
    s->path[np++] = me;
    if (push(g, t->n[node].key)) rc = -1;
    while (!rc && !g->x[X_RES_KIND] && np / 2 < c[C_REACH]) {
        if (!g->moves_valid && generate(g)) { rc = -1; break; }
        int n = g->nmoves, mover = g->x[X_TO_MOVE], navail = 0;
        if (!n) break;
        if (grow((void **)&s->avail, &s->capavail, n, sizeof(int64_t))) { rc = -1; break; }
        int64_t *avail = s->avail; /* the children legal here, in the order of the legal moves (as indices) */
        for (int i = 0; i < n; i++) {
            int32_t ch = tree_find(t, node, g->moves[i]);
            if (ch >= 0) { avail[navail++] = ch; t->n[ch].avail++; }
        }
        if (navail < c[C_WIDEN] * sqrt((double)t->n[node].visits) + 1) {
            int64_t m = greedy_choose(g, pol, c[C_GREED], &s->choice, &s->capchoice);
            if (m == -2) { rc = -1; break; }
            if (tree_find(t, node, m) < 0) {
                int32_t ch = tree_add(t, node, m);
                if (ch < 0 || grow((void **)&s->path, &s->cappath, np + 2, sizeof(int32_t)) || push(g, m)) { rc = -1; break; }
                t->n[ch].avail = 1;
                s->path[np++] = ch;
                s->path[np++] = mover;
                break;
            }
        }
        if (!navail) break;
        int32_t best = -1;
        double best_value = -INFINITY;
        for (int i = 0; i < navail; i++) { /* the first of equals, as Python's max() */
            const TNode *nd = &t->n[avail[i]];
            int a = nd->avail > 1 ? nd->avail : 1;
            double value = nd->total / nd->visits + c[C_EXPLORE] * sqrt(log((double)a) / (nd->visits + 1));
            if (value > best_value) { best = (int32_t)avail[i]; best_value = value; }
        }
        if (grow((void **)&s->path, &s->cappath, np + 2, sizeof(int32_t)) || push(g, t->n[best].key)) { rc = -1; break; }
        s->path[np++] = best;
        s->path[np++] = mover;
        node = best;
    }
    double end = 0.0;
    if (!rc && greedy_finish(g, (int)c[C_DEPTH], c[C_GREED], pol, me, &end)) rc = -1;
    if (!rc) {
        double value = clamp(end - base, c[C_CLAMP]);
        for (int i = 0; i < np; i += 2) {
            TNode *nd = &t->n[s->path[i]];
            nd->visits++;
            nd->total += s->path[i + 1] == me ? value : -value;
        }
    }
    rewind_to(g, mark); /* back to the determinization's start, for its next use */
    g->record = 1;
    g->nevents = 0;
    return rc;
}

/* ---- Python glue: Rules ------------------------------------------------------------------------------- */
static void Rules_dealloc(RulesObject *self) {
    free(self->r.buf);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Rules_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
    Py_buffer view;
    if (!PyArg_ParseTuple(args, "y*", &view)) return NULL;
    int32_t *src = (int32_t *)view.buf;
    Py_ssize_t n = view.len / 4;
    if (n < 2 + S_NSECTIONS || src[0] != MAGIC || src[1] != S_NSECTIONS) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError, "not a kernel table of this version");
        return NULL;
    }
    RulesObject *self = (RulesObject *)type->tp_alloc(type, 0);
    if (!self) { PyBuffer_Release(&view); return NULL; }
    self->r.buf = malloc((size_t)view.len);
    if (!self->r.buf) { PyBuffer_Release(&view); Py_DECREF(self); return PyErr_NoMemory(); }
    memcpy(self->r.buf, src, (size_t)view.len);
    PyBuffer_Release(&view);
    for (int i = 0; i < S_NSECTIONS; i++) {
        int32_t off = self->r.buf[2 + i];
        if (off < 0 || off > n) { Py_DECREF(self); PyErr_SetString(PyExc_ValueError, "bad section offset"); return NULL; }
        self->r.sec[i] = self->r.buf + off;
    }
    const int32_t *sc = self->r.sec[S_SCALARS];
    self->r.size = sc[SC_SIZE];
    self->r.ntypes = sc[SC_NTYPES];
    self->r.compulsory = sc[SC_COMPULSORY];
    self->r.ply_limit = sc[SC_PLY_LIMIT];
    self->r.npaths = sc[SC_NPATHS];
    self->r.has_lwol = sc[SC_HAS_LWOL];
    self->r.has_dwnl = sc[SC_HAS_DWNL];
    self->r.files = sc[SC_FILES];
    (void)kw;
    return (PyObject *)self;
}

static PyTypeObject RulesType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "gibson_core._kernel.Rules",
    .tp_basicsize = sizeof(RulesObject),
    .tp_dealloc = (destructor)Rules_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A variant's compiled tables (built by gibson_core.fastpath).",
    .tp_new = Rules_new,
};

/* ---- Python glue: Game -------------------------------------------------------------------------------- */
static void game_free(Game *g) {
    free(g->st); free(g->owner); free(g->stack); free(g->moves); free(g->events); free(g->blast);
    free(g->back);
    g->st = NULL; g->owner = NULL; g->stack = NULL; g->moves = NULL; g->events = NULL; g->blast = NULL;
    g->back = NULL;
}

static int seq_ints(PyObject *seq, int16_t *out, Py_ssize_t n, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != n) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: expected %zd values", what, n);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) { Py_DECREF(fast); return -1; }
        out[i] = (int16_t)v;
    }
    Py_DECREF(fast);
    return 0;
}

/* Game(rules, board, owner, ptype, square, revealed, moved, track, pids0, pids1, to_move, ply) */
static int game_init(Game *g, const Rules *r, PyObject *args) {
    PyObject *rules, *board, *owner, *ptype, *square, *revealed, *moved, *track, *p0, *p1;
    int to_move, ply;
    if (!PyArg_ParseTuple(args, "OOOOOOOOOOii", &rules, &board, &owner, &ptype, &square, &revealed, &moved,
                          &track, &p0, &p1, &to_move, &ply))
        return -1;
    Py_ssize_t n = PySequence_Size(owner);
    Py_ssize_t n0 = PySequence_Size(p0), n1 = PySequence_Size(p1);
    if (n < 1 || n0 < 0 || n1 < 0) { PyErr_SetString(PyExc_ValueError, "bad piece lists"); return -1; }
    g->r = r;
    g->n = (int)n;
    g->size = r->size;
    g->block = r->size + 4 * (int)n + X_N;
    g->st = calloc((size_t)g->block, sizeof(int16_t));
    g->owner = calloc((size_t)(2 * n + n0 + n1), sizeof(int16_t));
    if (!g->st || !g->owner) { PyErr_NoMemory(); return -1; }
    g->board = g->st;
    g->square = g->board + r->size;
    g->revealed = g->square + n;
    g->moved = g->revealed + n;
    g->track = g->moved + n;
    g->x = g->track + n;
    g->ptype = g->owner + n;
    g->pids[0] = g->ptype + n;
    g->pids[1] = g->pids[0] + n0;
    g->npids[0] = (int)n0;
    g->npids[1] = (int)n1;
    if (seq_ints(board, g->board, r->size, "board") || seq_ints(owner, g->owner, n, "owner")
        || seq_ints(ptype, g->ptype, n, "ptype") || seq_ints(square, g->square, n, "square")
        || seq_ints(revealed, g->revealed, n, "revealed") || seq_ints(moved, g->moved, n, "moved")
        || seq_ints(track, g->track, n, "track") || seq_ints(p0, g->pids[0], n0, "pids")
        || seq_ints(p1, g->pids[1], n1, "pids"))
        return -1;
    g->x[X_TO_MOVE] = (int16_t)to_move;
    set_ply(g, ply);
    g->record = 1;
    g->mti = 625; /* no generator until set_random */
    return 0;
}

static void Game_dealloc(GameObject *self) {
    game_free(&self->g);
    Py_XDECREF(self->rules);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Game_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
    PyObject *rules = PyTuple_Size(args) > 0 ? PyTuple_GetItem(args, 0) : NULL;
    if (!rules || !PyObject_TypeCheck(rules, &RulesType)) {
        PyErr_SetString(PyExc_TypeError, "Game(rules, ...): rules must be a kernel Rules");
        return NULL;
    }
    GameObject *self = (GameObject *)type->tp_alloc(type, 0);
    if (!self) return NULL;
    Py_INCREF(rules);
    self->rules = rules;
    if (game_init(&self->g, &((RulesObject *)rules)->r, args)) { Py_DECREF(self); return NULL; }
    (void)kw;
    return (PyObject *)self;
}

static PyObject *Game_legal(GameObject *self, PyObject *unused) {
    Game *g = &self->g;
    if (!g->moves_valid && generate(g)) return PyErr_NoMemory();
    PyObject *out = PyList_New(g->nmoves);
    if (!out) return NULL;
    for (int i = 0; i < g->nmoves; i++) {
        PyObject *v = PyLong_FromLongLong(g->moves[i]);
        if (!v) { Py_DECREF(out); return NULL; }
        PyList_SET_ITEM(out, i, v);
    }
    return out;
}

static PyObject *Game_generate(GameObject *self, PyObject *unused) {
    if (generate(&self->g)) return PyErr_NoMemory();
    return PyLong_FromLong(self->g.nmoves);
}

static PyObject *events_list(Game *g) {
    PyObject *out = PyList_New(g->nevents);
    if (!out) return NULL;
    for (int i = 0; i < g->nevents; i++) {
        int32_t *p = g->events + i * EVW;
        PyObject *t = Py_BuildValue("(iiiiiiii)", p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7]);
        if (!t) { Py_DECREF(out); return NULL; }
        PyList_SET_ITEM(out, i, t);
    }
    return out;
}

static PyObject *Game_push(GameObject *self, PyObject *arg) {
    long long m = PyLong_AsLongLong(arg);
    if (m == -1 && PyErr_Occurred()) return NULL;
    Game *g = &self->g;
    int o = (int)(m & 0xFFF), d = (int)((m >> 12) & 0xFFF), a = (int)((m >> 24) & 0xFFF);
    int kind = (int)(m >> 36);
    int bad = m < 0 || o >= g->size || (kind == KIND_MOVE && d >= g->size) || (a != NO_TARGET && a >= g->size)
              || !g->board[o] || kind > KIND_HANDOVER || (kind >= KIND_FIRE && (a == NO_TARGET || !g->board[a]))
              || (kind == KIND_HANDOVER && !g->r->sec[S_FLAGS][G_HAS]);
    if (!bad && (kind == KIND_ILLUMINATE || kind == KIND_FIRE)) { /* the piece must have that action */
        const int32_t *acts = g->r->sec[S_ACTION];
        int off = acts[0] ? acts[1 + g->ptype[g->board[o]]] : -1, found = 0;
        for (int k = 0; off >= 0 && k < acts[off]; k++)
            if (acts[off + 1 + k * A_STRIDE + A_KIND] == kind) found = 1;
        bad = !found;
    }
    if (bad) { /* unchecked like GameState.push, but never a crash: actions the piece lacks are refused */
        PyErr_SetString(PyExc_ValueError, "push: not a move of this position");
        return NULL;
    }
    if (push(g, m)) return PyErr_NoMemory();
    return events_list(g);
}

static PyObject *Game_pop(GameObject *self, PyObject *unused) {
    if (!self->g.nstack) { PyErr_SetString(PyExc_IndexError, "pop from an empty undo stack"); return NULL; }
    pop(&self->g);
    Py_RETURN_NONE;
}

static PyObject *Game_no_moves(GameObject *self, PyObject *unused) {
    no_moves(&self->g);
    return events_list(&self->g);
}

static PyObject *i16_list(const int16_t *a, int n) {
    PyObject *out = PyList_New(n);
    if (!out) return NULL;
    for (int i = 0; i < n; i++) PyList_SET_ITEM(out, i, PyLong_FromLong(a[i]));
    return out;
}

/* (board, square, revealed, moved, track, to_move, ply, (kind, winner, a, b, c)) */
static PyObject *Game_state(GameObject *self, PyObject *unused) {
    Game *g = &self->g;
    int16_t *x = g->x;
    return Py_BuildValue("(NNNNNii(iiiii))", i16_list(g->board, g->size), i16_list(g->square, g->n),
                         i16_list(g->revealed, g->n), i16_list(g->moved, g->n), i16_list(g->track, g->n),
                         x[X_TO_MOVE], ply_of(g), x[X_RES_KIND], x[X_RES_WINNER], x[X_RES_A], x[X_RES_B], x[X_RES_C]);
}

/* tokens() -> (flag0 square, carrier, mined, flag1 square, carrier, mined, player 0's aground piece, its ply,
 * player 1's aground piece, its ply); set_tokens(the same ten numbers) */
static PyObject *Game_tokens(GameObject *self, PyObject *unused) {
    Game *g = &self->g;
    int16_t *x = g->x;
    return Py_BuildValue("(iiiiiiiiii)", x[X_F0_SQ], x[X_F0_CARRIER], x[X_F0_MINED], x[X_F1_SQ], x[X_F1_CARRIER],
                         x[X_F1_MINED], AG(g, 0, 0), (uint16_t)AG(g, 0, 1) | ((int)AG(g, 0, 2) << 16),
                         AG(g, 1, 0), (uint16_t)AG(g, 1, 1) | ((int)AG(g, 1, 2) << 16));
}

static PyObject *Game_set_tokens(GameObject *self, PyObject *args) {
    int v[10];
    if (!PyArg_ParseTuple(args, "iiiiiiiiii", v, v + 1, v + 2, v + 3, v + 4, v + 5, v + 6, v + 7, v + 8, v + 9))
        return NULL;
    Game *g = &self->g;
    for (int i = 0; i < 6; i += 3)
        if (v[i] < 0 || v[i] >= g->size || v[i + 1] < 0 || v[i + 1] >= g->n || v[6 + i / 3 * 2] < 0
            || v[6 + i / 3 * 2] >= g->n) {
            PyErr_SetString(PyExc_ValueError, "set_tokens: a Flag off the board or carried by no piece");
            return NULL;
        }
    for (int i = 0; i < 6; i++) g->x[X_F0_SQ + i] = (int16_t)v[i];
    for (int p = 0; p < 2; p++) {
        AG(g, p, 0) = (int16_t)v[6 + 2 * p];
        AG(g, p, 1) = (int16_t)(v[7 + 2 * p] & 0xFFFF);
        AG(g, p, 2) = (int16_t)(v[7 + 2 * p] >> 16);
    }
    g->moves_valid = 0;
    Py_RETURN_NONE;
}

static PyObject *Game_result(GameObject *self, PyObject *unused) {
    int16_t *x = self->g.x;
    return Py_BuildValue("(iiiii)", x[X_RES_KIND], x[X_RES_WINNER], x[X_RES_A], x[X_RES_B], x[X_RES_C]);
}

/* A generator state is either the 625 numbers of random.Random.getstate()[1] (a new tuple is returned) or a
 * bytearray of 624 words and the index as uint32 (fastpath.Twister), read and written back in place (None is
 * returned): the search hands its generator to the kernel once per move instead of once per call. */
#define TWISTER_BYTES (625 * 4)

static int read_mt(Game *g, PyObject *state) {
    if (PyByteArray_Check(state)) {
        if (PyByteArray_GET_SIZE(state) != TWISTER_BYTES) {
            PyErr_SetString(PyExc_ValueError, "a Twister is 2,500 bytes");
            return -1;
        }
        uint32_t idx;
        memcpy(g->mt, PyByteArray_AS_STRING(state), 624 * 4);
        memcpy(&idx, PyByteArray_AS_STRING(state) + 624 * 4, 4);
        if (idx > 624) { PyErr_SetString(PyExc_ValueError, "bad state index"); return -1; }
        g->mti = (int)idx;
        return 0;
    }
    PyObject *fast = PySequence_Fast(state, "random state");
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != 625) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "a Mersenne Twister state is 625 numbers");
        return -1;
    }
    for (int i = 0; i < 624; i++) {
        unsigned long v = PyLong_AsUnsignedLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == (unsigned long)-1 && PyErr_Occurred()) { Py_DECREF(fast); return -1; }
        g->mt[i] = (uint32_t)v;
    }
    long idx = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, 624));
    Py_DECREF(fast);
    if (idx < 0 || idx > 624) { if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bad state index"); return -1; }
    g->mti = (int)idx;
    return 0;
}

static PyObject *write_mt_to(Game *g, PyObject *state) {
    if (PyByteArray_Check(state)) {
        uint32_t idx = (uint32_t)g->mti;
        memcpy(PyByteArray_AS_STRING(state), g->mt, 624 * 4);
        memcpy(PyByteArray_AS_STRING(state) + 624 * 4, &idx, 4);
        Py_RETURN_NONE;
    }
    PyObject *out = PyTuple_New(625);
    if (!out) return NULL;
    for (int i = 0; i < 624; i++) PyTuple_SET_ITEM(out, i, PyLong_FromUnsignedLong(g->mt[i]));
    PyTuple_SET_ITEM(out, 624, PyLong_FromLong(g->mti));
    return out;
}

/* playout(mt_state, max_plies) -> (plies, new mt_state); events are not recorded */
static PyObject *Game_playout(GameObject *self, PyObject *args) {
    PyObject *state;
    long max_plies;
    if (!PyArg_ParseTuple(args, "Ol", &state, &max_plies)) return NULL;
    Game *g = &self->g;
    if (read_mt(g, state)) return NULL;
    g->record = 0;
    long n = playout(g, max_plies);
    g->record = 1;
    g->nevents = 0;
    if (n < 0) return PyErr_NoMemory();
    return Py_BuildValue("(lN)", n, write_mt_to(g, state));
}

/* finish(depth, mt_state, greed, policy doubles, player) -> (value, new mt_state) */
static PyObject *Game_finish(GameObject *self, PyObject *args) {
    int depth, me;
    double greed;
    PyObject *state;
    Py_buffer buf;
    if (!PyArg_ParseTuple(args, "iOdy*i", &depth, &state, &greed, &buf, &me)) return NULL;
    Game *g = &self->g;
    if ((size_t)buf.len != sizeof(double) * policy_size(g->r) || me < 0 || me > 1 || read_mt(g, state)) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "finish: policy tables of the wrong size");
        PyBuffer_Release(&buf);
        return NULL;
    }
    Policy pol;
    policy_view(g->r, (const double *)buf.buf, &pol);
    double value;
    int rc = greedy_finish(g, depth, greed, &pol, me, &value);
    PyBuffer_Release(&buf);
    if (rc) return PyErr_NoMemory();
    return Py_BuildValue("(dN)", value, write_mt_to(g, state));
}

/* evaluate(policy doubles, player) -> ai.values.evaluate of this position for player */
static PyObject *Game_evaluate(GameObject *self, PyObject *args) {
    int me;
    Py_buffer buf;
    if (!PyArg_ParseTuple(args, "y*i", &buf, &me)) return NULL;
    Game *g = &self->g;
    if ((size_t)buf.len != sizeof(double) * policy_size(g->r) || me < 0 || me > 1) {
        PyErr_SetString(PyExc_ValueError, "evaluate: policy tables of the wrong size, or no such player");
        PyBuffer_Release(&buf);
        return NULL;
    }
    Policy pol;
    policy_view(g->r, (const double *)buf.buf, &pol);
    double value = evaluate(g, &pol, me);
    PyBuffer_Release(&buf);
    return PyFloat_FromDouble(value);
}

/* choose(mt_state, greed, policy doubles) -> (packed move or -1, new mt_state): Playout.choose here */
static PyObject *Game_choose(GameObject *self, PyObject *args) {
    double greed;
    PyObject *state;
    Py_buffer buf;
    if (!PyArg_ParseTuple(args, "Ody*", &state, &greed, &buf)) return NULL;
    Game *g = &self->g;
    if ((size_t)buf.len != sizeof(double) * policy_size(g->r) || read_mt(g, state)) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "choose: policy tables of the wrong size");
        PyBuffer_Release(&buf);
        return NULL;
    }
    Policy pol;
    policy_view(g->r, (const double *)buf.buf, &pol);
    int64_t *tmp = NULL;
    int cap = 0;
    int64_t m = greedy_choose(g, &pol, greed, &tmp, &cap);
    free(tmp);
    PyBuffer_Release(&buf);
    if (m == -2) return PyErr_NoMemory();
    return Py_BuildValue("(LN)", (long long)m, write_mt_to(g, state));
}

static PyObject *Game_mark(GameObject *self, PyObject *unused) { return PyLong_FromLong(self->g.nstack); }

/* rewind(n): back to the position before the n-th push still on the undo stack (undoes the pushes after it) */
static PyObject *Game_rewind(GameObject *self, PyObject *arg) {
    long n = PyLong_AsLong(arg);
    Game *g = &self->g;
    if (n == -1 && PyErr_Occurred()) return NULL;
    if (n < 0 || n > g->nstack) { PyErr_SetString(PyExc_IndexError, "rewind: no such mark"); return NULL; }
    rewind_to(g, (int)n);
    Py_RETURN_NONE;
}

static PyObject *Game_side(GameObject *self, PyObject *unused) { return PyLong_FromLong(self->g.x[X_TO_MOVE]); }

static PyMethodDef Game_methods[] = {
    {"choose", (PyCFunction)Game_choose, METH_VARARGS, "The search agent's greedy choice of a move here."},
    {"mark", (PyCFunction)Game_mark, METH_NOARGS, "The undo stack's depth, for rewind."},
    {"rewind", (PyCFunction)Game_rewind, METH_O, "Undo every push after a mark."},
    {"side", (PyCFunction)Game_side, METH_NOARGS, "The side to move (0 or 1)."},
    {"finish", (PyCFunction)Game_finish, METH_VARARGS, "The search agent's tail playout and evaluation."},
    {"evaluate", (PyCFunction)Game_evaluate, METH_VARARGS, "The search agent's evaluation of this position."},
    {"legal", (PyCFunction)Game_legal, METH_NOARGS, "The legal moves of the side to move, packed."},
    {"generate", (PyCFunction)Game_generate, METH_NOARGS, "Generate the legal moves afresh; returns how many."},
    {"push", (PyCFunction)Game_push, METH_O, "Make a packed move (unchecked); returns its event records."},
    {"pop", (PyCFunction)Game_pop, METH_NOARGS, "Undo the last push."},
    {"no_moves", (PyCFunction)Game_no_moves, METH_NOARGS, "The side to move has no legal move: it loses."},
    {"tokens", (PyCFunction)Game_tokens, METH_NOARGS, "The Flags' squares, carriers, mined marks and the aground watch."},
    {"set_tokens", (PyCFunction)Game_set_tokens, METH_VARARGS, "Set the Flags (as tokens() gives them)."},
    {"result", (PyCFunction)Game_result, METH_NOARGS, "The result fields (kind, winner, a, b, c)."},
    {"state", (PyCFunction)Game_state, METH_NOARGS, "The mutable state as lists."},
    {"playout", (PyCFunction)Game_playout, METH_VARARGS, "A random playout driven by a Mersenne Twister state."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject GameType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "gibson_core._kernel.Game",
    .tp_basicsize = sizeof(GameObject),
    .tp_dealloc = (destructor)Game_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One game in the kernel (built by gibson_core.fastpath.FastGame).",
    .tp_methods = Game_methods,
    .tp_new = Game_new,
};

/* ---- Python glue: Tree ------------------------------------------------------------------------------- */
typedef struct {
    PyObject_HEAD
    Tree t;
} TreeObject;

static int tree_init_root(Tree *t) {
    if (grow((void **)&t->n, &t->cap, 1, sizeof(TNode))) return -1;
    t->n[0] = (TNode){-1, -1, -1, 0, 0, 0.0};
    t->len = 1;
    return 0;
}

static PyObject *Tree_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
    TreeObject *self = (TreeObject *)type->tp_alloc(type, 0);
    if (!self) return NULL;
    if (tree_init_root(&self->t)) { Py_DECREF(self); return PyErr_NoMemory(); }
    (void)args;
    (void)kw;
    return (PyObject *)self;
}

static void Tree_dealloc(TreeObject *self) {
    free(self->t.n);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int node_arg(TreeObject *self, long node) {
    if (node < 0 || node >= self->t.len) { PyErr_SetString(PyExc_IndexError, "no such node"); return -1; }
    return 0;
}

/* find(node, key) -> the child of node reached by the packed move key, -1 when there is none */
static PyObject *Tree_find(TreeObject *self, PyObject *args) {
    long node;
    long long key;
    if (!PyArg_ParseTuple(args, "lL", &node, &key) || node_arg(self, node)) return NULL;
    return PyLong_FromLong(tree_find(&self->t, (int32_t)node, key));
}

/* stats(node) -> (visits, total) */
static PyObject *Tree_stats(TreeObject *self, PyObject *arg) {
    long node = PyLong_AsLong(arg);
    if ((node == -1 && PyErr_Occurred()) || node_arg(self, node)) return NULL;
    return Py_BuildValue("(id)", self->t.n[node].visits, self->t.n[node].total);
}

static PyObject *Tree_len(TreeObject *self, PyObject *unused) { return PyLong_FromLong(self->t.len); }

/* children(node) -> [(key, child)], the newest first */
static PyObject *Tree_children(TreeObject *self, PyObject *arg) {
    long node = PyLong_AsLong(arg);
    if ((node == -1 && PyErr_Occurred()) || node_arg(self, node)) return NULL;
    PyObject *out = PyList_New(0);
    for (int32_t c = self->t.n[node].child; out && c >= 0; c = self->t.n[c].next) {
        PyObject *pair = Py_BuildValue("(Li)", (long long)self->t.n[c].key, c);
        if (!pair || PyList_Append(out, pair)) { Py_XDECREF(pair); Py_CLEAR(out); break; }
        Py_DECREF(pair);
    }
    return out;
}

/* subtree(node) -> a new Tree holding a copy of node's subtree, node as its root */
static PyObject *Tree_subtree(TreeObject *self, PyObject *arg) {
    long node = PyLong_AsLong(arg);
    if ((node == -1 && PyErr_Occurred()) || node_arg(self, node)) return NULL;
    TreeObject *out = (TreeObject *)Tree_new(Py_TYPE(self), NULL, NULL);
    if (!out) return NULL;
    Tree *src = &self->t, *dst = &out->t;
    dst->n[0] = src->n[node];
    dst->n[0].next = -1;
    /* copy breadth first: each copied node's child list is rebuilt from the source's, in the same order */
    for (int32_t i = 0; i < dst->len; i++) {
        int32_t last = -1, from = dst->n[i].child; /* indices, not pointers: grow may move the nodes */
        dst->n[i].child = -1;
        for (int32_t c = from; c >= 0; c = src->n[c].next) {
            if (grow((void **)&dst->n, &dst->cap, dst->len + 1, sizeof(TNode))) { Py_DECREF(out); return PyErr_NoMemory(); }
            int32_t k = dst->len++;
            dst->n[k] = src->n[c];
            dst->n[k].next = -1;
            if (last >= 0) dst->n[last].next = k; else dst->n[i].child = k;
            last = k;
        }
    }
    return (PyObject *)out;
}

static double monotonic(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* run(games, bases, done, count, seconds, mt_state, policy, candidates, heuristic, priors, constants) -> the
 * iterations run: up to count iterations of SearchAgent._search from iteration number done, iteration i in
 * games[i % len(games)] (scored against bases[i % len(games)]), stopping once seconds (if >= 0) have passed.
 * candidates: the root moves (int64 buffer), heuristic and priors: their scores (double buffers), constants:
 * C_* doubles. The generator state is advanced in place (a Twister's bytearray). */
static PyObject *Tree_run(TreeObject *self, PyObject *args) {
    PyObject *games, *bases, *state;
    long done, count;
    double seconds;
    Py_buffer pol_b, cand_b, heur_b, prior_b, const_b;
    if (!PyArg_ParseTuple(args, "OOlldOy*y*y*y*y*", &games, &bases, &done, &count, &seconds, &state, &pol_b,
                          &cand_b, &heur_b, &prior_b, &const_b)) return NULL;
    PyObject *result = NULL;
    Scratch scratch = {NULL, NULL, NULL, 0, 0, 0};
    Py_ssize_t ng = PyList_Check(games) ? PyList_GET_SIZE(games) : -1;
    int ncand = (int)(cand_b.len / (Py_ssize_t)sizeof(int64_t));
    if (ng < 1 || !PyList_Check(bases) || PyList_GET_SIZE(bases) != ng || ncand < 1
        || heur_b.len != ncand * (Py_ssize_t)sizeof(double) || prior_b.len != heur_b.len
        || const_b.len != C_N * (Py_ssize_t)sizeof(double) || !PyByteArray_Check(state)) {
        PyErr_SetString(PyExc_ValueError, "run: games and bases of one length, buffers of the candidates' length, a Twister");
        goto out;
    }
    for (Py_ssize_t i = 0; i < ng; i++) {
        PyObject *go = PyList_GET_ITEM(games, i);
        if (!PyObject_TypeCheck(go, &GameType) || ((GameObject *)go)->g.r != ((GameObject *)PyList_GET_ITEM(games, 0))->g.r) {
            PyErr_SetString(PyExc_TypeError, "run: games must be kernel Games of one Rules");
            goto out;
        }
    }
    Game *g0 = &((GameObject *)PyList_GET_ITEM(games, 0))->g;
    if ((size_t)pol_b.len != sizeof(double) * policy_size(g0->r)) {
        PyErr_SetString(PyExc_ValueError, "run: policy tables of the wrong size");
        goto out;
    }
    const int64_t *cands = cand_b.buf;
    for (int i = 0; i < ncand; i++) /* the root moves are pushed unchecked: each must be a move of the games */
        if ((cands[i] & 0xFFF) >= (int64_t)g0->size || !g0->board[cands[i] & 0xFFF]) {
            PyErr_SetString(PyExc_ValueError, "run: a candidate is not a move of this position");
            goto out;
        }
    Policy pol;
    policy_view(g0->r, (const double *)pol_b.buf, &pol);
    double stop = seconds >= 0 ? monotonic() + seconds : 0.0;
    long n = 0;
    Game *mt_owner = g0;
    if (read_mt(mt_owner, state)) goto out;
    for (; n < count; n++) {
        if (seconds >= 0 && monotonic() >= stop) break;
        long i = (done + n) % (long)ng;
        Game *g = &((GameObject *)PyList_GET_ITEM(games, i))->g;
        double base = PyFloat_AsDouble(PyList_GET_ITEM(bases, i));
        if (base == -1.0 && PyErr_Occurred()) goto out;
        if (g != mt_owner) { /* the generator moves on from game to game */
            memcpy(g->mt, mt_owner->mt, sizeof g->mt);
            g->mti = mt_owner->mti;
            mt_owner = g;
        }
        if (iterate(&self->t, g, &pol, cands, heur_b.buf, prior_b.buf, ncand, done + n, base, const_b.buf,
                    &scratch)) { PyErr_NoMemory(); goto out; }
    }
    PyObject *w = write_mt_to(mt_owner, state);
    if (!w) goto out;
    Py_DECREF(w);
    result = PyLong_FromLong(n);
out:
    free(scratch.path);
    free(scratch.avail);
    free(scratch.choice);
    PyBuffer_Release(&pol_b);
    PyBuffer_Release(&cand_b);
    PyBuffer_Release(&heur_b);
    PyBuffer_Release(&prior_b);
    PyBuffer_Release(&const_b);
    return result;
}

static PyMethodDef Tree_methods[] = {
    {"find", (PyCFunction)Tree_find, METH_VARARGS, "The child of a node reached by a packed move, -1 if none."},
    {"stats", (PyCFunction)Tree_stats, METH_O, "A node's (visits, total)."},
    {"subtree", (PyCFunction)Tree_subtree, METH_O, "A copy of a node's subtree as a new Tree."},
    {"size", (PyCFunction)Tree_len, METH_NOARGS, "The number of nodes."},
    {"children", (PyCFunction)Tree_children, METH_O, "A node's children as (packed move, node) pairs."},
    {"run", (PyCFunction)Tree_run, METH_VARARGS, "Iterations of the search (see the C source)."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject TreeType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "gibson_core._kernel.Tree",
    .tp_basicsize = sizeof(TreeObject),
    .tp_dealloc = (destructor)Tree_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The search agent's tree (gibson_core.ai.search), node 0 its root.",
    .tp_methods = Tree_methods,
    .tp_new = Tree_new,
};

/* batch(games, seeds, max_plies) -> list of (plies, result kind, winner): plays each Game with the choices
 * of random.Random(seed).choice (0 <= seed < 2**64), the GIL released; Games are left at their final positions. */
static PyObject *batch(PyObject *mod, PyObject *args) {
    PyObject *games, *seeds;
    long max_plies;
    if (!PyArg_ParseTuple(args, "OOl", &games, &seeds, &max_plies)) return NULL;
    Py_ssize_t n = PySequence_Size(games);
    if (n < 0 || PySequence_Size(seeds) != n) {
        PyErr_SetString(PyExc_ValueError, "batch: one seed per game");
        return NULL;
    }
    Game **gs = calloc((size_t)(n ? n : 1), sizeof(Game *));
    long *plies = calloc((size_t)(n ? n : 1), sizeof(long));
    PyObject *held = PyList_New(n), *out = NULL;
    if (!gs || !plies || !held) goto done;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *go = PySequence_GetItem(games, i);
        if (!go) goto done;
        PyList_SET_ITEM(held, i, go);
        if (!PyObject_TypeCheck(go, &GameType)) { PyErr_SetString(PyExc_TypeError, "batch: games must be kernel Games"); goto done; }
        gs[i] = &((GameObject *)go)->g;
        PyObject *sd = PySequence_GetItem(seeds, i);
        if (!sd) goto done;
        unsigned long long seed = PyLong_AsUnsignedLongLong(sd);
        Py_DECREF(sd);
        if (seed == (unsigned long long)-1 && PyErr_Occurred()) goto done;
        mt_seed(gs[i], seed);
    }
    int failed = 0;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i++) {
        gs[i]->record = 0;
        plies[i] = playout(gs[i], max_plies);
        gs[i]->record = 1;
        gs[i]->nevents = 0;
        if (plies[i] < 0) failed = 1;
    }
    Py_END_ALLOW_THREADS
    if (failed) { PyErr_NoMemory(); goto done; }
    out = PyList_New(n);
    if (!out) goto done;
    for (Py_ssize_t i = 0; i < n; i++)
        PyList_SET_ITEM(out, i, Py_BuildValue("(lii)", plies[i], gs[i]->x[X_RES_KIND], gs[i]->x[X_RES_WINNER]));
done:
    free(gs);
    free(plies);
    Py_XDECREF(held);
    return out;
}

static PyMethodDef module_methods[] = {
    {"batch", batch, METH_VARARGS, "Random playouts of many Games, GIL released."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef kernel_module = {
    PyModuleDef_HEAD_INIT, "gibson_core._kernel",
    "The compiled fast path for data-only variants (see docs/fastpath.md).", -1, module_methods,
};

PyMODINIT_FUNC PyInit__kernel(void) {
    if (PyType_Ready(&RulesType) < 0 || PyType_Ready(&GameType) < 0 || PyType_Ready(&TreeType) < 0) return NULL;
    PyObject *m = PyModule_Create(&kernel_module);
    if (!m) return NULL;
    Py_INCREF(&RulesType);
    Py_INCREF(&GameType);
    Py_INCREF(&TreeType);
    if (PyModule_AddObject(m, "Rules", (PyObject *)&RulesType) < 0
        || PyModule_AddObject(m, "Game", (PyObject *)&GameType) < 0
        || PyModule_AddObject(m, "Tree", (PyObject *)&TreeType) < 0
        || PyModule_AddIntConstant(m, "MAGIC", MAGIC) < 0
        || PyModule_AddIntConstant(m, "VERSION", S_NSECTIONS) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
