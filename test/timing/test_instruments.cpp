// --vcd and --trace (app/instruments/): the VCD holds its declared signals and every
// change of them; the Chrome trace is valid JSON with the expected tracks, slices inside the
// window, paired flow arrows and GC work. First on synthetic Probe calls, then on simulated
// runs (which need the drive's Probe hooks: the lead's "Probe hooks wired").
#include <unistd.h>
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "app/instruments/chrome_trace.h"
#include "app/instruments/vcd_instrument.h"
#include "app/instruments/vcd_writer.h"
#include "app/run/scenario_runner.h"
#include "host/io_request.h"
#include "test/timing/timing_support.h"
#include "test/timing/vcd_read.h"

using namespace ssdlab;
using namespace ssdlab::test;

namespace {

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("ssdlab-instruments-" + std::to_string(::getpid()) + "-" + name))
      .string();
}

DriveConfig small_drive() { return drive_from_yaml(drive_yaml("2", "2", "32", "50us", "100MB/s", "3Gbps")); }

Transitions expect(std::initializer_list<std::pair<std::uint64_t, std::uint64_t>> changes) {
  Transitions t;
  for (const auto& c : changes) add_transition(t, c.first, c.second);
  return t;
}

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  REQUIRE(in.good());
  return nlohmann::json::parse(in);  // throws on invalid JSON
}

}  // namespace

TEST_CASE("vcd writer: changes arriving out of order come out in time order with the last per instant",
          "[instruments][vcd]") {
  const std::string path = temp_path("writer.vcd");
  {
    VcdWriter w(path);
    w.scope("top");
    const std::uint32_t a = w.var("a", 1);
    w.scope("inner");
    const std::uint32_t b = w.var("b", 8, 2);
    w.upscope();
    w.upscope();
    w.end_definitions();
    w.change(50, a, 1);
    w.change(10, b, 3);
    w.change(10, b, 4);  // same instant: this one counts
    w.change(30, a, 0);  // a is 0 already
    w.emit_before(40);
    CHECK(w.pending() == 1);
    w.change(40, b, 4);  // a repeat
    w.change(45, b, 255);
    w.change(60, b, 0);
    w.close();
    CHECK(w.late_changes() == 0);
  }
  const VcdFile vcd = read_vcd(path);
  CHECK(vcd.timescale == "1ps");
  CHECK(vcd.width.at("top.a") == 1);
  CHECK(vcd.width.at("top.inner.b") == 8);
  CHECK(vcd.values.at("top.a") == expect({{0, 0}, {50, 1}}));
  CHECK(vcd.values.at("top.inner.b") == expect({{0, 2}, {10, 4}, {45, 255}, {60, 0}}));
}

TEST_CASE("vcd writer: identifier codes are unique and never start a time stamp or a keyword", "[instruments][vcd]") {
  // A reader splitting on white space takes "#..." for a time and "$..." for a keyword: the
  // third variable was once '#' ("b101 #" read as a time stamp).
  std::set<std::string> seen;
  for (std::uint32_t i = 0; i < 20000; ++i) {
    const std::string id = vcd_id(i);
    INFO("variable " << i << ": " << id);
    CHECK(id.find_first_of("#$ ") == std::string::npos);
    CHECK(seen.insert(id).second);
  }
}

TEST_CASE("vcd writer: a change earlier than what is written joins the last instant and is counted",
          "[instruments][vcd]") {
  const std::string path = temp_path("late.vcd");
  VcdWriter w(path);
  const std::uint32_t a = w.var("a", 1);
  w.end_definitions();
  w.change(100, a, 1);
  w.emit_before(200);
  w.change(50, a, 0);
  w.close();
  CHECK(w.late_changes() == 1);
  // Written at 100 after the 1 of that instant, so it is a's value from 100 on.
  CHECK(read_vcd(path).values.at("a") == expect({{0, 0}}));
}

