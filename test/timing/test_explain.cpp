// `ssdlab explain`: the words follow the anatomy and the drive's statistics.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "app/run/explain.h"

using namespace ssdlab;

namespace {

nlohmann::json parts(std::initializer_list<std::pair<const char*, double>> values) {
  nlohmann::json j = nlohmann::json::object();
  for (std::size_t i = 0; i < kParts; ++i) j[part_name(Part(i))] = 0.0;
  for (const auto& [k, v] : values) j[k] = v;
  return j;
}

// Two channels of two dies; die 3 (channel 1, die 1) did the most GC.
nlohmann::json die_stats() {
  nlohmann::json ch = nlohmann::json::array();
  for (int c = 0; c < 2; ++c) {
    nlohmann::json dies = nlohmann::json::array();
    for (int k = 0; k < 2; ++k) {
      const bool hot = c == 1 && k == 1;
      dies.push_back({{"busy_fraction", hot ? 0.99 : 0.8}, {"busy_gc_fraction", hot ? 0.7 : 0.3}});
    }
    ch.push_back({{"die", dies}});
  }
  return {{"drive", {{"nand", {{"channel", ch}}}}}};
}

}  // namespace

TEST_CASE("explain names the part that dominates the tail and the die whose GC caused it", "[explain]") {
  nlohmann::json phase = {{"name", "steady"}, {"kind", "job"},      {"sim_seconds", 60.0}, {"reads", 0},
                          {"writes", 5000},   {"write_mbps", 20.0}, {"waf", 3.2},          {"gc_units_copied", 12000}};
  phase["write_latency_us"] = {{"mean", 1000.0}};
  phase["anatomy_us"]["write"] = {{"count", 5000},
                                  {"mean", parts({{"die_wait_gc", 400.0}, {"array", 500.0}, {"link_transfer", 100.0}})},
                                  {"p99", parts({{"die_wait_gc", 9656.0}, {"array", 3944.0}})},
                                  {"p99_threshold_us", 13600.0},
                                  {"gc_waited_share", 0.25},
                                  {"gc_wait_mean_us", 1600.0}};
  phase["stats"] = die_stats();
  const nlohmann::json summary = {{"scenario", "s"}, {"drive", "d"}, {"phases", {phase}}};
  const std::string text = explain_summary(summary);
  INFO(text);
  CHECK(text.find("phase 'steady'") != std::string::npos);
  CHECK(text.find("mean write latency 1.00 ms: 50 % NAND array time") != std::string::npos);
  CHECK(text.find("p99 write latency 13.60 ms") != std::string::npos);
  CHECK(text.find("71 % queued at the die behind GC copies and erases, 29 % NAND array time") != std::string::npos);
  CHECK(text.find("die 3 spent 70 % of the phase on GC (WAF 3.20)") != std::string::npos);
  CHECK(text.find("25.0 % of writes waited at a die behind GC work, 1.60 ms on average") != std::string::npos);
  CHECK(text.find("read latency") == std::string::npos);  // no reads: nothing said
}

TEST_CASE("explain skips phases without I/O and says when a summary has no anatomy", "[explain]") {
  nlohmann::json idle = {{"name", "idle"}, {"kind", "idle"}, {"reads", 0}, {"writes", 0}};
  nlohmann::json old = {{"name", "old"}, {"kind", "job"}, {"reads", 10}, {"writes", 0}, {"read_mbps", 1.0}};
  const std::string text = explain_summary({{"scenario", "s"}, {"drive", "d"}, {"phases", {idle, old}}});
  CHECK(text.find("phase 'idle'") == std::string::npos);
  CHECK(text.find("phase 'old'") != std::string::npos);
  CHECK(text.find("no latency anatomy") != std::string::npos);
  CHECK_THROWS_WITH(explain_summary(nlohmann::json::object()), Catch::Contains("no 'phases'"));
}
