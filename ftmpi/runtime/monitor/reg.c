/* The per-user job registry of the monitor. */
#include "reg.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int reg_dir(char *dir, size_t cap, char *why, size_t whycap)
{
    const char *d = getenv("FTMPI_RUNTIME_DIR");
    const char *x = getenv("XDG_RUNTIME_DIR");
    if (d && *d)
        snprintf(dir, cap, "%s", d);
    else if (x && *x)
        snprintf(dir, cap, "%s/ftmpi", x);
    else
        snprintf(dir, cap, "/tmp/ftmpi-%d", (int)getuid());
    if (mkdir(dir, 0700) < 0 && errno != EEXIST) {
        snprintf(why, whycap, "cannot make %s: %s", dir, strerror(errno));
        return -1;
    }
    struct stat st;
    if (lstat(dir, &st) < 0 || !S_ISDIR(st.st_mode) ||
        st.st_uid != getuid() || (st.st_mode & 077)) {
        snprintf(why, whycap, "%s is not a directory of this user with mode "
                 "0700", dir);
        return -1;
    }
    return 0;
}

int mon_reg_add(const char *jobid, const char *content, char *path,
                size_t cap, char *why, size_t whycap)
{
    char dir[512], tmp[600];
    path[0] = 0;
    if (reg_dir(dir, sizeof dir, why, whycap))
        return -1;
    snprintf(tmp, sizeof tmp, "%s/.%s.tmp", dir, jobid);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    size_t n = strlen(content);
    if (fd < 0 || write(fd, content, n) != (ssize_t)n) {
        snprintf(why, whycap, "cannot write %s: %s", tmp, strerror(errno));
        if (fd >= 0)
            close(fd);
        unlink(tmp);
        return -1;
    }
    close(fd);
    snprintf(path, cap, "%s/%s.json", dir, jobid);
    if (rename(tmp, path) < 0) {
        snprintf(why, whycap, "cannot rename %s: %s", tmp, strerror(errno));
        unlink(tmp);
        path[0] = 0;
        return -1;
    }
    return 0;
}

void mon_reg_remove(const char *path)
{
    if (path && path[0])
        unlink(path);
}
