/*
 * ulfm_model: a round-by-round simulation of the agreement of
 * ft/ulfm_agree.c (docs/ulfm.md, "Cost"), to 100,000 processes.
 *
 * The same rules as the library: a binomial tree over the members alive
 * at the epoch; UP (AND of the subtree) to the parent, the root decides,
 * DOWN to the children; ACK up once decided and the children acked, the
 * root releases (REL down). A failure, known to every live process D
 * rounds after it happens (the runtime's notice), moves everyone to the
 * next epoch: new tree, flags reset; a decided process sends its decision
 * up (decided UP) and down again; a DOWN of an earlier epoch is taken
 * unless the process contributed undecided since. Every message takes
 * one round; a message to a dead process is lost, one from a process that
 * died after sending it arrives.
 *
 * Scenarios per size: no failure; the root dies right after sending the
 * decision to its first child; an inner process dies before sending its
 * subtree's part up. Printed: UP and DOWN messages, all messages (ACK and
 * REL included), rounds (message hops) until every live process decided
 * and until all released, the most messages one process sent or received,
 * and whether every survivor decided the same value. The test fails if
 * not, or if without failure the costs are not 2 (p-1) UP/DOWN messages,
 * 4 (p-1) in all, and at most 2 ceil(log2 p) rounds to decide.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { UP = 1, UPD, DOWN, ACK, REL };
typedef struct { int from, to, kind, epoch, val; } msg_t;

static int n, epoch, *alive, *pos, *list, m;
static int *decided, *val, *sent_up, *sent_down, *sent_ack, *released, *up_epoch;
static int *got_up, *got_ack, *acc, *traffic;
static msg_t *cur, *nxt;
static long ncur, nnxt, cap, sent_total, sent_at_decide, sent_updown;

static void post(int from, int to, int kind, int v)
{
    if (nnxt == cap) {
        cap = cap ? 2 * cap : 1024;
        nxt = realloc(nxt, (size_t)cap * sizeof *nxt);
        cur = realloc(cur, (size_t)cap * sizeof *cur);
    }
    nxt[nnxt++] = (msg_t){from, to, kind, epoch, v};
    sent_total++;
    if (kind == UP || kind == UPD || kind == DOWN)
        sent_updown++;
    traffic[from]++;
    traffic[to]++;
}

static int nkids(int v)
{
    int k = 0;
    for (int b = 1; v + b < m; b <<= 1) {
        if (v && b >= (v & -v))
            break;
        k++;
    }
    return k;
}

static void build(void)
{
    m = 0;
    for (int i = 0; i < n; i++) {
        pos[i] = -1;
        if (alive[i]) {
            pos[i] = m;
            list[m++] = i;
        }
    }
    for (int i = 0; i < n; i++) {
        got_up[i] = got_ack[i] = 0;
        sent_up[i] = sent_down[i] = sent_ack[i] = 0;
        if (!decided[i])
            acc[i] = val[i];
    }
}

static int parent_of(int i) { int v = pos[i]; return v > 0 ? list[v & (v - 1)] : -1; }

/* kill_down: the process that dies right after sending DOWN to its first
 * child (-1: none). */
static int kill_down = -1;

static void step(int i, int *died)
{
    int v = pos[i], k = nkids(v), par = parent_of(i);
    if (!decided[i] && !sent_up[i] && got_up[i] == k) {
        if (par < 0) {
            decided[i] = 1;
            val[i] = acc[i];
        } else {
            post(i, par, UP, acc[i]);
            sent_up[i] = 1;
            up_epoch[i] = epoch;
        }
    }
    if (!decided[i])
        return;
    if (!sent_down[i]) {
        sent_down[i] = 1;
        for (int b = 1, c = 0; v + b < m; b <<= 1) {
            if (v && b >= (v & -v))
                break;
            post(i, list[v + b], DOWN, val[i]);
            if (c++ == 0 && i == kill_down) {
                alive[i] = 0; /* dies here */
                *died = 1;
                return;
            }
        }
    }
    if (par >= 0 && !sent_up[i]) {
        post(i, par, UPD, val[i]);
        sent_up[i] = 1;
    }
    if (!sent_ack[i] && got_ack[i] == k) {
        sent_ack[i] = 1;
        if (par < 0) {
            released[i] = 1;
            for (int b = 1; v + b < m; b <<= 1) {
                if (v && b >= (v & -v))
                    break;
                post(i, list[v + b], REL, val[i]);
            }
        } else {
            post(i, par, ACK, 0);
        }
    }
}

