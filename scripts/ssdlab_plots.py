#!/usr/bin/env python3
"""PNG plots of one `ssdlab run`.

Usage: ssdlab_plots.py RESULTS_DIR

Reads RESULTS_DIR/summary.json, timeseries.csv and, when present, latency_histograms.json, and
writes PNGs into RESULTS_DIR/plots/ together with plots/index.json, the list report.html shows:
{"plots": [{"file", "title", "caption"}...], "notes": ["what was skipped and why", ...]}.

Needs python3 and Debian's python3-matplotlib (Agg backend; numpy comes with it); nothing else.
Exit status: 0 plots written; 1 a plot failed (the others and index.json are written);
2 usage or unreadable input; 3 matplotlib missing (`ssdlab run` then prints one notice).
"""
import json
import math
import os
import re
import sys

from ssdlab_plots_base import DPI, EXIT_BAD_INPUT, EXIT_FAILED, EXIT_NO_MATPLOTLIB, draw_all, fail, \
    load_json, load_timeseries, number, open_canvas

# base/core/anatomy.h, in critical-path order.
ANATOMY_PARTS = ["host_queue", "host_adapter", "link_wake", "link_wait", "link_transfer", "fw_queue", "firmware",
                 "map_wait", "buffer_wait", "staging", "die_wait_host", "die_wait_gc", "die_wait_map", "bus_wait",
                 "bus_transfer", "array", "flush_wait", "read_retry", "ecc", "read_dma", "usb"]
WIDE = (12.8, 7.2)  # inches at 100 dpi: 1280 x 720 pixels
np = None  # numpy, imported with matplotlib


def import_pyplot():
    global np
    try:
        plt = open_canvas()
    except ImportError as e:
        sys.stderr.write("plots skipped: python3-matplotlib not installed (%s)\n" % e)
        sys.exit(EXIT_NO_MATPLOTLIB)
    np = plt.np
    return plt


# ---- input --------------------------------------------------------------------------------

def phase_spans(summary):
    spans = []
    for p in summary.get("phases", []):
        start = float(p.get("sim_start_s", 0.0))
        spans.append({"name": p.get("name", "?"), "start": start, "end": start + float(p.get("sim_seconds", 0.0)),
                      "phase": p})
    return spans


def ios(p):
    return int(p.get("reads", 0)) + int(p.get("writes", 0))


def job_phases(summary):
    """Phases that timed host I/O (jobs and timed fills; not erases, trims or preconditioning)."""
    return [p for p in summary.get("phases", []) if ios(p) > 0 and float(p.get("sim_seconds", 0)) > 0]


def series_names(phases):
    """The series a phase belongs to: its name without a repeat's '#N', and without a trailing
    run number when another phase belongs to that series (fresh_run1, fresh_run#1 ...)."""
    plain = [re.sub(r"#\d+$", "", p["name"]) for p in phases]
    bases = set(plain)
    out = []
    for name in plain:
        stripped = re.sub(r"_?\d+$", "", name)
        out.append(stripped if stripped != name and stripped in bases else name)
    return out


# ---- shared drawing -----------------------------------------------------------------------

LABEL_PX = 9  # a rotated 7-point name is about this wide


