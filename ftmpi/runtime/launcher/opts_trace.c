/* ftmpirun --trace DIR: the environment that preloads libftmpi_trace into
 * the ranks (docs/tools.md, "Traces"). */
#include "opts.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int ftrun_trace_env(const char *dir, char *preload, size_t pcap,
                    char *dirvar, size_t dcap, char *why, size_t wcap)
{
    char abs[PATH_MAX], exe[PATH_MAX], lib[PATH_MAX + 64];
    struct stat st;
    if (!*dir) {
        snprintf(why, wcap, "needs a directory");
        return -1;
    }
    if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
        snprintf(why, wcap, "cannot make '%s': %s", dir, strerror(errno));
        return -1;
    }
    if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode) || access(dir, W_OK) ||
        !realpath(dir, abs)) {
        snprintf(why, wcap, "'%s' is not a writable directory", dir);
        return -1;
    }
    const char *given = getenv("FTMPI_TRACE_LIB");
    if (given && *given) {
        snprintf(lib, sizeof lib, "%s", given);
    } else {
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        if (n <= 0) {
            snprintf(why, wcap, "cannot find ftmpirun's own path");
            return -1;
        }
        exe[n] = 0;
        snprintf(lib, sizeof lib, "%s/../lib/libftmpi_trace.so",
                 dirname(exe));
    }
    if (access(lib, R_OK)) {
        snprintf(why, wcap, "no trace library at %s (set FTMPI_TRACE_LIB)",
                 lib);
        return -1;
    }
    const char *cur = getenv("LD_PRELOAD");
    /* what LD_PRELOAD holds first: a sanitizer's runtime must lead */
    snprintf(preload, pcap, "LD_PRELOAD=%s%s%s", cur && *cur ? cur : "",
             cur && *cur ? ":" : "", lib);
    snprintf(dirvar, dcap, "FTMPI_TRACE_DIR=%s", abs);
    return 0;
}
