"""What scripts/ssdlab_plots.py builds on: its input files read, and matplotlib as the plots use
it, the object API on the Agg canvas without pyplot and the costs they do not need left out.
Nothing here imports matplotlib until open_canvas() is called (no matplotlib: ImportError, the
caller's exit 3).

Where the time went before (quickstart, 2.1 s): the import (0.5 s, a third of it docstrings),
tick objects for locations outside the view, mathtext for 10^k labels, RGBA PNGs, the
interpreter's teardown (0.2 s). Each is avoided below with the figures' pixels unchanged, but
for the latency axes, labelled 100 us, 1 ms, 10 ms instead of 10^2, 10^3, 10^4.
"""

import csv
import io
import json
import math
import os
import sys

EXIT_FAILED, EXIT_BAD_INPUT, EXIT_NO_MATPLOTLIB = 1, 2, 3
DPI = 100


def fail(message, status=EXIT_BAD_INPUT):
    sys.stderr.write("ssdlab_plots: " + message + "\n")
    sys.exit(status)


# ---- input ------------------------------------------------------------------------------

def load_json(path, required):
    if not os.path.exists(path):
        if required:
            fail("%s: no such file (is this an `ssdlab run` results directory?)" % path)
        return None
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        fail("%s: %s" % (path, e))


def number(text):
    if text is None or text == "":
        return math.nan
    try:
        return float(text)
    except ValueError:
        return math.nan


# The timeseries.csv columns the plots draw (the phase of a row comes from summary.json's spans).
TS_COLUMNS = ("time_s", "read_mbps", "write_mbps", "iops", "p50_us", "p99_us", "waf", "free_blocks", "power_w")


def load_timeseries(path):
    """The columns the plots draw, as float arrays (an empty or malformed value: NaN)."""
    import numpy as np  # after open_canvas(): matplotlib has imported it
    if not os.path.exists(path):
        return None
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeError) as e:
        fail("%s: %s" % (path, e))
    head, _, body = text.partition("\n")
    header = next(csv.reader([head]), [])
    if not body.strip():
        return {"rows": 0}
    if "time_s" not in header:
        fail("%s: no time_s column" % path)
    keys = [k for k in header if k in TS_COLUMNS]
    try:  # numpy's parser: a tenth of the time of csv.reader and float() on 10^5 values
        body = body.replace(",,", ",nan,").replace(",,", ",nan,").replace(",\n", ",nan\n")
        data = np.loadtxt(io.StringIO(body), delimiter=",", quotechar='"', ndmin=2,
                          usecols=[header.index(k) for k in keys])
        cols = {k: data[:, j] for j, k in enumerate(keys)}
    except ValueError:  # a short row or a value that is not a number
        cols = read_columns(path, keys)
    cols["rows"] = len(cols["time_s"])
    return cols


def read_columns(path, keys):
    """timeseries.csv a value at a time: a missing or malformed value is NaN."""
    import numpy as np
    try:
        with open(path, newline="", encoding="utf-8") as f:
            rows = list(csv.reader(f))
    except (OSError, csv.Error) as e:
        fail("%s: %s" % (path, e))
    header, rows = rows[0], rows[1:]
    return {k: np.array([number(r[j]) if j < len(r) else math.nan for r in rows], dtype=float)
            for j, k in enumerate(header) if k in keys}


# ---- matplotlib ---------------------------------------------------------------------------


def us_label(v):  # a latency tick's label: 100 us, 2 ms, 1.5 s
    unit, scale = ("s", 1e6) if v >= 1e6 else ("ms", 1e3) if v >= 1e3 else ("us", 1.0)
    return "%g %s" % (v / scale, unit)


