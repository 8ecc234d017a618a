#!/bin/sh
# check_stats.sh MODE -- dsmrun args...
# Runs a dsmrun job with DSM_STATS=json:FILE and checks the verbs counters
# summed over all ranks:
#   read      RDMA READ fetched messages (rdma_reads > 0, bytes > 0)
#   fallback  no READ at all, yet the job ran over verbs (verbs_sends > 0)
#   onesided  pages were read one-sided (os_pages > 0, and no more than were fetched)
#   messages  one-sided fetches off (DSM_ONESIDED=0): none, while READ still
#             carried large messages
set -u
mode=$1
shift 2
out=$(mktemp)
DSM_STATS=json:$out "$@" || { echo "check_stats: job failed" >&2; rm -f "$out"; exit 1; }
sum() { grep -o "\"$1\": [0-9]*" "$out" | awk '{ s += $2 } END { print s + 0 }'; }
reads=$(sum rdma_reads) bytes=$(sum rdma_bytes_read) sends=$(sum verbs_sends)
stalls=$(sum credit_stalls)
ospages=$(sum os_pages) busy=$(sum os_page_busy)
fetched=$(sum pages_fetched)
rm -f "$out"
echo "check_stats: verbs_sends=$sends rdma_reads=$reads rdma_bytes_read=$bytes credit_stalls=$stalls"
echo "check_stats: pages_fetched=$fetched os_pages=$ospages os_page_busy=$busy"
case $mode in
  read)     [ "$sends" -gt 0 ] && [ "$reads" -gt 0 ] && [ "$bytes" -gt 0 ] ;;
  fallback) [ "$sends" -gt 0 ] && [ "$reads" -eq 0 ] ;;
  onesided) [ "$ospages" -gt 0 ] && [ "$ospages" -le "$fetched" ] ;;
  messages) [ "$ospages" -eq 0 ] && [ "$reads" -gt 0 ] ;;
  *) echo "check_stats: unknown mode $mode" >&2; exit 2 ;;
esac
