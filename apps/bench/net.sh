#!/bin/bash
# net.sh - test networks (issue 53): every rank a "workstation" in a network
# namespace of its own, on links of a named profile, for ompdsm (dsmrun)
# and Open MPI (mpirun) alike.
#
#   apps/bench/net.sh up PROFILE N DIR [--build B]   make N hosts; what to pass
#                                                    dsmrun and mpirun goes to DIR
#   apps/bench/net.sh down DIR                       remove them again
#   apps/bench/net.sh measure [--build B] [PROFILE...]
#                                                    measure profiles on 2 hosts
#                                                    (default: loopback veth relay
#                                                    10g 1g)
#
# Profiles (one-way delay = from one host's NIC to another's):
#   loopback  no namespaces: every rank on this host's loopback
#   veth      namespaces joined by a kernel bridge, nothing shaped: the
#             reference the others are measured against
#   relay     namespaces joined by netrelay with no delay and no shaping:
#             what the relay itself costs
#   10g       10 Gbit/s, 10 us one way
#   1g        1 Gbit/s, 50 us one way
#   RATE/US   any other: a tc rate (e.g. 100mbit, or "none") and a delay in us
#
# How a shaped profile is made. Host i is namespace nw<id>-<i> with eth0
# (10.79.0.<11+i>/24); its veth peer nw<id>h<i> stays in this namespace.
# Bandwidth: a tbf qdisc on eth0 (the host's NIC) and one on nw<id>h<i>
# (the switch port towards the host), both at RATE. Delay: tools/netrelay,
# one process that switches frames among the nw<id>h<i> and holds each
# for US microseconds after the kernel received it (this kernel has no
# netem; see docs/faults.md "Test networks" for the choice and its
# measurement). Every frame, UDP or TCP, crosses one relay, so A to B
# takes US one way, whatever program sends it.
#
# Files in DIR after `up`: env.sh (bash arrays to source: NET_DSMRUN, the
# dsmrun options; NET_MPIEXEC, the prefix that runs mpirun in host 0's
# namespace; NET_MPIRUN, mpirun's options), hosts (dsmrun's hostfile),
# mpihosts (Open MPI's), rsh (Open MPI's rsh agent: ip netns exec), relay.*
# (the relay's pid, log and statistics: `kill -USR1 PID` rewrites
# relay.stats) and teardown (what `down` undoes). Needs root, ip, tc.
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD="$ROOT/build"
SUBNET=10.79.0

usage() { sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2; }
die() { echo "net.sh: $*" >&2; exit 1; }

# profile_params PROFILE: sets KIND (loopback, bridge or relay), RATE (a tc
# rate or none) and DELAY_US; fails on an unknown profile.
profile_params() {
  case "$1" in
    loopback) KIND=loopback RATE=none DELAY_US=0 ;;
    veth) KIND=bridge RATE=none DELAY_US=0 ;;
    relay) KIND=relay RATE=none DELAY_US=0 ;;
    10g) KIND=relay RATE=10gbit DELAY_US=10 ;;
    1g) KIND=relay RATE=1gbit DELAY_US=50 ;;
    */*) KIND=relay RATE=${1%/*} DELAY_US=${1#*/}
         case "$DELAY_US" in ''|*[!0-9.]*) return 1 ;; esac
         case "$RATE" in none|[0-9]*bit) ;; *) return 1 ;; esac ;;
    *) return 1 ;;
  esac
}

# The token bucket of RATE. Its depth is 72 KiB: TCP hands the NIC
# segmentation-offloaded frames of up to 64 KiB plus headers, and tbf cuts
# a frame deeper than its bucket into 1500-byte ones, which the relay would
# then forward one system call each (with a 3 KB bucket a TCP stream under
# 1g made 406 Mbit/s and left the relay milliseconds late; with 72 KiB,
# 947). The price: a burst of up to 72 KiB leaves at once, so a message
# that small is not charged its time on the wire (a 4 KiB page: 33 us at
# 1 Gbit/s); sustained traffic is held to RATE. The queue, 1000 full
# frames, is a NIC's default transmit queue (txqueuelen).
tbf_args() {
  echo "rate $1 burst 73728 limit 1514000"
}

