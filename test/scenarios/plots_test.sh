#!/usr/bin/env bash
# `ssdlab run`'s plots and report.html (app/run/plots.h, app/run/report_html.h).
# usage: plots_test.sh MODE SSDLAB_BINARY SOURCE_DIR
#   png       the run writes every expected PNG (valid header, not empty) and report.html inlines them;
#             the script draws the same files in one process and in two
#   optional  the script draws the latency CDF and the anatomy from latency_histograms.json and
#             anatomy_us (made up here), and takes timeseries.csv with phase names and p50/p99 columns
#   notice    without python3 or without matplotlib: one notice line, exit 0, report.html without
#             plots; --no-plots does not run the script; a failing script is named, exit still 0
#   page      report.html is self-contained and loads in headless Chromium without console errors;
#             its screenshot holds the plots
# Exit 77 (ctest: skipped) when matplotlib (png, optional) or chromium (page) is not installed.
set -uo pipefail
mode=$1
bin=$2
src=$3
. "$(dirname "$0")/lib.sh"
is_png() { [ -s "$1" ] && [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; }
# The interpreter ssdlab itself would find matplotlib with (app/run/plots.h).
mpl_python() {
  local p
  for p in python3 /usr/bin/python3; do
    if "$p" -c 'import matplotlib' 2>/dev/null; then echo "$p"; return 0; fi
  done
  return 1
}
need_matplotlib() {
  py=$(mpl_python) || { echo "SKIP: python3-matplotlib not installed (apt-get install python3-matplotlib)"; exit 77; }
}
smoke() {  # smoke OUT [args...]: the short scenario, output in $tmp/OUT.log
  local out=$1
  shift
  "$bin" run "$src/test/scenarios/smoke.yaml" --out "$tmp/$out" "$@" > "$tmp/$out.log" 2>&1
}
always=(throughput.png waf_free_blocks.png utilisation_heatmap.png phase_bars.png)

case "$mode" in
png)
  need_matplotlib
  smoke a
  check "run with plots exits 0" test $? -eq 0
  for f in "${always[@]}"; do check "plots/$f is a PNG" is_png "$tmp/a/plots/$f"; done
  check "index.json lists the PNGs" bash -c "for f in ${always[*]}; do grep -q \"\\\"\$f\\\"\" '$tmp/a/plots/index.json' || exit 1; done"
  # ssdlab run writes latency_histograms.json: the CDF is drawn from it (its absence: plots_optional).
  check "latency_histograms.json written" test -s "$tmp/a/latency_histograms.json"
  check "plots/latency_cdf.png from latency_histograms.json" is_png "$tmp/a/plots/latency_cdf.png"
  cp -r "$tmp/a" "$tmp/a-nohist" && rm -f "$tmp/a-nohist/latency_histograms.json"
  "$py" "$src/scripts/ssdlab_plots.py" "$tmp/a-nohist" >/dev/null 2>&1
  check "without latency_histograms.json the CDF is skipped with a note" \
    grep -q "latency CDF skipped" "$tmp/a-nohist/plots/index.json"
  # One process or two (a forked copy draws some of the plots when a second CPU is idle): the
  # same files, byte for byte.
  cp -r "$tmp/a" "$tmp/a1" && cp -r "$tmp/a" "$tmp/a2"
  SSDLAB_PLOT_PROCESSES=1 "$py" "$src/scripts/ssdlab_plots.py" "$tmp/a1" >/dev/null 2>&1
  check "one drawing process: exit 0" test $? -eq 0
  SSDLAB_PLOT_PROCESSES=2 "$py" "$src/scripts/ssdlab_plots.py" "$tmp/a2" >/dev/null 2>&1
  check "two drawing processes: exit 0" test $? -eq 0
  check "one process and two write the same PNGs and index.json" diff -r "$tmp/a1/plots" "$tmp/a2/plots"
  if grep -q '"anatomy_us"' "$tmp/a/summary.json"; then
    check "summary.json has anatomy_us: plots/anatomy.png is a PNG" is_png "$tmp/a/plots/anatomy.png"
  fi
  if [ -s "$tmp/a/explain.txt" ]; then
    check "report.html carries the explain text" grep -q 'id="explain"' "$tmp/a/report.html"
  fi
  check "the run names the plots and the report" grep -q "^report $tmp/a/report.html (plots in $tmp/a/plots)" "$tmp/a.log"
  check "report.html inlines one image per PNG" \
    test "$(grep -o '<img [^>]*src="data:image/png;base64,' "$tmp/a/report.html" | wc -l)" -eq "$(ls "$tmp/a/plots/"*.png | wc -l)"
  # The first inlined image decodes to the PNG file it came from.
  sed -n 's/.*<img [^>]*src="data:image\/png;base64,\([^"]*\)".*/\1/p' "$tmp/a/report.html" | head -1 | base64 -d > "$tmp/first.png"
  check "an inlined image decodes to its PNG file" cmp -s "$tmp/first.png" "$tmp/a/plots/throughput.png"
  ;;
