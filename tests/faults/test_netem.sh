#!/bin/bash
# test_netem.sh DSMRUN SOR LOCK_COUNTER [APP_DSM...] — jobs over
# bad links. A 4-process job runs on two network namespaces (2 ranks each)
# joined by a bridge; tc netem on the bridge side of both veth pairs (so
# every datagram between the namespaces crosses exactly one netem) makes
# the link lose 1%, 5% or 20% of the datagrams, duplicate 5%, or reorder
# (delay 1ms 1ms reorder 25%). Each job must keep its exact answer: sor
# compares with the sequential result bit for bit, lock_counter checks its
# counter and log, faults_job checks every round, an app prints VERIFIED.
# The wall times and slowdown factors against the same job on clean links
# are printed as a table (also written to $FAULTS_TABLE when set); only
# correctness is asserted.
. "$(dirname "$0")/../lib.sh"
SOR=${2:?usage: $0 DSMRUN SOR LOCK_COUNTER [APP_DSM...]}
LOCKC=${3:?}
shift 3
APPS=("$@")
# tools/test.sh sets OMPDSM_NETEM=0 for the sanitizer build: this test runs
# in the normal build, and under ASan it was the longest test of CI (150 s
# alone on the machine) while the transport suite's loss and duplication
# tests already take the same code paths under ASan.
[ "${OMPDSM_NETEM:-1}" = 0 ] && skip "OMPDSM_NETEM=0 (run in the normal build)"
need_root_netns
command -v tc >/dev/null || skip "tc is not available"

ID=$$
ADDR=(10.78.0.11 10.78.0.12)
if ! netns_hosts df "${ADDR[@]}"; then
  skip "cannot create namespaces, veth pairs or a bridge here"
fi
# tc netem may be missing (a kernel without sch_netem). Then loss and
# duplication come from nftables rules on the ingress of the bridge-side
# veths (what one namespace sends, before the bridge forwards it), and the
# reordering sends a quarter of the datagrams over a detour (a veth pair
# with a token bucket) so that they arrive after later ones.
SHAPER=netem
if ! tc qdisc add dev "${VETH[0]}" root netem loss 1% 2>/dev/null; then
  SHAPER=nft
  if ! command -v nft >/dev/null ||
     ! nft add table netdev "dft$ID" 2>/dev/null; then
    skip "neither tc netem nor nftables (netdev family) is available"
  fi
  CLEANUP+=("nft delete table netdev dft$ID 2>/dev/null")
fi
tc qdisc del dev "${VETH[0]}" root 2>/dev/null
# The reordering detour for nft: veth dfr<i> -> dfs<i> with a token bucket
# on dfr<i>; what arrives on dfs<i> goes on to the other namespace.
REORDER_BROKEN=0
if [ "$SHAPER" = nft ]; then
  CLEANUP+=("nft delete table netdev dfd$ID 2>/dev/null")
  nft add table netdev "dfd$ID" || REORDER_BROKEN=1
  for i in 0 1; do
    CLEANUP+=("ip link del dfr$ID$i 2>/dev/null")
    ip link add "dfr$ID$i" type veth peer name "dfs$ID$i" &&
      ip link set "dfr$ID$i" up && ip link set "dfs$ID$i" up &&
      tc qdisc add dev "dfr$ID$i" root tbf rate 4mbit burst 3000 latency 200ms &&
      nft add chain netdev "dfd$ID" "det$i" \
        "{ type filter hook ingress device \"dfs$ID$i\" priority 0; }" &&
      nft add rule netdev "dfd$ID" "det$i" fwd to "\"${VETH[$((1 - i))]}\"" ||
      REORDER_BROKEN=1
  done
fi
echo "link faults made with: $SHAPER"
cat >"$T/hosts" <<HOSTS
${NS[0]} slots=2 addr=${ADDR[0]}
${NS[1]} slots=2 addr=${ADDR[1]}
HOSTS

# shape KIND [PERCENT]: KIND none, loss or dup (PERCENT of the datagrams),
# or reorder, on both directions of the link; every datagram between the
# namespaces passes exactly one shaper. Fails when KIND cannot be made.
shape() {
  local kind=$1 pct=${2:-0} i
  if [ "$SHAPER" = netem ]; then
    local args=()
    case $kind in
      loss) args=(loss "$pct%") ;;
      dup) args=(duplicate "$pct%") ;;
      reorder) args=(delay 1ms 1ms reorder 25%) ;;   # netem reorders only with a delay
    esac
    for i in 0 1; do
      tc qdisc del dev "${VETH[$i]}" root 2>/dev/null
      if [ "$kind" != none ]; then tc qdisc add dev "${VETH[$i]}" root netem "${args[@]}" || return 1; fi
    done
    return 0
  fi
  nft delete table netdev "dft$ID" 2>/dev/null
  nft add table netdev "dft$ID" || return 1
  for i in 0 1; do
    local rule
    case $kind in
      none) continue ;;
      loss) rule="ip protocol udp numgen random mod 100 < $pct counter drop" ;;
      # the copy leaves through the other namespace's veth: the bridge has
      # only these two ports, so that is where the datagram is going.
      dup) rule="ip protocol udp numgen random mod 100 < $pct counter dup to \"${VETH[$((1 - i))]}\"" ;;
      # a quarter of the datagrams take a detour through a veth pair
      # whose token bucket queues them, so they arrive after later ones
      reorder) [ "$REORDER_BROKEN" = 0 ] || return 1
        rule="ip protocol udp numgen random mod 100 < 25 counter fwd to \"dfr$ID$i\"" ;;
      *) return 1 ;;
    esac
    nft add chain netdev "dft$ID" "in$i" \
      "{ type filter hook ingress device \"${VETH[$i]}\" priority 0; }" || return 1
    nft add rule netdev "dft$ID" "in$i" $rule || return 1
  done
}
CLEANUP+=("tc qdisc del dev ${VETH[0]} root 2>/dev/null; tc qdisc del dev ${VETH[1]} root 2>/dev/null")

