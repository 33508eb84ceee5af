// `ssdlab sweep collect`'s columns: a summary.json phase flattened (app/sweep/flatten.h).
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "app/sweep/flatten.h"

using namespace ssdlab::sweep;
using Json = nlohmann::ordered_json;

TEST_CASE("sweep collect: a phase flattens to dotted scalar columns, without arrays and the stats tree") {
  const Json phase = Json::parse(R"({
    "name": "measured", "kind": "job", "iops": 1234.5, "reads": 7, "waf": null, "ok": true,
    "latency_us": {"mean": 10.5, "p99": 20, "clat_percentiles_us": {"99.000000": 20}},
    "steady": {"reached": true, "window_s": [1.5, 3.0], "waf": 2.25, "limiting_resource": "die"},
    "jobs": [{"name": "a", "iops": 1}],
    "expect": [{"metric": "iops", "document": 1000}],
    "stats": {"drive": {"nand": {"die0": {"busy": 0.5}}}},
    "limiting_resource": "firmware"
  })");
  std::vector<std::string> columns;
  for (const auto& [column, value] : flatten_phase(phase)) columns.push_back(column);
  CHECK(columns == std::vector<std::string>{"iops", "reads", "waf", "ok", "latency_us.mean", "latency_us.p99",
                                            "latency_us.clat_percentiles_us.99.000000", "steady.reached", "steady.waf",
                                            "steady.limiting_resource", "limiting_resource"});
  const auto flat = flatten_phase(phase);
  CHECK(flat[0].second.get<double>() == 1234.5);
  CHECK(flat[2].second.is_null());
  CHECK(flat[9].second.get<std::string>() == "die");
}

TEST_CASE("sweep collect: flattening stops at a bounded depth") {
  Json deep = 1;
  for (int i = 0; i < 100; ++i) deep = Json{{"k", deep}};
  const Json phase = {{"name", "p"}, {"shallow", {{"x", 2}}}, {"deep", deep}};
  const auto flat = flatten_phase(phase);
  REQUIRE(flat.size() == 1);
  CHECK(flat[0].first == "shallow.x");
}
