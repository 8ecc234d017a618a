#!/usr/bin/env python3
"""check_profile.py DSMRUN DSMPROF PROG NPROCS: the sharing profiler on
known patterns (sharing.c) must name fs_slots as falsely shared, ts_counter
as truly shared, show no traffic for private_only, name the heap block by
its allocation call, and write a Chrome trace and a plot; its message
timeline must pair every message taken in with the one sent, report their
latencies, and draw them as arrows in the trace."""
import json
import os
import subprocess
import sys
import tempfile

dsmrun, dsmprof, prog, n = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print(f"check_profile: FAILED: {what}", file=sys.stderr)


with tempfile.TemporaryDirectory() as d:
    prof = os.path.join(d, "prof")
    r = subprocess.run([dsmrun, "-n", n, "--max-time", "120", "--profile", prof, prog],
                       capture_output=True, text=True)
    sys.stderr.write(r.stdout + r.stderr)
    if r.returncode != 0:
        sys.exit(f"check_profile: the job failed with status {r.returncode}")
    check("dsmprof " + prof in r.stderr, "dsmrun names the profile and dsmprof at the end")
    rep_path, trace, png = (os.path.join(d, x) for x in ("rep.json", "t.json", "p.png"))
    r = subprocess.run([sys.executable, dsmprof, prof, "--json", rep_path, "--trace", trace,
                        "--png", png, "--messages"], capture_output=True, text=True)
    print(r.stdout)
    sys.stderr.write(r.stderr)
    if r.returncode != 0:
        sys.exit(f"check_profile: dsmprof failed with status {r.returncode}")
    rep = json.load(open(rep_path))
    v = {x["name"]: x for x in rep["variables"]}
    # The message timeline: each rank's record of what it sent and took in.
    parts = [json.load(open(f"{prof}.{k}")) for k in range(int(n))]
    check(all(p.get("host") for p in parts), "every part names its host")
    taken = [(p["rank"], m) for p in parts for m in p["msgs"] if m[1] == 0 and m[4] != p["rank"]]
    sent = {(m[5], m[6], m[2] == 2, m[4] if m[2] != 2 else m[5]): p["rank"]
            for p in parts for m in p["msgs"] if m[1] == 1 and m[4] != p["rank"]}
    # (Job control around the profile's writing, EXIT and STATS, may be
    # recorded at one end only.)
    unmatched = [m for r, m in taken
                 if m[3] not in ("EXIT", "STATS", "HELLO") and
                 sent.get((m[5], m[6], m[2] == 2, r if m[2] != 2 else m[5])) != m[4]]
    check(len(taken) > 0 and not unmatched,
          f"every message taken in was recorded as sent by its peer ({len(taken)} taken in, "
          f"unmatched: {unmatched[:5]})")
    steps = 12
    mtypes = {(x["type"], x["kind"]): x for x in rep.get("messages", [])}
    lockq = mtypes.get(("LOCK", "request"))
    check(lockq is not None and lockq["count"] >= steps and 0 < lockq["median_us"] < 1e6,
          f"dsmprof reports the LOCK requests' latency (got {lockq})")
    check("messages, from sent to taken in" in r.stdout,
          "the text report has the message table with --messages")
    fs = v.get("fs_slots")
    check(fs is not None, "fs_slots is in the report")
    if fs:
        check(fs["sharing"] == "false", f"fs_slots judged false sharing (got {fs['sharing']})")
        # Step 1's writes at the home land while the page is still its
        # alone (exclusive: no twin, so no record of the bytes).
        check(fs["false_sharing_epochs"] >= steps - 1, f"fs_slots falsely shared in every "
              f"step after the first (got {fs['false_sharing_epochs']} epochs, {steps} steps)")
        check(fs["writers"] == list(range(int(n))), f"every rank wrote fs_slots "
              f"(got {fs['writers']})")
        check("fs_slots" in r.stdout.split("false sharing")[1], "the text report lists fs_slots "
              "under false sharing")
    ts = v.get("ts_counter")
    check(not any(x["sharing"] == "false" for x in rep["variables"] if x["name"] != "fs_slots"),
          "nothing but fs_slots is judged false sharing")
    check(ts is not None and ts["sharing"] == "true" and ts["true_sharing_epochs"] >= steps - 1,
          f"ts_counter judged true sharing in every step (got {ts and ts['sharing']}, "
          f"{ts and ts['true_sharing_epochs']})")
    po = [x for x in rep["variables"] if x["name"].startswith("heap block of 20480 bytes")]
    check(not po or (po[0]["bytes_in"] == 0 and po[0]["read_faults"] == 0 and
                     po[0]["write_faults"] == 0 and po[0]["readers"] == []),
          f"private_only moved nothing (got {po})")
    heap = [x for x in rep["variables"] if x["name"].startswith("heap block of 32768 bytes")]
    check(len(heap) == 1 and "sharing.c:" in heap[0]["name"],
          f"the table is named by its allocation in sharing.c (got {[x['name'] for x in heap]})")
    if heap:
        check(heap[0]["bytes_in"] >= (int(n) - 1) * steps * 4096 * 8 // 2,
              f"the table's bytes moved (got {heap[0]['bytes_in']})")
        check(heap[0]["sharing"] == "read-shared", f"the table is read-shared "
              f"(got {heap[0]['sharing']})")
        check(heap[0]["fault_ms"] > 0, "the time of the table's faults is charged to it")
    lk = [x for x in rep["sync_waits"] if x["kind"] == "lock" and x["id"] == 1]
    check(len(lk) == 1 and lk[0]["waits"] == int(n) * steps,
          f"lock 1 was waited for once per rank and step (got {lk})")
    events = json.load(open(trace))["traceEvents"]
    names = {e["name"] for e in events if e.get("ph") == "X"}
    check({"barrier", "lock"} <= names, f"the trace has barrier and lock spans (got {names})")
    check(all(isinstance(e.get("ts"), (int, float)) and e.get("dur", 0) >= 0
              for e in events if e.get("ph") == "X"), "every span has a time and a duration")
    starts = {e["id"]: e for e in events if e.get("ph") == "s"}
    ends = {e["id"]: e for e in events if e.get("ph") == "f"}
    check(len(starts) >= len(taken) and starts.keys() == ends.keys() and
          all(ends[i]["ts"] >= starts[i]["ts"] and ends[i]["pid"] != starts[i]["pid"]
              for i in starts),
          f"each message is an arrow from its sender to its receiver, forward in time "
          f"({len(starts)} starts, {len(ends)} ends)")
    check(os.path.exists(png) and open(png, "rb").read(8) == b"\x89PNG\r\n\x1a\n",
          "the plot is a PNG")
    check(len(rep["waits_ms"]) == int(n), "waits are reported for every rank")

if failures:
    sys.exit(1)
print(f"check_profile: OK ({n} processes)")
