/*
 * dsmrun_opts.c — dsmrun's command line: the options, their checks, and the
 * usage text, in the style of mpirun (-n N, --host, --hostfile).
 *
 * Options end at the first word that is not one, so that the program keeps
 * its own options. Every mistake is a usage error (status 2) whose message
 * names the option and what was wrong with it; --help and --version print
 * to stdout and exit 0, as users of mpirun expect.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dsm_config.h"
#include "dsmrun.h"

static const char usage_text[] =
  "Usage: dsmrun -n N [options] [--] prog [args...]\n"
  "Start N processes of prog as one ompdsm job.\n"
  "\n"
  "  -n, --np, -np N       number of processes (1..%d)\n"
  "  -t, --threads T       application threads per process (1..%d, DSM_THREADS);\n"
  "                        OpenMP thread r*T+t is thread t of rank r. Without it,\n"
  "                        OMP_NUM_THREADS=M asks for M threads over the job,\n"
  "                        ceil(M/N) per process\n"
  "      --host LIST       hosts as host[:slots],... (default slots 1)\n"
  "      --hostfile FILE   lines 'host [slots=K] [addr=IP]', '#' comments\n"
  "      --launcher CMD    start the ranks of every host with CMD, where {host}\n"
  "                        is replaced by the host name, e.g. 'ip netns exec {host}'.\n"
  "                        Without it, hosts other than this machine are reached by\n"
  "                        'ssh -o BatchMode=yes {host}' (DSMRUN_SSH replaces the ssh part)\n"
  "      --transport T     udp (default) or verbs\n"
  "      --stats           print each rank's DSM statistics at exit (DSM_STATS=1)\n"
  "      --profile FILE    profile the sharing: each rank writes FILE.<rank> at exit\n"
  "                        (DSM_PROFILE); 'dsmprof FILE' reports on them\n"
  "      --timeout S       seconds of silence after which a peer counts as dead\n"
  "                        (DSM_TIMEOUT, default 30)\n"
  "      --max-time S      stop the whole job after S seconds of wall-clock time\n"
  "      --tag-output      prefix every output line with [rank]\n"
  "      --bind-to B       core (default): pin each rank to CPUs of its host, one\n"
  "                        for each of its threads, when the host has a CPU for each\n"
  "                        thread of its ranks; none: do not (DSM_CPU_BIND)\n"
  "  -x VAR[=VALUE]        give every rank VAR, with VALUE or dsmrun's own value\n"
  "                        (ranks started here get dsmrun's environment anyway;\n"
  "                        through ssh only DSM_* and OMP_* go without -x)\n"
  "  -v, --verbose         print how each rank is started\n"
  "  -h, --help            print this help and exit\n"
  "  -V, --version         print the version and exit\n"
  "\n"
  "Ranks fill each host's slots in order, then go round-robin over the hosts.\n"
  "Without --host and --hostfile every rank runs on this machine.\n"
  "Exit status: the program's, as on one machine: 0 when it succeeds, the\n"
  "status of the rank that failed first (or 128+signal) when one fails. A\n"
  "rank that stopped because another failed exits 75; one that stopped on an\n"
  "error of the DSM library, 70. 124 when --max-time expires; 2 for bad usage.\n";

static void usage(FILE *f)
{
  fprintf(f, usage_text, DSMRUN_MAX_PROCS, DSMRUN_MAX_THREADS);
}

static long parse_long_opt(const char *opt, const char *s, long min, long max)
{
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno || end == s || *end)
    dsmrun_usage_error("%s needs a whole number, got '%s'", opt, s);
  if (v < min)
    dsmrun_usage_error("%s must be at least %ld, got %ld", opt, min, v);
  if (v > max)
    dsmrun_usage_error("%s must be at most %ld, got %ld", opt, max, v);
  return v;
}

/* A placement setting (--bind-to or DSM_CPU_BIND): core or none. */
static const char *bind_mode(const char *what, const char *v)
{
  if (strcmp(v, "core") != 0 && strcmp(v, "none") != 0)
    dsmrun_usage_error("%s must be core or none, got '%s'", what, v);
  return v;
}

