/* ftmpirun command-line parsing and validation. */
#include "opts.h"
#include "hostlist.h"
#include "../../transport/shm/shm_seg.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef FTMPI_VERSION_STRING
#error "FTMPI_VERSION_STRING comes from CMake (project() VERSION)"
#endif

#define MAX_NP 65536

static const char usage_text[] =
"Usage: ftmpirun [options] PROGRAM [ARGS...]\n"
"       (also installed as mpirun and mpiexec)\n"
"\n"
"Processes:\n"
"  -np N, -n N, --np N        number of processes (default 1)\n"
"  --universe N               room for N processes in all: MPI_Comm_spawn may\n"
"                             start N - np more (MPI_UNIVERSE_SIZE; default\n"
"                             np: no spawning; docs/dynamic.md)\n"
"  -x VAR[=VALUE]             export VAR (with VALUE, or its current value)\n"
"  --net IF[,IF]              network interfaces of the TCP transport (FTMPI_NET)\n"
"  --reliability=on|off       end-to-end reliability over the network (FTMPI_RELIABILITY)\n"
"  --net-faults SPEC          inject network faults, drop:R,corrupt:R,dup:R,reorder:R\n"
"                             (FTMPI_NET_FAULTS, docs/network.md)\n"
"  --tag-output               prefix every output line with [rank]\n"
"  --timeout SECONDS          kill the job after SECONDS, exit 124\n"
"                             (default: $MPIEXEC_TIMEOUT, else none)\n"
"  --ring-bytes N             shared-memory ring size (power of two,\n"
"                             default 65536)\n"
"  --hosts H1[:SLOTS],H2,...  run on these hosts (ranks are placed in\n"
"                             blocks); localhost is the launcher's host\n"
"  --hostfile FILE            hosts from FILE (\"HOST [slots=N]\" lines)\n"
"  --spare-hosts N            keep the last N hosts empty, for REBUILD's\n"
"                             replacements of a lost host's ranks\n"
"  --launch-agent TEMPLATE    command that starts ftmpid on a host\n"
"                             (default \"ssh {host}\"; in a Slurm\n"
"                             allocation \"srun --overlap -N1 -n1 -w {host}\")\n"
"  --heartbeat-interval S     heartbeats between head and daemons every S\n"
"                             seconds (default 0.5)\n"
"  --heartbeat-timeout S      a host silent for S seconds is lost\n"
"                             (default 3)\n"
"  --ftmpid PATH              ftmpid program on the remote hosts\n"
"  --oversubscribe            ranks wait as on an oversubscribed host\n"
"                             (FTMPI_OVERSUBSCRIBE=1, docs/progress.md)\n"
"  --bind-to core|none|auto   bind each rank to one CPU, or not; auto (the\n"
"                             default): bind when a host's ranks do not\n"
"                             outnumber its CPUs (FTMPI_BIND_TO, docs/runtime.md)\n"
"  --report-bindings          print each rank's CPUs on stderr\n"
"\n"
"Fault tolerance (docs/ft.md):\n"
"  --comm-mode=abort|blank|shrink|rebuild|ulfm   (default abort)\n"
"  --with-ft ulfm        the ULFM semantics (same as --comm-mode=ulfm)\n"
"  --msg-mode=reset|cont                    (default reset)\n"
"  --coll-mode=atomic|nonatomic             (default nonatomic)\n"
"  --recovery=auto|manual|none              (default manual)\n"
"  --kill RANK@SECONDS        SIGKILL RANK's process SECONDS after launch\n"
"                             (repeatable)\n"
"  --kill-at NAME[=VALUE]@RANK\n"
"                             SIGKILL RANK when it reaches fault point NAME\n"
"                             (with VALUE, or the first time) (repeatable)\n"
"  --event-log FILE           write runtime events to FILE as JSON lines\n"
"  --trace DIR                each rank's MPI calls as Chrome trace events\n"
"                             in DIR (docs/tools.md)\n"
"  --monitor[=ADDR:PORT]      serve a live monitor page over HTTP (default\n"
"                             127.0.0.1 and a free port; docs/tools.md)\n"
"\n"
"Other:\n"
"  -v, --verbose              report runtime events on stderr\n"
"  -h, --help                 this text\n"
"  -V, --version              version\n"
"\n"
"Exit status: 0 when every process alive at the end exited 0 and every\n"
"failure was recovered; see docs/runtime.md.\n";

static int opt_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int opt_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("ftmpirun: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputs("\n(ftmpirun --help lists the options)\n", stderr);
    va_end(ap);
    return 2;
}