TEST_CASE("vcd instrument: bookings ahead of time and die operations reported at their end are all written",
          "[instruments][vcd]") {
  const std::string path = temp_path("synthetic.vcd");
  Ssd ssd("ssd", small_drive());
  VcdInstrument vcd(path, ssd);
  vcd.attach();
  // Channel 0: two back-to-back bookings (one busy run), then another; the link: one FIS.
  vcd.bus(0, 0, 100, 200);
  vcd.bus(0, 2, 200, 300);
  vcd.bus(0, 0, 400, 500);
  vcd.fis(Fis{}, 50, 80);
  vcd.observe(60);
  // Die 1: a GC op, a host op right after it, a gap, a mapping op.
  NandOp op;
  op.die = 1;
  op.origin = OpOrigin::kGc;
  OpTiming t;
  t.started = 100;
  t.out_end = t.finished = 900;
  vcd.nand_op(op, t, nullptr, 0);
  op.origin = OpOrigin::kHost;
  t.started = 900;
  t.out_end = t.finished = 1000;
  vcd.nand_op(op, t, nullptr, 0);
  vcd.observe(1100);
  op.origin = OpOrigin::kMap;
  t.started = 1200;
  t.finished = 1300;
  vcd.nand_op(op, t, nullptr, 0);
  vcd.observe(2000);
  vcd.close();
  CHECK(vcd.late_changes() == 0);
  const VcdFile f = read_vcd(path);
  for (const char* name :
       {"drive.ncq_in_flight", "drive.buffer_used", "drive.buffer_dirty", "drive.link_busy", "drive.gc_dies",
        "drive.channel1.bus", "drive.die3.state", "drive.die3.free_blocks", "drive.die3.gc"}) {
    INFO(name);
    CHECK(f.width.count(name) == 1);
  }
  CHECK(f.width.at("drive.die0.state") == 2);
  CHECK(f.values.at("drive.channel0.bus") == expect({{0, 0}, {100, 1}, {300, 0}, {400, 1}, {500, 0}}));
  CHECK(f.values.at("drive.channel1.bus") == expect({{0, 0}}));
  CHECK(f.values.at("drive.link_busy") == expect({{0, 0}, {50, 1}, {80, 0}}));
  CHECK(f.values.at("drive.die1.state") == expect({{0, 0}, {100, 2}, {900, 1}, {1000, 0}, {1200, 3}, {1300, 0}}));
  CHECK(f.values.at("drive.die0.state") == expect({{0, 0}}));
  CHECK(f.values.at("drive.die0.free_blocks").front().second == ssd.controller.ftl().free_blocks(0));
}

TEST_CASE("chrome trace: synthetic probe calls give valid JSON with named tracks and flows within the window",
          "[instruments][trace]") {
  const std::string path = temp_path("synthetic.json");
  Ssd ssd("ssd", small_drive());
  ChromeTrace trace(path, ssd, TraceWindow{true, 1000, 5000});
  trace.attach();
  trace.firmware(7, 3, AtaCommand::kWriteFpdma, 100, 200);  // before the window: dropped
  NandOp op;
  op.kind = NandOpKind::kProgram;
  op.die = 2;
  op.block = 70;
  op.page = 5;
  OpTiming t;
  t.submitted = 1500;
  t.started = 2000;
  t.array_start = 2100;
  t.array_end = 3900;
  t.out_end = t.finished = 4000;
  const std::uint64_t serials[] = {7, 99};  // 99: never seen, no flow
  trace.nand_op(op, t, serials, 2);
  op.origin = OpOrigin::kGc;
  op.kind = NandOpKind::kErase;
  t.started = 4500;
  t.finished = 9000;
  trace.nand_op(op, t, nullptr, 0);  // overlaps the window's end: kept
  t.started = 6000;
  t.finished = 7000;
  trace.nand_op(op, t, nullptr, 0);  // after the window: dropped
  trace.bus(1, 3, 1200, 1300);
  trace.fis(Fis{FisKind::kSetDeviceBits, 3}, 4900, 4950);
  IoRequest r;
  r.command = AtaCommand::kWriteFpdma;
  r.tag = 3;
  r.lba = 4096;
  r.sectors = 8;
  r.issued_ps = 40;
  r.tagged_ps = 50;
  r.completed_ps = 4950;
  r.anatomy.device_serial = 7;
  r.anatomy[Part::kDieWaitGc] = 700;
  trace.command_done(r);
  trace.close();

  const nlohmann::json j = read_json(path);
  std::set<std::string> threads;
  std::map<std::uint64_t, int> flow_starts, flow_ends;
  int slices = 0, gc_slices = 0;
  for (const nlohmann::json& e : j.at("traceEvents")) {
    const std::string ph = e.at("ph");
    if (ph == "M" && e.at("name") == "thread_name") threads.insert(e.at("args").at("name").get<std::string>());
    if (ph == "X") {
      ++slices;
      const double ts = e.at("ts"), dur = e.at("dur");
      CHECK(ts <= 5000 / 1e6);
      CHECK(ts + dur >= 1000 / 1e6);
      if (e.at("cat") == "gc") ++gc_slices;
    }
    if (ph == "s") ++flow_starts[e.at("id").get<std::uint64_t>()];
    if (ph == "f") ++flow_ends[e.at("id").get<std::uint64_t>()];
  }
  for (const char* name : {"SATA link", "firmware CPU", "NCQ tag 0", "NCQ tag 31", "channel 1", "die 3 (channel 1)"}) {
    INFO(name);
    CHECK(threads.count(name) == 1);
  }
  CHECK(slices == 5);  // program, GC erase, bus, FIS, command
  CHECK(gc_slices == 1);
  CHECK(flow_starts.size() == 1);
  CHECK(flow_starts == flow_ends);
}

