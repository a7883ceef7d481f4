/* Internal state of the ULFM files (ft/ulfm_*.c). */
#ifndef FTMPI_FT_ULFM_INT_H
#define FTMPI_FT_ULFM_INT_H

#include "ft/ulfm.h"
#include "ft/ft_int.h"

/* Message kinds (the channel's tag). */
enum { UM_UP = 1, UM_DOWN, UM_ACK, UM_REL, UM_REVOKE, UM_KINDS };
#define UM_F_DECIDED 1u   /* UP: the payload is a decision, not a partial AND */

typedef struct {
    uint32_t kind, ctx, ghash, inc, seq;
    uint32_t epoch;       /* sender's failure count of the communicator */
    uint32_t depoch;      /* DOWN / decided UP: epoch the decision was made at */
    uint32_t flags, nw;   /* nw payload words follow */
} um_hdr_t;

/* Payload words of an agreement: the flag (AND), the number of failures
 * every contributor acknowledged (MIN), and for a shrink the free context
 * mask (AND). */
enum { AW_FLAG = 0, AW_ACKED = 1, AW_MASK = 2 };

/* One agreement (one call on one communicator), kept until every live
 * member has its decision (released) and this process has used it. */
#define UT_MAX_KIDS 32
typedef struct urec {
    struct urec *next;
    uint32_t seq;
    int nw;
    uint32_t *mine, *acc, *res;  /* [nw] each */
    int decided, released, consumed;
    uint32_t depoch;      /* the decision's epoch: its failed set is the first depoch */
    int epoch;            /* the epoch the flags below are for */
    char got_up[UT_MAX_KIDS], got_ack[UT_MAX_KIDS];
    int sent_up, sent_down, sent_ack;
    int up_epoch;         /* latest epoch we sent an undecided UP in, or -1 */
    req_t *ureq;          /* MPIX_Comm_iagree's request, or NULL */
    int *flag_out;
    ulfm_shrunk_fn *shrunk; /* MPIX_Comm_ishrink's continuation, or NULL */
    void *shrunk_arg;
    int held;             /* a shrink waiting for this process's earlier one
                           * to claim its pairs: it does not contribute yet */
    struct urec *next_held;
    struct ustate *held_s;
} urec_t;

/* A stashed message (for a later epoch, a later agreement, or a
 * communicator not created here yet). */
typedef struct umsg_q {
    struct umsg_q *next;
    int from;             /* world rank */
    um_hdr_t h;
    uint32_t w[];
} umsg_q_t;

/* ULFM state of one communicator; outlives MPI_Comm_free (comm NULL):
 * other members may still need its agreements, and the count of
 * incarnations tells a reused context id from the old one. */
typedef struct ustate {
    struct ustate *next;
    comm_t *comm;         /* NULL once freed */
    uint32_t ctx, ghash;
    uint32_t inc;         /* how many communicators with this context and
                           * group this process made before, + 1: the same
                           * on every member (they are made collectively) */
    int size, rank;
    int *world;           /* [size] members' world ranks */
    /* An intercommunicator's state spans both groups: world lists first
     * the group whose first member has the lower world rank (the same
     * order everywhere), nfirst members, then the other; rank is this
     * process's position in that list. For an intracommunicator nfirst
     * is size and mine_first 1. */
    int nfirst, mine_first;
    int revoked;
    int stash_revoked;    /* a REVOKE came before the communicator was made */
    int acked;            /* failures acknowledged (first `acked` of the list) */
    uint32_t nseq;        /* agreements started here */
    uint32_t nrel;        /* agreements released (seq < nrel) */
    int rel_epoch_sent;   /* epoch for which the release was pushed */
    urec_t *last_rel;     /* the latest released agreement (its decision) */
    /* binomial tree over the members alive at tree_epoch, rooted at the
     * lowest live rank (comm ranks) */
    int tree_epoch, parent, nkids, kids[UT_MAX_KIDS];
    urec_t *recs;
    umsg_q_t *stash;
} ustate_t;

extern comm_t *ulfm_chan;

/* ulfm_chan.c */
ustate_t *ulfm_state(comm_t *c);          /* created on first use; NULL: no memory */
int ulfm_send(int world, const um_hdr_t *h, const uint32_t *w);
int ulfm_epoch(const ustate_t *s);        /* failures among its members known here */
int ulfm_alive_list(const ustate_t *s, int epoch, int *list); /* comm ranks; returns count */
int ulfm_ustate_busy(void);               /* an agreement not released, anywhere */

/* ulfm_agree.c */
void ulfm_agree_msg(ustate_t *s, int from, const um_hdr_t *h, const uint32_t *w);
int ulfm_agree_progress(ustate_t *s);     /* epoch changes, stashed messages */
void ulfm_agree_free(ustate_t *s);

/* ulfm_fail.c: parked wildcard receives of c end with MPIX_ERR_REVOKED. */
void ulfm_revoked_parked(comm_t *c);

/* ulfm_revoke.c */
void ulfm_revoke_msg(ustate_t *s, int from, const um_hdr_t *h);

#endif