static int parse_long(const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

static int parse_seconds(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !(v >= 0) || v > 1e9)
        return -1;
    *out = v;
    return 0;
}

/* Match a mode value, case-insensitive; returns the index or -1. */
static int match_word(const char *v, const char *const *words)
{
    for (int i = 0; words[i]; i++)
        if (strcasecmp(v, words[i]) == 0)
            return i;
    return -1;
}

static const char *const comm_words[] = {"abort", "blank", "shrink",
                                         "rebuild", "ulfm", NULL};
static const char *const ft_words[] = {"ulfm", NULL}; /* --with-ft (Open MPI 5) */
static const char *const msg_words[] = {"reset", "cont", "nop", NULL};
static const char *const coll_words[] = {"atomic", "nonatomic", NULL};
static const char *const recov_words[] = {"manual", "auto", "none", NULL};

const char *ftrun_comm_name(int mode)
{
    static const char *const n[] = {"ABORT", "BLANK", "SHRINK", "REBUILD", "ULFM"};
    return mode >= 0 && mode < 5 ? n[mode] : "?";
}

static int set_mode(const char *what, const char *v,
                    const char *const *words, const char **str, int *mode)
{
    int i = match_word(v, words);
    if (i < 0) {
        char list[128] = "";
        for (int k = 0; words[k]; k++) {
            if (k)
                strcat(list, "|");
            strcat(list, words[k]);
        }
        return opt_error("invalid %s '%s' (expected %s)", what, v, list);
    }
    *str = words[i];
    if (mode)
        *mode = i;
    return 0;
}

static int add_kill(ftrun_opts_t *o, const char *v)
{
    const char *at = strchr(v, '@');
    long rank;
    double sec;
    char rs[32];
    if (!at || (size_t)(at - v) >= sizeof rs)
        return opt_error("--kill expects RANK@SECONDS, got '%s'", v);
    memcpy(rs, v, (size_t)(at - v));
    rs[at - v] = 0;
    if (parse_long(rs, 0, MAX_NP - 1, &rank))
        return opt_error("--kill '%s': '%s' is not a rank", v, rs);
    if (parse_seconds(at + 1, &sec))
        return opt_error("--kill '%s': '%s' is not a number of seconds", v,
                         at + 1);
    ftrun_kill_t *k = realloc(o->kills, (size_t)(o->nkills + 1) * sizeof *k);
    if (!k)
        return opt_error("out of memory");
    o->kills = k;
    o->kills[o->nkills++] = (ftrun_kill_t){(int)rank, sec};
    return 0;
}

static int add_fault(ftrun_opts_t *o, const char *v)
{
    const char *at = strrchr(v, '@');
    if (!at)
        return opt_error("--kill-at expects NAME[=VALUE]@RANK, got '%s'", v);
    ftrun_fault_t f = {0};
    long rank;
    if (parse_long(at + 1, 0, MAX_NP - 1, &rank))
        return opt_error("--kill-at '%s': '%s' is not a rank", v, at + 1);
    f.rank = (int)rank;
    const char *eq = memchr(v, '=', (size_t)(at - v));
    const char *name_end = eq ? eq : at;
    size_t nl = (size_t)(name_end - v);
    if (nl == 0 || nl >= sizeof f.name)
        return opt_error("--kill-at '%s': bad fault point name", v);
    memcpy(f.name, v, nl);
    for (size_t i = 0; i < nl; i++)
        if (f.name[i] == ';' || f.name[i] == '@' || isspace((unsigned char)f.name[i]))
            return opt_error("--kill-at '%s': the name may not contain ';', "
                             "'@' or spaces", v);
    if (eq) {
        char vs[32];
        size_t vl = (size_t)(at - eq - 1);
        if (vl == 0 || vl >= sizeof vs)
            return opt_error("--kill-at '%s': bad value", v);
        memcpy(vs, eq + 1, vl);
        vs[vl] = 0;
        if (parse_long(vs, -0x7fffffffffffffffL, 0x7fffffffffffffffL, &f.value))
            return opt_error("--kill-at '%s': '%s' is not an integer", v, vs);
        f.has_value = 1;
    }
    ftrun_fault_t *n = realloc(o->faults, (size_t)(o->nfaults + 1) * sizeof *n);
    if (!n)
        return opt_error("out of memory");
    o->faults = n;
    o->faults[o->nfaults++] = f;
    return 0;
}

