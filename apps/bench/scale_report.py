#!/usr/bin/env python3
"""scale_report.py - the tables, plots and bound checks of apps/bench/scale.sh
(issue 53), from its scale.csv and the statistics of each run.

    scale_report.py --csv OUT/scale.csv --out OUT [--size S] [--procs "2 4 8 16"]
                    [--time-procs "2 4"] [--profiles "loopback 1g"] [--plot]
                    [--check BOUNDS] [--note TEXT]...

A run's statistics: for dsm and ompdsm the DSM_STATS json of dsmrun (every
rank's msgs_sent and bytes_sent: protocol messages and their payload bytes);
for mpi the files PREFIX.<rank>.prof of Open MPI's pml monitoring, whose
"E" and "I" lines (from, to, bytes, messages) count every point-to-point
message a rank sent: with pml_monitoring_enable 1 those of collectives are
among the "E" lines (Open MPI 4.1), with 2 they are the "I" lines; both are
summed. Per process per step = the job's total / (n x ITERS of its result
line). A share is a process's total over the mean of all processes (1.0:
an even share; n: one process sends everything).

Bounds (--check), one per line, '#' starts a comment:
    APP VERSION N METRIC MAX
METRIC is msgs or bytes (per process per step) or maxshare or rank0share,
of the loopback run. A missing or failed run fails its bounds: a bound that
nothing was measured against must not pass. Exit status 1 when any fails.
"""
import argparse
import csv
import glob
import json
import math
import os
import subprocess
import sys

VERSIONS = ["dsm", "ompdsm", "mpi"]


def load_dsm(path):
    """Per-rank (msgs, bytes) and the barrier messages of a DSM_STATS json."""
    with open(path) as f:
        d = json.load(f)
    ranks = sorted(d["ranks"], key=lambda r: r["rank"])
    per = [(r["msgs_sent"], r["bytes_sent"]) for r in ranks]
    bar = 0
    for r in ranks:
        for t in ("BARRIER", "PAIRBAR"):
            bar += r.get("by_type", {}).get(t, {}).get("msgs_sent", 0)
    barriers = ranks[0].get("barriers", 0) if ranks else 0
    return per, {"barrier_msgs": bar, "barriers": barriers}


def load_mpi(prefix, n):
    """Per-rank (msgs, bytes) from Open MPI's monitoring files."""
    per = []
    for r in range(n):
        path = "%s.%d.prof" % (prefix, r)
        if not os.path.exists(path):
            raise FileNotFoundError(path)
        m = b = 0
        with open(path) as f:
            for line in f:
                p = line.split("\t")
                if len(p) >= 5 and p[0] in ("E", "I") and int(p[1]) == r:
                    b += int(p[3].split()[0])
                    m += int(p[4].split()[0])
        per.append((m, b))
    return per, {}


class Run:
    def __init__(self, row, base):
        self.app, self.version, self.profile = row["app"], row["version"], row["profile"]
        self.n = int(row["procs"])
        self.round = int(row.get("round") or 1)
        self.status = row["status"]
        self.time = float(row["time_s"]) if row["time_s"] else None
        self.time_raw = self.time   # self.time becomes the cell's median
        self.steps = int(row["steps"]) if row["steps"] else 1
        self.per = None
        self.extra = {}
        self.relay = {}
        self.rounds = 1
        if row["stats"]:
            path = os.path.join(base, row["stats"])
            try:
                if self.version == "mpi":
                    self.per, self.extra = load_mpi(path, self.n)
                else:
                    self.per, self.extra = load_dsm(path)
            except (OSError, ValueError, KeyError) as e:
                if self.status == "ok":
                    self.status = "nostats"
                self.per = None
                self.why = str(e)
        if self.status == "ok" and (self.per is None or len(self.per) != self.n):
            self.status = "nostats"
        if row.get("relay"):
            try:
                with open(os.path.join(base, row["relay"])) as f:
                    for line in f:
                        k, v = line.split()
                        self.relay[k] = float(v)
            except (OSError, ValueError):
                pass

    def ok(self):
        return self.status == "ok" and self.per is not None

    def total(self, i):
        return sum(p[i] for p in self.per)

    def per_step(self, i):
        """Messages (i=0) or bytes (i=1) per process per step."""
        return self.total(i) / (self.n * self.steps)

    def share(self, i, rank=None):
        mean = self.total(i) / self.n
        if mean == 0:
            return 0.0
        v = self.per[rank][i] if rank is not None else max(p[i] for p in self.per)
        return v / mean

    def metric(self, name):
        return {"msgs": lambda: self.per_step(0), "bytes": lambda: self.per_step(1),
                "maxshare": lambda: self.share(1), "rank0share": lambda: self.share(1, 0)}[name]()