def open_canvas():
    """A Plt; ImportError when matplotlib (or its numpy or Pillow) cannot be imported."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.artist as artist
    # Each artist class, as it is defined, writes a table of its properties into docstrings
    # (matplotlib.artist.kwdoc): a third of the import's instructions, for help() only.
    kwdoc, artist.kwdoc = artist.kwdoc, lambda cls: ""
    try:
        plt = Plt(matplotlib)
    finally:
        artist.kwdoc = kwdoc
    plt.rcParams.update({"font.size": 10, "axes.titlesize": 12, "figure.titlesize": 13,
                         "axes.grid": True, "grid.alpha": 0.3,
                         # a title right above its axes: automatic placement measures the axes'
                         # ticks once more for every title, only to clear ticks drawn on top
                         "axes.titley": 1.0})
    return plt


class Plt:
    """The few pyplot calls the plots make, on matplotlib's object API with the Agg canvas:
    importing pyplot (its backend machinery and figure manager) costs about as much as drawing
    two plots, and figures made this way need no closing."""

    def __init__(self, matplotlib):
        import numpy
        from matplotlib import collections
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
        from matplotlib.ticker import Locator, LogFormatter
        from PIL import Image  # matplotlib's own PNG writer (python3-matplotlib depends on it)
        self.np, self.collections, self.rcParams = numpy, collections, matplotlib.rcParams
        self._figure, self._canvas, self._image = Figure, FigureCanvasAgg, Image
        self._colormaps = matplotlib.colormaps

        class InView(Locator):
            """A locator's ticks inside the view only. Matplotlib makes a tick object (three
            lines, two texts: about 1 ms) for every location a locator returns, then draws those
            in view; a log axis's minor locator returns whole decades beyond it."""

            def __init__(self, inner):
                self.inner = inner

            def set_axis(self, axis):
                super().set_axis(axis)
                self.inner.set_axis(axis)

            def __call__(self):
                locs = self.inner()
                if len(locs) == 0:
                    return locs
                transform = self.axis.get_transform()
                lo, hi = sorted(transform.transform(self.axis.get_view_interval()))
                slack = (hi - lo) * 1e-9  # matplotlib draws those within 1e-10 of the range
                return [v for v, t in zip(locs, transform.transform(locs)) if lo - slack <= t <= hi + slack]

            def nonsingular(self, v0, v1):
                return self.inner.nonsingular(v0, v1)

            def view_limits(self, vmin, vmax):
                return self.inner.view_limits(vmin, vmax)

        class LatencyFormatter(LogFormatter):
            """Log-axis labels in us, ms or s as plain text (matplotlib's 10^k labels are set by
            its mathtext, whose parser alone costs 50 ms to build)."""

            def _num_to_string(self, x, vmin, vmax):
                return us_label(x)

        self._in_view, self._latency_formatter = InView, LatencyFormatter

    def subplots(self, nrows=1, ncols=1, figsize=None, **kwargs):
        fig = self._figure(figsize=figsize)
        self._canvas(fig)
        return fig, fig.subplots(nrows, ncols, **kwargs)

    def get_cmap(self, name):
        return self._colormaps[name]

    def latency_labels(self, axis):
        """Tick labels in us, ms or s for a log-scaled axis of microseconds."""
        axis.set_major_formatter(self._latency_formatter(10))
        axis.set_minor_formatter(self._latency_formatter(10, labelOnlyBase=False))

    def save(self, fig, path):
        """The figure as an RGB PNG (the figure is opaque; alpha adds a quarter to encode), zlib
        level 1 with run-length matching: about 60 % of the encoding time of RGBA at level 1."""
        for ax in fig.axes:
            for axis in (ax.xaxis, ax.yaxis):
                for ticker in (axis.major, axis.minor):  # shared axes share their tickers
                    if not isinstance(ticker.locator, self._in_view):
                        locator = self._in_view(ticker.locator)
                        locator.set_axis(axis)
                        ticker.locator = locator
        canvas = fig.canvas
        canvas.draw()
        size = canvas.get_width_height()
        image = self._image.frombuffer("RGBA", size, canvas.buffer_rgba(), "raw", "RGBA", 0, 1).convert("RGB")
        image.save(path, format="png", dpi=(DPI, DPI), compress_level=1, compress_type=3)


# ---- drawing in two processes -------------------------------------------------------------

def run_one(draw):
    """("made", (file, title, caption)), ("skipped", None) or ("failed", why)."""
    try:
        made = draw()
    except Exception as e:  # one bad plot must not cost the others
        return ("failed", "%s: %s" % (type(e).__name__, e))
    return ("skipped", None) if made is None else ("made", made)


def processes():
    """2 when a second CPU is idle (the 1-minute load average leaves one besides this process's),
    else 1; SSDLAB_PLOT_PROCESSES=1 or 2 decides instead."""
    chosen = os.environ.get("SSDLAB_PLOT_PROCESSES", "")
    if chosen in ("1", "2"):
        return int(chosen) if hasattr(os, "fork") else 1
    try:
        cpus = len(os.sched_getaffinity(0))
        load = os.getloadavg()[0]
    except (AttributeError, OSError):
        return 1
    return 2 if hasattr(os, "fork") and cpus - load >= 1.0 else 1


def draw_all(draws, second):
    """run_one of each draw, in their order. In two processes (processes()), a forked copy of this
    one, matplotlib imported and the results read, draws those whose index is in `second` while
    this one draws the others, and sends its outcomes back through a pipe: the same PNGs in about
    half the wall time of drawing, for a quarter more CPU time (the copy's page faults)."""
    if processes() < 2:
        return [run_one(draw) for draw in draws]
    theirs = [i for i in range(len(draws)) if i in second]
    sys.stdout.flush()
    sys.stderr.flush()
    read_fd, write_fd = os.pipe()
    try:
        pid = os.fork()
    except OSError:  # no process to spare: all here
        os.close(read_fd)
        os.close(write_fd)
        return [run_one(draw) for draw in draws]
    if pid == 0:  # the copy: its outcomes to the pipe, then leave at once
        status = 1
        try:
            os.close(read_fd)
            with os.fdopen(write_fd, "w", encoding="utf-8") as f:
                json.dump({str(i): run_one(draws[i]) for i in theirs}, f)
            status = 0
        finally:
            sys.stderr.flush()
            os._exit(status)
    os.close(write_fd)
    outcomes = {i: run_one(draw) for i, draw in enumerate(draws) if i not in theirs}
    with os.fdopen(read_fd, encoding="utf-8") as f:
        text = f.read()
    _, status = os.waitpid(pid, 0)
    try:
        received = {int(k): tuple(v) for k, v in json.loads(text).items()}
    except (ValueError, TypeError, AttributeError):
        received = {}
    end = "signal %d" % os.WTERMSIG(status) if os.WIFSIGNALED(status) else "exit %d" % os.WEXITSTATUS(status)
    for i in theirs:
        outcomes[i] = received.get(i, ("failed", "the second drawing process ended without its result (%s)" % end))
    return [outcomes[i] for i in range(len(draws))]
