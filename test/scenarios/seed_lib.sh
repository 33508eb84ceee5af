# Shared by the seed-scenario tests (source after lib.sh, with bin and src set): run() runs a
# scenario into $tmp, q() evaluates Python expressions over a run's summary.json.

run() {  # run NAME SCENARIO [ssdlab run options...]: scenarios/SCENARIO into $tmp/NAME (--scale $seed_scale if set)
  local name=$1 scenario=$2
  shift 2
  "$bin" run "$src/scenarios/$scenario" --out "$tmp/$name" ${seed_scale:+--scale "$seed_scale"} -q --no-plots "$@" ||
    { echo "FAIL run of $scenario (exit $?)"; fails=$((fails + 1)); }
}
# q RUN EXPR...: exit status 0 when every expression is true over run RUN's summary. Helpers:
# `ph(name)` a phase (`ph(name)["stats"]` its statistics), `names` the phase names in order,
# `cal(run, phase)` a phase of another run, `lat_max(run, prefix)` the latency maximum (us) of
# the phases named so, `unmapped(name)` / `from_nand(name)` a phase's read units,
# `idle_free_blocks(run)` from the run's effective config, `near(a, b, tol)`.
q() {
  python3 - "$tmp" "$@" <<'PY'
import json, sys
tmp, run, exprs = sys.argv[1], sys.argv[2], sys.argv[3:]
def load(r):
    return json.load(open(f"{tmp}/{r}/summary.json"))
s = load(run)
names = [p["name"] for p in s["phases"]]
def cal(r, name):
    return next(p for p in load(r)["phases"] if p["name"] == name)
def ph(name):
    return cal(run, name)
def lat_max(r, prefix):
    return max(p["latency_us"]["max"] for p in load(r)["phases"] if p["name"].startswith(prefix))
def unmapped(name):
    return ph(name)["stats"]["drive"]["controller"]["read_units"]["unmapped"]
def from_nand(name):
    return ph(name)["stats"]["drive"]["controller"]["read_units"]["from_nand"]
def idle_free_blocks(r):  # from the run's effective config
    line = next(l for l in open(f"{tmp}/{r}/config.yaml") if l.strip().startswith("idle_free_blocks:"))
    return int(line.split(":")[1])
def near(a, b, tol=0.05):
    return abs(a - b) <= tol * b
ok = True
for e in exprs:
    if not eval(e):
        print("  false:", e, file=sys.stderr)
        ok = False
sys.exit(0 if ok else 1)
PY
}
