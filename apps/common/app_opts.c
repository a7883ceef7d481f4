/* app_opts.c - command-line pieces the apps share (app_common.h). */
#include "app_common.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int app_opt_num(const char *s, double lo, double hi, double *v)
{
    char *end;
    errno = 0;
    double d = strtod(s, &end);
    /* written so that NaN fails the range test */
    if (errno || end == s || *end || !(d >= lo && d <= hi))
        return -1;
    *v = d;
    return 0;
}

int app_opt_code(const char *s, dckpt_code_t *c)
{
    if (!strcmp(s, "xor"))
        *c = DCKPT_CODE_XOR;
    else if (!strcmp(s, "rs"))
        *c = DCKPT_CODE_RS;
    else
        return -1;
    return 0;
}

int app_opt_flag(const char *a, const char *usage, int loud, int *json, int *verbose)
{
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
        if (loud)
            fputs(usage, stdout);
        return 1;
    }
    int *flag = !strcmp(a, "--json") ? json : !strcmp(a, "--verbose") ? verbose : NULL;
    if (!flag)
        return 0;
    *flag = 1;
    return 2;
}