void dsmrun_parse_options(int argc, char **argv, dsmrun_opts_t *o)
{
  enum { OPT_HOST = 256, OPT_HOSTFILE, OPT_LAUNCHER, OPT_TRANSPORT, OPT_STATS,
         OPT_TIMEOUT, OPT_MAX_TIME, OPT_TAG_OUTPUT, OPT_BIND_TO, OPT_PROFILE };
  static const struct option longopts[] = {
    { "np",         required_argument, NULL, 'n' },
    { "threads",    required_argument, NULL, 't' },
    { "host",       required_argument, NULL, OPT_HOST },
    { "hostfile",   required_argument, NULL, OPT_HOSTFILE },
    { "launcher",   required_argument, NULL, OPT_LAUNCHER },
    { "transport",  required_argument, NULL, OPT_TRANSPORT },
    { "stats",      no_argument,       NULL, OPT_STATS },
    { "profile",    required_argument, NULL, OPT_PROFILE },
    { "timeout",    required_argument, NULL, OPT_TIMEOUT },
    { "max-time",   required_argument, NULL, OPT_MAX_TIME },
    { "tag-output", no_argument,       NULL, OPT_TAG_OUTPUT },
    { "bind-to",    required_argument, NULL, OPT_BIND_TO },
    { "verbose",    no_argument,       NULL, 'v' },
    { "help",       no_argument,       NULL, 'h' },
    { "version",    no_argument,       NULL, 'V' },
    { NULL, 0, NULL, 0 },
  };
  memset(o, 0, sizeof *o);
  o->transport = "udp";
  o->timeout = 30;
  int have_np = 0;
  opterr = 0;
  /* '+': stop at the program name, so that its options stay its own. */
  int c;
  while ((c = getopt_long(argc, argv, "+:n:t:x:vhV", longopts, NULL)) != -1) {
    switch (c) {
    case 'n':
      /* mpirun's -np N: to getopt, -n with the argument "p" */
      if (!strcmp(optarg, "p") && !strcmp(argv[optind - 1], "-np")) {
        if (optind >= argc)
          dsmrun_usage_error("option -np needs an argument (see dsmrun --help)");
        optarg = argv[optind++];
      }
      o->np = (unsigned)parse_long_opt("-n", optarg, 1, DSMRUN_MAX_PROCS);
      have_np = 1;
      break;
    case 'x': {
      /* mpirun's -x: VAR=VALUE sets it, VAR passes dsmrun's value on */
      size_t len = strcspn(optarg, "=");
      if (len == 0 || (optarg[0] >= '0' && optarg[0] <= '9') ||
          optarg[strspn(optarg, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")] != (optarg[len] ? '=' : 0))
        dsmrun_usage_error("-x needs VAR or VAR=VALUE with a variable's name, got '%s'", optarg);
      char *assign;
      if (optarg[len] == '=') {
        assign = dsmrun_xstrdup(optarg);
      } else {
        const char *val = getenv(optarg);
        if (!val)
          dsmrun_usage_error("-x %s: %s is not set in dsmrun's environment (give -x %s=VALUE)",
                             optarg, optarg, optarg);
        assign = dsmrun_xasprintf("%s=%s", optarg, val);
      }
      o->exports = dsmrun_xrealloc(o->exports, (o->nexports + 2) * sizeof *o->exports);
      o->exports[o->nexports++] = assign;
      o->exports[o->nexports] = NULL;
      break;
    }
    case 't':
      o->threads = (unsigned)parse_long_opt("--threads", optarg, 1, DSMRUN_MAX_THREADS);
      break;
    case OPT_HOST:      o->host_list = optarg; break;
    case OPT_HOSTFILE:  o->hostfile = optarg; break;
    case OPT_LAUNCHER:  o->launcher = optarg; break;
    case OPT_TRANSPORT:
      if (strcmp(optarg, "udp") != 0 && strcmp(optarg, "verbs") != 0)
        dsmrun_usage_error("--transport must be udp or verbs, got '%s'", optarg);
      o->transport = optarg;
      break;
    case OPT_STATS:     o->stats = 1; break;
    case OPT_PROFILE: {
      if (!*optarg)
        dsmrun_usage_error("--profile needs a file name");
      /* Ranks run in other directories (and on other hosts, where the
       * same path must exist): an absolute path means the same file. */
      char cwd[4096];
      if (optarg[0] == '/' || !getcwd(cwd, sizeof cwd))
        o->profile = dsmrun_xstrdup(optarg);
      else
        o->profile = dsmrun_xasprintf("%s/%s", cwd, optarg);
      break;
    }
    case OPT_TIMEOUT:
      o->timeout = parse_long_opt("--timeout", optarg, 1, 86400);
      break;
    case OPT_MAX_TIME: {
      char *end;
      errno = 0;
      double v = strtod(optarg, &end);
      if (errno || end == optarg || *end || !(v > 0) || v > 1e7)
        dsmrun_usage_error("--max-time needs a positive number of seconds, got '%s'", optarg);
      o->max_time = v;
      break;
    }
    case OPT_TAG_OUTPUT: o->tag_output = 1; break;
    case OPT_BIND_TO:
      o->bind_to = bind_mode("--bind-to", optarg);
      break;
    case 'v': o->verbose = 1; break;
    case 'h':
      usage(stdout);
      exit(0);
    case 'V':
      printf("dsmrun (ompdsm) %s\n", DSM_VERSION);
      exit(0);
    case ':':
      /* A long option with a short twin (--np, --threads) has optopt set
       * too: name it as the user wrote it. */
      if (optopt && optopt < 256 && strncmp(argv[optind - 1], "--", 2) != 0)
        dsmrun_usage_error("option -%c needs an argument (see dsmrun --help)", optopt);
      dsmrun_usage_error("option %s needs an argument (see dsmrun --help)", argv[optind - 1]);
    case '?':
    default:
      if (optopt && optopt < 256)
        dsmrun_usage_error("unknown option -%c (see dsmrun --help)", optopt);
      dsmrun_usage_error("unknown option %s (see dsmrun --help)", argv[optind - 1]);
    }
  }
  if (!have_np)
    dsmrun_usage_error("missing -n N, the number of processes (see dsmrun --help)");
  if (optind >= argc)
    dsmrun_usage_error("missing the program to run (see dsmrun --help)");
  if (o->host_list && o->hostfile)
    dsmrun_usage_error("give either --host or --hostfile, not both");
  /* Without --bind-to, DSM_CPU_BIND from the environment is the setting
   * (checked here, where a bad value is a usage error, not a job failure). */
  const char *envbind = getenv("DSM_CPU_BIND");
  if (!o->bind_to && envbind && *envbind)
    o->bind_to = bind_mode("DSM_CPU_BIND", envbind);
  /* Likewise DSM_THREADS without --threads: every rank would reject a bad
   * value on its own. */
  const char *envthreads = getenv("DSM_THREADS");
  if (!o->threads && envthreads && *envthreads)
    o->threads = (unsigned)parse_long_opt("DSM_THREADS", envthreads, 1, DSMRUN_MAX_THREADS);
  if (o->launcher && !strstr(o->launcher, "{host}"))
    dsmrun_usage_error("--launcher needs {host} where the host name goes, got '%s'",
                       o->launcher);
  o->prog = argv + optind;
}
