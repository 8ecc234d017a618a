#!/bin/sh
# check_sealed.sh OMPDSMCC DSMRUN SRC WORKDIR
# Which regions ompdsmcc marks sealed (omp_outline.c, seals_span): SRC is
# sealed_calls.c, whose header lists the call each region must get. The
# program then runs on 2 processes, after asking nothing, and must print
# what cc -fopenmp's build prints.
abs() { case "$1" in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
ompdsmcc=$(abs "$1"); dsmrun=$(abs "$2"); src=$(abs "$3"); work=$4
name=$(basename "$src" .c)
mkdir -p "$work" || exit 1
cd "$work" || exit 1
"$ompdsmcc" -O1 -save-temps -o "$name" "$src" || { echo "ompdsmcc failed"; exit 1; }
calls=$(grep -o '__ompdsm_parallel[a-z_]*(__ompdsm_region_[0-9]*' "$name.omp.c" | sed 's/(.*//; s/__ompdsm_parallel_//; s/__ompdsm_parallel/fixed/' | tr '\n' ' ')
echo "calls: $calls"
want="dynamic sealed dynamic dynamic sealed sealed sealed dynamic dynamic sealed fixed fixed fixed fixed fixed fixed sealed fixed "
[ "$calls" = "$want" ] || { echo "want: $want"; exit 1; }
cc -O1 -fopenmp -o "$name.gomp" "$src" || { echo "cc -fopenmp failed"; exit 1; }
OMP_NUM_THREADS=2 "./$name.gomp" >gomp.out 2>/dev/null || { echo "the cc -fopenmp build failed"; exit 1; }
"$dsmrun" -n 2 "./$name" >dsm.out || { echo "the run on 2 processes failed"; exit 1; }
cat dsm.out
cmp gomp.out dsm.out || { echo "printed otherwise than cc -fopenmp's build"; exit 1; }
