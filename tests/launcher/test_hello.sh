#!/bin/bash
# test_hello.sh DSMRUN HELLO_PROG — a libdsm job (dsm_startup, dsm_barrier,
# dsm_exit) started by dsmrun: the environment dsmrun gives is the one the
# library's bootstrap reads, and a rank's failure is blamed on that rank.
. "$(dirname "$0")/../lib.sh"
HELLO=${2:?usage: $0 DSMRUN HELLO_PROG}

for n in 1 2 4; do
  run_dsmrun "$T/out" "$T/err" -n $n --timeout 10 --max-time 60 "$HELLO"
  check "hello n=$n exits 0 ($(head -c 300 "$T/err"))" [ "$RC" -eq 0 ]
  check "hello n=$n: one greeting per rank" \
    [ "$(grep -Ec "^hello from [0-9]+ of $n\$" "$T/out")" -eq $n -a \
      "$(sort -u "$T/out" | grep -c '^hello')" -eq $n ]
done

# Without dsmrun: a job of one process.
"$HELLO" >"$T/out" 2>"$T/err" </dev/null
check "singleton without dsmrun ($(head -c 300 "$T/err"))" grep -qx 'hello from 0 of 1' "$T/out"

# Rank 2 exits 3 after the first barrier: the others stop (75), and dsmrun
# names rank 2.
run_dsmrun "$T/out" "$T/err" -n 4 --timeout 5 --max-time 60 "$HELLO" 2
check "failing rank: dsmrun exits 3" [ "$RC" -eq 3 ]
check "failing rank: rank 2 named" grep -Eq '^dsmrun: rank 2 .* exited with status 3$' "$T/err"
check "failing rank: down in under 15 s (${MS} ms)" [ "$MS" -lt 15000 ]

finish
