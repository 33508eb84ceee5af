// The flash array: channels and their dies, behind the FlashIf boundary.
#pragma once

#include <memory>
#include <vector>

#include "base/config/config.h"
#include "base/stats/stats_tree.h"
#include "nand/channel.h"
#include "nand/die.h"
#include "nand/flash_if.h"

namespace ssdlab {

class FlashArray : public sc_core::sc_module, public FlashIf, private DieListener {
 public:
  sc_core::sc_port<FlashCompletionIf> completion;

  FlashArray(sc_core::sc_module_name name, const NandConfig& config, Timeline& timeline);

  void submit(const NandOp& op) override { m_dies[op.die].submit(op); }
  OpTiming finished_timing(const NandOp& op) const override { return m_dies[op.die].finished_timing(op); }

  std::uint32_t dies() const { return m_die_count; }
  const Die& die(std::uint32_t d) const { return m_dies[d]; }
  const Channel& channel(std::uint32_t c) const { return m_channels[c]; }
  std::uint32_t channels() const { return static_cast<std::uint32_t>(m_channels.size()); }
  std::size_t queued(std::uint32_t d) const { return m_dies[d].queued(); }
  bool idle() const;
  // GC batches on every die (Die::set_batch_depth); 0: none.
  void set_batch_depth(std::uint32_t depth);
  // Every die reports its bus bookings to `probe` (null: none).
  void set_probe(Probe* probe);
  // Per die (channel[c].die[k] is die k * channels + c): reads, programs, erases, busy time;
  // per channel: bus busy time. Dies are registered in die order.
  void register_stats(const StatGroup& nand) const;

 private:
  void end_of_elaboration() override { m_completion = completion.operator->(); }
  void die_done(const NandOp& op) override { m_completion->flash_done(op); }
  void die_done_in_batch(const NandOp& op) override { m_completion->flash_done_in_batch(op); }
  void die_plane_out(const NandOp& op) override { m_completion->flash_plane_out(op); }

  NandConfig m_config;
  std::vector<Channel> m_channels;
  std::uint32_t m_die_count;
  std::unique_ptr<Die[]> m_dies;  // die d sits on channel d % channels (see Geometry)
  FlashCompletionIf* m_completion = nullptr;
};

}  // namespace ssdlab
