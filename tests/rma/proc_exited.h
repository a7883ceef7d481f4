/* Has process pid exited (a zombie or reaped)? /proc/PID/stat, without
 * calling MPI (tests/rma: rma_ft.c, rma_acclock.c). */
#ifndef TESTS_RMA_PROC_EXITED_H
#define TESTS_RMA_PROC_EXITED_H

#include <stdio.h>
#include <string.h>

static int exited(long pid)
{
    char path[64], line[512];
    snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 1;
    char *got = fgets(line, sizeof(line), f);
    fclose(f);
    char *paren = got ? strrchr(line, ')') : NULL;
    return !paren || paren[1] == '\0' || paren[2] == 'Z' || paren[2] == 'X';
}

#endif