static int run(int size, int scenario, int detect, int *out_ok)
{
    n = size;
    int *arrs[] = {NULL};
    (void)arrs;
    alive = malloc(n * sizeof(int)); pos = malloc(n * sizeof(int)); list = malloc(n * sizeof(int));
    decided = calloc(n, sizeof(int)); val = malloc(n * sizeof(int)); sent_up = malloc(n * sizeof(int));
    sent_down = malloc(n * sizeof(int)); sent_ack = malloc(n * sizeof(int));
    released = calloc(n, sizeof(int)); up_epoch = malloc(n * sizeof(int));
    got_up = malloc(n * sizeof(int)); got_ack = malloc(n * sizeof(int)); acc = malloc(n * sizeof(int));
    traffic = calloc(n, sizeof(int));
    for (int i = 0; i < n; i++) {
        alive[i] = 1;
        val[i] = i == n / 2 ? 0x1 : 0x3; /* one distinct contribution */
        up_epoch[i] = -1;
    }
    epoch = 0;
    ncur = nnxt = 0;
    sent_total = sent_at_decide = sent_updown = 0;
    kill_down = scenario == 1 ? 0 : -1;
    int kill_up = scenario == 2 ? (n > 4 ? 4 : n - 1) : -1; /* position 4: inner */
    build();
    int round = 0, fail_round = -1, decide_round = -1, release_round = -1, died = 0;
    for (round = 0; round < 100000; round++) {
        /* deliver */
        msg_t *t = cur; cur = nxt; nxt = t;
        ncur = nnxt; nnxt = 0;
        for (long j = 0; j < ncur; j++) {
            msg_t *g = &cur[j];
            int i = g->to;
            if (!alive[i])
                continue;
            if (g->kind == REL) {
                if (!decided[i]) { decided[i] = 1; val[i] = g->val; }
                if (!released[i]) {
                    released[i] = 1;
                    int v = pos[i];
                    for (int b = 1; v + b < m; b <<= 1) {
                        if (v && b >= (v & -v))
                            break;
                        post(i, list[v + b], REL, val[i]);
                    }
                }
                continue;
            }
            if (g->kind == DOWN && g->epoch >= up_epoch[i]) {
                if (!decided[i]) { decided[i] = 1; val[i] = g->val; }
                continue;
            }
            if (g->epoch != epoch)
                continue;
            int v = pos[i], par_ok = 0;
            for (int b = 1; v + b < m; b <<= 1) {
                if (v && b >= (v & -v))
                    break;
                if (list[v + b] == g->from)
                    par_ok = 1;
            }
            if (!par_ok)
                continue;
            if (g->kind == UP || g->kind == UPD) {
                got_up[i]++;
                if (g->kind == UPD && !decided[i]) { decided[i] = 1; val[i] = g->val; }
                else if (!decided[i]) acc[i] &= g->val;
            } else if (g->kind == ACK) {
                got_ack[i]++;
            }
        }
        /* failure notices */
        if (fail_round >= 0 && round == fail_round + detect) {
            epoch++;
            build();
            fail_round = -1;
        }
        for (int i = 0; i < n; i++)
            if (alive[i]) {
                if (i == kill_up && !sent_up[i] && got_up[i] == nkids(pos[i])) {
                    alive[i] = 0; /* dies with its subtree's part */
                    died = 1;
                    continue;
                }
                step(i, &died);
            }
        if (died) {
            fail_round = round;
            died = 0;
        }
        int all_dec = 1, all_rel = 1;
        for (int i = 0; i < n; i++)
            if (alive[i]) {
                all_dec &= decided[i];
                all_rel &= released[i];
            }
        if (all_dec && decide_round < 0) {
            decide_round = round; /* message hops since the start */
            sent_at_decide = sent_updown;
        }
        if (all_rel && nnxt == 0) {
            release_round = round;
            break;
        }
    }
    int first = -1, same = 1, maxt = 0;
    for (int i = 0; i < n; i++) {
        if (traffic[i] > maxt)
            maxt = traffic[i];
        if (!alive[i])
            continue;
        if (first < 0)
            first = val[i];
        same &= val[i] == first && decided[i];
    }
    const char *names[] = {"none", "root after DOWN", "inner before UP"};
    printf("%7d  %-16s %10ld %10ld %6d %6d %6d   %s (flag %#x)\n", size, names[scenario],
           sent_at_decide, sent_total, decide_round, release_round, maxt, same ? "uniform" : "NOT UNIFORM", first);
    int ok = same && release_round > 0;
    if (scenario == 0) {
        int lg = 0;
        while ((1 << lg) < size)
            lg++;
        ok &= sent_at_decide == 2L * (size - 1) && decide_round <= 2 * lg &&
              sent_total == 4L * (size - 1);
    }
    *out_ok = ok;
    free(alive); free(pos); free(list); free(decided); free(val); free(sent_up); free(sent_down);
    free(sent_ack); free(released); free(up_epoch); free(got_up); free(got_ack); free(acc); free(traffic);
    return 0;
}

int main(void)
{
    int sizes[] = {2, 8, 16, 64, 1024, 16384, 100000};
    int bad = 0;
    printf("   size  scenario             up+down   all_msgs decide release max/proc  result\n");
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
        for (int sc = 0; sc < 3; sc++) {
            if (sizes[k] < 6 && sc == 2)
                continue;
            int ok;
            run(sizes[k], sc, 2, &ok);
            bad += !ok;
        }
    free(cur);
    free(nxt);
    if (bad)
        printf("ulfm_model: %d scenario(s) wrong\n", bad);
    return bad ? 1 : 0;
}