cmd_up() {
  local profile=$1 n=$2 dir=$3
  profile_params "$profile" || die "unknown profile '$profile' (loopback, veth, relay, 10g, 1g or RATE/US)"
  case "$n" in ''|*[!0-9]*) die "N must be a count of hosts" ;; esac
  [ "$n" -ge 1 ] && [ "$n" -le 64 ] || die "N must be 1..64"
  mkdir -p "$dir" || die "cannot make $dir"
  dir=$(cd "$dir" && pwd)
  [ ! -s "$dir/teardown" ] || die "$dir holds a network that is up; net.sh down $dir first"
  echo "$profile" >"$dir/profile"
  if [ "$KIND" = loopback ]; then
    cat >"$dir/env.sh" <<EOF
NET_PROFILE=loopback
NET_HOSTS=$n
NET_DSMRUN=()
NET_MPIEXEC=()
NET_MPIRUN=()
EOF
    : >"$dir/teardown"
    return 0
  fi
  [ "$(id -u)" -eq 0 ] || die "profile $profile needs root (network namespaces)"
  command -v ip >/dev/null && command -v tc >/dev/null || die "needs ip and tc (iproute2)"
  command -v unshare >/dev/null || die "needs unshare (util-linux)"
  if [ "$KIND" = relay ]; then
    [ -x "$BUILD/tools/netrelay" ] || die "no $BUILD/tools/netrelay; build first or pass --build"
  fi
  [ -x "$BUILD/tools/netprobe" ] || die "no $BUILD/tools/netprobe; build first or pass --build"
  local tbf=""
  [ "$RATE" = none ] || tbf=$(tbf_args "$RATE")
  # Short names: interface names have at most 15 characters.
  local id=$$ i ns h
  : >"$dir/teardown"
  : >"$dir/hosts"
  : >"$dir/mpihosts"
  local ports=()
  if [ "$KIND" = bridge ]; then
    echo "ip link del nw${id}br 2>/dev/null" >>"$dir/teardown"
    ip link add "nw${id}br" type bridge && ip link set "nw${id}br" up || { cmd_down "$dir"; die "cannot make a bridge"; }
  fi
  for ((i = 0; i < n; i++)); do
    ns="nw$id-$i" h="nw${id}h$i"
    echo "ip netns del $ns 2>/dev/null; ip link del $h 2>/dev/null" >>"$dir/teardown"
    if ! { ip netns add "$ns" &&
           ip link add "$h" type veth peer name eth0 netns "$ns" &&
           ip -n "$ns" addr add "$SUBNET.$((11 + i))/24" dev eth0 &&
           ip -n "$ns" link set lo up && ip -n "$ns" link set eth0 up &&
           ip link set "$h" up; }; then
      cmd_down "$dir"; die "cannot make host $i ($ns)"
    fi
    # No IPv6: its router and neighbour solicitations would be frames on
    # the links that no job sent.
    ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 2>/dev/null
    sysctl -qw "net.ipv6.conf.$h.disable_ipv6=1" 2>/dev/null
    if [ -n "$tbf" ]; then
      # shellcheck disable=SC2086
      if ! { ip netns exec "$ns" tc qdisc add dev eth0 root tbf $tbf &&
             tc qdisc add dev "$h" root tbf $tbf; }; then
        cmd_down "$dir"; die "cannot add tbf ($tbf) on host $i"
      fi
    fi
    [ "$KIND" = bridge ] && ip link set "$h" master "nw${id}br"
    ports+=("$h")
    echo "$ns slots=1 addr=$SUBNET.$((11 + i))" >>"$dir/hosts"
    echo "$ns slots=1" >>"$dir/mpihosts"
  done
  if [ "$KIND" = relay ]; then
    rm -f "$dir/relay.ready" "$dir/relay.stats"
    setsid "$BUILD/tools/netrelay" --delay-us "$DELAY_US" --stats "$dir/relay.stats" \
      --ready "$dir/relay.ready" "${ports[@]}" >"$dir/relay.log" 2>&1 </dev/null &
    local pid=$!
    echo "$pid" >"$dir/relay.pid"
    # Removed first (the teardown runs last line first), before its ports.
    echo "kill $pid 2>/dev/null; sleep 0.2" >>"$dir/teardown"
    for ((i = 0; i < 50; i++)); do
      [ -s "$dir/relay.ready" ] && break
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    [ -s "$dir/relay.ready" ] || { cat "$dir/relay.log" >&2; cmd_down "$dir"; die "netrelay did not start"; }
  fi
  # Open MPI's rsh agent: a "host" is a namespace, and it gets a host name
  # of its own (a UTS namespace): with every daemon called as this machine
  # is, Open MPI 4.1 lost track of which daemon was where and hung or
  # aborted 4 jobs in 30 ("ORTE does not know how to route a message");
  # with names, 0 in 40. The remote command comes as ssh would pass it,
  # one string for a shell.
  cat >"$dir/rsh" <<'EOF'