def draw_phases(ax, spans, label):
    """Shade alternate timed phases, mark instant ones (erase, trim, precondition) with a dashed
    line, and write the names above `ax` where they fit: instant phases at their line first,
    then each timed phase at its middle or, if that is taken, the nearest free place inside it."""
    x0, x1 = ax.get_xlim()
    px_per_s = (ax.get_window_extent().width or 1000.0) / max(x1 - x0, 1e-12)
    shade = False
    instant, timed = [], []
    for s in spans:
        if (s["end"] - s["start"]) * px_per_s >= 1.0:
            if shade:
                ax.axvspan(s["start"], s["end"], color="0.5", alpha=0.08, lw=0)
            shade = not shade
            ax.axvline(s["start"], color="0.4", lw=0.6, alpha=0.6)
            timed.append(s)
        else:
            ax.axvline(s["start"], color="tab:purple", lw=0.8, ls="--", alpha=0.7)
            instant.append(s)
    if not label:
        return
    taken = []

    def free(px):
        return all(abs(px - t) >= LABEL_PX for t in taken)

    def put(px, s, colour, style):
        taken.append(px)
        ax.text(x0 + px / px_per_s, 1.01, s["name"], transform=ax.get_xaxis_transform(), rotation=90,
                ha="center", va="bottom", fontsize=7, color=colour, style=style, clip_on=False)

    for s in instant:
        px = (s["start"] - x0) * px_per_s
        if free(px):
            put(px, s, "tab:purple", "italic")
    for s in timed:
        lo, hi = (s["start"] - x0) * px_per_s + LABEL_PX / 2, (s["end"] - x0) * px_per_s - LABEL_PX / 2
        mid = (lo + hi) / 2
        for offset in range(0, int((hi - lo) / 2) + 1):
            spot = next((px for px in (mid - offset, mid + offset) if free(px)), None)
            if spot is not None:
                put(spot, s, "0.15", "normal")
                break


def title_for(summary, what):
    return "%s - %s (drive %s)" % (what, summary.get("scenario", "?"), summary.get("drive", "?"))


def save(plt, fig, out_dir, name):
    plt.save(fig, os.path.join(out_dir, name))
    return name


def place(fig, left, right, bottom, top, hspace=None, wspace=None):
    """Margins in pixels, reckoned from label lengths (text_px): fig.tight_layout() lays the
    figure out once more to measure every label, as costly as drawing it."""
    w, h = fig.get_figwidth() * DPI, fig.get_figheight() * DPI
    fig.subplots_adjust(left / w, bottom / h, 1 - right / w, 1 - top / h, wspace, hspace)


def text_px(labels, points):  # the longest label's width (DejaVu Sans: ~0.62 em a character)
    return 0.62 * points * DPI / 72 * max([len(str(x)) for x in labels] + [1])


MAX_POINTS = 2000  # a longer time series is drawn as the extremes of this many groups


