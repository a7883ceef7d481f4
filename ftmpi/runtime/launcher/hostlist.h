/*
 * Where the hosts come from: --hosts (opts.c), a hostfile in Open MPI's
 * syntax (--hostfile), or a Slurm allocation (SLURM_JOB_NODELIST, read with
 * `scontrol show hostnames`). docs/runtime.md, "Several hosts".
 */
#ifndef FTMPI_RUNTIME_HOSTLIST_H
#define FTMPI_RUNTIME_HOSTLIST_H

#include "opts.h"

/* Append the hosts of a hostfile: one host a line, "NAME [slots=N]
 * [max_slots=M]", '#' starts a comment; max_slots is ignored (a note says
 * so). 0, or 2 after a message naming the file, line and problem. */
int hostlist_read_file(ftrun_opts_t *o, const char *path);

/* Inside a Slurm allocation (SLURM_JOB_NODELIST set) and no host given:
 * the allocation's nodes, with SLURM_JOB_CPUS_PER_NODE slots each, and
 * srun as the launch agent unless one was given. 0 (also when not in an
 * allocation), or 2 after a message. */
int hostlist_from_slurm(ftrun_opts_t *o, int agent_given);

/* Add one host (name, slots or 0). 0 or 2 after a message. */
int hostlist_add(ftrun_opts_t *o, const char *name, int slots,
                 const char *where);

#endif