namespace {

// A GC-heavy run: sequential fill, then random overwrites, then random reads.
ScenarioSpec gc_workload() {
  return scenario({job_phase("fill", RwMode::kWrite, 128 * 1024, 32, percent(100)),
                   job_phase("overwrite", RwMode::kRandWrite, 4096, 16, percent(60)),
                   job_phase("randread", RwMode::kRandRead, 4096, 8, percent(5))});
}

struct Interval {
  Picos start, end;
  std::uint64_t value;
};

Transitions from_intervals(const std::vector<Interval>& intervals) {
  Transitions t;
  add_transition(t, 0, 0);
  for (const Interval& i : intervals) {
    add_transition(t, i.start, i.value);
    add_transition(t, i.end, 0);
  }
  return t;
}

// Records, independently of the VCD instrument, what the VCD must show: every die operation
// and bus and link booking as the drive reports it, and the levels after every callback (it
// is the Timeline's observer and hands each observation on to the instrument).
class Recorder final : public Probe, public TimelineObserver {
 public:
  Recorder(Ssd& ssd, TimelineObserver& next)
      : dies(ssd.flash.dies()), channels(ssd.flash.channels()), m_ssd(ssd), m_next(next) {
    poll(0);
  }
  void observe(Picos when) override {
    m_next.observe(when);
    poll(when);
  }
  void nand_op(const NandOp& op, const OpTiming& t, const std::uint64_t*, std::uint32_t) override {
    dies.at(op.die).push_back(Interval{t.started, t.finished, 1 + std::uint64_t(op.origin)});
    if (op.origin == OpOrigin::kGc) ++gc_ops;
  }
  void bus(std::uint32_t channel, std::uint32_t, Picos start, Picos end) override {
    channels.at(channel).push_back(Interval{start, end, 1});
  }
  void fis(const Fis&, Picos start, Picos end) override { link.push_back(Interval{start, end, 1}); }
  // The host's own record of when each command held its NCQ tag.
  void command_done(const IoRequest& r) override {
    tag_changes.emplace_back(r.tagged_ps, +1);
    tag_changes.emplace_back(r.completed_ps, -1);
  }
  // NCQ occupancy from the host's records alone (in time order; ties in any order, the
  // instant's final count is the same).
  Transitions tags_in_use() const {
    std::vector<std::pair<Picos, int>> changes = tag_changes;
    std::stable_sort(changes.begin(), changes.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    Transitions t;
    add_transition(t, 0, 0);
    std::int64_t in_use = 0;
    for (const auto& [when, delta] : changes) add_transition(t, when, static_cast<std::uint64_t>(in_use += delta));
    return t;
  }
  std::vector<std::pair<Picos, int>> tag_changes;

  std::vector<std::vector<Interval>> dies, channels;
  std::vector<Interval> link;
  std::map<std::string, Transitions> levels;
  std::uint64_t gc_ops = 0, observations = 0;

 private:
  void poll(Picos when) {
    ++observations;
    const WriteBuffer& buffer = m_ssd.controller.buffer();
    add_transition(levels["drive.ncq_in_flight"], when, m_ssd.hba.in_flight());
    add_transition(levels["drive.buffer_used"], when, buffer.capacity() - buffer.free_slots());
    add_transition(levels["drive.buffer_dirty"], when, buffer.dirty());
    std::uint64_t gc_dies = 0;
    for (std::uint32_t d = 0; d < dies.size(); ++d) {
      const std::string die = "drive.die" + std::to_string(d);
      const bool gc = m_ssd.controller.ftl().active_victim(d) >= 0;
      gc_dies += gc;
      add_transition(levels[die + ".free_blocks"], when, m_ssd.controller.ftl().free_blocks(d));
      add_transition(levels[die + ".gc"], when, gc);
    }
    add_transition(levels["drive.gc_dies"], when, gc_dies);
  }
  Ssd& m_ssd;
  TimelineObserver& m_next;
};

}  // namespace

// Needs the drive's Probe hooks (the lead's commit "Probe hooks wired"): before them the drive
// reports no flash operation and the test fails at its first REQUIRE.
TEST_CASE("vcd: every change of a GC-heavy run is in the file transition by transition", "[instruments][vcd]") {
  const std::string path = temp_path("run.vcd");
  ScenarioRunner run("run", gc_workload(), small_drive());
  VcdInstrument vcd(path, run.ssd);
  Recorder rec(run.ssd, vcd);
  run.ssd.add_probe(vcd);
  run.ssd.add_probe(rec);
  run.ssd.timeline.set_observer(&rec);
  sc_core::sc_start();
  INFO(run.error());
  REQUIRE(run.finished());
  run.ssd.timeline.set_observer(nullptr);
  vcd.close();
  CHECK(vcd.late_changes() == 0);
  const VcdFile f = read_vcd(path);
  std::size_t compared = 0;
  const auto compare = [&](const std::string& name, const Transitions& expected) {
    INFO(name);
    REQUIRE(f.values.count(name) == 1);
    CHECK(f.values.at(name) == expected);
    compared += expected.size();
  };
  // The levels first: they need no Probe hook.
  for (const auto& [name, expected] : rec.levels) compare(name, expected);
  INFO("GC operations reported: " << rec.gc_ops << " (none: the Probe hooks are not wired)");
  REQUIRE(rec.gc_ops > 0);
  for (std::uint32_t d = 0; d < rec.dies.size(); ++d) {
    compare("drive.die" + std::to_string(d) + ".state", from_intervals(rec.dies[d]));
  }
  // A die books its transfers when its operation starts, a read's data-out ahead of its time, so
  // bus bookings are reported out of start order (a later one may fill a gap before an earlier one).
  for (std::uint32_t c = 0; c < rec.channels.size(); ++c) {
    std::vector<Interval> bookings = rec.channels[c];
    std::sort(bookings.begin(), bookings.end(), [](const Interval& a, const Interval& b) { return a.start < b.start; });
    compare("drive.channel" + std::to_string(c) + ".bus", from_intervals(bookings));
  }
  compare("drive.link_busy", from_intervals(rec.link));
  // NCQ occupancy once more, from the host's stamps instead of polling: changes made by the
  // host's SystemC process (outside the pump) are in the file at their own time too.
  compare("drive.ncq_in_flight", rec.tags_in_use());
  CHECK(f.values.size() == f.width.size());  // every declared signal has a value
  CHECK(compared > 1000);
}

// Needs the Probe hooks, like the test above.
TEST_CASE("trace: a GC-heavy run gives valid JSON with every track and GC slices and paired flows and a window",
          "[instruments][trace]") {
  const std::string full_path = temp_path("run.json"), window_path = temp_path("window.json");
  ScenarioRunner run("run", gc_workload(), small_drive());
  ChromeTrace full(full_path, run.ssd);
  const TraceWindow window{true, 10 * kPicosPerSec / 1000, 12 * kPicosPerSec / 1000};  // 10..12 ms
  ChromeTrace windowed(window_path, run.ssd, window);
  full.attach();
  windowed.attach();
  sc_core::sc_start();
  INFO(run.error());
  REQUIRE(run.finished());
  full.close();
  windowed.close();
  for (const std::string& path : {full_path, window_path}) {
    INFO(path);
    const nlohmann::json j = read_json(path);
    std::set<std::uint64_t> tids_named;
    std::map<std::uint64_t, int> starts, ends;
    std::map<std::string, int> cats;
    for (const nlohmann::json& e : j.at("traceEvents")) {
      const std::string ph = e.at("ph");
      if (ph == "M" && e.at("name") == "thread_name") tids_named.insert(e.at("tid").get<std::uint64_t>());
      if (ph == "X") {
        ++cats[e.at("cat").get<std::string>()];
        CHECK(tids_named.count(e.at("tid").get<std::uint64_t>()) == 1);
        if (path == window_path) {
          const double ts = e.at("ts"), dur = e.at("dur");
          CHECK(ts <= double(window.end) / 1e6);
          CHECK(ts + dur >= double(window.start) / 1e6);
        }
      }
      if (ph == "s") ++starts[e.at("id").get<std::uint64_t>()];
      if (ph == "f") ++ends[e.at("id").get<std::uint64_t>()];
    }
    CHECK(tids_named.size() == 2 + run.ssd.hba.tags() + run.ssd.flash.channels() + run.ssd.flash.dies());
    INFO("slices by category: " << nlohmann::json(cats).dump() << " (none: the Probe hooks are not wired)");
    REQUIRE(cats["host"] > 0);
    CHECK(cats["bus"] > 0);
    CHECK(cats["link"] > 0);
    CHECK(cats["firmware"] > 0);
    if (path == full_path) {
      CHECK(cats["gc"] > 0);
      CHECK(!starts.empty());  // (a window in a write-back stretch may hold none)
    }
    CHECK(starts == ends);
    for (const auto& [id, n] : starts) CHECK(n == 1);
  }
}
