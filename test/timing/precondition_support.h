// Fast preconditioning next to the simulated writes it stands for, for timing tests.
#pragma once

#include <initializer_list>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "app/run/scenario_runner.h"
#include "timing_support.h"

namespace ssdlab::test {

// random_map: the random writes as fio's random map (each LPN once per pass); otherwise
// independent draws (norandommap), the default.
inline PhaseSpec fast_precondition(double fill, double random, std::uint64_t seed, bool random_map = false) {
  PhaseSpec fast;
  fast.name = "precondition";
  fast.kind = PhaseKind::kPrecondition;
  fast.precondition.fill_percent = fill;
  fast.precondition.random_percent = random;
  fast.precondition.random_map = random_map;
  fast.precondition.seed = seed;
  fast.precondition.seed_set = true;
  return fast;
}

// A secure erase, then the simulated writes fast_precondition(100, random, seed, random_map)
// stands for: a sequential fill and random overwrites of one mapping unit at QD1.
inline std::vector<PhaseSpec> simulated_precondition(double random, std::uint64_t seed, bool random_map = false) {
  PhaseSpec fill = job_phase("fill", RwMode::kWrite, 4096, 1, percent(100));
  PhaseSpec overwrite = job_phase("overwrite", RwMode::kRandWrite, 4096, 1, percent(100));
  overwrite.job.io_size = percent(random);
  overwrite.job.io_size_set = true;
  overwrite.job.randseed = seed;
  overwrite.job.randseed_set = true;
  overwrite.job.norandommap = !random_map;
  return {erase_phase(), fill, overwrite};
}

// Runs the simulation (every runner built so far) to its end; each must finish.
inline void run_to_end(std::initializer_list<const ScenarioRunner*> runners) {
  sc_core::sc_start();
  for (const ScenarioRunner* r : runners) {
    INFO(r->error());
    REQUIRE(r->finished());
  }
}

// `next` run after the simulated writes and after fast_precondition(100, random, seed) of the
// same drive, side by side: that phase's results, simulated first.
inline std::pair<PhaseResult, PhaseResult> after_both_preconditions(const DriveConfig& config, double random,
                                                                    std::uint64_t seed, const PhaseSpec& next) {
  std::vector<PhaseSpec> slow_phases = simulated_precondition(random, seed);
  slow_phases.push_back(next);
  ScenarioRunner slow("slow", scenario(slow_phases), config);
  ScenarioRunner quick("fast", scenario({erase_phase(), fast_precondition(100, random, seed), next}), config);
  run_to_end({&slow, &quick});
  return {slow.results().back(), quick.results().back()};
}

}  // namespace ssdlab::test
