#!/bin/sh
# check_flush_wait.sh OMPDSMCC DSMRUN SRC WORKDIR
# Flushes that wait (sync/flush.c): SRC, a pipeline whose rows each end in
# a flush and whose spins read one flag, runs on 2 processes with every
# flush releasing (DSM_FLUSH_WAIT=0) and as it does by default. Both must
# print the same; by default most flushes must wait (flushes_waited) and
# the job must make fewer than half the intervals, and the spins must
# have passed their words (ompdsmcc: __ompdsm_spin_watch).
ompdsmcc=$1; dsmrun=$2; src=$3; work=$4
name=$(basename "$src" .c)
mkdir -p "$work" || exit 1
"$ompdsmcc" -O2 -save-temps -o "$work/$name" "$src" || { echo "ompdsmcc failed"; exit 1; }
mv -f "$name.omp.c" "$work/" 2>/dev/null
grep -q '__ompdsm_spin_watch((const void \*)&( flag \[' "$work/$name.omp.c" ||
  { echo "ompdsmcc passed no word to the spins of $src"; exit 1; }
total() {   # total FIELD JSON: the field summed over the ranks
  python3 -c "import json,sys; print(sum(r['$1'] for r in json.load(open(sys.argv[1]))['ranks']))" "$2"
}
DSM_FLUSH_WAIT=0 DSM_STATS="json:$work/$name.0.json" "$dsmrun" -n 2 "$work/$name" >"$work/$name.0.out" ||
  { echo "the run with DSM_FLUSH_WAIT=0 failed"; exit 1; }
DSM_STATS="json:$work/$name.1.json" "$dsmrun" -n 2 "$work/$name" >"$work/$name.1.out" ||
  { echo "the run with flushes that wait failed"; exit 1; }
cmp "$work/$name.0.out" "$work/$name.1.out" || { echo "the two runs printed different results"; exit 1; }
i0=$(total intervals "$work/$name.0.json"); i1=$(total intervals "$work/$name.1.json")
w0=$(total flushes_waited "$work/$name.0.json"); w1=$(total flushes_waited "$work/$name.1.json")
echo "every flush releases: $i0 intervals, $w0 flushes waited"
echo "flushes that wait:    $i1 intervals, $w1 flushes waited"
[ "$w0" -eq 0 ] || { echo "DSM_FLUSH_WAIT=0, and flushes waited"; exit 1; }
[ "$w1" -gt 0 ] || { echo "no flush waited"; exit 1; }
[ $((i1 * 2)) -lt "$i0" ] || { echo "flushes that wait did not halve the intervals"; exit 1; }