static int add_env(ftrun_opts_t *o, const char *v)
{
    const char *eq = strchr(v, '=');
    size_t nl = eq ? (size_t)(eq - v) : strlen(v);
    if (nl == 0)
        return opt_error("-x expects VAR[=VALUE], got '%s'", v);
    for (size_t i = 0; i < nl; i++)
        if (!(isalnum((unsigned char)v[i]) || v[i] == '_') || isdigit((unsigned char)v[0]))
            return opt_error("-x '%s': bad variable name (letters, digits and '_', not "
                             "starting with a digit)", v);
    char *entry;
    if (eq) {
        entry = strdup(v);
    } else {
        const char *cur = getenv(v);
        if (!cur)
            return 0; /* nothing to export */
        entry = malloc(nl + strlen(cur) + 2);
        if (entry)
            sprintf(entry, "%s=%s", v, cur);
    }
    char **e = realloc(o->env, (size_t)(o->nenv + 2) * sizeof *e);
    if (!entry || !e)
        return opt_error("out of memory");
    o->env = e;
    o->env[o->nenv++] = entry;
    o->env[o->nenv] = NULL;
    return 0;
}

static int add_hosts(ftrun_opts_t *o, const char *v)
{
    char *list = strdup(v), *save = NULL;
    int rc;
    if (!list)
        return opt_error("out of memory");
    for (char *h = strtok_r(list, ",", &save); h; h = strtok_r(NULL, ",", &save)) {
        ftrun_host_t host = {0};
        char *colon = strchr(h, ':');
        if (colon) {
            long s;
            *colon = 0;
            if (parse_long(colon + 1, 1, MAX_NP, &s)) {
                rc = opt_error("--hosts: bad slot count in '%s:%s' (1..%d)", h,
                               colon + 1, MAX_NP);
                free(list);
                return rc;
            }
            host.slots = (int)s;
        }
        if ((rc = hostlist_add(o, h, host.slots, "--hosts"))) {
            free(list);
            return rc;
        }
    }
    free(list);
    if (o->nhosts == 0)
        return opt_error("--hosts: empty host list");
    return 0;
}

/* Option table: name, takes a value, id. */
enum {
    O_NP = 1, O_TIMEOUT, O_TAG, O_COMM, O_MSG, O_COLL, O_RECOV, O_KILL,
    O_KILLAT, O_LOG, O_RING, O_ENV, O_HOSTS, O_AGENT, O_FTMPID, O_OVERSUB,
    O_VERBOSE, O_HELP, O_VERSION, O_HOSTFILE, O_SPARE, O_HB_INT, O_HB_TO, O_WITHFT, O_NET,
    O_MONITOR, O_TRACE, O_REL, O_NETFAULTS, O_UNIVERSE, O_BIND, O_REPBIND
};
static const struct { const char *name; int arg, id; } table[] = {
    {"-np", 1, O_NP}, {"-n", 1, O_NP}, {"--np", 1, O_NP}, {"-c", 1, O_NP},
    {"--timeout", 1, O_TIMEOUT}, {"--tag-output", 0, O_TAG},
    {"--comm-mode", 1, O_COMM}, {"--with-ft", 1, O_WITHFT}, {"--msg-mode", 1, O_MSG},
    {"--coll-mode", 1, O_COLL}, {"--recovery", 1, O_RECOV},
    {"--recovery-mode", 1, O_RECOV}, {"--kill", 1, O_KILL},
    {"--kill-at", 1, O_KILLAT}, {"--event-log", 1, O_LOG},
    {"--ring-bytes", 1, O_RING}, {"-x", 1, O_ENV}, {"--hosts", 1, O_HOSTS},
    {"--host", 1, O_HOSTS}, {"-H", 1, O_HOSTS},
    {"--launch-agent", 1, O_AGENT}, {"--ftmpid", 1, O_FTMPID},
    {"--oversubscribe", 0, O_OVERSUB}, {"-v", 0, O_VERBOSE},
    {"--verbose", 0, O_VERBOSE}, {"-h", 0, O_HELP}, {"--help", 0, O_HELP},
    {"-V", 0, O_VERSION}, {"--version", 0, O_VERSION},
    {"--hostfile", 1, O_HOSTFILE}, {"--machinefile", 1, O_HOSTFILE},
    {"--spare-hosts", 1, O_SPARE}, {"--heartbeat-interval", 1, O_HB_INT},
    {"--heartbeat-timeout", 1, O_HB_TO},
    {"--net", 1, O_NET},
    {"--monitor", 2, O_MONITOR}, /* 2: an optional =VALUE */
    {"--trace", 1, O_TRACE},
    {"--reliability", 1, O_REL}, {"--net-faults", 1, O_NETFAULTS},
    {"--universe", 1, O_UNIVERSE}, {"--universe-size", 1, O_UNIVERSE},
    {"--bind-to", 1, O_BIND}, {"--report-bindings", 0, O_REPBIND},
};
static const char *const bind_words[] = {"core", "none", "auto", NULL};

