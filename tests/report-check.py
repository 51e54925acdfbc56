#!/usr/bin/env python3
"""report-check.py - check an HTML report as Chromium rendered it against the store.

  report-check.py points DOM DB RUN   every chart's plotted points, counted in the
                                      rendered DOM, against the store's rows
  report-check.py recommend DOM JSON  recommend's page against its --json output
  report-check.py requests NETLOG     the page asked nothing of the network

points: for each chart, each plotted series titled "NAME (N)" must draw exactly N
point glyphs (gnuplot's <use> of a point symbol; the key's sample is one more), and
N must be what the store holds for that series. Prints one line per series; exits 1
on any difference, or when a chart the run has data for drew nothing.
"""
import json
import re
import sqlite3
import sys


def fail(msg):
    print("MISMATCH: " + msg)
    return 1


def series_in_dom(dom):
    """{figure id: [(series title, glyphs drawn), ...]} from the rendered DOM: each
    of gnuplot's plot groups runs to the next one; its key text is its title."""
    out = {}
    for fig in re.finditer(r'<figure id="([a-z0-9-]+)"[^>]*>(.*?)</figure>', dom, re.S):
        fid, body = fig.group(1), fig.group(2)
        parts = re.split(r'<g id="c\d+_plot_\d+[a-z]*"[^>]*>', body)[1:]
        groups = []
        for part in parts:
            t = re.search(r"<text>(.*?)</text>", part, re.S)
            uses = len(re.findall(r"""<use[^>]*href=["']#c\d+_gpPt\d+["']""", part))
            groups.append((t.group(1).strip() if t else "", max(0, uses - 1)))  # less the key's sample
        out[fid] = groups
    return out


def store_counts(db, run):
    con = sqlite3.connect(db)
    cur = con.cursor()
    res = cur.execute("select result, config from runs where id=?", (run,)).fetchone()
    result = json.loads(res[0]) if res[0] else None
    config = json.loads(res[1])
    trials = cur.execute("select id, seq, kind, settings, failed from trials where run_id=? order by seq",
                         (run,)).fetchall()
    meas = {}
    for tid, metric, p99, n in cur.execute(
            "select m.trial_id, m.metric, m.probe_p99_ms, (select length(samples) from series s"
            " where s.measurement_id=m.id) from measurements m join trials t on t.id=m.trial_id"
            " where t.run_id=? order by m.id", (run,)):
        meas.setdefault(tid, []).append((metric, p99))
    series = {}
    for tid, samples in cur.execute(
            "select m.trial_id, s.samples from series s join measurements m on m.id=s.measurement_id"
            " join trials t on t.id=m.trial_id where t.run_id=?", (run,)):
        series.setdefault(tid, []).append(len(json.loads(samples)))
    nwl = len(config.get("workloads", [])) or 1

    def ok(t):
        ms = meas.get(t[0], [])
        return t[4] == 0 and len(ms) >= nwl and all(m[0] is not None for m in ms)

    searched = [t for t in trials if t[2] in ("candidate", "repeat")]
    c = {
        "trial": sum(1 for t in searched if ok(t)),
        "failed": sum(1 for t in searched if not ok(t)),
        "baseline run": sum(1 for t in trials if t[2] == "baseline" and ok(t)),
    }
    confirmed = any(t[2] == "confirm-baseline" for t in trials)
    rec = result.get("recommended") if result else None
    orig_kinds = ("confirm-baseline",) if confirmed else ("baseline",)
    rec_kinds = ("confirm",) if confirmed else ("candidate", "repeat")
    orig = [t for t in trials if t[2] in orig_kinds]
    recd = [t for t in trials if rec is not None and t[2] in rec_kinds and json.loads(t[3]) == rec]
    c["original"] = sum(1 for t in orig if ok(t))
    c["recommended"] = sum(1 for t in recd if ok(t))
    c["original p99"] = sum(1 for t in orig for m in meas.get(t[0], [])[:1] if m[1] is not None)
    c["recommended p99"] = sum(1 for t in recd for m in meas.get(t[0], [])[:1] if m[1] is not None)
    c["orig series"] = [n for t in orig for n in series.get(t[0], [])]
    c["rec series"] = [n for t in recd for n in series.get(t[0], [])]
    c["measured"] = c["trial"]
    return c


