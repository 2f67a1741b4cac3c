#!/usr/bin/env python3
"""Markdown table from the results of mm2-compare.sh (modes throughput and latency) or
many-partitions.sh (mode partitions): kind, run, metric, value per line.

Medians over the repeats with min..max in brackets; ratios are taken within each run
(same brokers, same minute of machine load) and then summarised the same way.
"""
import re
import statistics
import sys
from collections import defaultdict

path, mode, params = sys.argv[1], sys.argv[2], sys.argv[3]
data = defaultdict(lambda: defaultdict(dict))  # kind -> metric -> run -> value
for line in open(path):
    parts = line.rstrip("\n").split("\t")
    if len(parts) != 4 or parts[3] in ("", "nan"):
        continue
    kind, run, metric, value = parts
    try:
        data[kind][metric][int(run)] = float(value)
    except ValueError:
        pass


def summary(values, fmt="{:,.0f}"):
    values = [v for v in values if v is not None]
    if not values:
        return "n/a"
    med = statistics.median(values)
    if len(values) == 1:
        return fmt.format(med)
    return f"{fmt.format(med)} [{fmt.format(min(values))}..{fmt.format(max(values))}]"


def runs_of(kind, metric):
    return data[kind][metric]


# keep_zero: a run where a is 0 gives a ratio of 0 instead of being left out (how
# many-partitions.sh's table has always counted a copy that showed no steady rate).
def ratio(a_kind, a_metric, b_kind, b_metric, invert=False, keep_zero=False):
    a, b = runs_of(a_kind, a_metric), runs_of(b_kind, b_metric)
    out = []
    for r in sorted(set(a) & set(b)):
        if (a[r] > 0 or keep_zero) and b[r] > 0:
            out.append(b[r] / a[r] if invert else a[r] / b[r])
    return out


names = {
    "md": "MirrorDesk `run --until-caught-up`" + (" exactly-once" if "eos=1" in params else ""),
    "mdalo": "MirrorDesk `run --until-caught-up` at-least-once",
    "mdnomap": "MirrorDesk `run --until-caught-up`, `\"offsetMap\": false`, no groups",
    "mm2": "MirrorMaker 2 (dedicated)",
    "produce": "limit: 1 librdkafka producer → target",
    "consume": "limit: 1 librdkafka consumer ← source",
    "copy": "bare copy loop: 1 consumer → 1 producer",
    "loop": "bare copy loop: 1 consumer → 1 producer",
    "mdsmall": "MirrorDesk `run --until-caught-up`, smaller bounds",
    "mdnomap2": "the same again (control: no map, no groups)",
    "mdschema": "MirrorDesk `run --until-caught-up`, schema sync, every record's id translated",
    "mdplain": "MirrorDesk `run --until-caught-up`, no schema sync",
    "mdplain2": "the same again (control: no schema sync)",
}
# MirrorDesk's CPU plus the brokers' during the same run: what the copy cost the machine.
for kind in list(data):
    for r, cpu in data[kind]["cpu_s"].items():
        if r in data[kind]["broker_cpu_s"]:
            data[kind]["all_cpu_s"][r] = cpu + data[kind]["broker_cpu_s"][r]
