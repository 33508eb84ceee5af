#!/usr/bin/env python3
"""Per-phase markdown tables for docs/seed-scenarios.md from `ssdlab run` result directories.

    scripts/seed-tables.py results/d2-vertex-fresh-vs-used results/d3-... > tables.md
    scripts/seed-tables.py --expect results/d2-... results/d3-...   (document vs ssdlab, factor apart)
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


def expect_rows(result_dirs):
    """One row per `expect` figure: the document's, ssdlab's, and the factor between them
    (the larger over the smaller, so 1.00 is equal and 2.00 the issue's bound)."""
    lines = ["| scenario | phase | figure | document | ssdlab | factor apart |", "|---|---|---|---|---|---|"]
    for result_dir in result_dirs:
        summary = json.loads((Path(result_dir) / "summary.json").read_text())
        name = Path(summary.get("scenario_file", result_dir)).stem
        for p in summary["phases"]:
            for e in p.get("expect", []):
                doc, sim = e["document"], e["simulated"]
                factor = max(doc, sim) / min(doc, sim) if doc > 0 and sim > 0 else float("inf")
                lines.append(f"| {name} | {p['name']} | {e['metric']} | {doc:g} | {sim:.1f} | {factor:.2f} |")
    return "\n".join(lines)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    if sys.argv[1] == "--expect":
        print(expect_rows(sys.argv[2:]))
    else:
        print("\n\n".join(table(d) for d in sys.argv[1:]))
