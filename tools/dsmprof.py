#!/usr/bin/env python3
"""dsmprof - report on a sharing profile written by an ompdsm job.

    dsmrun -n 4 --profile prof ./prog      # each rank writes prof.<rank>
    dsmprof prof                           # the report, prof.trace.json, prof.png

The ranks count, per shared page, faults, diffs and the bytes that arrived
for it, who read and wrote it, and at its home the epochs in which several
processes wrote it at disjoint bytes (false sharing) or at the same bytes
(true sharing); they also record their waits. dsmprof adds the ranks up,
names the variable each page belongs to (a global from the executable's
symbol table, a heap block by its allocation site, a local of main by the
name and line ompdsmcc registered) and prints first the share of the run
time that went to the DSM and its top cause, then where each process's
time went, the variables by bytes moved, the falsely shared ones, and the
locks (critical sections by their sites). The transport's message
latencies only with --messages.
The timeline goes to a Chrome trace (open it in Perfetto or
chrome://tracing), the traffic per variable to a PNG plot (gnuplot).
"""
import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys

PROG = "dsmprof"


def die(msg, status=1):
    print(f"{PROG}: error: {msg}", file=sys.stderr)
    sys.exit(status)


def load_parts(base):
    parts = []
    for path in glob.glob(glob.escape(base) + ".*"):
        suffix = path[len(base) + 1:]
        if not suffix.isdigit():
            continue
        try:
            with open(path) as f:
                d = json.load(f)
        except (OSError, ValueError) as e:
            die(f"{path}: not a profile: {e}")
        if d.get("format") != "ompdsm-profile-1":
            die(f"{path}: not an ompdsm profile (format {d.get('format')!r})")
        parts.append(d)
    if not parts:
        die(f"no profile parts {base}.<rank> found (run dsmrun --profile {base} first)", 2)
    parts.sort(key=lambda d: d["rank"])
    n = parts[0]["nprocs"]
    have = {d["rank"] for d in parts}
    missing = sorted(set(range(n)) - have)
    if missing:
        print(f"{PROG}: warning: no part for rank(s) {missing}; "
              "their counts are missing from the report", file=sys.stderr)
    return parts