def geomean(v):
    v = [x for x in v if x and x > 0]
    return math.exp(sum(math.log(x) for x in v) / len(v)) if v else None


def f(x, fmt="%.2f"):
    return "-" if x is None else fmt % x


def kb(x):
    return "-" if x is None else ("%.1f" % (x / 1024) if x < 1024 * 1024 else "%.0f" % (x / 1024))


def table(head, rows):
    """A markdown table with padded columns: readable as text too."""
    cols = [head] + rows
    w = [max(len(str(r[i])) for r in cols) for i in range(len(head))]
    out = []
    for k, r in enumerate(cols):
        cells = [str(c).ljust(w[i]) if i == 0 else str(c).rjust(w[i]) for i, c in enumerate(r)]
        out.append("| " + " | ".join(cells) + " |")
        if k == 0:
            out.append("|" + "|".join("-" * (x + 1) + ("-" if i == 0 else ":") for i, x in enumerate(w)) + "|")
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--csv", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--size", default="?")
    ap.add_argument("--procs", default="2 4 8 16")
    ap.add_argument("--time-procs", default="2 4")
    ap.add_argument("--profiles", default="loopback")
    ap.add_argument("--plot", action="store_true")
    ap.add_argument("--check")
    ap.add_argument("--note", action="append", default=[])
    a = ap.parse_args()
    base = os.path.dirname(os.path.abspath(a.csv))
    with open(a.csv) as fh:
        runs = [Run(r, base) for r in csv.DictReader(fh)]
    procs = [int(x) for x in a.procs.split()]
    tprocs = [int(x) for x in a.time_procs.split()]
    profiles = a.profiles.split()
    apps = []
    for r in runs:
        if r.app not in apps:
            apps.append(r.app)
    # A cell (app, version, n, profile) has a run per round. Its counts
    # are those of its first round that worked; its time is the median of
    # the rounds that worked (failures are listed in the notes).
    cells = {}
    for r in sorted(runs, key=lambda r: r.round):
        cells.setdefault((r.app, r.version, r.n, r.profile), []).append(r)
    by = {}
    for k, rs in cells.items():
        good = [r for r in rs if r.ok()]
        by[k] = good[0] if good else rs[0]
        times = sorted(r.time for r in rs if r.status == "ok" and r.time is not None)
        if times:
            h = len(times) // 2
            by[k].time = times[h] if len(times) % 2 else (times[h - 1] + times[h]) / 2
            by[k].rounds = len(times)

    def get(app, v, n, prof="loopback"):
        r = by.get((app, v, n, prof))
        return r if r and r.ok() else None

    out = []
    out.append("# Scaling of messages and bytes (apps/bench/scale.sh, size %s)" % a.size)
    out.append("")
    out.append("Per process per step, on loopback; bytes in KiB (payload). Shares: the largest "
               "process's bytes / rank 0's bytes, each over the mean of all processes.")
    for app in apps:
        steps = next((r.steps for r in runs if r.app == app and r.ok()), None)
        out.append("")
        out.append("## %s (%s step%s)" % (app, steps if steps else "?", "" if steps == 1 else "s"))
        out.append("")
        head = ["n"]
        for v in VERSIONS:
            head += [v + " msgs", v + " KiB"]
        head += ["ompdsm/MPI msgs", "ompdsm/MPI bytes", "dsm/MPI bytes"]
        head += [v + " share max/r0" for v in VERSIONS]
        rows = []
        for n in procs:
            row = [str(n)]
            for v in VERSIONS:
                r = get(app, v, n)
                rr = by.get((app, v, n, "loopback"))
                if r:
                    row += [f(r.per_step(0), "%.1f"), kb(r.per_step(1))]
                else:
                    row += ["-" if rr is None else rr.status, "-"]
            o, m, d = get(app, "ompdsm", n), get(app, "mpi", n), get(app, "dsm", n)
            row.append(f(o.per_step(0) / m.per_step(0)) if o and m and m.per_step(0) else "-")
            row.append(f(o.per_step(1) / m.per_step(1)) if o and m and m.per_step(1) else "-")
            row.append(f(d.per_step(1) / m.per_step(1)) if d and m and m.per_step(1) else "-")
            for v in VERSIONS:
                r = get(app, v, n)
                row.append("%.2f/%.2f" % (r.share(1), r.share(1, 0)) if r else "-")
            rows.append(row)
        out.append(table(head, rows))
        extra = []
        for v in ("dsm", "ompdsm"):
            for n in procs:
                r = get(app, v, n)
                if r and r.extra.get("barriers"):
                    extra.append("%s n=%d %.1f" % (v, n, r.extra["barrier_msgs"] / r.extra["barriers"]))
        if extra:
            out.append("")
            out.append("Barrier messages (BARRIER+PAIRBAR, all ranks) per barrier of rank 0: " +
                       ", ".join(extra) + ".")

    # Summary: ratios per app and n, with geometric means.
    def ratio(app, n, num, den, i):
        x, y = get(app, num, n), get(app, den, n)
        if not x or not y or y.per_step(i) == 0:
            return None
        return x.per_step(i) / y.per_step(i)

    for title, num, i in (("ompdsm/MPI bytes", "ompdsm", 1), ("ompdsm/MPI messages", "ompdsm", 0),
                          ("dsm/MPI bytes", "dsm", 1), ("dsm/MPI messages", "dsm", 0)):
        out.append("")
        out.append("## %s per process per step" % title)
        out.append("")
        head = ["app"] + ["n=%d" % n for n in procs]
        if len(procs) > 1:
            head.append("growth n=%d->%d" % (procs[0], procs[-1]))
        rows = []
        cols = {n: [] for n in procs}
        growth = []
        for app in apps:
            row = [app]
            for n in procs:
                x = ratio(app, n, num, "mpi", i)
                cols[n].append(x)
                row.append(f(x))
            if len(procs) > 1:
                g0, g1 = ratio(app, procs[0], num, "mpi", i), ratio(app, procs[-1], num, "mpi", i)
                g = g1 / g0 if g0 and g1 else None
                growth.append(g)
                row.append(f(g))
            rows.append(row)
        row = ["geometric mean"] + [f(geomean(cols[n])) for n in procs]
        if len(procs) > 1:
            row.append(f(geomean(growth)))
        rows.append(row)
        out.append(table(head, rows))

    # Shares at the largest n.
    nmax = procs[-1]
    out.append("")
    out.append("## Shares at n=%d: the largest process / rank 0, over the mean" % nmax)
    out.append("")
    rows = []
    for app in apps:
        row = [app]
        for i in (1, 0):
            for v in VERSIONS:
                r = get(app, v, nmax)
                row.append("%.2f / %.2f" % (r.share(i), r.share(i, 0)) if r else "-")
        rows.append(row)
    out.append(table(["app"] + [v + " bytes" for v in VERSIONS] + [v + " msgs" for v in VERSIONS],
                     rows))

    # Times.
    if tprocs:
        out.append("")
        nr = max((getattr(r, "rounds", 1) for r in by.values()), default=1)
        out.append("## Times (s; the app's own timer%s) under each network profile, n <= 4" %
                   (", median of %d rounds" % nr if nr > 1 else ""))
        for prof in profiles:
            out.append("")
            out.append("### %s" % prof)
            out.append("")
            head = ["app"]
            for n in tprocs:
                head += ["%s n=%d" % (v, n) for v in VERSIONS] + ["ompdsm/MPI n=%d" % n]
            rows = []
            cols = {n: [] for n in tprocs}
            for app in apps:
                row = [app]
                for n in tprocs:
                    for v in VERSIONS:
                        r = by.get((app, v, n, prof))
                        row.append(f(r.time, "%.3f") if r and r.status == "ok" and r.time is not None
                                   else ("-" if r is None else r.status))
                    o = by.get((app, "ompdsm", n, prof))
                    m = by.get((app, "mpi", n, prof))
                    x = (o.time / m.time if o and m and o.status == "ok" and m.status == "ok"
                         and o.time and m.time else None)
                    cols[n].append(x)
                    row.append(f(x))
                rows.append(row)
            row = ["geometric mean"]
            for n in tprocs:
                row += [""] * len(VERSIONS) + [f(geomean(cols[n]))]
            rows.append(row)
            out.append(table(head, rows))
            # How well the relay kept the profile's delay in these runs: the
            # median and 99th percentile of the time frames left after their
            # due time (us), in the round with the worst 99th percentile.
            rel = {}
            for r in runs:
                if r.profile == prof and r.relay:
                    k = (r.app, r.version, r.n)
                    if k not in rel or r.relay.get("offset_p99_us", 0) > rel[k].relay.get("offset_p99_us", 0):
                        rel[k] = r
            if rel:
                out.append("")
                out.append("The relay's offsets in these runs, median/99th percentile in us "
                           "(frames that left after their due time; the worst round), and frames "
                           "dropped:")
                out.append("")
                head = ["app"] + ["%s n=%d" % (v, n) for n in tprocs for v in VERSIONS]
                rows = []
                for app in apps:
                    row = [app]
                    for n in tprocs:
                        for v in VERSIONS:
                            r = rel.get((app, v, n))
                            if not r:
                                row.append("-")
                                continue
                            d = r.relay.get("full_drops", 0) + r.relay.get("send_drops", 0)
                            row.append("%.0f/%.0f%s" % (r.relay.get("offset_p50_us", 0),
                                                        r.relay.get("offset_p99_us", 0),
                                                        ", %d dropped" % d if d else ""))
                    rows.append(row)
                out.append(table(head, rows))

    failed = [r for r in runs if r.status != "ok"]
    if failed or a.note:
        out.append("")
        out.append("## Notes")
        out.append("")
        for r in failed:
            out.append("- %s %s n=%d %s round %d: %s (logs/%s-%s-%d-%s%s.log)" %
                       (r.app, r.version, r.n, r.profile, r.round, r.status, r.app, r.version, r.n,
                        r.profile, "" if r.round == 1 else ".r%d" % r.round))
        for n in a.note:
            out.append("- " + n)

    # Every run's numbers, for keeping beside the tables (the statistics
    # files they come from are large).
    with open(os.path.join(a.out, "scale-runs.csv"), "w") as fh:
        w = csv.writer(fh)
        w.writerow(["app", "version", "procs", "profile", "round", "status", "time_s", "steps",
                    "msgs_total", "bytes_total", "msgs_max", "bytes_max", "msgs_rank0",
                    "bytes_rank0", "barrier_msgs", "barriers", "relay_offset_p50_us",
                    "relay_offset_p99_us", "relay_drops"])
        for r in sorted(runs, key=lambda r: (r.profile != "loopback", r.profile, r.app,
                                             VERSIONS.index(r.version) if r.version in VERSIONS else 9,
                                             r.n, r.round)):
            c = [""] * 8
            if r.per:
                c = [r.total(0), r.total(1), max(p[0] for p in r.per), max(p[1] for p in r.per),
                     r.per[0][0], r.per[0][1], r.extra.get("barrier_msgs", ""),
                     r.extra.get("barriers", "")]
            rl = [r.relay.get("offset_p50_us", ""), r.relay.get("offset_p99_us", ""),
                  (r.relay.get("full_drops", 0) + r.relay.get("send_drops", 0)) if r.relay else ""]
            t = r.time_raw if r.time_raw is not None else ""
            w.writerow([r.app, r.version, r.n, r.profile, r.round, r.status, t, r.steps] + c + rl)

    text = "\n".join(out) + "\n"
    sys.stdout.write(text)
    with open(os.path.join(a.out, "scale.md"), "w") as fh:
        fh.write(text)

    if a.plot:
        plot(apps, procs, get, a.out, a.size)

    if a.check:
        sys.exit(check(a.check, by))


