#!/bin/bash
# test_usage.sh DSMRUN — bad usage gives "dsmrun: error: ..." and status 2;
# --help and --version (and -h, -V) print to stdout and exit 0.
. "$(dirname "$0")/../lib.sh"


printf 'okhost slots=2\n' >"$T/good-hosts"
printf 'h1 slots=2\nh2 slots=zero\n' >"$T/bad-slots"
printf 'h1 color=blue\n' >"$T/bad-field"
printf 'h1 addr=not.an.ip\n' >"$T/bad-addr"
printf '# only a comment\n\n' >"$T/empty-hosts"
printf 'h1\n' >"$T/unreadable"; chmod 000 "$T/unreadable"

bad "no arguments"            "missing -n"             
bad "no program"              "missing the program"       -n 2
bad "no -n"                   "missing -n"                true
bad "N = 0"                   "at least 1"                -n 0 true
bad "N < 0"                   "at least 1"                -n -3 true
bad "-np without N"           "-np needs an argument"     -np
bad "-np not a number"        "whole number, got 'x'"     -np x true
bad "-x not a name"           "-x needs VAR or VAR=VALUE"  -n 1 -x 1BAD true
bad "-x unset variable"       "DSMRUN_SURELY_UNSET is not set" -n 1 -x DSMRUN_SURELY_UNSET true
bad "N too large"             "at most 1024"              -n 100000 true
bad "N not a number"          "whole number"              -n four true
bad "-n without value"        "needs an argument"         -n
bad "unknown long option"     "unknown option --frobnicate" -n 2 --frobnicate true
bad "unknown short option"    "unknown option -q"         -n 2 -q true
bad "bad transport"           "udp or verbs"              -n 2 --transport tcp true
bad "bad timeout"             "--timeout"                 -n 2 --timeout 0 true
bad "bad max-time"            "--max-time"                -n 2 --max-time soon true
bad "missing hostfile"        "cannot read hostfile"      -n 2 --hostfile "$T/nope" true
bad "hostfile is a directory" "cannot read hostfile"      -n 2 --hostfile "$T" true
if [ "$(id -u)" -ne 0 ]; then
  bad "unreadable hostfile"   "cannot read hostfile"      -n 2 --hostfile "$T/unreadable" true
fi
bad "bad slots in hostfile"   "bad-slots:2: bad slot count" -n 2 --hostfile "$T/bad-slots" true
bad "unknown hostfile field"  "bad-field:1: unknown field 'color=blue'" -n 2 --hostfile "$T/bad-field" true
bad "bad addr in hostfile"    "addr= needs an IPv4"       -n 2 --hostfile "$T/bad-addr" true
bad "empty hostfile"          "names no host"             -n 2 --hostfile "$T/empty-hosts" true
bad "bad --host slots"        "bad slot count"            -n 2 --host a:0 true
bad "empty --host"            "empty host list"           -n 2 --host , true
bad "--host and --hostfile"   "either --host or --hostfile" -n 2 --host a --hostfile "$T/good-hosts" true
bad "launcher without {host}" "needs \\{host\\}"          -n 2 --launcher 'ssh' true
bad "launcher quote"          "unterminated"              -n 2 --host a --launcher "x {host} 'oops" true
bad "program not found"       "cannot find program"       -n 2 /nonexistent/prog-$$
bad "program not in PATH"     "cannot find program"       -n 2 no-such-program-$$
bad "unresolvable host"       "cannot resolve host"       -n 2 --host no-such-host-$$.invalid true

# Options after the program belong to the program.
"$DSMRUN" -n 1 echo -n --frobnicate >"$T/out" 2>"$T/err"
check "options after the program are the program's" [ "$(cat "$T/out")" = "--frobnicate" ]
"$DSMRUN" -n 1 -- echo x >"$T/out" 2>"$T/err"
check "-- ends dsmrun's options" [ "$(cat "$T/out")" = "x" ]
"$DSMRUN" --np=2 echo y >"$T/out" 2>"$T/err"
check "--np=2 works" [ "$(cat "$T/out")" = "$(printf 'y\ny')" ]

# info NAME OUT ARGS...: as mpirun users expect, ARGS print to stdout (kept
# in OUT), nothing to stderr, and exit 0.
info() {
  local name=$1 out=$2; shift 2
  "$DSMRUN" "$@" >"$out" 2>"$T/err" </dev/null
  local rc=$?
  if [ $rc -eq 0 ] && [ -s "$out" ] && [ ! -s "$T/err" ]; then
    pass "$name"
  else
    fail "$name: status $rc, stderr: $(cat "$T/err")"
  fi
}
info "--help: usage on stdout, exit 0" "$T/help" --help
check "--help starts with the usage line" grep -q '^Usage: dsmrun -n N ' "$T/help"
for opt in -n --np --host --hostfile --launcher --transport --stats --timeout --max-time \
           --tag-output --verbose --help --version; do
  check "--help mentions $opt" grep -q -- "$opt\\b" "$T/help"
done
info "-h: exit 0" "$T/out" -h
check "-h prints what --help prints" cmp -s "$T/out" "$T/help"
info "--help after other options still helps" "$T/out" -n 2 --help
check "... with the same text" cmp -s "$T/out" "$T/help"
info "--version: on stdout, exit 0" "$T/version" --version
check "--version names dsmrun and ompdsm's version" grep -Eqx 'dsmrun \(ompdsm\) [0-9]+\.[0-9]+\.[0-9]+' "$T/version"
info "-V: exit 0" "$T/out" -V
check "-V prints what --version prints" cmp -s "$T/out" "$T/version"

finish
