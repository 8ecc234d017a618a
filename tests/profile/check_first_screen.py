#!/usr/bin/env python3
"""check_first_screen.py DSMRUN DSMPROF OMPDSMCC SOURCE: dsmprof's report
on an OpenMP program (SOURCE, omp_sharing.c, built here by ompdsmcc) must
open with the share of the run time that went to the DSM and its top
cause; name the master's locals and the critical sections in the
program's terms (variable and file:line, not "master stack page at 0x..."
or "lock 0x70000000"); keep every table's header over its columns; and
leave the transport's message latencies to --messages (issue 56)."""
import os
import re
import subprocess
import sys
import tempfile

dsmrun, dsmprof, ompdsmcc, source = sys.argv[1:5]
failures = []


def check(cond, what):
    print(("ok: " if cond else "FAILED: ") + what)
    if not cond:
        failures.append(what)


def line_of(marker):
    for i, line in enumerate(open(source), 1):
        if marker in line:
            return i
    sys.exit(f"check_first_screen: no '{marker}' in {source}")


def tables(text):
    """Each table of the report: its header line and its rows (the lines
    after a header that starts with two blanks, up to a blank line)."""
    out, lines = [], text.splitlines()
    for i, l in enumerate(lines):
        if l.startswith("  ") and re.match(r"^  (rank|variable|lock|message)\b", l):
            rows = []
            for r in lines[i + 1:]:
                if not r.startswith("  ") or r.startswith("  ("):
                    break
                rows.append(r)
            out.append((l, rows))
    return out


def cells(line):
    """(start, end, text) of each cell: cells are apart by two blanks or more."""
    return [(m.start(), m.end(), m.group()) for m in re.finditer(r"\S+(?: \S+)*", line)]


with tempfile.TemporaryDirectory() as d:
    prog = os.path.join(d, "omp_sharing")
    r = subprocess.run([ompdsmcc, "-O1", "-o", prog, source], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"check_first_screen: ompdsmcc failed: {r.stderr}")
    prof = os.path.join(d, "prof")
    r = subprocess.run([dsmrun, "-n", "2", "--max-time", "120", "--profile", prof, prog],
                       capture_output=True, text=True)
    sys.stderr.write(r.stdout + r.stderr)
    if r.returncode != 0:
        sys.exit(f"check_first_screen: the job failed with status {r.returncode}")
    r = subprocess.run([sys.executable, dsmprof, prof, "--no-png"], capture_output=True, text=True)
    print(r.stdout)
    if r.returncode != 0:
        sys.exit(f"check_first_screen: dsmprof failed: {r.stderr}")
    out = r.stdout
    first = out.splitlines()[:6]
    check(any(re.search(r"run time [0-9.]+ s; [0-9]+% of the processes' time went to the DSM", l)
              for l in first), "the first lines give the DSM's share of the run time")
    check(any(l.startswith("top cause: ") and len(l) > 12 for l in first),
          "the first lines name the top cause")
    base = os.path.basename(source)
    tally = f"tally ({base}:{line_of('TALLY:')})"
    check(tally in out or f"tally, a local of main ({base}:{line_of('TALLY:')})" in out,
          f"main's local tally is named with its line ({tally})")
    check("master stack page at" not in out, "no master stack page is left unnamed")
    a, b = line_of("CRITICAL A"), line_of("CRITICAL B")
    check(re.search(rf"critical at {base}:{a}, {base}:{b}|critical at {base}:{b}, {base}:{a}", out),
          "the unnamed critical section is named by its two sites")
    check(f"critical(ledger) at {base}:{line_of('CRITICAL NAMED')}" in out,
          "the named critical section is named with its site")
    check("atomic" in out, "the atomic lock is named")
    check(not re.search(r"lock 0x7", out), "no lock of the runtime is left as a bare id")
    check("messages, from sent to taken in" not in out and "PAIRBAR" not in out and
          "HELLO" not in out, "no message latencies in the default report")
    found = tables(out)
    check(len(found) >= 3, f"the report has its tables ({len(found)})")
    for header, rows in found:
        hc = cells(header)
        for row in rows:
            rc = cells(row)
            same = len(rc) == len(hc) and all(
                (h[0] == c[0]) or (h[1] == c[1]) for h, c in zip(hc, rc))
            if not same:
                check(False, f"the columns of '{row.strip()}' are under the header "
                             f"'{header.strip()}'")
                break
    r = subprocess.run([sys.executable, dsmprof, prof, "--no-png", "--messages"],
                       capture_output=True, text=True)
    check("messages, from sent to taken in" in r.stdout, "--messages shows the latencies")
if failures:
    sys.exit(f"check_first_screen: {len(failures)} failed")
print("check_first_screen: OK")