def global_symbols(exe):
    """Data symbols of the executable: (start, end, name), sorted."""
    if not exe or not os.path.exists(exe) or not shutil.which("nm"):
        return []
    try:
        out = subprocess.run(["nm", "-S", "--defined-only", exe], capture_output=True,
                             text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return []
    syms = []
    for line in out.splitlines():
        f = line.split()
        if len(f) == 4 and f[2] in "bBdDgGsS":
            start, size = int(f[0], 16), int(f[1], 16)
            if size:
                syms.append((start, start + size, f[3]))
    syms.sort()
    return syms


def resolve_callers(exe, addrs):
    """Return address -> "function (file:line)" through addr2line."""
    names = {}
    addrs = sorted(set(a for a in addrs if a))
    if not addrs or not exe or not shutil.which("addr2line"):
        return names
    try:
        # The return address is just past the call: ask about the call.
        out = subprocess.run(["addr2line", "-f", "-e", exe] + [hex(a - 1) for a in addrs],
                             capture_output=True, text=True, check=True).stdout.splitlines()
    except (OSError, subprocess.CalledProcessError):
        return names
    for i, a in enumerate(addrs):
        func = out[2 * i] if 2 * i < len(out) else "??"
        where = out[2 * i + 1] if 2 * i + 1 < len(out) else "??:0"
        where = where.split(" (")[0]
        if where.startswith("??"):
            names[a] = f"{func}+{hex(a)}" if func != "??" else hex(a)
        else:
            names[a] = f"{os.path.basename(where.split(':')[0])}:{where.split(':')[-1]} ({func})"
    return names


def segment_of(segments, addr):
    for s in segments:
        if s["base"] <= addr < s["base"] + s["size"]:
            return s
    return None


def name_pages(parts, pages):
    """Page address -> variable name."""
    exe = parts[0].get("exe")
    segments = parts[0]["segments"]
    psz = parts[0]["page_size"]
    syms = global_symbols(exe)
    allocs = [a for d in parts for a in d["allocs"]]
    callers = resolve_callers(exe, [a["caller"] for a in allocs if not a.get("site")])
    local_names = sorted({(n["key"], n["size"], n["name"]) for d in parts
                          for n in d.get("names", []) if n["kind"] == "var"})
    names = {}
    for addr in pages:
        lo, hi = addr, addr + psz
        best, best_overlap = None, 0
        seg = segment_of(segments, addr)
        if seg and seg["name"] == "heap":
            for a in allocs:
                ov = min(hi, a["addr"] + a["size"]) - max(lo, a["addr"])
                if ov > best_overlap:
                    site = a.get("site")
                    if site:      # "path/file.c:line" from ompdsmcc: the file is enough
                        site = os.path.basename(site)
                    else:
                        site = callers.get(a["caller"], hex(a["caller"]))
                    best, best_overlap = f"heap block of {a['size']} bytes from {site}", ov
        else:
            for start, end, name in syms:
                if start >= hi:
                    break
                ov = min(hi, end) - max(lo, start)
                if ov > best_overlap:
                    best, best_overlap = name, ov
            if best is None:
                best = locals_on_page(local_names, lo, hi)
        if best is None:
            where = seg["name"] if seg else "shared memory"
            best = f"{where} page at {hex(addr)}"
        names[addr] = best
    return names


LOCAL_RE = re.compile(r"^(.*), a local of (.*) \((.*)\)$")


def locals_on_page(local_names, lo, hi):
    """The master's locals (named by ompdsmcc) on [lo, hi): "x, a local of
    main (f.c:3)" for one; "locals of main: x (f.c:3), y (f.c:4)" for more."""
    on = [name for key, size, name in local_names if key < hi and key + max(size, 1) > lo]
    if not on:
        return None
    # A page of the master's stack holds the frames of several functions,
    # each with many locals (NAS FT: 13 of 4 functions): the first three
    # name it, and the rest are counted, or the table's first column
    # grows as wide as all of them.
    shown, rest = on[:3], on[3:]
    parsed = [LOCAL_RE.match(t) for t in shown]
    if len(shown) == 1:
        text = shown[0]
    elif all(parsed) and len({m.group(2) for m in parsed}) == 1:
        # Names declared on one line share it: "i, j, k (ft.c:404)".
        groups = {}
        for m in parsed:
            groups.setdefault(m.group(3), []).append(m.group(1))
        text = f"locals of {parsed[0].group(2)}: " + ", ".join(
            f"{', '.join(names)} ({where})" for where, names in groups.items())
    else:
        text = "; ".join(shown)
    if rest:
        named = {m.group(2) for m in parsed if m}
        funcs = [m.group(2) for m in (LOCAL_RE.match(t) for t in rest)
                 if m and m.group(2) not in named]
        text += f" and {len(rest)} more"
        if funcs:
            text += " (also of " + ", ".join(dict.fromkeys(funcs)) + ")"
    return text


def lock_names(parts):
    """Lock id -> a name: critical sections by their sites (ompdsmcc tells
    the runtime), atomic and ordered by their fixed ids, the rest by range."""
    names = {}
    for d in parts:
        for n in d.get("names", []):
            if n["kind"] == "lock":
                old = names.get(n["key"])
                if old and old != n["name"]:    # sites seen by different ranks
                    sites = old.split(" at ", 1)[1].split(", ") + n["name"].split(" at ", 1)[1].split(", ")
                    names[n["key"]] = old.split(" at ", 1)[0] + " at " + ", ".join(dict.fromkeys(sites))
                else:
                    names[n["key"]] = n["name"]
    return names


def lock_name(names, kind, ident):
    if kind == "semaphore":
        return f"semaphore {ident:#x}"
    if ident in names:
        return names[ident]
    if ident == 0x7f000000:
        return "atomic (every atomic construct)"
    if ident == 0x7f000001:
        return "ordered"
    if ident == 0x70000000:
        return "critical (unnamed)"
    if 0x70000000 < ident < 0x71000000:
        return f"a named critical section ({ident:#x})"
    if 0x40000000 <= ident < 0x50000000:
        return f"an omp_lock_t ({ident:#x})"
    return f"lock {ident:#x}"


def table(headers, rows, right):
    """Lines of a table whose columns fit their widest cell; right[i]: align
    column i to the right (numbers)."""
    w = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(headers)]
    def line(cells):
        return "  " + "  ".join(c.rjust(w[i]) if right[i] else c.ljust(w[i])
                                for i, c in enumerate(cells)).rstrip()
    return [line(headers)] + [line(r) for r in rows]


# Waits that are not the DSM's cost: a slave waiting for the master's
# serial code between regions.
IDLE = ("fork wait",)
WAIT_ORDER = ("fault", "barrier", "lock", "semaphore", "join", "gc", "fork wait")
WAIT_TITLES = {"fault": "page faults", "barrier": "barriers", "lock": "locks",
               "semaphore": "semaphores", "join": "join", "gc": "gc", "fork wait": "fork wait"}


