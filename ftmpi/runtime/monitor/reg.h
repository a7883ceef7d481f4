/*
 * The per-user directory where running jobs with a monitor register, so
 * that ftmpi-ctl finds them by job id (docs/tools.md):
 *   $FTMPI_RUNTIME_DIR, else $XDG_RUNTIME_DIR/ftmpi, else /tmp/ftmpi-UID;
 * mode 0700, owned by the user; one file JOBID.json (mode 0600) per job.
 */
#ifndef FTMPI_RUNTIME_MON_REG_H
#define FTMPI_RUNTIME_MON_REG_H

#include <stddef.h>

/* Write JOBID.json with content; its path into path. 0, or -1 with a
 * message in why. */
int mon_reg_add(const char *jobid, const char *content, char *path,
                size_t cap, char *why, size_t whycap);
void mon_reg_remove(const char *path);

#endif
