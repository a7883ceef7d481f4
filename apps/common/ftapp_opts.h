/*
 * ftapp_opts.h - command-line pieces shared by the fault-tolerant demos
 * (apps/cg, apps/pstswm).
 */
#ifndef FTAPP_OPTS_H
#define FTAPP_OPTS_H

#include "diskless_ckpt.h"

/* A whole string that is a number in [lo, hi] (no NaN): 0 and *v, or -1. */
int ftapp_opt_num(const char *s, double lo, double hi, double *v);
/* The flags every demo has: -h/--help (`usage` printed on stdout when
   `loud`): 1; --json, --verbose (set to 1): 2; anything else: 0. */
int ftapp_opt_flag(const char *a, const char *usage, int loud, int *json, int *verbose);
/* "xor" or "rs": 0 and *c, or -1. */
int ftapp_opt_code(const char *s, dckpt_code_t *c);

#endif /* FTAPP_OPTS_H */
