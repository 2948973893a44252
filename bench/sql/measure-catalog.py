#!/usr/bin/env python3
"""Times the catalog's statements as the gateway runs them: named prepared statements with typed
parameters (NULL for filters not given), executed repeatedly on one connection, so PostgreSQL's
plan cache may switch to a generic plan after five runs, as it does for the pg client.

The SQL is read from CatalogRepository.java (the OFFERS and TIMELINE constants), so it is always
the gateway's own. Usage, against a database seeded by seed-fleet.sql:

  bench/sql/measure-catalog.py --dsn "host=127.0.0.1 port=55432 user=postgres dbname=fleet" \
      [--runs 12] [--set jit=off] [--set plan_cache_mode=force_custom_plan] [--explain]

Prints, per scenario, the first run, the median and the maximum of runs 6.. (the plan the cache
settled on) in milliseconds.
"""
import argparse
import pathlib
import re
import statistics
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[2]
REPO = ROOT / "gateway/src/main/java/io/gpurental/gateway/catalog/CatalogRepository.java"
OFFERS_TYPES = "timestamptz, timestamptz, text, integer, text, text, text, bigint, text, integer, integer"
TIMELINE_TYPES = "text, timestamptz, integer"
# statements other than OFFERS and TIMELINE, prepared only for their own scenarios (a database
# migrated before V33 has no catalog_offer)
OWN = {
    "one": lambda source: "PREPARE one(text, timestamptz, timestamptz) AS " + constant("OFFER", source).strip() + ";",
    "history": lambda source: "PREPARE history(text) AS " + constant("PRICE_HISTORY", source) + ";",
}
HOUR = "date_trunc('hour', now())"
SCENARIOS = [
    ("search, default window (now, 1 h)", "offers",
     "now(), now() + interval '1 hour', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL"),
    ("search, 24 h tomorrow, one model", "offers",
     f"{HOUR} + interval '24 hours', {HOUR} + interval '48 hours', 'H100 SXM', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL"),
    ("search, 24 h tomorrow, model + region + max price", "offers",
     f"{HOUR} + interval '24 hours', {HOUR} + interval '48 hours', 'L40S', 40, 'us-east', NULL, NULL, 400, NULL, NULL, NULL"),
    ("one offer (offer page, quote), 24 h", "offers",
     f"{HOUR} + interval '24 hours', {HOUR} + interval '48 hours', NULL, NULL, NULL, NULL, NULL, NULL, 'off_b42', NULL, NULL"),
    ("14-day timeline", "timeline", f"'off_b42', {HOUR}, 336"),
    # workload searches, 24 h tomorrow: the VRAM a workload needs per GPU ($10) and in all ($11),
    # as WorkloadSearch.vramNeed gives them; a statement without them ignores them
    ("workload llm-inference (8B, 19 GB in all)", "offers",
     f"{HOUR} + interval '24 hours', {HOUR} + interval '48 hours', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 19"),
    ("workload llm-inference params_b=250 (554 GB in all)", "offers",
     f"{HOUR} + interval '24 hours', {HOUR} + interval '48 hours', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 554"),
    ("workload image-generation flux.1-dev (39 GB per GPU)", "offers",
     f"{HOUR} + interval '24 hours', {HOUR} + interval '48 hours', NULL, NULL, NULL, NULL, NULL, NULL, NULL, 39, 39"),
    # the offer page's and the quote's own statements since V33 (docs/benchmarks.md, part 9); last,
    # so that --scenario keeps its numbers
    ("one offer through catalog_offer (V33), 24 h", "one",
     f"'off_b42', {HOUR} + interval '24 hours', {HOUR} + interval '48 hours'"),
    ("price history (offer page)", "history", "'off_b42'"),
]


def constant(name, path=REPO):
    source = pathlib.Path(path).read_text()
    match = re.search(r"String " + name + r' = """\n(.*?)""";', source, re.S) or re.search(
        r"String " + name + r' = "(.*?)";', source)
    return match.group(1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dsn", required=True)
    parser.add_argument("--runs", type=int, default=12)
    parser.add_argument("--source", default=str(REPO), help="a CatalogRepository.java to read the SQL from")
    parser.add_argument("--timeout", type=int, default=10, help="statement timeout in seconds")
    parser.add_argument("--set", action="append", default=[], help="a setting for the session, e.g. jit=off")
    parser.add_argument("--explain", action="store_true", help="EXPLAIN (ANALYZE, BUFFERS) of one search instead")
    parser.add_argument("--scenario", type=int, default=1, help="which search --explain shows (0-3, 5-7 workloads)")
    args = parser.parse_args()
    offers, timeline = constant("OFFERS", args.source), constant("TIMELINE", args.source)
    lines = ["\\set ON_ERROR_STOP on", f"SET statement_timeout = '{args.timeout}s';"] + [f"SET {s.split('=')[0]} = '{s.split('=', 1)[1]}';" for s in args.set]
    lines += [f"PREPARE offers({OFFERS_TYPES}) AS {offers};", f"PREPARE timeline({TIMELINE_TYPES}) AS {timeline};"]
    if args.explain:
        lines += [f"EXPLAIN (ANALYZE, BUFFERS) EXECUTE offers({SCENARIOS[args.scenario][2]});"]
        print(subprocess.run(["psql", args.dsn, "-X", "-q", "-f", "-"], input="\n".join(lines), text=True,
                             capture_output=True, check=True).stdout)
        return
    lines.append("\\timing on")
    lines.append("\\o /dev/null")
    for name, statement, params in SCENARIOS:
        run = subprocess.run(["psql", args.dsn, "-X", "-q", "-f", "-"], text=True, capture_output=True,
                             input="\n".join(lines[:-2] + ([OWN[statement](args.source)] if statement in OWN else [])
                                              + lines[-2:] + [f"EXECUTE {statement}({params});"] * args.runs))
        runs = [float(t) for t in re.findall(r"Time: ([0-9.]+) ms", run.stdout)]
        if run.returncode != 0:
            print(f"| {name} | over {args.timeout} s (statement timeout) at run {len(runs)} | | |")
            continue
        settled = runs[5:] or runs
        print(f"| {name} | {runs[0]:.1f} | {statistics.median(settled):.1f} | {max(settled):.1f} |", flush=True)

if __name__ == "__main__":
    main()
