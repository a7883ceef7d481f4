/*
 * Algorithm choice (FT-MPI's self-tuning collectives, Open MPI's
 * coll/tuned layering): for each call the choice is
 *   1. forced by the user: FTMPI_COLL_<NAME>=<algorithm>[:<segment bytes>]
 *      (e.g. FTMPI_COLL_BCAST=pipeline:32768), or all at once in
 *      FTMPI_COLL="bcast=pipeline:32768,allreduce=ring"; with ftmpirun:
 *      -x FTMPI_COLL_BCAST=pipeline:32768;
 *   2. else the rules file named by FTMPI_COLL_RULES (written by
 *      tools/ftmpi_tune): communicator size x message size -> algorithm and
 *      segment size;
 *   3. else the built-in thresholds of coll_select.c, measured on a
 *      2-core shared-memory machine.
 * Settings are read once, at the first collective call.
 */
#ifndef FTMPI_COLL_SELECT_H
#define FTMPI_COLL_SELECT_H

#include <stddef.h>

typedef enum {
    COLL_BARRIER,
    COLL_BCAST,
    COLL_REDUCE,
    COLL_ALLREDUCE,
    COLL_GATHER,
    COLL_SCATTER,
    COLL_ALLGATHER,
    COLL_ALLGATHERV,
    COLL_ALLTOALL,
    COLL_ALLTOALLV,
    COLL_REDUCE_SCATTER,
    COLL_SCAN,
    COLL_NKINDS
} coll_kind_t;

/* *_SM: the shared-memory component (coll_sm.c), for blocking calls on
 * communicators whose members share one host; coll_select() never returns
 * it (it answers the point-to-point choice instead), coll_select_sm() says
 * whether it is the choice. */
enum { BARRIER_DISSEMINATION, BARRIER_SM };
enum { BCAST_BINOMIAL, BCAST_PIPELINE, BCAST_BINTREE, BCAST_SCATTER_ALLGATHER, BCAST_SM };
enum { REDUCE_BINOMIAL, REDUCE_PIPELINE, REDUCE_SM };
enum { ALLREDUCE_RECDBL, ALLREDUCE_RABENSEIFNER, ALLREDUCE_RING, ALLREDUCE_REDUCE_BCAST,
       ALLREDUCE_SM };
enum { GATHER_LINEAR, GATHER_BINOMIAL, GATHER_SM };
enum { SCATTER_LINEAR, SCATTER_BINOMIAL, SCATTER_SM };
enum { ALLGATHER_RING, ALLGATHER_RECDBL, ALLGATHER_BRUCK, ALLGATHER_SM };
enum { ALLGATHERV_RING, ALLGATHERV_LINEAR };
enum { ALLTOALL_LINEAR, ALLTOALL_PAIRWISE, ALLTOALL_BRUCK, ALLTOALL_SM };
enum { ALLTOALLV_LINEAR, ALLTOALLV_PAIRWISE };
enum { REDUCE_SCATTER_BASIC, REDUCE_SCATTER_RING, REDUCE_SCATTER_SM };
enum { SCAN_LINEAR, SCAN_RECDBL };

typedef struct {
    int alg;
    size_t seg;   /* segment bytes, 0 = the algorithm's default */
} coll_choice_t;

/* The choice for a call of kind k on p ranks moving `bytes` (per rank
 * block for gather/scatter/allgather/alltoall, the whole vector for the
 * others). */
coll_choice_t coll_select(coll_kind_t k, int p, size_t bytes);
/* Is the shared-memory component the choice for (k, p, bytes)? Forced
 * ("allreduce=sm"), named by the rules file, or built in: messages up to
 * FTMPI_COLL_SM_MAX bytes (default 16 KiB; barrier always; gather,
 * scatter, allgather, alltoall and reduce_scatter also need their data to
 * fit one buffer of the segment, which coll_sm_get checks). */
int coll_select_sm(coll_kind_t k, int p, size_t bytes);

/* A byte count from environment variable name ("64K", "1M" allowed): def
 * when unset; def, with a message on stderr, when malformed or outside
 * [lo, hi]. */
size_t coll_env_bytes(const char *name, size_t def, size_t lo, size_t hi);

/* The algorithm of the last call of kind k that chose one (coll_select, or
 * the shared-memory component or the only algorithm noted by the entry
 * point): its name ("" before any), and in *n how many choices of that
 * kind were made so far (FTMPI_Coll_last_algorithm, the traces). */
const char *coll_last(coll_kind_t k, unsigned long *n);
#define COLL_LAST_SM (-1) /* alg: the shared-memory component */
void coll_last_note(coll_kind_t k, int alg);

/* Names (for the environment, the rules file and the tuning tool). */
int coll_kind_by_name(const char *name);          /* -1 if unknown */
int coll_alg_by_name(coll_kind_t k, const char *name); /* -1 if unknown */

/* Rules file (coll_rules.c). */
typedef struct {
    int kind, comm_size;
    size_t bytes;
    coll_choice_t choice;
} coll_rule_t;
/* Parse a rules file; returns the number of rules or -1 (message on
 * stderr). *rules_p is malloc'ed. */
int coll_rules_load(const char *path, coll_rule_t **rules_p);
/* The rule for (k, p, bytes) among n rules, or NULL. */
const coll_rule_t *coll_rules_find(const coll_rule_t *rules, int n, coll_kind_t k, int p,
                                   size_t bytes);

/* Tests and the tuning tool: force choices at run time, as the environment
 * would ("bcast=pipeline:1024,allreduce=ring"; "bcast=" unforces bcast;
 * NULL or "" unforces everything). Returns 0, or -1 on a bad item. */
int coll_select_set(const char *spec);
/* The tool interface (api/mpit_cvars.c): kind k's name and algorithm names,
 * and the algorithm forced for it (-1: none, the rules or built-in choice). */
int coll_select_info(coll_kind_t k, const char **name, const char *const **algs, int *nalgs);

#endif
