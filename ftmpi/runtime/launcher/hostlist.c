/* Host lists from hostfiles and Slurm allocations (see hostlist.h). */
#include "hostlist.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#define MAX_SLOTS 65536

int hostlist_add(ftrun_opts_t *o, const char *name, int slots,
                 const char *where)
{
    if (!name[0] || strlen(name) >= sizeof o->hosts[0].name) {
        fprintf(stderr, "ftmpirun: %s: bad host name '%s'\n", where, name);
        return 2;
    }
    ftrun_host_t *n = realloc(o->hosts, (size_t)(o->nhosts + 1) * sizeof *n);
    if (!n) {
        fprintf(stderr, "ftmpirun: out of memory\n");
        return 2;
    }
    o->hosts = n;
    ftrun_host_t *h = &o->hosts[o->nhosts++];
    memset(h, 0, sizeof *h);
    snprintf(h->name, sizeof h->name, "%s", name);
    h->slots = slots;
    return 0;
}

static int parse_count(const char *s, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < 1 || v > MAX_SLOTS)
        return -1;
    *out = v;
    return 0;
}

static int bad_line(const char *path, int line, const char *what,
                    const char *tok)
{
    fprintf(stderr, "ftmpirun: hostfile %s, line %d: %s '%s'\n(expected "
            "\"HOST [slots=N] [max_slots=M]\"; see docs/runtime.md)\n", path,
            line, what, tok);
    return 2;
}

int hostlist_read_file(ftrun_opts_t *o, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "ftmpirun: cannot read hostfile '%s': %s\n", path,
                strerror(errno));
        return 2;
    }
    char buf[1024], where[300];
    int line = 0, rc = 0, nbefore = o->nhosts, noted = 0;
    while (!rc && fgets(buf, sizeof buf, f)) {
        line++;
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = 0;
        char *save = NULL, *tok = strtok_r(buf, " \t\r\n", &save);
        if (!tok)
            continue;
        char name[256];
        snprintf(name, sizeof name, "%s", tok);
        long slots = 0, v;
        while (!rc && (tok = strtok_r(NULL, " \t\r\n", &save))) {
            char *eq = strchr(tok, '=');
            if (!eq) {
                rc = bad_line(path, line, "unexpected word", tok);
                break;
            }
            *eq = 0;
            if (parse_count(eq + 1, &v)) {
                *eq = '=';
                rc = bad_line(path, line, "bad count (1..65536) in", tok);
            } else if (!strcmp(tok, "slots") || !strcmp(tok, "count") ||
                       !strcmp(tok, "cpu")) {
                slots = v;
            } else if (!strcmp(tok, "max_slots") || !strcmp(tok, "max-slots")) {
                if (!noted++)
                    fprintf(stderr, "ftmpirun: note: hostfile %s, line %d: "
                            "max_slots is ignored (there is no slot "
                            "limit)\n", path, line);
            } else {
                *eq = '=';
                rc = bad_line(path, line, "unknown keyword in", tok);
            }
        }
        if (!rc) {
            snprintf(where, sizeof where, "hostfile %s, line %d", path, line);
            rc = hostlist_add(o, name, (int)slots, where);
        }
    }
    fclose(f);
    if (!rc && o->nhosts == nbefore) {
        fprintf(stderr, "ftmpirun: hostfile %s names no host\n", path);
        rc = 2;
    }
    return rc;
}

/* SLURM_JOB_CPUS_PER_NODE: "4(x2),2" -> 4, 4, 2. The count for node i
 * (0 when the string does not say). */
static int slurm_cpus(const char *s, int node)
{
    int i = 0;
    while (s && *s) {
        char *end;
        long n = strtol(s, &end, 10), rep = 1;
        if (end == s)
            return 0;
        if (strncmp(end, "(x", 2) == 0) {
            rep = strtol(end + 2, &end, 10);
            if (*end == ')')
                end++;
        }
        if (node < i + rep)
            return n > 0 && n <= MAX_SLOTS ? (int)n : 0;
        i += (int)rep;
        s = *end == ',' ? end + 1 : NULL;
    }
    return 0;
}

int hostlist_from_slurm(ftrun_opts_t *o, int agent_given)
{
    const char *nodes = getenv("SLURM_JOB_NODELIST");
    if (o->hosts || !nodes || !*nodes)
        return 0;
    for (const char *c = nodes; *c; c++)
        if (!isalnum((unsigned char)*c) && !strchr("-_.,[]", *c)) {
            fprintf(stderr, "ftmpirun: SLURM_JOB_NODELIST '%s': unexpected "
                    "character '%c'\n", nodes, *c);
            return 2;
        }
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "scontrol show hostnames '%s'", nodes);
    FILE *p = popen(cmd, "r");
    if (!p) {
        fprintf(stderr, "ftmpirun: cannot run scontrol: %s\n", strerror(errno));
        return 2;
    }
    char name[512];
    int rc = 0, i = 0;
    const char *cpus = getenv("SLURM_JOB_CPUS_PER_NODE");
    while (!rc && fgets(name, sizeof name, p)) {
        name[strcspn(name, "\r\n")] = 0;
        if (name[0])
            rc = hostlist_add(o, name, slurm_cpus(cpus, i++),
                              "scontrol show hostnames");
    }
    int st = pclose(p);
    if (!rc && (st != 0 || o->nhosts == 0)) {
        fprintf(stderr, "ftmpirun: inside a Slurm allocation "
                "(SLURM_JOB_NODELIST=%s) but 'scontrol show hostnames' %s\n",
                nodes, st != 0 ? "failed" : "listed no node");
        return 2;
    }
    if (!rc && !agent_given)
        o->launch_agent = "srun --overlap -N1 -n1 -w {host} {cmd}";
    o->from_slurm = 1;
    return rc;
}
