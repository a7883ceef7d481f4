/*
 * ftiter_freeze.c - incremental checkpoints through the skeleton
 * (ft_iterative.h, dckpt_freeze in diskless_ckpt.h).
 */
#include "ftiter_internal.h"

int ftiter_freeze(ftiter_t *sk, size_t bytes)
{
    if (sk == NULL || sk->ckpt == NULL)
        return FTITER_ERR_ARG;
    return ftiter_from_dckpt(dckpt_freeze(sk->ckpt, bytes));
}

int ftiter_freeze_strided(ftiter_t *sk, size_t bytes, size_t base, size_t stride, size_t count,
                          size_t head)
{
    if (sk == NULL || sk->ckpt == NULL)
        return FTITER_ERR_ARG;
    return ftiter_from_dckpt(dckpt_freeze_strided(sk->ckpt, bytes, base, stride, count, head));
}