def run_times(parts):
    """rank -> run time in ms: from the profile's start to its end, or (an
    older profile) the span of its records."""
    out = {}
    for d in parts:
        if "start_us" in d and "end_us" in d:
            out[d["rank"]] = (d["end_us"] - d["start_us"]) / 1e3
        elif d["spans"]:
            out[d["rank"]] = (max(s[1] + s[2] for s in d["spans"]) -
                              min(s[1] for s in d["spans"])) / 1e3
    return out


def top_cause(slow, sw, w, lnames):
    """The largest single cost, as a sentence: a variable's page faults, a
    lock or semaphore, barriers, the join, or garbage collection."""
    cands = []
    if slow:
        name, v = slow[0]
        nf = v["read_faults"] + v["write_faults"]
        cands.append((v["fault_ms"], f"page faults on {name} ({v['fault_ms']:.1f} ms, {nf} faults)"))
    if sw:
        (kind, ident), (ms, cnt) = sw[0]
        cands.append((ms, f"waiting for {lock_name(lnames, kind, ident)} ({ms:.1f} ms, {cnt} waits)"))
    for k, what in (("barrier", "waiting at barriers for the slowest process"),
                    ("join", "the master waiting at the end of parallel regions for the "
                             "slowest process"),
                    ("gc", "garbage collection of the consistency data")):
        ms = sum(r.get(k, 0.0) for r in w.values())
        if ms > 0:
            cands.append((ms, f"{what} ({ms:.1f} ms)"))
    return max(cands)[1] if cands else None


def ranks_of(mask, n):
    return [r for r in range(min(n, 64)) if mask >> r & 1]


COUNTERS = ("read_faults", "write_faults", "diffs_made", "fetches_in", "pushes_in", "diffs_in",
            "bytes_in", "false_sharing_epochs", "true_sharing_epochs")


def merge(parts):
    pages = {}
    for d in parts:
        for p in d["pages"]:
            m = pages.setdefault(p["addr"], {k: 0 for k in COUNTERS} | {"readers": 0, "writers": 0})
            for k in COUNTERS:
                m[k] += p.get(k, 0)
            m["readers"] |= p["readers"]
            m["writers"] |= p["writers"]
    return pages


def by_variable(pages, names, fault_ms):
    vars_ = {}
    for addr, p in pages.items():
        v = vars_.setdefault(names[addr], {k: 0 for k in COUNTERS} |
                             {"pages": 0, "false_sharing_pages": 0, "readers": 0, "writers": 0,
                              "fault_ms": 0.0})
        v["fault_ms"] += fault_ms.get(addr, 0.0)
        v["pages"] += 1
        if p["false_sharing_epochs"]:
            v["false_sharing_pages"] += 1
        for k in COUNTERS:
            v[k] += p[k]
        v["readers"] |= p["readers"]
        v["writers"] |= p["writers"]
    for name, v in vars_.items():
        fs, ts = v["false_sharing_epochs"], v["true_sharing_epochs"]
        v["sharing"] = ("false" if fs and fs >= ts else "true" if ts else
                        "write-shared" if bin(v["writers"]).count("1") > 1 else
                        "read-shared" if v["bytes_in"] and v["readers"] else
                        "unread" if v["bytes_in"] else "private")
    return vars_


def waits(parts):
    out = {}
    for d in parts:
        w = out.setdefault(d["rank"], {})
        for s in d["spans"]:
            w[s[0]] = w.get(s[0], 0.0) + s[2] / 1e3    # ms
    return out


def fault_ms_by_page(parts, psz):
    """Time each page's faults took to serve, ms, over all ranks."""
    out = {}
    for d in parts:
        for s in d["spans"]:
            if s[0] == "fault" and len(s) > 3 and s[3]:
                page = s[3] - s[3] % psz
                out[page] = out.get(page, 0.0) + s[2] / 1e3
    return out


def sync_waits(parts):
    """(kind, id) -> [ms, count] for locks and semaphores, over all ranks."""
    out = {}
    for d in parts:
        for s in d["spans"]:
            if s[0] in ("lock", "semaphore") and len(s) > 3:
                w = out.setdefault((s[0], s[3]), [0.0, 0])
                w[0] += s[2] / 1e3
                w[1] += 1
    return out