optional)
  need_matplotlib
  smoke a --no-plots
  # Made-up anatomy and histograms in the documented shapes (the lead's and helper term's keys).
  "$py" - "$tmp/a" <<'EOF'
import json, sys
d = sys.argv[1]
s = json.load(open(d + "/summary.json"))
hist = {"phases": []}
for i, p in enumerate(s["phases"]):
    entry = {"name": p["name"]}
    for k, direction in enumerate(("read", "write")):
        n = p[direction + "s"]
        if n == 0:
            continue
        base = 50.0 * (i + 1) * (k + 1)
        buckets = [[base * 2 ** j, base * 2 ** (j + 1), max(n >> (j + 1), 1)] for j in range(6)]
        entry[direction] = {"count": sum(b[2] for b in buckets), "min_us": base, "max_us": base * 64, "buckets": buckets}
        mean = {"host_queue": base * 0.1, "firmware": base * 0.2, "die_wait_gc": base * 0.3, "array": base * 0.4}
        p.setdefault("anatomy_us", {})[direction] = {
            "count": n, "mean": mean, "p99": {key: v * 3 for key, v in mean.items()},
            "p99_threshold_us": base * 3, "gc_waited_share": 0.25, "gc_wait_mean_us": base}
    hist["phases"].append(entry)
json.dump(s, open(d + "/summary.json", "w"))
json.dump(hist, open(d + "/latency_histograms.json", "w"))
# timeseries.csv with phase names and p50_us, p99_us columns (ssdlab writes both by now; an older
# binary's phase indices are named and the columns appended), a third of the intervals without a
# latency (empty cells).
rows = [r.split(",") for r in open(d + "/timeseries.csv").read().splitlines()]
if "p99_us" not in rows[0]:
    rows = [rows[0] + ["p50_us", "p99_us"]] + [r + ["", ""] for r in rows[1:]]
p50, p99 = rows[0].index("p50_us"), rows[0].index("p99_us")
for i, cells in enumerate(rows[1:]):
    if cells[1].isdigit():
        cells[1] = s["phases"][int(cells[1])]["name"]
    cells[p50], cells[p99] = ("12.5", "40.0") if i % 3 else ("", "")
open(d + "/timeseries.csv", "w").write("\n".join(",".join(r) for r in rows) + "\n")
EOF
  "$py" "$src/scripts/ssdlab_plots.py" "$tmp/a" > "$tmp/script.log" 2>&1
  check "the script exits 0 on the extended results" test $? -eq 0
  cat "$tmp/script.log"
  for f in "${always[@]}" latency_cdf.png anatomy.png; do check "plots/$f is a PNG" is_png "$tmp/a/plots/$f"; done
  check "index.json has no skipped note" bash -c "! grep -q skipped '$tmp/a/plots/index.json'"
  # A value that is not a number and a short row: read a value at a time, NaN for what is missing.
  cp -r "$tmp/a" "$tmp/a-bad" && rm -r "$tmp/a-bad/plots"
  "$py" - "$tmp/a-bad/timeseries.csv" <<'EOF'
import sys
rows = [r.split(",") for r in open(sys.argv[1]).read().splitlines()]
rows[5][2] = "x1"
rows[9] = rows[9][:3]
open(sys.argv[1], "w").write("\n".join(",".join(r) for r in rows) + "\n")
EOF
  "$py" "$src/scripts/ssdlab_plots.py" "$tmp/a-bad" > "$tmp/bad.log" 2>&1
  check "a malformed value and a short row in timeseries.csv: exit 0" test $? -eq 0
  check "... and the throughput over time drawn" is_png "$tmp/a-bad/plots/throughput.png"
  rm "$tmp/a/latency_histograms.json"
  "$py" "$src/scripts/ssdlab_plots.py" "$tmp/a" > "$tmp/script2.log" 2>&1
  check "without histograms the script still exits 0" test $? -eq 0
  check "a rerun removes the previous run's CDF" test ! -e "$tmp/a/plots/latency_cdf.png"
  mkdir "$tmp/empty"
  "$py" "$src/scripts/ssdlab_plots.py" "$tmp/empty" > "$tmp/empty.log" 2>&1
  check "a directory without summary.json: exit 2" test $? -eq 2
  check "... naming the file" grep -q "empty/summary.json: no such file" "$tmp/empty.log"
  ;;