def check_points(dom_file, db, run):
    dom = open(dom_file, encoding="utf-8").read()
    charts = series_in_dom(dom)
    c = store_counts(db, int(run))
    bad = 0
    if not charts:
        return fail("no chart in the page")
    for fid, groups in sorted(charts.items()):
        drawn_any = False
        for title, drawn in groups:
            m = re.match(r"(.*) \((\d+)\)$", title)
            if not m:
                continue  # a line or band: no points to count
            name, n = m.group(1), int(m.group(2))
            drawn_any |= drawn > 0
            print(f"{fid}: {name}: {drawn} drawn, title says {n}", end="")
            if drawn != n:
                bad |= fail(f"{fid}: {name}: {drawn} glyphs for {n} points")
                continue
            if fid == "chart-lateness":
                want = c["original p99"] if name == "original" else c["recommended p99"]
            elif fid == "chart-confirm":
                want = c[name]
            elif fid == "chart-series":
                lens = c["orig series"] + c["rec series"]
                want = n if n in lens else None
            elif fid == "chart-probe":
                want = n  # points of settings, not rows: bounded below
                if n > c["trial"]:
                    bad |= fail(f"{fid}: {n} settings drawn but only {c['trial']} trials")
            elif fid.startswith("chart-knob") or fid == "chart-trials":
                want = c.get(name)
            else:
                want = n
            print(f", store holds {want}")
            if want != n:
                bad |= fail(f"{fid}: {name}: the store holds {want}, the chart {n}")
        if not drawn_any and groups:
            bad |= fail(f"{fid}: drew no point")
    return bad


def check_recommend(dom_file, json_file):
    """recommend --html: a bar and a point per pooled machine; per recommended knob a
    chart of every pooled point (this machine's and the others'); each series draws
    what its title says."""
    charts = series_in_dom(open(dom_file, encoding="utf-8").read())
    rec = json.load(open(json_file))
    bad = 0
    want = {"machines": len(rec["machines"])}
    knobs = sorted(f for f in charts if f.startswith("chart-knob-"))
    print(f"{len(knobs)} knob charts, {len(rec['settings'])} recommended knobs")
    if len(knobs) != len(rec["settings"]):
        bad |= fail("a chart per recommended knob")
    for fid in ["chart-machines"] + knobs:
        got = {}
        for title, drawn in charts.get(fid, []):
            m = re.match(r"(.*) \((\d+)\)$", title)
            if not m:
                continue
            name, n = m.group(1), int(m.group(2))
            got[name] = n
            print(f"{fid}: {name}: {drawn} drawn, title says {n}")
            if drawn != n:
                bad |= fail(f"{fid}: {name}: {drawn} glyphs for {n} points")
        if fid == "chart-machines":
            if got.get("machines") != want["machines"]:
                bad |= fail(f"{fid}: {got.get('machines')} machines drawn, the JSON has {want['machines']}")
        else:
            pts = got.get("this machine", 0) + got.get("other machines", 0)
            if pts != rec["points"]:
                bad |= fail(f"{fid}: {pts} points drawn, the pool has {rec['points']}")
    return bad


def check_requests(netlog):
    """Every request the page made: Chromium's own (updates, accounts) start with no
    page origin behind them ("not an origin"); the page's carry its origin."""
    d = json.load(open(netlog))
    start = d["constants"]["logEventTypes"]["URL_REQUEST_START_JOB"]
    asked = set()
    for e in d.get("events", []):
        p = e.get("params") or {}
        url = p.get("url")
        if e.get("type") != start or not url or url.startswith(("file:", "data:", "about:", "chrome:")):
            continue
        if p.get("initiator") == "not an origin":
            continue
        asked.add(url)
    for u in sorted(asked):
        print("REQUEST: " + u)
    return 1 if asked else 0


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "points":
        sys.exit(check_points(*sys.argv[2:]))
    if len(sys.argv) == 4 and sys.argv[1] == "recommend":
        sys.exit(check_recommend(*sys.argv[2:]))
    if len(sys.argv) == 3 and sys.argv[1] == "requests":
        sys.exit(check_requests(sys.argv[2]))
    print(__doc__)
    sys.exit(2)
