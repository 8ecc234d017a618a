#!/usr/bin/env python3
"""check_app_profile.py DSMRUN DSMPROF APP NPROCS SOURCE: an app of
apps/, built by ompdsmcc, under dsmrun --profile must still verify, and
dsmprof's report must account for the bytes the job moved and name a heap
block by its allocation site in SOURCE (ompdsmcc passes file:line)."""
import json
import os
import subprocess
import sys
import tempfile

dsmrun, dsmprof, app, n, source = sys.argv[1:6]
with tempfile.TemporaryDirectory() as d:
    prof = os.path.join(d, "prof")
    stats = os.path.join(d, "stats.json")
    env = dict(os.environ, DSM_STATS="json:" + stats)
    r = subprocess.run([dsmrun, "-n", n, "--max-time", "150", "--profile", prof, app, "-s",
                        "small"], capture_output=True, text=True, env=env)
    sys.stderr.write(r.stdout[-2000:] + r.stderr[-2000:])
    if r.returncode != 0 or "VERIFIED" not in r.stdout:
        sys.exit(f"check_app_profile: the app failed under the profiler ({r.returncode})")
    rep_path = os.path.join(d, "rep.json")
    r = subprocess.run([sys.executable, dsmprof, prof, "--json", rep_path, "--no-png"],
                       capture_output=True, text=True)
    print(r.stdout)
    if r.returncode != 0:
        sys.exit(f"check_app_profile: dsmprof failed ({r.returncode}): {r.stderr}")
    rep = json.load(open(rep_path))
    named = [v for v in rep["variables"] if f"from {source}:" in v["name"] and v["bytes_in"]]
    if not named:
        sys.exit(f"check_app_profile: no heap block from {source} moved bytes: "
                 f"{[v['name'] for v in rep['variables']]}")
    # The page traffic the profile saw is part of what the job sent
    # (statistics: every message, headers, consistency data included).
    sent = sum(x["bytes_sent"] for x in json.load(open(stats))["ranks"])
    if not 0 < rep["bytes_moved"] <= sent:
        sys.exit(f"check_app_profile: profile says {rep['bytes_moved']} bytes moved, "
                 f"statistics say {sent} were sent")
print(f"check_app_profile: OK ({os.path.basename(app)}, {n} processes)")