KINDS = ("request", "one-way", "reply")


def kind_name(kind):
    return KINDS[kind] if kind < len(KINDS) else str(kind)


def msg_name(typ, kind):
    return f"{typ} {kind_name(kind)}"


def msg_pairs(parts):
    """Each message matched with its taking-in: a list of (type, kind, src, dst,
    t_sent_us, t_in_us, bytes, taken_on_service_thread, sent_rec, in_rec).
    A request or one-way is keyed by (origin, rid) and where it went (a
    forwarded one leaves twice); a reply by (origin, rid) alone."""
    sent = {}
    for d in parts:
        r = d["rank"]
        for m in d.get("msgs", []):
            t, dirn, kind, typ, peer, origin, rid, nbytes, svc = m
            if dirn == 1 and peer != r:
                key = (origin, rid, kind == 2, peer if kind != 2 else origin)
                sent[key] = (r, t, m)
    out = []
    for d in parts:
        r = d["rank"]
        for m in d.get("msgs", []):
            t, dirn, kind, typ, peer, origin, rid, nbytes, svc = m
            if dirn != 0 or peer == r:
                continue
            s = sent.get((origin, rid, kind == 2, r if kind != 2 else origin))
            if s and s[0] == peer:
                out.append((typ, kind, peer, r, s[1], t, nbytes, svc, s[2], m))
    return out


def one_host(parts):
    hosts = {d.get("host") for d in parts}
    return len(hosts) == 1 and None not in hosts


def msg_latencies(pairs):
    """(type, kind) -> latencies in us (sent to taken in), sorted; and how
    many were taken in on the service thread."""
    lat, svc = {}, {}
    for typ, kind, src, dst, t0, t1, nbytes, on_svc, _, _ in pairs:
        lat.setdefault((typ, kind), []).append(t1 - t0)
        svc[(typ, kind)] = svc.get((typ, kind), 0) + on_svc
    for v in lat.values():
        v.sort()
    return lat, svc


def write_trace(parts, path, pairs):
    events = []
    for d in parts:
        r = d["rank"]
        events.append({"name": "process_name", "ph": "M", "pid": r, "tid": 0,
                       "args": {"name": f"rank {r}"}})
        events.append({"name": "thread_name", "ph": "M", "pid": r, "tid": 0,
                       "args": {"name": "application"}})
        if d.get("msgs"):
            events.append({"name": "thread_name", "ph": "M", "pid": r, "tid": 1,
                           "args": {"name": "service"}})
        for s in d["spans"]:
            e = {"name": s[0], "cat": "dsm", "ph": "X", "ts": s[1], "dur": s[2],
                 "pid": r, "tid": 0}
            if len(s) > 3 and s[3]:
                e["args"] = {"address": hex(s[3])} if s[0] == "fault" else {"id": s[3]}
            events.append(e)
    # Messages: a mark where each left and where it was taken in (on the
    # thread that did it), and an arrow between the two (a flow event) when
    # both ends are in the profile and the clocks compare (one host).
    for d in parts:
        r = d["rank"]
        for m in d.get("msgs", []):
            t, dirn, kind, typ, peer, origin, rid, nbytes, svc = m
            if peer == r:
                continue
            events.append({"name": ("sent " if dirn else "in ") + msg_name(typ, kind), "cat": "msg", "ph": "X",
                           "ts": t, "dur": 1, "pid": r, "tid": svc,
                           "args": {"peer": peer, "origin": origin, "rid": rid,
                                    "bytes": nbytes}})
    if pairs is not None:
        for i, p in enumerate(pairs):
            typ, kind, src, dst, t0, t1, nbytes, svc, sm, _ = p
            name = msg_name(typ, kind)
            events.append({"name": name, "cat": "msg", "ph": "s", "id": i + 1, "ts": t0,
                           "pid": src, "tid": sm[8]})
            events.append({"name": name, "cat": "msg", "ph": "f", "bp": "e", "id": i + 1,
                           "ts": t1, "pid": dst, "tid": svc})
    with open(path, "w") as f:
        json.dump({"traceEvents": events, "displayTimeUnit": "ms"}, f)
    mdropped = sum(d.get("msgs_dropped", 0) for d in parts)
    if mdropped:
        print(f"{PROG}: warning: {mdropped} messages were not recorded (DSM_PROFILE_MSGS)",
              file=sys.stderr)
    dropped = sum(d.get("spans_dropped", 0) for d in parts)
    if dropped:
        print(f"{PROG}: warning: {dropped} spans were dropped (DSM_PROFILE_SPANS)",
              file=sys.stderr)