notice)
  notice="plots skipped: python3-matplotlib not installed"
  SSDLAB_PYTHON="$tmp/no/such/python3" smoke a
  check "no python3: exit 0" test $? -eq 0
  check "no python3: the one-line notice" grep -qx "$notice" "$tmp/a.log"
  check "no python3: report.html written" test -s "$tmp/a/report.html"
  check "no python3: the report says why there are no plots" grep -q "$notice" "$tmp/a/report.html"
  check "no python3: no image in the report" bash -c "! grep -q '<img' '$tmp/a/report.html'"
  # A python3 whose matplotlib cannot be imported (a stand-in package that fails, first on the path).
  mkdir -p "$tmp/fake/matplotlib"
  echo 'raise ImportError("stand-in: no matplotlib here")' > "$tmp/fake/matplotlib/__init__.py"
  real_python=$(command -v python3 || echo /usr/bin/python3)
  PYTHONPATH="$tmp/fake" SSDLAB_PYTHON="$real_python" smoke b
  check "no matplotlib: exit 0" test $? -eq 0
  check "no matplotlib: the one-line notice" grep -qx "$notice" "$tmp/b.log"
  check "no matplotlib: report.html written" test -s "$tmp/b/report.html"
  # --no-plots: the script is not run at all (a stand-in script would leave a mark).
  printf '#!/bin/sh\ntouch "%s/ran"\n' "$tmp" > "$tmp/mark.py"
  SSDLAB_PLOTS_SCRIPT="$tmp/mark.py" SSDLAB_PYTHON=/bin/sh smoke c --no-plots
  check "--no-plots: exit 0" test $? -eq 0
  check "--no-plots: the script did not run" test ! -e "$tmp/ran"
  check "--no-plots: no notice" bash -c "! grep -q 'plots skipped: python3' '$tmp/c.log'"
  check "--no-plots: report.html says so" grep -q "plots skipped: --no-plots" "$tmp/c/report.html"
  # A script that fails: named on stderr with its last line, the run still succeeds.
  printf '#!/bin/sh\necho "something broke" >&2\nexit 1\n' > "$tmp/broken.py"
  # ... and a previous run's plots in the same directory are not shown as this run's.
  mkdir -p "$tmp/d/plots"
  printf '\x89PNG\r\n\x1a\nold' > "$tmp/d/plots/old.png"
  echo '{"plots": [{"file": "old.png", "title": "Previous run plot"}], "notes": []}' > "$tmp/d/plots/index.json"
  SSDLAB_PLOTS_SCRIPT="$tmp/broken.py" SSDLAB_PYTHON=/bin/sh smoke d
  check "failing script: exit 0" test $? -eq 0
  check "failing script: named with its message" grep -q "plots: $tmp/broken.py failed (exit 1): something broke" "$tmp/d.log"
  check "failing script: report.html written" test -s "$tmp/d/report.html"
  check "failing script: the previous run's plots are not in the report" \
    bash -c "! grep -q 'Previous run plot' '$tmp/d/report.html'"
  ;;
page)
  chromium=$(command -v chromium || command -v chromium-browser) ||
    { echo "SKIP: chromium not installed (apt-get install chromium)"; exit 77; }
  smoke a
  smoke b --no-plots
  page=$tmp/a/report.html
  check "report.html written" test -s "$page"
  check "no http(s) URL in report.html" bash -c "! grep -Eiq 'https?://' '$page'"
  check "every image is a data URI" bash -c "! grep -o '<img [^>]*src=\"[^\"]*' '$page' | grep -v 'src=\"data:image/png;base64,' | grep -q ."
  check "no script, stylesheet or frame loaded from elsewhere" \
    bash -c "! grep -Eiq '<(script|iframe)|<link [^>]*rel=.stylesheet|@import' '$page'"
  shot() {  # shot PAGE PNG LOG
    timeout 120 "$chromium" --headless --disable-gpu --no-sandbox --user-data-dir="$tmp/profile-$(basename "$2")" \
      --enable-logging=stderr --v=0 --screenshot="$2" --window-size=1280,4000 "file://$1" > "$3" 2>&1
  }
  # A page with console errors: the check below must see them.
  printf '<!DOCTYPE html><html><body><script>console.error("x"); no_such();</script></body></html>' > "$tmp/bad.html"
  shot "$tmp/bad.html" "$tmp/bad.png" "$tmp/bad.log"
  check "control: chromium reports a broken page's console errors" grep -q ':CONSOLE' "$tmp/bad.log"
  shot "$page" "$tmp/with.png" "$tmp/with.log"
  check "chromium loads report.html without console messages" bash -c "! grep ':CONSOLE' '$tmp/with.log'"
  check "the screenshot is a PNG" is_png "$tmp/with.png"
  shot "$tmp/b/report.html" "$tmp/without.png" "$tmp/without.log"
  check "the --no-plots page loads without console messages" bash -c "! grep ':CONSOLE' '$tmp/without.log'"
  if py=$(mpl_python); then
    # The plots are the page's colour: the share of saturated pixels in the screenshot, with the
    # plots and with --no-plots (text, links and a note only).
    colour() {
      "$py" -c 'import sys, matplotlib.image as m; i = m.imread(sys.argv[1])[:, :, :3]
print("%.4f" % ((i.max(axis=2) - i.min(axis=2)) > 0.25).mean())' "$1"
    }
    with=$(colour "$tmp/with.png")
    without=$(colour "$tmp/without.png")
    check "the screenshot shows the plots (coloured share $with, $without without them)" \
      awk -v a="$with" -v b="$without" 'BEGIN { exit !(a >= 0.05 && a >= 20 * b) }'
  else
    echo "note: python3-matplotlib not installed, the screenshot has no plots to show"
  fi
  ;;
*)
  echo "usage: $0 png|optional|notice|page SSDLAB_BINARY SOURCE_DIR" >&2
  exit 2
  ;;
esac
finish
