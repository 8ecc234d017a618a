#!/bin/bash
# report.sh CSV MD OUTDIR SIZE NET SHAPE - turns bench.csv (written by
# run.sh) into bench.md and one gnuplot PNG per app (speedup against the
# sequential version vs processes, one line per parallel version).
# Environment: NOTE, an extra line for the Markdown (e.g. why MPI is missing).
set -u
CSV=$1 MD=$2 OUT=$3 SIZE=$4 NET=$5 SHAPE=$6
NOTE=${NOTE:-}

apps=$(awk -F, 'NR > 1 && !seen[$1]++ {print $1}' "$CSV")
procs=$(awk -F, 'NR > 1 && $2 != "seq" && !seen[$3]++ {print $3}' "$CSV" | sort -n)
maxp=$(printf '%s\n' $procs | tail -1)

{
  echo "# ompdsm application benchmark"
  echo
  if [ "$NET" = shaped ]; then
    echo "Size \`$SIZE\`, network \`shaped\` (one network namespace per DSM rank; $SHAPE), $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores."
  else
    echo "Size \`$SIZE\`, network \`loopback\` (all ranks on this host, UDP over lo), $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores."
  fi
  echo
  echo "Versions: seq (sequential), gomp (the OpenMP source, gcc -fopenmp, threads on one host),"
  echo "dsm (hand-written libdsm, TreadMarks style), ompdsm (the same OpenMP source through ompdsmcc),"
  echo "mpi (Open MPI). Speedup is against seq. Messages and bytes: sent by all ranks of the DSM job"
  echo "(from DSM_STATS=json, the whole job including setup and the final check by rank 0)."
  [ -z "$NOTE" ] || { echo; echo "Note: $NOTE."; }
  echo
  echo "## Speedup over the sequential version"
  echo
  printf '| app | version |'; for p in $procs; do printf ' p=%s |' "$p"; done; echo
  printf '|---|---|'; for p in $procs; do printf -- '---:|'; done; echo
  for a in $apps; do
    for v in gomp dsm ompdsm mpi; do
      grep -q "^$a,$v," "$CSV" || continue
      printf '| %s | %s |' "$a" "$v"
      for p in $procs; do
        awk -F, -v a="$a" -v v="$v" -v p="$p" '$1 == a && $2 == v && $3 == p {
            printf " %s |", ($6 != "" ? $6 : $9); f = 1 } END { if (!f) printf " |" }' "$CSV"
      done
      echo
    done
  done
  echo
  echo "## Time, speedup, messages and bytes"
  for a in $apps; do
    echo
    echo "### $a"
    echo
    echo "| version | procs | time (s) | speedup | messages | bytes | status |"
    echo "|---|---:|---:|---:|---:|---:|---|"
    awk -F, -v a="$a" '$1 == a { printf "| %s | %s | %s | %s | %s | %s | %s |\n", $2, $3, $5, $6, $7, $8, $9 }' "$CSV"
  done
  echo
  echo "## OpenMP on the DSM vs hand-written DSM vs MPI at $maxp processes"
  echo
  echo "Time ratios to the hand-written DSM version (above 1: slower than dsm); gomp is the one-host"
  echo "thread reference."
  echo
  echo "| app | gomp (s) | dsm (s) | ompdsm (s) | mpi (s) | ompdsm/dsm time | mpi/dsm time | ompdsm/dsm msgs | ompdsm/dsm bytes |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
  for a in $apps; do
    awk -F, -v a="$a" -v p="$maxp" '
      $1 == a && $3 == p { t[$2] = $5; m[$2] = $7; b[$2] = $8 }
      function r(x, y) { return (x != "" && y != "" && y > 0) ? sprintf("%.2f", x / y) : "" }
      END { printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", a, t["gomp"], t["dsm"],
            t["ompdsm"], t["mpi"], r(t["ompdsm"], t["dsm"]), r(t["mpi"], t["dsm"]),
            r(m["ompdsm"], m["dsm"]), r(b["ompdsm"], b["dsm"]) }' "$CSV"
  done
  # The ratios the performance issues set targets on, over the apps that
  # have both versions: geometric mean and the largest, with its app.
  echo
  awk -F, -v p="$maxp" '
    NR > 1 && $3 == p && $5 != "" { t[$1, $2] = $5; apps[$1] = 1 }
    function line(num, den, label,   a, n, s, mx, who, r) {
      n = 0; s = 0; mx = 0
      for (a in apps)
        if ((a, num) in t && (a, den) in t && t[a, den] > 0) {
          r = t[a, num] / t[a, den]; n++; s += log(r)
          if (r > mx) { mx = r; who = a }
        }
      if (n) printf "- %s: geometric mean %.2f over %d apps, largest %.2f (%s)\n", label, exp(s / n), n, mx, who
    }
    END {
      line("ompdsm", "mpi", "ompdsm / MPI time")
      line("dsm", "mpi", "dsm / MPI time")
      line("ompdsm", "dsm", "ompdsm / dsm time")
    }' "$CSV"
  reps=$(awk -F, 'NR > 1 && NF >= 10 { n = split($10, x, ";"); if (n > m) m = n } END { print m + 0 }' "$CSV")
  if [ "$reps" -gt 1 ]; then
    echo
    echo "Each time is the median of $reps rounds of the whole plan (bench.csv lists every round's time)."
  fi
} >"$MD"

# ---- plots --------------------------------------------------------------------
command -v gnuplot >/dev/null || { echo "report.sh: no gnuplot; plots skipped" >&2; exit 0; }
term="pngcairo size 640,480"
gnuplot -e 'set terminal pngcairo' >/dev/null 2>&1 </dev/null || term="png size 640,480"
for a in $apps; do
  plots=()
  for v in gomp dsm ompdsm mpi; do
    dat="$OUT/logs/plot-$a-$v-$NET.dat"
    awk -F, -v a="$a" -v v="$v" '$1 == a && $2 == v && $6 != "" { print $3, $6 }' "$CSV" >"$dat"
    [ -s "$dat" ] && plots+=("'$dat' using 1:2 with linespoints title '$v'")
  done
  [ ${#plots[@]} -gt 0 ] || continue
  plots+=("x with lines dashtype 2 linecolor rgb 'gray' title 'linear'")
  cmd=$(IFS=,; echo "${plots[*]}")
  gnuplot <<GP || echo "report.sh: gnuplot failed for $a" >&2
set terminal $term
set output '$OUT/speedup_${a}_$NET.png'
set title '$a ($SIZE, $NET): speedup over sequential'
set xlabel 'processes / threads'
set ylabel 'speedup'
set key top left
set grid
set xrange [0.8:$maxp.5]
set yrange [0:*]
set logscale x 2
plot $cmd
GP
done