def series(ax, ts, key, **kwargs):
    """Plot ts[key] over time; above 2 x MAX_POINTS rows, the lowest and highest value of each
    group of rows in time order (Agg draws ~1,200 pixel columns anyway; every spike stays)."""
    t, ys = ts["time_s"], ts[key]
    k = -(-len(t) // MAX_POINTS)
    if k > 2:
        groups = -(-len(t) // k)
        y = np.concatenate([ys, np.full(groups * k - len(t), np.nan)]).reshape(groups, k)
        nan = np.isnan(y)  # a group of NaNs only: its first row
        low = np.where(nan, np.inf, y).argmin(axis=1)
        high = np.where(nan, -np.inf, y).argmax(axis=1)
        picks = np.unique(np.concatenate([low, high]) + np.tile(np.arange(groups) * k, 2))
        t, ys = t[picks], ys[picks]
    ax.plot(t, ys, **kwargs)


def time_axes(plt, n, heights=None):
    fig, axes = plt.subplots(n, 1, sharex=True, figsize=(WIDE[0], 2.6 * n + 2.2),
                             gridspec_kw={"height_ratios": heights} if heights else None)
    return fig, (axes if n > 1 else [axes])


def finish_time_axes(fig, axes, ts, spans, title):
    """x range and labels; room above the top panel for the phase names, the title above them."""
    end = max([ts["time_s"][-1]] + [s["end"] for s in spans])
    axes[-1].set_xlim(0, end * 1.005 if end > 0 else 1)
    axes[-1].set_xlabel("simulated time (s)")
    names_px = 4.8 * max([len(s["name"]) for s in spans] + [4]) + 12
    fig.suptitle(title)
    place(fig, 95, 15, 50, names_px + 36, hspace=0.12)
    for i, ax in enumerate(axes):
        draw_phases(ax, spans, label=(i == 0))


# ---- the plots ----------------------------------------------------------------------------

def plot_throughput(plt, summary, ts, spans, out_dir):
    has_latency = "p99_us" in ts and not np.isnan(ts["p99_us"]).all()
    fig, axes = time_axes(plt, 3 if has_latency else 2)
    series(axes[0], ts, "read_mbps", lw=1, label="read", color="tab:blue")
    series(axes[0], ts, "write_mbps", lw=1, label="write", color="tab:red")
    axes[0].set_ylabel("throughput (MB/s)")
    axes[0].legend(loc="upper right", fontsize=8)
    series(axes[1], ts, "iops", lw=1, color="tab:green")
    axes[1].set_ylabel("IOPS (I/O per s)")
    for ax in axes[:2]:
        ax.set_ylim(bottom=0)
    if has_latency:
        series(axes[2], ts, "p50_us", lw=1, label="p50", color="tab:olive")
        series(axes[2], ts, "p99_us", lw=1, label="p99", color="tab:brown")
        axes[2].set_yscale("log")
        plt.latency_labels(axes[2].yaxis)
        axes[2].set_ylabel("latency")
        axes[2].legend(loc="upper right", fontsize=8)
    finish_time_axes(fig, axes, ts, spans, title_for(summary, "Throughput and IOPS over simulated time"))
    caption = ("Each point is one time-series interval (timeseries.csv); shaded bands and vertical lines are "
               "phase boundaries, dashed purple lines instant phases (erase, trim, preconditioning).")
    if ts["rows"] > 2 * MAX_POINTS:
        caption += " Long series: the lowest and highest value of each of %d groups of intervals." % MAX_POINTS
    if has_latency:
        caption += " Bottom: p50 and p99 latency of the requests completed in each interval."
    return save(plt, fig, out_dir, "throughput.png"), "Throughput and IOPS over time", caption


def phase_levels(ax, spans, value, label):
    """A black line over each timed phase at value(phase) (None: no line), labelled once."""
    first = True
    for s in spans:
        v = value(s["phase"])
        if v is not None and s["end"] > s["start"]:
            ax.hlines(v, s["start"], s["end"], color="black", lw=1.6, label=label if first else None)
            first = False


def plot_waf_free(plt, summary, ts, spans, out_dir):
    fig, axes = time_axes(plt, 2)
    series(axes[0], ts, "waf", lw=0.8, color="tab:orange", alpha=0.7, label="per interval")
    phase_levels(axes[0], spans, lambda p: p.get("waf"), "phase")
    axes[0].set_ylabel("write amplification\n(NAND units / host units)")
    axes[0].set_ylim(bottom=0)
    axes[0].legend(loc="upper right", fontsize=8)
    series(axes[1], ts, "free_blocks", lw=1.2, color="tab:cyan")
    axes[1].set_ylabel("free blocks (whole drive)")
    axes[1].set_ylim(bottom=0)
    finish_time_axes(fig, axes, ts, spans, title_for(summary, "Write amplification and free blocks"))
    caption = ("WAF per time-series interval (a buffered drive can show < 1 while its buffer fills) and per "
               "phase (black); free erased blocks at the end of each interval.")
    if ts["rows"] > 2 * MAX_POINTS:
        caption += " Long series: the lowest and highest value of each of %d groups of intervals." % MAX_POINTS
    return save(plt, fig, out_dir, "waf_free_blocks.png"), "Write amplification and free blocks over time", caption


def busy_matrix(phases, group):
    """Rows (label, [busy fraction per phase]) for dies or channel buses from each phase's stats tree."""
    rows = {}
    for col, p in enumerate(phases):
        channels = p.get("stats", {}).get("drive", {}).get("nand", {}).get("channel", [])
        for c, ch in enumerate(channels):
            items = [(c, None, ch)] if group == "channel" else [(c, k, d) for k, d in enumerate(ch.get("die", []))]
            for c_, k, node in items:
                key = (c_, -1) if k is None else (k, c_)
                label = "channel %d" % c_ if k is None else "die %d (ch %d)" % (k * len(channels) + c_, c_)
                rows.setdefault(key, (label, [math.nan] * len(phases)))[1][col] = number(node.get("busy_fraction"))
    return [rows[k] for k in sorted(rows)]


def front_rows(phases):
    """Rows for the SATA link and the firmware CPU: their busy fractions from each phase's stats tree."""
    rows = []
    for label, path in (("SATA link", ("link",)), ("firmware CPU", ("controller", "firmware_cpu"))):
        values = []
        for p in phases:
            node = p.get("stats", {}).get("drive", {})
            for key in path:
                node = node.get(key, {}) if isinstance(node, dict) else {}
            values.append(number(node.get("busy_fraction")) if isinstance(node, dict) else math.nan)
        if any(not math.isnan(v) for v in values):
            rows.append((label, values))
    return rows


def plot_heatmap(plt, summary, out_dir):
    phases = [p for p in summary.get("phases", []) if float(p.get("sim_seconds", 0)) > 0 and p.get("stats")]
    # A phase with no host I/O and no flash work (a TRIM's instant) would be an empty column.
    dies = busy_matrix(phases, "die")
    keep = [j for j, p in enumerate(phases) if ios(p) > 0 or any(r[1][j] > 0 for r in dies)]
    phases = [phases[j] for j in keep]
    dies, chans = busy_matrix(phases, "die"), busy_matrix(phases, "channel")
    if not dies:
        return None
    front = front_rows(phases)
    groups = [(front, "link, CPU")] if front else []
    groups += [(dies, "die (array + its bus phases)"), (chans, "channel bus")]
    heights = [max(len(rows), 2) for rows, _ in groups]
    fig_h = min(3.0 + 0.22 * sum(heights), 14)
    fig, axes = plt.subplots(len(groups), 1, figsize=(WIDE[0], fig_h), sharex=True,
                             gridspec_kw={"height_ratios": heights})
    image = None
    for ax, (rows, what) in zip(axes, groups):
        data = [r[1] for r in rows]
        image = ax.imshow(data, aspect="auto", vmin=0, vmax=1, cmap="viridis", interpolation="nearest")
        ax.set_yticks(range(len(rows)))
        ax.set_yticklabels([r[0] for r in rows], fontsize=7 if len(rows) > 16 else 8)
        ax.set_ylabel(what, fontsize=9)
        ax.grid(False)
        if len(phases) <= 16 and len(rows) <= 32:
            for i, row in enumerate(data):
                for j, v in enumerate(row):
                    if not math.isnan(v):
                        ax.text(j, i, "%.2f" % v, ha="center", va="center", fontsize=6,
                                color="white" if v < 0.6 else "black")
    axes[-1].set_xticks(range(len(phases)))
    axes[-1].set_xticklabels([p["name"] for p in phases], rotation=45 if len(phases) <= 12 else 90,
                             ha="right" if len(phases) <= 12 else "center", fontsize=8)
    axes[0].set_title(title_for(summary, "Link, firmware CPU, die and channel utilisation per phase"))
    names = [p["name"] for p in phases]
    row_labels = [r[0] for rows, _ in groups for r in rows]
    place(fig, text_px(row_labels, 8) + 40, 0.08 * WIDE[0] * DPI + 8,
          text_px(names, 8) * (0.72 if len(phases) <= 12 else 1.0) + 32, 32, hspace=0.08)
    cax = fig.add_axes((0.935, 0.2, 0.014, 0.7))
    cax.grid(False)
    fig.colorbar(image, cax=cax, label="busy fraction of the phase")
    caption = ("Busy fraction of the SATA link, the firmware CPU, each die and each channel bus over each timed "
               "phase (summary.json: phases[i].stats.drive.link.busy_fraction, "
               "...controller.firmware_cpu.busy_fraction, ...nand.channel[c].die[k].busy_fraction; die index = "
               "k x channels + c). Each phase's limiting resource is named in explain.txt and summary.json "
               "(limiting_resource).")
    return save(plt, fig, out_dir, "utilisation_heatmap.png"), "Link, CPU, die and channel utilisation", caption


def cdf_points(hist):
    total = sum(b[2] for b in hist.get("buckets", []))
    if total <= 0:
        return None
    xs, ys, seen = [max(float(hist.get("min_us", hist["buckets"][0][0])), 1e-3)], [0.0], 0
    for low, high, count in hist["buckets"]:
        seen += count
        xs.append(min(max(float(high), xs[-1]), float(hist.get("max_us", high))))
        ys.append(seen / total)
    return xs, ys


def plot_latency_cdf(plt, summary, hists, out_dir):
    phases = hists.get("phases", [])
    directions = [d for d in ("read", "write") if any((p.get(d) or {}).get("count", 0) > 0 for p in phases)]
    if not directions:
        return None
    fig, axes = plt.subplots(1, len(directions), figsize=(WIDE[0], 6.0), squeeze=False)
    colours = plt.get_cmap("tab20" if len(phases) > 10 else "tab10")
    for ax, direction in zip(axes[0], directions):
        drawn = 0
        for i, p in enumerate(phases):
            points = cdf_points(p.get(direction) or {})
            if points:
                ax.step(points[0], points[1], where="post", lw=1.2, color=colours(i % colours.N),
                        label="%s (%d)" % (p.get("name", "?"), p[direction]["count"]))
                drawn += 1
        ax.set_xscale("log")
        plt.latency_labels(ax.xaxis)
        ax.set_ylim(0, 1.01)
        for q in (0.5, 0.99):
            ax.axhline(q, color="0.5", ls=":", lw=0.8)
            ax.text(ax.get_xlim()[0], q, " p%g" % (q * 100), va="bottom", fontsize=7, color="0.4")
        ax.set_xlabel("%s latency (log scale)" % direction)
        ax.set_ylabel("fraction of requests at or below")
        ax.set_title("%s requests" % direction.capitalize())
        ax.legend(loc="lower right", fontsize=7 if drawn > 8 else 8, ncol=2 if drawn > 12 else 1)
    fig.suptitle(title_for(summary, "Latency CDF per phase"))
    place(fig, 70, 15, 50, 62, wspace=0.18)
    caption = "Cumulative latency distribution per phase and direction, from latency_histograms.json (legend: requests)."
    return save(plt, fig, out_dir, "latency_cdf.png"), "Latency CDF per phase", caption


def anatomy_rows(summary):
    rows = []
    for p in summary.get("phases", []):
        anatomy = p.get("anatomy_us") or {}
        for direction in ("read", "write"):
            a = anatomy.get(direction) or {}
            if a.get("count", 0) > 0:
                rows.append(("%s  %s" % (p.get("name", "?"), direction), a))
    return rows


def part_us(a, stat, part):
    v = number((a.get(stat) or {}).get(part))
    return 0.0 if math.isnan(v) or v < 0 else v


def plot_anatomy(plt, summary, out_dir):
    """Stacked shares (phases' latencies differ by orders of magnitude, so each bar is 100 % of
    its own latency), the absolute total written at the end of the bar."""
    rows = anatomy_rows(summary)
    if not rows:
        return None
    stats = ("mean", "p99")
    parts = [k for k in ANATOMY_PARTS if any(part_us(a, s, k) > 0 for _, a in rows for s in stats)]
    parts += sorted({k for _, a in rows for s in stats for k in (a.get(s) or {})} - set(ANATOMY_PARTS))
    fig, axes = plt.subplots(1, 2, figsize=(WIDE[0], min(2.6 + 0.34 * len(rows), 14)), sharey=True)
    colours = plt.get_cmap("tab20")
    y = list(range(len(rows)))
    for ax, stat, what in ((axes[0], "mean", "Mean latency"), (axes[1], "p99", "p99 latency (slowest 1 %)")):
        totals = [sum(part_us(a, stat, k) for k in parts) for _, a in rows]
        left = [0.0] * len(rows)
        for i, part in enumerate(parts):  # a part's bars as one collection: a patch each costs 1 ms
            widths = [100.0 * part_us(a, stat, part) / t if t > 0 else 0.0 for (_, a), t in zip(rows, totals)]
            boxes = [[(l, yi - 0.35), (l + w, yi - 0.35), (l + w, yi + 0.35), (l, yi + 0.35)]
                     for yi, l, w in zip(y, left, widths)]
            ax.add_collection(plt.collections.PolyCollection(boxes, facecolors=[colours(i % 20)], edgecolors="none",
                                                             linewidths=0, label=part))
            left = [l + w for l, w in zip(left, widths)]
        for yi, total in zip(y, totals):
            ax.text(101, yi, fmt_us(total), va="center", fontsize=7)
        ax.set_xlim(0, 122)
        ax.set_xticks([0, 20, 40, 60, 80, 100])
        ax.set_xlabel("share of the latency (%); total at the right")
        ax.set_title(what)
    axes[0].set_yticks(y)
    axes[0].set_yticklabels([r[0] for r in rows], fontsize=8)
    margin = 0.05 * (len(rows) - 0.3)  # matplotlib's default margin around the bars, the first on top
    axes[0].set_ylim(len(rows) - 0.65 + margin, -0.35 - margin)
    fig.suptitle(title_for(summary, "Latency anatomy: where the time went"))
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=min(len(parts), 8), fontsize=8)
    legend_rows = -(-len(parts) // min(len(parts), 8))
    place(fig, text_px([r[0] for r in rows], 8) + 20, 15, 48 + 18 * legend_rows, 62, wspace=0.04)
    caption = ("Each request's latency as consecutive parts of its critical path (summary.json anatomy_us), per "
               "phase and direction, as shares of the phase's mean latency and of the mean latency of its requests "
               "at or above p99; the absolute latency is written after each bar.")
    return save(plt, fig, out_dir, "anatomy.png"), "Latency anatomy (stacked shares)", caption


def fmt_us(v):
    return "%.0f us" % v if v < 1000 else "%.2f ms" % (v / 1000) if v < 1e6 else "%.2f s" % (v / 1e6)


def fmt_seconds(v):
    if v < 60:
        return "%.1f s" % v
    whole = int(round(v))
    return "%d min %02d s" % (whole // 60, whole % 60)


def expected(p, metrics):
    for e in p.get("expect") or []:
        if e.get("metric") in metrics and e.get("document") is not None:
            return float(e["document"])
    return None


def bar_panel(ax, phases, series, order, colours, spec):
    """One figure of each job phase as a bar; True when it drew a documents' figure."""
    values = [spec["value"](p) for p in phases]
    x = list(range(len(phases)))
    for k, name in enumerate(order):
        xs = [i for i in x if series[i] == name]
        ax.bar(xs, [values[i] for i in xs], color=colours(k % 10), label=name, width=0.75)
    many = len(phases) > 12
    if len(phases) <= 40:
        for i, v in zip(x, values):
            ax.text(i, v, " " + spec["fmt"](v) if many else spec["fmt"](v), ha="center", va="bottom",
                    fontsize=7 if many else 8, rotation=90 if many else 0)
    doc_label = "document"
    for i, p in enumerate(phases):
        doc = expected(p, spec["metrics"])
        if doc is not None:
            ax.plot([i - 0.45, i + 0.45], [doc, doc], color="black", lw=2.2, label=doc_label)
            ax.text(i + 0.47, doc, "doc %s" % spec["fmt"](doc), va="center", fontsize=7,
                    bbox=dict(boxstyle="square,pad=0.15", fc="white", ec="none", alpha=0.8))
            doc_label = None
    ax.set_ylabel(spec["ylabel"], fontsize=9)
    top = max(values + [expected(p, spec["metrics"]) or 0 for p in phases] + [1e-9])
    ax.set_ylim(0, top * (1.3 if many else 1.15))
    ax.set_title(spec["title"], fontsize=10, loc="left")
    ax.grid(axis="x", visible=False)
    return doc_label is None


def phase_bars(plt, summary, out_dir):
    """IOPS, MB/s and duration of each job phase: three panels over the same phases (one figure,
    drawn and encoded once, the phase names written once)."""
    phases = job_phases(summary)
    if not phases:
        return None
    series = series_names(phases)
    order = list(dict.fromkeys(series))
    colours = plt.get_cmap("tab10")
    ticks = ["R%d %s" % (i + 1, p["name"]) for i, p in enumerate(phases)]
    many = len(phases) > 12
    ticks_px = text_px(ticks, 8) * (1.0 if many else 0.72) + 28
    panel_in = 2.9 if many else 2.5
    fig, axes = plt.subplots(len(BAR_SPECS), 1, sharex=True,
                             figsize=(WIDE[0], len(BAR_SPECS) * panel_in + (ticks_px + 62) / DPI))
    docs = [bar_panel(ax, phases, series, order, colours, spec) for ax, spec in zip(axes, BAR_SPECS)]
    axes[-1].set_xticks(range(len(phases)))
    axes[-1].set_xticklabels(ticks, rotation=90 if many else 45, ha="center" if many else "right", fontsize=8)
    fig.suptitle(title_for(summary, "Job phases: IOPS, throughput and duration"))
    legend = False
    if len(order) < len(phases) or any(docs):  # a legend says more than the x labels
        handles, labels = axes[0].get_legend_handles_labels()
        for ax in axes[1:]:  # "document" once, from whichever panel has one
            for h, l in zip(*ax.get_legend_handles_labels()):
                if l not in labels:
                    handles.append(h)
                    labels.append(l)
        axes[0].legend(handles, labels, fontsize=8, loc="upper left", bbox_to_anchor=(1.005, 1.0))
        legend = True
    legend_px = text_px(order + ["document"], 8) + 45 if legend else 15
    place(fig, 80, legend_px, ticks_px, 62, hspace=0.25)
    caption = ("Mean IOPS, read plus write MB/s (10^6 bytes/s) and simulated duration of each job phase in run order "
               "(R1, R2, ...), coloured by series (repeated runs of one job share a colour, as in the documents' "
               "per-run charts, e.g. D4's IOPS per 5-minute run); for a fill the duration is the time to fill "
               "the drive (D6 draws the fill time per run, R1-R3 with TRIM, R4-R6 without). Black bars: the "
               "documents' figure where the scenario gives one.")
    return save(plt, fig, out_dir, "phase_bars.png"), "IOPS, throughput and duration per job phase", caption


BAR_SPECS = [
    {"title": "IOPS", "ylabel": "I/O per s", "value": lambda p: float(p.get("iops", 0)),
     "fmt": lambda v: "%.0f" % v, "metrics": ("iops",)},
    {"title": "Throughput (read + write)", "ylabel": "MB/s",
     "value": lambda p: float(p.get("read_mbps", 0)) + float(p.get("write_mbps", 0)), "fmt": lambda v: "%.1f" % v,
     "metrics": ("read_mbps", "write_mbps", "mbps")},
    {"title": "Duration (for a fill: the fill time)", "ylabel": "simulated s",
     "value": lambda p: float(p.get("sim_seconds", 0)), "fmt": fmt_seconds, "metrics": ("seconds",)},
]


# ---- main ---------------------------------------------------------------------------------

# Drawn by the second process, when there is one: about half of the quickstart's drawing time.
SECOND_PROCESS = ("throughput", "utilisation")


def plot_power(plt, summary, ts, spans, out_dir):
    """Power over time (power.enabled: a power_w column), each phase's average in black."""
    if "power_w" not in ts or np.isnan(ts["power_w"]).all():
        return None
    fig, axes = time_axes(plt, 1)
    series(axes[0], ts, "power_w", lw=1, color="tab:purple", label="per interval")
    phase_levels(axes[0], spans, lambda p: (p.get("power") or {}).get("average_w"), "phase average")
    axes[0].set_ylabel("drive power (W)")
    axes[0].set_ylim(bottom=0)
    axes[0].legend(loc="upper right", fontsize=8)
    finish_time_axes(fig, axes, ts, spans, title_for(summary, "Drive power over simulated time"))
    caption = ("Average power of each time-series interval (NAND array and bus, controller, DRAM, SATA PHY: "
               "docs/power.md) and of each phase (black).")
    return save(plt, fig, out_dir, "power.png"), "Drive power over time", caption


def make_plots(plt, results_dir):
    summary = load_json(os.path.join(results_dir, "summary.json"), required=True)
    ts = load_timeseries(os.path.join(results_dir, "timeseries.csv"))
    hists = load_json(os.path.join(results_dir, "latency_histograms.json"), required=False)
    spans = phase_spans(summary)
    out_dir = os.path.join(results_dir, "plots")
    os.makedirs(out_dir, exist_ok=True)
    for old in os.listdir(out_dir):  # a previous run's plots (this run may draw fewer)
        if old.endswith(".png"):
            os.remove(os.path.join(out_dir, old))
    have_ts = ts is not None and ts["rows"] > 0
    jobs = [
        ("throughput", lambda: plot_throughput(plt, summary, ts, spans, out_dir) if have_ts else None,
         "throughput over time skipped: timeseries.csv is absent or empty"),
        ("latency CDF", lambda: plot_latency_cdf(plt, summary, hists, out_dir) if hists else None,
         "latency CDF skipped: no latency_histograms.json in the results (or no request in it)"),
        ("WAF", lambda: plot_waf_free(plt, summary, ts, spans, out_dir) if have_ts else None,
         "WAF and free blocks over time skipped: timeseries.csv is absent or empty"),
        ("utilisation", lambda: plot_heatmap(plt, summary, out_dir),
         "utilisation heat map skipped: no timed phase with a statistics tree"),
        ("anatomy", lambda: plot_anatomy(plt, summary, out_dir),
         "latency anatomy skipped: summary.json has no anatomy_us (or no request in it)"),
        ("phase bars", lambda: phase_bars(plt, summary, out_dir),
         "IOPS, throughput and duration per job phase skipped: no job phase"),
    ]
    if have_ts and "power_w" in ts:  # power.enabled: no note when it is off (nothing was asked for)
        jobs.append(("power", lambda: plot_power(plt, summary, ts, spans, out_dir),
                     "power over time skipped: no interval has a power figure"))
    outcomes = draw_all([draw for _, draw, _ in jobs], {i for i, job in enumerate(jobs) if job[0] in SECOND_PROCESS})
    index = {"plots": [], "notes": []}
    failed = False
    for (what, _, skipped), (kind, value) in zip(jobs, outcomes):
        if kind == "failed":
            sys.stderr.write("ssdlab_plots: %s plot failed: %s\n" % (what, value))
            index["notes"].append("%s plot failed: %s" % (what, value))
            failed = True
        elif kind == "skipped":
            index["notes"].append(skipped)
        else:
            index["plots"].append({"file": value[0], "title": value[1], "caption": value[2]})
    with open(os.path.join(out_dir, "index.json"), "w", encoding="utf-8") as f:
        json.dump(index, f, indent=1)
        f.write("\n")
    return EXIT_FAILED if failed else 0


def main(argv):
    if len(argv) != 2 or argv[1] in ("-h", "--help"):
        sys.stderr.write(__doc__)
        return 0 if len(argv) == 2 else EXIT_BAD_INPUT
    if not os.path.isdir(argv[1]):
        fail("%s: not a directory" % argv[1])
    return make_plots(import_pyplot(), argv[1])


if __name__ == "__main__":
    status = main(sys.argv)
    # Every file is written and closed: leave without the interpreter's teardown (freeing
    # matplotlib's modules and the figures costs 0.2 s, a tenth of the whole script).
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)
