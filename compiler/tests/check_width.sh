#!/bin/sh
# check_width.sh OMPDSMCC DSMRUN SRC WORKDIR
# Regions the runtime may run on the master's process alone (OMP_DYNAMIC,
# sync/omp/omp_width.c). SRC is region_width.c: lines(), a region of many
# short loops and barriers, lines_via(), the same calling through a
# pointer, smooth(), one that computes between them, and count(), which
# asks its thread number. ompdsmcc must let the runtime choose the first
# three and not the fourth, and mark lines() and smooth() sealed (all they
# run is seen and asks nothing); on 2 processes the job must go to the
# master's process (lines()) and smooth() must be probed; with
# OMP_DYNAMIC=false nothing is narrowed or tried; in a program that asks
# its team's size first only the sealed regions are narrowed, unless
# OMP_DYNAMIC=true is set. Every run prints the same.
abs() { case "$1" in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
ompdsmcc=$(abs "$1"); dsmrun=$(abs "$2"); src=$(abs "$3"); work=$4
name=$(basename "$src" .c)
mkdir -p "$work" || exit 1
cd "$work" || exit 1
"$ompdsmcc" -O2 -save-temps -o "$name" "$src" || { echo "ompdsmcc failed"; exit 1; }
calls=$(grep -o '__ompdsm_parallel[a-z_]*(__ompdsm_region_[0-9]*' "$name.omp.c" | sed 's/(.*//' | tr '\n' ' ')
echo "calls: $calls"
[ "$calls" = "__ompdsm_parallel_sealed __ompdsm_parallel_dynamic __ompdsm_parallel_sealed __ompdsm_parallel __ompdsm_parallel " ] ||
  { echo "want lines() and smooth() sealed, lines_via() dynamic, count() and main's question fixed"; exit 1; }
total() {   # total FIELD JSON: the field summed over the ranks
  python3 -c "import json,sys; print(sum(r['$1'] for r in json.load(open(sys.argv[1]))['ranks']))" "$2"
}
DSM_WIDTH_LOG=1 DSM_STATS="json:dyn.json" "$dsmrun" -n 2 "./$name" >dyn.out 2>dyn.err ||
  { cat dyn.err; echo "the run with OMP_DYNAMIC unset failed"; exit 1; }
cat dyn.err
OMP_DYNAMIC=false DSM_WIDTH_LOG=1 DSM_STATS="json:fixed.json" "$dsmrun" -n 2 "./$name" >fixed.out 2>fixed.err ||
  { cat fixed.err; echo "the run with OMP_DYNAMIC=false failed"; exit 1; }
REGION_WIDTH_ASK=1 DSM_WIDTH_LOG=1 DSM_STATS="json:ask.json" "$dsmrun" -n 2 "./$name" >ask.out 2>ask.err ||
  { cat ask.err; echo "the run that asks its team first failed"; exit 1; }
REGION_WIDTH_ASK=1 OMP_DYNAMIC=true DSM_WIDTH_LOG=1 DSM_STATS="json:asksaid.json" "$dsmrun" -n 2 "./$name" \
  >asksaid.out 2>asksaid.err || { cat asksaid.err; echo "the run with OMP_DYNAMIC=true failed"; exit 1; }
cat dyn.out
for r in fixed ask asksaid; do
  cmp dyn.out $r.out || { echo "the $r run printed another result"; exit 1; }
done
# The regions' lines: the first directive after each function's name.
at() { awk -v f="$1" 'index($0, f) { on = 1 } on && /^#pragma omp parallel/ { print NR; exit }' "$src"; }
l_smooth=$(at "static void smooth")
na=$(total regions_narrow ask.json); ns=$(total regions_narrow asksaid.json)
echo "asked first: $na regions narrowed; asked first with OMP_DYNAMIC=true: $ns"
# lines() runs 40 times, lines_via() 40: after 4 runs spread and 6 narrow
# (a trial) the job goes to the master's process, and stays there: 36 of
# lines()'s runs narrow, 38 of lines_via()'s (probed: 2 spread, then
# narrow), up to 10 of smooth()'s (probed). Asked first, lines_via() keeps
# its team: its runs must not be among those counted (46 at most without).
[ "$na" -ge 25 ] && [ "$na" -le 60 ] ||
  { cat ask.err; echo "asked first: lines() must be narrowed (sealed), lines_via() not"; exit 1; }
[ "$ns" -ge 55 ] || { cat asksaid.err; echo "OMP_DYNAMIC=true, and lines() and lines_via() were not narrowed after the question"; exit 1; }
n1=$(total regions_narrow dyn.json); t1=$(total regions_width_tried dyn.json)
n0=$(total regions_narrow fixed.json); t0=$(total regions_width_tried fixed.json)
echo "dynamic: $n1 regions narrowed, $t1 tried; fixed: $n0 narrowed, $t0 tried"
[ "$n0" -eq 0 ] && [ "$t0" -eq 0 ] && [ ! -s fixed.err ] ||
  { echo "OMP_DYNAMIC=false, and the runtime changed a team"; exit 1; }
[ "$n1" -ge 55 ] || { echo "lines() and lines_via() were not narrowed"; exit 1; }
grep -q "^ompdsm: regions run on the master's process alone (1 regions timed in both" dyn.err ||
  { echo "no decision for lines() after its first two epochs"; exit 1; }
# smooth() computes ~15 ms between its fork and join; first seen while the
# job runs narrow, it is probed, and should go its own way, spread. (Only
# the probe is asserted: on a loaded machine a descheduled rank 1 can make
# the spread run look slow.)
grep -q "region_width.c:$l_smooth, probed: " dyn.err ||
  { echo "smooth() was not probed"; exit 1; }