print(f"Parameters: {params}\n")
if mode == "throughput":
    # limit per run: the narrower of the two sides
    for r in set(runs_of("produce", "steady_rps")) & set(runs_of("consume", "steady_rps")):
        data["limit"]["steady_rps"][r] = min(data["produce"]["steady_rps"][r], data["consume"]["steady_rps"][r])
    print("| | steady records/s | steady MB/s | end to end s | peak RSS MB | CPU s | brokers' CPU s |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    if "mapcost=1" in params:
        interval = re.search(r"interval_ms=(\d+)", params)
        every = f"{int(interval.group(1)) / 1000:g} s" if interval else "1 s"
        exists = ", its map topic already there" if "map_exists=1" in params else ""
        throttle = re.search(r"throttle=(\d+)", params)
        if throttle and int(throttle.group(1)) > 0:
            exists += f", throttled to {int(throttle.group(1)) / 1e6:g} MB/s"
        names["md"] = f"MirrorDesk `run --until-caught-up`, offset map + group sync every {every}{exists}"
    if "footprint=1" in params:
        names["md"] = "MirrorDesk `run --until-caught-up`, default bounds"
        bounds = re.search(r"small_consumer=(\S*) small_producer=(\S*)", params)
        if bounds:
            names["mdsmall"] = f"MirrorDesk, consumer `{bounds.group(1)}`, producer `{bounds.group(2)}`"
    for kind in ("md", "mdsmall", "mdalo", "mdnomap", "mdnomap2", "mdschema", "mdplain", "mdplain2", "mm2",
                 "produce", "consume", "copy"):
        if not any(data[kind].values()):  # not run (the limit lookup above touched it)
            continue
        print(f"| {names[kind]} | {summary(runs_of(kind, 'steady_rps').values())} "
              f"| {summary(runs_of(kind, 'steady_mbps').values(), '{:.1f}')} "
              f"| {summary(runs_of(kind, 'e2e_s').values(), '{:.1f}')} "
              f"| {summary(runs_of(kind, 'rss_mb').values())} "
              f"| {summary(runs_of(kind, 'cpu_s').values(), '{:.1f}')} "
              f"| {summary(runs_of(kind, 'broker_cpu_s').values(), '{:.1f}')} |")
    print()
    print("| ratio (per run, then median [min..max]) | value | target |")
    print("|---|---:|---|")
    # data is a defaultdict: the table above touched every kind, so ask for values.
    if any(data["mdsmall"].values()):
        print(f"| smaller bounds / defaults steady rate | {summary(ratio('mdsmall', 'steady_rps', 'md', 'steady_rps'), '{:.3f}')} | ≥ 0.97 |")
        print(f"| smaller bounds / defaults peak RSS | {summary(ratio('mdsmall', 'rss_mb', 'md', 'rss_mb'), '{:.3f}')} | |")
        print(f"| smaller bounds / defaults CPU seconds | {summary(ratio('mdsmall', 'cpu_s', 'md', 'cpu_s'), '{:.3f}')} | |")
        sys.exit(0)
    if any(data["mdschema"].values()):
        print(f"| translated ids / none steady rate | {summary(ratio('mdschema', 'steady_rps', 'mdplain', 'steady_rps'), '{:.3f}')} | ≥ 0.95 |")
        print(f"| translated ids / none CPU seconds | {summary(ratio('mdschema', 'cpu_s', 'mdplain', 'cpu_s'), '{:.3f}')} | |")
        print(f"| translated ids / none peak RSS | {summary(ratio('mdschema', 'rss_mb', 'mdplain', 'rss_mb'), '{:.3f}')} | |")
        print(f"| control: none / none steady rate | {summary(ratio('mdplain2', 'steady_rps', 'mdplain', 'steady_rps'), '{:.3f}')} | |")
        print(f"| control: none / none CPU seconds | {summary(ratio('mdplain2', 'cpu_s', 'mdplain', 'cpu_s'), '{:.3f}')} | |")
        sys.exit(0)
    if any(data["mdnomap"].values()):
        print(f"| map + group sync / no map steady rate | {summary(ratio('md', 'steady_rps', 'mdnomap', 'steady_rps'), '{:.3f}')} | ≥ 0.97 |")
        print(f"| map + group sync / no map CPU seconds | {summary(ratio('md', 'cpu_s', 'mdnomap', 'cpu_s'), '{:.3f}')} | |")
        print(f"| map + group sync / no map end to end | {summary(ratio('md', 'e2e_s', 'mdnomap', 'e2e_s'), '{:.3f}')} | |")
        print(f"| map + group sync / no map brokers' CPU seconds | {summary(ratio('md', 'broker_cpu_s', 'mdnomap', 'broker_cpu_s'), '{:.3f}')} | |")
        print(f"| map + group sync / no map CPU seconds, MirrorDesk + brokers | {summary(ratio('md', 'all_cpu_s', 'mdnomap', 'all_cpu_s'), '{:.3f}')} | ≤ 1.03 |")
        if any(data["mdnomap2"].values()):
            print(f"| control: no map / no map steady rate | {summary(ratio('mdnomap2', 'steady_rps', 'mdnomap', 'steady_rps'), '{:.3f}')} | |")
            print(f"| control: no map / no map CPU seconds, MirrorDesk + brokers | {summary(ratio('mdnomap2', 'all_cpu_s', 'mdnomap', 'all_cpu_s'), '{:.3f}')} | |")
        sys.exit(0)
    print(f"| MirrorDesk / MM2 steady rate | {summary(ratio('md', 'steady_rps', 'mm2', 'steady_rps'), '{:.2f}')} | ≥ 1.5 |")
    print(f"| MirrorDesk / limit steady rate | {summary(ratio('md', 'steady_rps', 'limit', 'steady_rps'), '{:.2f}')} | ≥ 0.8 |")
    print(f"| MirrorDesk / bare copy loop steady rate | {summary(ratio('md', 'steady_rps', 'copy', 'steady_rps'), '{:.2f}')} | |")
    print(f"| MirrorDesk / MM2 peak RSS | {summary(ratio('md', 'rss_mb', 'mm2', 'rss_mb'), '{:.3f}')} | ≤ 0.2 |")
    print(f"| MirrorDesk / MM2 CPU seconds | {summary(ratio('md', 'cpu_s', 'mm2', 'cpu_s'), '{:.2f}')} | |")
    print(f"| MirrorDesk / MM2 end to end | {summary(ratio('md', 'e2e_s', 'mm2', 'e2e_s'), '{:.2f}')} | |")
    if any(data["mdalo"].values()):
        print(f"| exactly-once / at-least-once steady rate | {summary(ratio('md', 'steady_rps', 'mdalo', 'steady_rps'), '{:.2f}')} | ≥ 0.7 |")
elif mode == "partitions":
    # many-partitions.sh: "one" (1 topic x B partitions) against "many" (T topics x P
    # partitions), both sizes read back from the parameters line.
    one_parts = re.search(r"\bone=1x(\d+)", params).group(1)
    many_topics, many_per_topic = re.search(r"\bmany=(\d+)x(\d+)", params).groups()
    many_parts = int(many_topics) * int(many_per_topic)
    trickle = int(re.search(r"\btrickle_rps=(\d+)", params).group(1))

    def once(kind, metric):  # measured once per kind: run 0
        return data[kind][metric].get(0)

    def one_decimal(v):
        return "n/a" if v is None else f"{v:.1f}"

    labels = {"one": f"1 topic x {one_parts} partitions", "many": f"{many_parts:,} partitions"}
    print("| copy of the same records | steady records/s | steady MB/s | end to end s | peak RSS MB | CPU s | brokers' CPU s |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for kind in ("one", "many"):
        print(f"| {labels[kind]} | {summary(runs_of(kind, 'steady_rps').values())} "
              f"| {summary(runs_of(kind, 'steady_mbps').values(), '{:.1f}')} "
              f"| {summary(runs_of(kind, 'e2e_s').values(), '{:.1f}')} "
              f"| {summary(runs_of(kind, 'rss_mb').values())} "
              f"| {summary(runs_of(kind, 'cpu_s').values(), '{:.1f}')} "
              f"| {summary(runs_of(kind, 'broker_cpu_s').values(), '{:.1f}')} |")
    for kind in ("one", "many"):
        load = once(kind, "load_rps")
        print(f"| for scale: 1 producer loading the source, {labels[kind]} (once) | {summary([load] if load else [])} | | | | | |")
    print()
    print("| ratio, pair by pair (median [min..max]) | value | target |")
    print("|---|---:|---|")
    print(f"| {many_parts} / {one_parts} partitions steady rate "
          f"| {summary(ratio('many', 'steady_rps', 'one', 'steady_rps', keep_zero=True), '{:.2f}')} | ≥ 0.8 |")
    print(f"| {many_parts} / {one_parts} partitions peak RSS "
          f"| {summary(ratio('many', 'rss_mb', 'one', 'rss_mb', keep_zero=True), '{:.2f}')} | |")
    print(f"| {many_parts} / {one_parts} partitions CPU seconds "
          f"| {summary(ratio('many', 'cpu_s', 'one', 'cpu_s', keep_zero=True), '{:.2f}')} | |")
    print()
    print("| upkeep, caught up (CPU ms per second) | MirrorDesk | brokers | MirrorDesk | brokers |")
    print("|---|---:|---:|---:|---:|")
    print(f"| | {labels['one']} | | {labels['many']} | |")
    rows = [("idle", "defaults: refresh every 10 s, samples every 250 ms, commit round every 1 s"),
            ("refresh1s", "`\"topicRefreshIntervalMs\": 1000`"),
            ("sample10ms", "`\"samplingIntervalMs\": 10`"),
            ("trickle", f"defaults, {trickle:,} records/s round-robin over all partitions")]
    for key, label in rows:
        cells = []
        for kind in ("one", "many"):
            cells += [one_decimal(once(kind, f"{key}_md_ms_per_s")), one_decimal(once(kind, f"{key}_broker_ms_per_s"))]
        print(f"| {label} | " + " | ".join(cells) + " |")
    print()
    for kind in ("one", "many"):
        idle, ref, smp = (once(kind, f"{k}_md_ms_per_s") for k in ("idle", "refresh1s", "sample10ms"))
        bidle, bref = once(kind, "idle_broker_ms_per_s"), once(kind, "refresh1s_broker_ms_per_s")
        if None in (idle, ref, smp, bidle, bref):
            continue
        # refresh1s: 1 refresh a second instead of 0.1; sample10ms: 100 snapshots a second instead of 4
        print(f"- {labels[kind]}: a topic refresh costs MirrorDesk about {(ref - idle) / 0.9:.1f} ms of CPU "
              f"(the brokers {(bref - bidle) / 0.9:.1f} ms), a metric snapshot about {(smp - idle) / 96:.2f} ms.")
else:
    print("| at fixed rate | p50 ms | p99 ms | p99.9 ms | max ms | peak RSS MB | CPU s |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for kind in ("loop", "md", "mdalo", "mm2"):
        if kind not in data:
            continue
        print(f"| {names[kind].replace(' `run --until-caught-up`', ' `run`')} "
              f"| {summary(runs_of(kind, 'p50_ms').values(), '{:.1f}')} "
              f"| {summary(runs_of(kind, 'p99_ms').values(), '{:.1f}')} "
              f"| {summary(runs_of(kind, 'p999_ms').values(), '{:.1f}')} "
              f"| {summary(runs_of(kind, 'max_ms').values(), '{:.0f}')} "
              f"| {summary(runs_of(kind, 'rss_mb').values())} "
              f"| {summary(runs_of(kind, 'cpu_s').values(), '{:.1f}')} "
              f"| {summary(runs_of(kind, 'broker_cpu_s').values(), '{:.1f}')} |")
    print()
    if "loop" in data and "md" in data:
        print(f"MirrorDesk / bare copy loop p99: {summary(ratio('md', 'p99_ms', 'loop', 'p99_ms'), '{:.2f}')} (target ≤ 1.2; "
              f"and MirrorDesk's p99 under 50 ms)")
    if "mm2" in data and "md" in data:
        print(f"MirrorDesk / MM2 p99: {summary(ratio('md', 'p99_ms', 'mm2', 'p99_ms'), '{:.2f}')} (target < 1)")
