// Which resource limits a phase (issue 25): named from the utilisation the statistics tree
// measured over the phase and from where the requests' latency went (their anatomy). No counter
// of its own: it reads the phase's figures once, when the reports are written.
//
// The rule (docs/latency-anatomy.md, "Which resource limits a phase"):
// 1. A resource is saturated at kSaturated or more of the phase busy. The busiest of the SATA
//    link, the firmware CPU, the channel buses (mean over channels) and the dies (mean over
//    dies) that is saturated limits the phase: no other relief can raise throughput by more
//    than 1 / utilisation - 1. The dies' busy time includes waiting for their bus, so saturated
//    dies on saturated buses name the buses. Saturated dies that spent at least half their busy
//    time on GC name GC; on translation pages, mapping-cache misses.
// 2. Nothing saturated: the phase is latency-bound (too few requests in flight to fill any
//    resource, or an open-loop host's rate). The resource holding the largest share of the mean
//    latency is named (its array, bus, link, firmware or queueing parts; waiting for write-buffer
//    space names the write buffer).
// A saturated limiter is co-limited when the requests queued mostly at another resource:
// relieving the named one alone then moves the limit there and gains little.
#pragma once

#include <array>
#include <cstddef>
#include <nlohmann/json_fwd.hpp>
#include <string>

#include "app/run/phase_result.h"

namespace ssdlab {

enum class Resource : std::uint8_t {
  kSataLink,
  kFirmwareCpu,
  kChannelBus,
  kDies,
  kGc,            // GC's share of die time
  kMappingCache,  // translation-page traffic of mapping-cache misses
  kWriteBuffer,   // writes waiting for buffer space
  kUsb,           // the USB 2.0 bus of host.link: usb2
  kCount
};
constexpr std::size_t kResources = static_cast<std::size_t>(Resource::kCount);
const char* resource_name(Resource r);   // summary.json: "sata_link", ...
const char* resource_words(Resource r);  // explain.txt: "the SATA link", ...

// A resource counts as saturated at this busy fraction of the phase.
constexpr double kSaturated = 0.90;

struct LimitingResource {
  bool judged = false;  // the phase had reads or writes and a statistics tree
  Resource name = Resource::kDies;
  bool saturated = false;  // rule 1; false: latency-bound (rule 2)
  bool open_loop = false;  // latency-bound under an open-loop host (rate, thinktime, trace times)
  // Per resource: the busy fraction of the phase (link, CPU, buses, dies; GC and mapping: the
  // dies' busy fraction on that work) and, for the write buffer, the share of writes that waited.
  std::array<double, kResources> utilisation{};
  // Per resource: its share of the requests' mean latency (reads and writes by count), and of
  // that the waiting (queueing) part alone.
  std::array<double, kResources> latency_share{}, queue_share{};
  bool co_limited = false;
  Resource queued_at = Resource::kDies;  // co_limited: where the requests queued most
  double in_flight = 0;                  // requests in the drive on average (Little: IOPS x latency)
};

LimitingResource judge_limit(const PhaseResult& r);
nlohmann::json limit_json(const LimitingResource& l);
// One sentence with the evidence (explain.txt, the console).
std::string limit_words(const LimitingResource& l);

}  // namespace ssdlab