def write_png(rows, path):
    gp = shutil.which("gnuplot")
    if not gp:
        print(f"{PROG}: warning: gnuplot not found; no plot written", file=sys.stderr)
        return False
    dat = path + ".dat"
    with open(dat, "w") as f:
        for name, v in rows:
            label = name
            if name.startswith("heap block of "):    # "site [size]": the site is the name
                size, _, site = name[len("heap block of "):].partition(" bytes from ")
                label = f"{site.split(' (')[0]} [{int(size) // 1024} KiB]"
            label = label if len(label) <= 32 else label[:29] + "..."
            f.write('"%s" %.6f\n' % (label.replace('"', "'"), v["bytes_in"] / 1048576.0))
    script = f"""
set terminal png size 1000,480 noenhanced
set output '{path}'
set title 'Bytes moved per variable'
set style data histograms
set style histogram clustered
set style fill solid 0.8
set boxwidth 0.8
set xtics rotate by -25 font ',10'
set ylabel 'MiB arrived (all processes)'
set key off
plot '{dat}' using 2:xtic(1)
"""
    r = subprocess.run([gp], input=script, text=True, capture_output=True)
    os.unlink(dat)
    if r.returncode != 0:
        print(f"{PROG}: warning: gnuplot failed: {r.stderr.strip()}", file=sys.stderr)
        return False
    return True


def human(n):
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024.0


