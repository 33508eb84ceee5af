#!/usr/bin/env python3
"""Plots of a sweep's figures against each of its axes (`ssdlab sweep collect OUT --plot F`).

usage: ssdlab_sweep_plots.py OUT --figure FIGURE[@PHASE] [--figure ...]

Reads OUT/results.csv (one row per point and phase, written by `ssdlab sweep collect`) and
OUT/plan.json (the axes). For every figure and every axis it draws OUT/plots/
FIGURE@PHASE_vs_AXIS.png: the figure at the phase (the last phase when none is named) against
the axis, one line per value of the next axis (the first when plotting the last), each marker the
mean over the points that share those two values (the other axes and the seeds), with bars from
their minimum to their maximum. OUT/plots/index.json lists what was drawn.

Exit status: 0 drawn, 2 bad arguments (a figure or phase the table does not have), 3 matplotlib
cannot be imported (ssdlab prints a notice and goes on).
"""
import argparse
import csv
import json
import os
import re
import sys


def number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def close_names(word, names, n=5):
    import difflib
    return difflib.get_close_matches(word, names, n=n, cutoff=0.5)


def sort_key(values):
    """Axis values in numeric order when they are all numbers, else in first-seen order."""
    if all(number(v) is not None for v in values):
        return sorted(values, key=float)
    return list(values)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out")
    parser.add_argument("--figure", action="append", required=True)
    args = parser.parse_args()

    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib cannot be imported", file=sys.stderr)
        return 3

    with open(os.path.join(args.out, "plan.json")) as f:
        axes = json.load(f)["axes"]
    with open(os.path.join(args.out, "results.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        print("no finished point in %s/results.csv: nothing to plot" % args.out, file=sys.stderr)
        return 2
    if not axes:
        print("the sweep has no axis to plot against", file=sys.stderr)
        return 2
    columns = list(rows[0].keys())
    phases = []
    for r in sorted(rows, key=lambda r: int(r["phase_index"])):
        if r["phase"] not in phases:
            phases.append(r["phase"])

    plots_dir = os.path.join(args.out, "plots")
    os.makedirs(plots_dir, exist_ok=True)
    index = []
    for spec in args.figure:
        figure, _, phase = spec.partition("@")
        phase = phase or phases[-1]
        if figure not in columns:
            hint = close_names(figure, columns)
            print("no figure '%s' in results.csv%s" % (figure, " (close: %s)" % ", ".join(hint) if hint else ""),
                  file=sys.stderr)
            return 2
        if phase not in phases:
            print("no phase '%s' (phases: %s)" % (phase, ", ".join(phases)), file=sys.stderr)
            return 2
        selected = [r for r in rows if r["phase"] == phase and number(r[figure]) is not None]
        for a, axis in enumerate(axes):
            other = axes[(a + 1) % len(axes)] if len(axes) > 1 else None
            xs = sort_key(dict.fromkeys(r[axis] for r in selected))
            series = sort_key(dict.fromkeys(r[other] for r in selected)) if other else [None]
            numeric_x = all(number(x) is not None for x in xs)
            fig, ax = plt.subplots(figsize=(7, 4.2))
            for s in series:
                points = []
                for i, x in enumerate(xs):
                    ys = [float(r[figure]) for r in selected if r[axis] == x and (other is None or r[other] == s)]
                    if ys:
                        points.append((float(x) if numeric_x else i, sum(ys) / len(ys), min(ys), max(ys)))
                if not points:
                    continue
                px, mean, lo, hi = zip(*points)
                err = [[m - l for m, l in zip(mean, lo)], [h - m for m, h in zip(mean, hi)]]
                label = "%s=%s" % (other, s) if other else None
                ax.errorbar(px, mean, yerr=err, marker="o", capsize=3, label=label)
            if not numeric_x:
                ax.set_xticks(range(len(xs)))
                ax.set_xticklabels(xs)
            ax.set_xlabel(axis)
            ax.set_ylabel(figure)
            ax.set_title("%s (%s) vs %s" % (figure, phase, axis))
            ax.grid(True, alpha=0.3)
            if other:
                ax.legend(fontsize="small")
            fig.tight_layout()
            name = re.sub(r"[^A-Za-z0-9_.@-]", "_", "%s@%s_vs_%s" % (figure, phase, axis)) + ".png"
            fig.savefig(os.path.join(plots_dir, name), dpi=100)
            plt.close(fig)
            index.append({"file": name, "figure": figure, "phase": phase, "axis": axis, "series": other,
                          "points": len(selected)})
            print("plot %s" % os.path.join(plots_dir, name))
    with open(os.path.join(plots_dir, "index.json"), "w") as f:
        json.dump({"plots": index}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
