#include "app/run/scale.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ssdlab {

ScalePlan plan_scale(const DriveConfig& full, double factor) {
  if (!(factor > 0.0 && factor <= 1.0)) throw std::invalid_argument("--scale must be in (0, 1]");
  const NandConfig& n = full.nand;
  // Spare blocks per die must stay >= free_blocks_high + 2 (see the config loader). The FTL's
  // blocks of a die are blocks_per_plane whatever the planes: one block of each plane makes one
  // (multi-plane operations, docs/planes.md).
  const double op = 1.0 - double(full.controller.user_bytes) / double(n.raw_bytes());
  const double need_per_die = full.controller.gc.free_blocks_high + 2 + 1;
  const auto min_per_plane = static_cast<std::uint32_t>(std::ceil(need_per_die / std::max(op, 1e-9))) + 1;
  auto blocks = static_cast<std::uint32_t>(std::llround(n.blocks_per_plane * factor));
  blocks = std::min(n.blocks_per_plane, std::max(blocks, min_per_plane));
  ScalePlan plan;
  plan.factor = double(blocks) / double(n.blocks_per_plane);
  plan.blocks_override = "nand.blocks_per_plane=" + std::to_string(blocks);
  return plan;
}

namespace {
void scale_amount(Amount& a, double f) {
  if (!a.is_percent) a.bytes = static_cast<std::uint64_t>(std::llround(double(a.bytes) * f)) / 4096 * 4096;
}
Picos scale_time(Picos t, double f) { return static_cast<Picos>(std::llround(double(t) * f)); }

void scale_job(JobSpec& job, double f) {
  scale_amount(job.size, f);
  if (!job.size.is_percent && job.size.bytes < job.bs_bytes) job.size.bytes = job.bs_bytes;
  if (job.io_size_set) scale_amount(job.io_size, f);
  scale_amount(job.offset, f);
  scale_amount(job.offset_increment, f);
  for (AccessZone& z : job.distribution.zones)  // zoned_abs sizes shrink with the drive
    z.size_bytes = static_cast<std::uint64_t>(std::llround(double(z.size_bytes) * f)) / 4096 * 4096;
  job.runtime_ps = scale_time(job.runtime_ps, f);
  job.startdelay_ps = scale_time(job.startdelay_ps, f);
  job.ramp_ps = scale_time(job.ramp_ps, f);
}
}  // namespace

void scale_scenario(ScenarioSpec& scenario, double f) {
  for (PhaseSpec& p : scenario.phases) {
    scale_job(p.job, f);
    for (JobSpec& job : p.more_jobs) scale_job(job, f);
    p.idle_ps = scale_time(p.idle_ps, f);
    scale_amount(p.trim.offset, f);
    scale_amount(p.trim.size, f);
  }
  scenario.sample_interval_ps = std::max<Picos>(kPicosPerMs, scale_time(scenario.sample_interval_ps, f));
}

}  // namespace ssdlab