#!/bin/sh
host=$1
shift
exec ip netns exec "$host" unshare --uts /bin/sh -c 'hostname "$0" && exec /bin/sh -c "$1"' "$host" "$*"
EOF
  chmod +x "$dir/rsh"
  cat >"$dir/env.sh" <<EOF
NET_PROFILE=$profile
NET_HOSTS=$n
NET_DSMRUN=(--hostfile $dir/hosts --launcher 'ip netns exec {host}')
NET_MPIEXEC=(ip netns exec nw$id-0)
NET_MPIRUN=(--hostfile $dir/mpihosts --mca plm_rsh_agent $dir/rsh --mca plm_rsh_no_tree_spawn 1
            --mca btl tcp,self --mca btl_tcp_if_include $SUBNET.0/24 --mca oob_tcp_if_include $SUBNET.0/24)
EOF
  # Every host reaches host 0 (this also fills the neighbour tables).
  local port=$((20000 + id % 20000))
  ip netns exec "nw$id-0" "$BUILD/tools/netprobe" serve "$port" >/dev/null 2>&1 &
  local srv=$!
  sleep 0.2
  local bad=""
  for ((i = 1; i < n; i++)); do
    timeout 10 ip netns exec "nw$id-$i" "$BUILD/tools/netprobe" rtt "$SUBNET.11" "$port" 3 >/dev/null 2>&1 || bad="$bad $i"
  done
  kill "$srv" 2>/dev/null
  wait "$srv" 2>/dev/null
  [ -z "$bad" ] || { cmd_down "$dir"; die "hosts$bad cannot reach host 0"; }
  return 0
}

cmd_down() {
  local dir=$1
  [ -f "$dir/teardown" ] || return 0
  # last made, first removed
  tac "$dir/teardown" >"$dir/teardown.rev"
  bash "$dir/teardown.rev"
  rm -f "$dir/teardown" "$dir/teardown.rev"
}