static int env_mode(const char *var, const char *const *words,
                    const char **str, int *mode)
{
    const char *v = getenv(var);
    if (!v || !*v)
        return 0;
    int i = match_word(v, words);
    if (i < 0)
        return opt_error("invalid value '%s' in environment variable %s", v,
                         var);
    *str = words[i];
    if (mode)
        *mode = i;
    return 0;
}

int ftrun_opts_parse(ftrun_opts_t *o, int argc, char **argv)
{
    memset(o, 0, sizeof *o);
    o->np = 1;
    o->ring_bytes = SHMSEG_DEFAULT_RING;
    o->launch_agent = "ssh {host}";
    o->hb_interval = 0.5;
    o->hb_timeout = 3.0;
    int np_given = 0, agent_given = 0, hosts_given = 0, bind_given = 0, i, rc;
    /* MPIEXEC_TIMEOUT (as MPICH's and Open MPI's launchers): --timeout's default. */
    const char *et = getenv("MPIEXEC_TIMEOUT");
    if (et && *et && (parse_seconds(et, &o->timeout_s) || o->timeout_s <= 0))
        return opt_error("invalid value '%s' in environment variable MPIEXEC_TIMEOUT (seconds > 0)", et);
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            i++;
            break;
        }
        if (a[0] != '-')
            break;
        int id = 0, takes = 0;
        const char *val = NULL;
        for (size_t k = 0; k < sizeof table / sizeof table[0]; k++) {
            size_t n = strlen(table[k].name);
            if (strncmp(a, table[k].name, n) != 0)
                continue;
            if (a[n] == 0) {
                id = table[k].id;
                takes = table[k].arg == 1;
                break;
            }
            if (a[n] == '=' && a[1] == '-') {
                if (!table[k].arg)
                    return opt_error("option '%s' takes no value", table[k].name);
                id = table[k].id;
                takes = 1;
                val = a + n + 1;
                break;
            }
        }
        if (!id)
            return opt_error("unknown option '%s'", a);
        if (takes && !val) {
            if (i + 1 >= argc)
                return opt_error("option '%s' needs a value", a);
            val = argv[++i];
        }
        long lv;
        char why[512];
        switch (id) {
        case O_NP:
            if (parse_long(val, 1, MAX_NP, &lv))
                return opt_error("bad process count '%s' for %s (1..%d)", val,
                                 a, MAX_NP);
            o->np = (int)lv;
            np_given = 1;
            break;
        case O_UNIVERSE:
            if (parse_long(val, 1, MAX_NP, &lv))
                return opt_error("bad universe size '%s' for %s (1..%d)", val,
                                 a, MAX_NP);
            o->universe = (int)lv;
            break;
        case O_TIMEOUT:
            if (parse_seconds(val, &o->timeout_s) || o->timeout_s <= 0)
                return opt_error("bad --timeout '%s' (seconds > 0)", val);
            break;
        case O_TAG: o->tag_output = 1; break;
        case O_COMM:
            if ((rc = set_mode("comm mode", val, comm_words, &o->comm_str,
                               &o->comm_mode)))
                return rc;
            break;
        case O_WITHFT: {
            int ulfm_mode = 0;
            if ((rc = set_mode("--with-ft value", val, ft_words, &o->comm_str, &ulfm_mode)))
                return rc;
            o->comm_mode = COMM_ULFM;
            break;
        }
        case O_MSG:
            if ((rc = set_mode("message mode", val, msg_words, &o->msg_str,
                               NULL)))
                return rc;
            break;
        case O_COLL:
            if ((rc = set_mode("collective mode", val, coll_words,
                               &o->coll_str, NULL)))
                return rc;
            break;
        case O_RECOV:
            if ((rc = set_mode("recovery mode", val, recov_words,
                               &o->recovery_str, &o->recovery_mode)))
                return rc;
            break;
        case O_KILL:
            if ((rc = add_kill(o, val)))
                return rc;
            break;
        case O_KILLAT:
            if ((rc = add_fault(o, val)))
                return rc;
            break;
        case O_MONITOR:
            if (ftrun_parse_monitor(o, val, why, sizeof why))
                return opt_error("bad --monitor '%s': %s", val, why);
            if ((rc = add_env(o, "FTMPI_MONITOR=1"))) /* runtime/monrank */
                return rc;
            break;
        case O_TRACE: {
            char pre[8192], dv[4200];
            if (ftrun_trace_env(val, pre, sizeof pre, dv, sizeof dv, why,
                                sizeof why))
                return opt_error("--trace: %s", why);
            if ((rc = add_env(o, pre)) || (rc = add_env(o, dv)))
                return rc;
            break;
        }
        case O_LOG:
            if (!*val)
                return opt_error("--event-log needs a file name");
            o->event_log = val;
            break;
        case O_RING:
            if (parse_long(val, 64, 1L << 30, &lv) || (lv & (lv - 1)))
                return opt_error("bad --ring-bytes '%s' (a power of two, "
                                 "64..2^30)", val);
            o->ring_bytes = (uint32_t)lv;
            break;
        case O_ENV:
            if ((rc = add_env(o, val)))
                return rc;
            break;
        case O_NET: { /* the ranks' FTMPI_NET (docs/network.md) */
            char e[256];
            if (!*val || snprintf(e, sizeof e, "FTMPI_NET=%s", val) >= (int)sizeof e)
                return opt_error("--net needs a list of interfaces, IF[,IF]");
            if ((rc = add_env(o, e)))
                return rc;
            break;
        }
        case O_REL: /* the ranks' FTMPI_RELIABILITY (docs/network.md) */
            if (strcmp(val, "on") && strcmp(val, "off"))
                return opt_error("--reliability takes on or off, not '%s'", val);
            if ((rc = add_env(o, strcmp(val, "on") ? "FTMPI_RELIABILITY=off"
                                                   : "FTMPI_RELIABILITY=on")))
                return rc;
            break;
        case O_NETFAULTS: { /* the ranks' FTMPI_NET_FAULTS (checked at MPI_Init) */
            char e[256];
            if (!*val || snprintf(e, sizeof e, "FTMPI_NET_FAULTS=%s", val) >= (int)sizeof e)
                return opt_error("--net-faults needs drop:R,corrupt:R,dup:R,reorder:R");
            if ((rc = add_env(o, e)))
                return rc;
            break;
        }
        case O_HOSTS:
            if ((rc = add_hosts(o, val)))
                return rc;
            hosts_given = 1;
            break;
        case O_HOSTFILE:
            if (!*val)
                return opt_error("--hostfile needs a file name");
            if ((rc = hostlist_read_file(o, val)))
                return rc;
            hosts_given = 1;
            break;
        case O_SPARE:
            if (parse_long(val, 0, MAX_NP, &lv))
                return opt_error("bad --spare-hosts '%s' (0..%d)", val, MAX_NP);
            o->spare_hosts = (int)lv;
            break;
        case O_HB_INT:
            if (parse_seconds(val, &o->hb_interval) || o->hb_interval < 0.001)
                return opt_error("bad --heartbeat-interval '%s' (seconds, at "
                                 "least 0.001)", val);
            break;
        case O_HB_TO:
            if (parse_seconds(val, &o->hb_timeout) || o->hb_timeout < 0.001)
                return opt_error("bad --heartbeat-timeout '%s' (seconds, at "
                                 "least 0.001)", val);
            break;
        case O_AGENT:
            if (!*val)
                return opt_error("--launch-agent needs a command template");
            o->launch_agent = val;
            agent_given = 1;
            break;
        case O_FTMPID:
            if (!*val)
                return opt_error("--ftmpid needs a path");
            o->ftmpid_path = val;
            break;
        case O_OVERSUB: /* the ranks wait as oversubscribed (docs/progress.md) */
            if ((rc = add_env(o, "FTMPI_OVERSUBSCRIBE=1")))
                return rc;
            break;
        case O_BIND: { /* the daemons' FTMPI_BIND_TO (daemon_bind.c) */
            char e[64];
            int w = match_word(val, bind_words);
            if (w < 0)
                return opt_error("bad --bind-to '%s' (core, none or auto)", val);
            snprintf(e, sizeof e, "FTMPI_BIND_TO=%s", bind_words[w]);
            if ((rc = add_env(o, e)))
                return rc;
            bind_given = 1;
            break;
        }
        case O_REPBIND:
            if ((rc = add_env(o, "FTMPI_REPORT_BINDINGS=1")))
                return rc;
            break;
        case O_VERBOSE: o->verbose = 1; break;
        case O_HELP:
            fputs(usage_text, stdout);
            return 1;
        case O_VERSION:
            printf("ftmpirun (FT-MPI runtime) %s\n", FTMPI_VERSION_STRING);
            return 1;
        }
    }
    if (i >= argc)
        return opt_error("no program given");
    o->argv = argv + i;
    if (!hosts_given && (rc = hostlist_from_slurm(o, agent_given)))
        return rc;
    if (o->hb_timeout <= o->hb_interval)
        return opt_error("--heartbeat-timeout %g must be longer than "
                         "--heartbeat-interval %g", o->hb_timeout,
                         o->hb_interval);
    if (o->spare_hosts && o->spare_hosts >= (o->hosts ? o->nhosts : 1))
        return opt_error("--spare-hosts %d: only %d host(s), and at least "
                         "one must run ranks", o->spare_hosts,
                         o->hosts ? o->nhosts : 1);
    if (!np_given && o->hosts) {
        /* Like Open MPI: without -np, one rank per slot when every host
         * says how many it has. */
        long total = 0;
        for (int k = 0; k < o->nhosts - o->spare_hosts; k++)
            total = o->hosts[k].slots && total >= 0
                        ? total + o->hosts[k].slots : -1;
        if (total > 0)
            o->np = total > MAX_NP ? MAX_NP : (int)total;
    }

    /* Modes from the environment when no option gave them. */
    if (!o->comm_str &&
        (rc = env_mode("FTMPI_COMM_MODE", comm_words, &o->comm_str,
                       &o->comm_mode)))
        return rc;
    if (!o->msg_str &&
        (rc = env_mode("FTMPI_MSG_MODE", msg_words, &o->msg_str, NULL)))
        return rc;
    if (!o->coll_str &&
        (rc = env_mode("FTMPI_COLL_MODE", coll_words, &o->coll_str, NULL)))
        return rc;
    if (!o->recovery_str &&
        (rc = env_mode("FTMPI_RECOVERY_MODE", recov_words, &o->recovery_str,
                       &o->recovery_mode)))
        return rc;
    const char *bind_env = getenv("FTMPI_BIND_TO");
    if (!bind_given && bind_env && *bind_env) {
        char e[64];
        int w = match_word(bind_env, bind_words);
        if (w < 0)
            return opt_error("invalid value '%s' in environment variable "
                             "FTMPI_BIND_TO (core, none or auto)", bind_env);
        snprintf(e, sizeof e, "FTMPI_BIND_TO=%s", bind_words[w]);
        if ((rc = add_env(o, e)))
            return rc;
    }
    if (o->msg_str && strcmp(o->msg_str, "nop") == 0)
        o->msg_str = "reset";

    if (!o->universe)
        o->universe = o->np;
    if (o->universe < o->np)
        return opt_error("--universe %d is smaller than -np %d", o->universe,
                         o->np);
    /* Ranks beyond np are processes MPI_Comm_spawn may start (job-wide
     * ids np..universe-1, docs/dynamic.md). */
    for (int k = 0; k < o->nkills; k++)
        if (o->kills[k].rank >= o->universe)
            return opt_error("--kill %d@%g: rank %d does not exist (-np %d, "
                             "--universe %d)", o->kills[k].rank,
                             o->kills[k].seconds, o->kills[k].rank, o->np,
                             o->universe);
    for (int k = 0; k < o->nfaults; k++)
        if (o->faults[k].rank >= o->universe)
            return opt_error("--kill-at %s@%d: rank %d does not exist (-np %d, "
                             "--universe %d)", o->faults[k].name,
                             o->faults[k].rank, o->faults[k].rank, o->np,
                             o->universe);
    if (!o->spare_hosts && o->nhosts > o->np)
        o->nhosts = o->np; /* more hosts than ranks: the last ones stay idle */
    /* Last, once everything else is valid: the event log must be writable
       (the launcher truncates it when the job starts). */
    if (o->event_log) {
        int fd = open(o->event_log, O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
        if (fd < 0)
            return opt_error("--event-log: cannot write '%s': %s", o->event_log,
                             strerror(errno));
        close(fd);
    }
    return 0;
}

void ftrun_opts_free(ftrun_opts_t *o)
{
    for (int i = 0; i < o->nenv; i++)
        free(o->env[i]);
    free(o->env);
    free(o->kills);
    free(o->faults);
    free(o->hosts);
}