# Workloads: name, executable, arguments, pattern its output must match.
W_NAME=(sor lock_counter)
W_EXE=("$SOR" "$LOCKC")
W_ARGS=("" "")
W_OK=("equal the sequential result bit for bit" "^lock_counter: 4 processes x [0-9]+ increments = [0-9]+: OK")
for a in "${APPS[@]}"; do
  W_NAME+=("$(basename "$a" | sed 's/^faults_//; s/_dsm$//')")
  W_EXE+=("$a")
  W_ARGS+=("-s small")
  W_OK+=("^VERIFIED")
done
CHEAP=2   # the first CHEAP workloads: what a condition with cheap=1 runs

# cond NAME MAXTIME CHEAP_ONLY KIND [PERCENT]
declare -A TIME
COND_NAMES=()
cond() {
  local name=$1 maxt=$2 cheap=$3; shift 3
  if ! shape "$@"; then
    if [ "$1" = reorder ] && [ "$SHAPER" = nft ]; then
      echo "$name: not run (no tc netem here, and the nft detour could not be built)"; return
    fi
    fail "$name: cannot shape the link ($*)"; return
  fi
  COND_NAMES+=("$name")
  local w count=${#W_NAME[@]}
  [ "$cheap" = 1 ] && count=$CHEAP
  for ((w = 0; w < count; w++)); do
    local mark
    mark=$(marked "${W_EXE[$w]}")
    # shellcheck disable=SC2086
    run_dsmrun "$T/out" "$T/err" -n 4 --hostfile "$T/hosts" --launcher 'ip netns exec {host}' \
      --max-time "$maxt" "$mark" ${W_ARGS[$w]}
    local what="$name ${W_NAME[$w]}"
    echo "$what: status $RC, $MS ms"
    check "$what: exits 0 ($(head -c 300 "$T/err"))" [ "$RC" -eq 0 ]
    if [ -n "${W_OK[$w]}" ]; then
      check "$what: correct answer" grep_q "${W_OK[$w]}" "$T/out"
    fi
    check "$what: no process left" no_process "$mark"
    [ "$RC" -eq 0 ] && TIME["$name/${W_NAME[$w]}"]=$MS
  done
  if [ "$SHAPER" = nft ] && [ "$1" != none ]; then
    # the shaper really acted: its counters saw datagrams
    local hits
    hits=$(nft list table netdev "dft$ID" | grep -oE 'counter packets [0-9]+' | awk '{ s += $3 } END { print s + 0 }')
    echo "$name: nft rules hit $hits datagrams"
    check "$name: the nft rules dropped/duplicated datagrams ($hits)" [ "$hits" -gt 0 ]
  fi
}

cond clean 60 0 none
cond loss1% 90 0 loss 1
cond loss5% 120 0 loss 5
cond dup5% 90 0 dup 5
cond reorder 90 0 reorder
cond loss20% 240 0 loss 20
shape none

# The table: wall time in seconds and the factor against the clean run.
{
  printf '%-10s' "condition"
  for n in "${W_NAME[@]}"; do printf ' %18s' "$n"; done
  echo
  for c in "${COND_NAMES[@]}"; do
    printf '%-10s' "$c"
    for n in "${W_NAME[@]}"; do
      t=${TIME["$c/$n"]:-}; b=${TIME["clean/$n"]:-}
      if [ -z "$t" ]; then printf ' %18s' "-"
      elif [ -z "$b" ]; then printf ' %18s' "$(awk -v t="$t" 'BEGIN { printf "%.2fs", t / 1000 }')"
      else printf ' %18s' "$(awk -v t="$t" -v b="$b" 'BEGIN { printf "%.2fs (x%.1f)", t / 1000, t / b }')"
      fi
    done
    echo
  done
} >"$T/table"
echo "wall time on 4 processes over 2 namespaces ($SHAPER), slowdown vs clean:"
cat "$T/table"
if [ -n "${FAULTS_TABLE:-}" ]; then cp "$T/table" "$FAULTS_TABLE"; fi

finish