# measure: each profile on 2 hosts: UDP round trips of 64 and 1400 bytes,
# a TCP stream; the one-way delay a profile adds is half the difference of
# its round trip and veth's, by the minimum (the least disturbed sample on
# a shared machine) and the median.
cmd_measure() {
  local profiles=("$@")
  [ ${#profiles[@]} -gt 0 ] || profiles=(loopback veth relay 10g 1g)
  local tmp
  tmp=$(mktemp -d "${TMPDIR:-/tmp}/netmeasure.XXXXXX")
  MEASURE_TMP=$tmp
  trap 'cmd_down "$MEASURE_TMP/net" 2>/dev/null; rm -rf "$MEASURE_TMP"' EXIT
  local p base_min="" base_p50=""
  printf '%-8s %9s %7s | %8s %8s %8s | %8s %8s | %10s %10s | %9s | %s\n' \
    profile rate delay rtt64min p50 p99 rtt1400m p50 "+1way min" "+1way p50" "tcp Mbit" "relay: offset p50/p99 us, drops"
  for p in "${profiles[@]}"; do
    profile_params "$p" || die "unknown profile $p"
    # loopback: both ends in this namespace, on 127.0.0.1
    local in0=() in1=() dst=127.0.0.1
    if [ "$KIND" != loopback ]; then
      cmd_up "$p" 2 "$tmp/net" || die "cannot bring up $p"
      in0=(ip netns exec "$(sed -n '1s/ .*//p' "$tmp/net/hosts")")
      in1=(ip netns exec "$(sed -n '2s/ .*//p' "$tmp/net/hosts")")
      dst=$SUBNET.12
    fi
    "${in1[@]}" "$BUILD/tools/netprobe" serve 5099 >/dev/null 2>&1 &
    local srv=$!
    sleep 0.2
    local r64 r14 st
    r64=$("${in0[@]}" "$BUILD/tools/netprobe" rtt "$dst" 5099 3000 64)
    r14=$("${in0[@]}" "$BUILD/tools/netprobe" rtt "$dst" 5099 1000 1400)
    local mb=400
    case "$RATE" in *mbit|*kbit) mb=20 ;; 1gbit) mb=100 ;; esac
    st=$("${in0[@]}" "$BUILD/tools/netprobe" stream "$dst" 5099 "$mb")
    kill "$srv" 2>/dev/null; wait "$srv" 2>/dev/null
    local relay="-"
    if [ -f "$tmp/net/relay.pid" ]; then
      kill -USR1 "$(cat "$tmp/net/relay.pid")"; sleep 0.2
      relay=$(awk '/^offset_p50_us/ {a=$2} /^offset_p99_us/ {b=$2} /_drops/ {d+=$2}
                   END {printf "%s/%s, %d", a, b, d}' "$tmp/net/relay.stats")
    fi
    cmd_down "$tmp/net"
    get() { sed -n "s/.* $1=\([0-9.]*\).*/\1/p" <<<"$2"; }
    local m64 p64 q64 m14 p14 tcp
    m64=$(get min "$r64") p64=$(get p50 "$r64") q64=$(get p99 "$r64")
    m14=$(get min "$r14") p14=$(get p50 "$r14")
    tcp=$(sed -n 's/stream_mbit=\([0-9.]*\).*/\1/p' <<<"$st")
    if [ "$p" = veth ]; then base_min=$m64 base_p50=$p64; fi
    local add_min="-" add_p50="-"
    if [ -n "$base_min" ] && [ "$p" != veth ] && [ "$KIND" != loopback ]; then
      add_min=$(awk -v a="$m64" -v b="$base_min" 'BEGIN {printf "%.1f", (a - b) / 2}')
      add_p50=$(awk -v a="$p64" -v b="$base_p50" 'BEGIN {printf "%.1f", (a - b) / 2}')
    fi
    printf '%-8s %9s %5sus | %8s %8s %8s | %8s %8s | %10s %10s | %9s | %s\n' \
      "$p" "$RATE" "$DELAY_US" "$m64" "$p64" "$q64" "$m14" "$p14" "$add_min" "$add_p50" "$tcp" "$relay"
  done
  echo "(round trips in us over UDP, 3000 of 64 bytes and 1000 of 1400; +1way: half the"
  echo " round trip's excess over veth's; tcp: one stream through both tbf and the relay)"
}

[ $# -ge 1 ] || usage
sub=$1; shift
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --build) BUILD=$(cd "$2" && pwd) || exit 2; shift 2 ;;
    -h|--help) usage ;;
    *) args+=("$1"); shift ;;
  esac
done
case "$sub" in
  up) [ ${#args[@]} -eq 3 ] || usage; cmd_up "${args[@]}" ;;
  down) [ ${#args[@]} -eq 1 ] || usage; cmd_down "${args[0]}" ;;
  measure) cmd_measure "${args[@]}" ;;
  -h|--help|help) usage ;;
  *) usage ;;
esac
