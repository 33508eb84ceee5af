#!/usr/bin/env python3
"""Per-phase markdown tables for docs/seed-scenarios.md from `ssdlab run` result directories.

    scripts/seed-tables.py results/d2-vertex-fresh-vs-used results/d3-... > tables.md
"""
import json
import sys
from pathlib import Path


def cell(v, fmt):
    return "-" if v is None else format(v, fmt)


def table(result_dir):
    summary = json.loads((Path(result_dir) / "summary.json").read_text())
    name = Path(summary.get("scenario_file", result_dir)).stem
    lines = [f"### {name}", "",
             "| phase | sim s | read MB/s | write MB/s | IOPS | WAF | GC copies | erases | document |",
             "|---|---|---|---|---|---|---|---|---|"]
    for p in summary["phases"]:
        if p["kind"] in ("secure_erase", "mark", "precondition"):
            continue
        doc = ", ".join(f"{e['metric']} {e['document']:g}" for e in p.get("expect", []))
        lines.append("| {} | {} | {} | {} | {} | {} | {} | {} | {} |".format(
            p["name"], cell(p["sim_seconds"], ".1f"), cell(p["read_mbps"], ".1f"), cell(p["write_mbps"], ".1f"),
            cell(p["iops"], ".0f"), cell(p["waf"], ".2f"), p["gc_units_copied"], p["erases"], doc))
    return "\n".join(lines)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    print("\n\n".join(table(d) for d in sys.argv[1:]))