def main():
    ap = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("profile", help="the name given to dsmrun --profile (parts are FILE.<rank>)")
    ap.add_argument("--top", type=int, default=10, help="variables to list (default 10)")
    ap.add_argument("--json", metavar="OUT", help="also write the report as JSON")
    ap.add_argument("--trace", metavar="OUT", help="Chrome trace (default FILE.trace.json)")
    ap.add_argument("--png", metavar="OUT", help="plot of bytes per variable (default FILE.png)")
    ap.add_argument("--no-png", action="store_true", help="do not write the plot")
    ap.add_argument("--messages", action="store_true",
                    help="also the transport's messages and their latencies (one host only)")
    a = ap.parse_args()
    if a.top < 1:
        die("--top must be at least 1", 2)

    parts = load_parts(a.profile)
    n = parts[0]["nprocs"]
    pages = merge(parts)
    names = name_pages(parts, pages)
    vars_ = by_variable(pages, names, fault_ms_by_page(parts, parts[0]["page_size"]))
    w = waits(parts)
    ranked = sorted(vars_.items(), key=lambda kv: (-kv[1]["bytes_in"], kv[0]))

    print(f"ompdsm sharing profile: {a.profile} ({n} processes, {parts[0]['exe']})")
    lnames = lock_names(parts)
    sw = sorted(sync_waits(parts).items(), key=lambda kv: -kv[1][0])
    slow = sorted(((k, v) for k, v in vars_.items() if v["fault_ms"] > 0),
                  key=lambda kv: -kv[1]["fault_ms"])

    # The first screen: how much of the run the DSM took, and for what.
    run_ms = run_times(parts)
    in_dsm = {r: sum(ms for k, ms in w.get(r, {}).items() if k not in IDLE) for r in run_ms}
    total_run = sum(run_ms.values())
    if total_run > 0:
        share = 100.0 * sum(in_dsm.values()) / total_run
        print(f"\nrun time {max(run_ms.values()) / 1e3:.2f} s; {share:.0f}% of the processes' time "
              f"went to the DSM (page faults, and waits for other processes)")
    cause = top_cause(slow, sw, w, lnames)
    if cause:
        print(f"top cause: {cause}")
    kinds = [k for k in WAIT_ORDER if any(k in r for r in w.values())]
    kinds += sorted({k for r in w.values() for k in r} - set(kinds))
    rows = [[str(r), f"{run_ms.get(r, 0.0):.1f}", f"{in_dsm.get(r, 0.0):.1f}"] +
            [f"{w.get(r, {}).get(k, 0.0):.1f}" for k in kinds] for r in sorted(run_ms)]
    print("\nwhere each process's time went, ms (fork wait: a slave waiting for the master's "
          "serial code, not counted in the DSM):")
    for line in table(["rank", "run time", "in the DSM"] + [WAIT_TITLES.get(k, k) for k in kinds],
                      rows, [True] * (3 + len(kinds))):
        print(line)

    total = sum(v["bytes_in"] for v in vars_.values())
    print(f"\nbytes moved: {human(total)} in all; variables by bytes moved:")
    rows = [[name, human(v["bytes_in"]), str(v["pages"]),
             f"{v['read_faults']}/{v['write_faults']}", str(v["diffs_made"]), v["sharing"],
             f"{ranks_of(v['readers'], n)} / {ranks_of(v['writers'], n)}"]
            for name, v in ranked[:a.top]]
    for line in table(["variable", "bytes", "pages", "faults r/w", "diffs", "sharing",
                       "readers / writers"], rows, [False, True, True, True, True, False, False]):
        print(line)
    unread = sum(v["bytes_in"] for v in vars_.values() if v["sharing"] == "unread")
    if unread:
        print(f"  ({human(unread)} went to pages no process then touched: copies fetched "
              f"ahead of a stream of faults, or pushed, and never read)")
    false = [(k, v) for k, v in ranked if v["sharing"] == "false"]
    print("\nfalse sharing (written by several processes in one epoch, at disjoint bytes):")
    if not false:
        print("  none found")
    for name, v in false:
        print(f"  {name}: {v['false_sharing_pages']} of its {v['pages']} page(s), "
              f"{v['false_sharing_epochs']} page-epochs, writers {ranks_of(v['writers'], n)}; "
              f"align each process's part to a page of its own")
    print("\nvariables by time waiting for their page faults (all ranks):")
    if not slow:
        print("  none")
    else:
        rows = [[name, f"{v['fault_ms']:.1f}", str(v["read_faults"] + v["write_faults"])]
                for name, v in slow[:a.top]]
        for line in table(["variable", "ms", "faults"], rows, [False, True, True]):
            print(line)
    if sw:
        print("\nlocks and semaphores by time waiting (all ranks):")
        rows = [[lock_name(lnames, kind, ident), f"{ms:.1f}", str(cnt)]
                for (kind, ident), (ms, cnt) in sw[:a.top]]
        for line in table(["lock", "ms", "waits"], rows, [False, True, True]):
            print(line)

    lat = {}
    # Both ends of each message, paired once for the table and the trace;
    # only when one clock timed them all. The table is the transport's
    # business, not the program's: only with --messages.
    pairs = msg_pairs(parts) if one_host(parts) else None
    if a.messages and any(d.get("msgs") for d in parts):
        print("\nmessages, from sent to taken in by its handler (a request or one-way) or by "
              "its caller (a reply), us:")
        if pairs is None:
            print("  the ranks ran on different hosts, whose clocks do not compare: not shown")
        else:
            lat, on_svc = msg_latencies(pairs)
            rows = []
            for (typ, kind), v in sorted(lat.items(), key=lambda kv: -sum(kv[1])):
                q = lambda f: v[min(len(v) - 1, int(f * len(v)))]
                rows.append([msg_name(typ, kind), str(len(v)), f"{q(0.5):.1f}", f"{q(0.9):.1f}",
                             f"{q(0.99):.1f}", f"{v[-1]:.1f}",
                             f"{100.0 * on_svc[(typ, kind)] / len(v):.0f}%"])
            for line in table(["message", "count", "median", "p90", "p99", "max",
                               "on the service thread"], rows, [False] + [True] * 6):
                print(line)
    elif pairs is not None:
        lat, _ = msg_latencies(pairs)
    trace = a.trace or a.profile + ".trace.json"
    write_trace(parts, trace, pairs)
    print(f"\ntimeline: {trace} (open in https://ui.perfetto.dev)")
    if not a.no_png:
        png = a.png or a.profile + ".png"
        if write_png(ranked[:a.top], png):
            print(f"plot: {png}")
    if a.json:
        rep = {"nprocs": n, "bytes_moved": total,
               "variables": [dict(name=k, **{**v, "readers": ranks_of(v["readers"], n),
                                             "writers": ranks_of(v["writers"], n)})
                             for k, v in ranked],
               "waits_ms": {str(r): w[r] for r in w},
               "sync_waits": [{"kind": k, "id": i, "ms": ms, "waits": c}
                              for (k, i), (ms, c) in sw],
               "messages": [{"type": t, "kind": kind_name(k), "count": len(v),
                             "median_us": v[len(v) // 2], "max_us": v[-1]}
                            for (t, k), v in sorted(lat.items())]}
        with open(a.json, "w") as f:
            json.dump(rep, f, indent=1)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:
        # The reader went away (dsmprof P | head): like any filter, stop
        # quietly, and keep Python from complaining again at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(141)