def plot(apps, procs, get, outdir, size):
    for app in apps:
        dat = os.path.join(outdir, "logs", "bytes_%s.dat" % app)
        have = False
        with open(dat, "w") as fh:
            fh.write("# n " + " ".join(VERSIONS) + " (bytes per process per step)\n")
            for n in procs:
                vals = []
                for v in VERSIONS:
                    r = get(app, v, n)
                    vals.append("%.1f" % r.per_step(1) if r and r.per_step(1) > 0 else "?")
                    have = have or vals[-1] != "?"
                fh.write("%d %s\n" % (n, " ".join(vals)))
        if not have:
            continue
        png = os.path.join(outdir, "bytes_%s.png" % app)
        script = "\n".join([
            "set terminal png size 720,480",
            "set output '%s'" % png,
            "set title '%s (%s): bytes sent per process per step'" % (app, size),
            "set xlabel 'processes'",
            "set ylabel 'bytes per process per step'",
            "set logscale x 2",
            "set logscale y 10",
            "set format y '%.0s %cB'",
            "set xrange [%g:%g]" % (procs[0] / 1.25, procs[-1] * 1.25),
            "set xtics (%s)" % ", ".join(str(n) for n in procs),
            "set key top left",
            "set grid",
            "set datafile missing '?'",
            "plot " + ", ".join("'%s' using 1:%d with linespoints lw 2 title '%s'" % (dat, i + 2, v)
                                for i, v in enumerate(VERSIONS)),
        ])
        subprocess.run(["gnuplot"], input=script, text=True, check=False)


def check(path, by):
    bad = 0
    with open(path) as fh:
        for line in fh:
            line = line.split("#")[0].split()
            if not line:
                continue
            if len(line) != 5:
                print("check: malformed bound: %s" % " ".join(line))
                bad += 1
                continue
            app, v, n, metric, bound = line[0], line[1], int(line[2]), line[3], float(line[4])
            r = by.get((app, v, n, "loopback"))
            if not r or not r.ok():
                print("check: FAIL %s %s n=%d %s: no measurement (%s)" %
                      (app, v, n, metric, "not run" if not r else r.status))
                bad += 1
                continue
            x = r.metric(metric)
            verdict = "ok" if x <= bound else "FAIL"
            bad += verdict != "ok"
            print("check: %s %s %s n=%d %s = %.2f (bound %.2f)" % (verdict, app, v, n, metric, x, bound))
    return 1 if bad else 0


if __name__ == "__main__":
    main()
