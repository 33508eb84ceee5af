#include "app/run/limiter.h"

#include <cstdio>
#include <nlohmann/json.hpp>

namespace ssdlab {

namespace {

constexpr std::size_t idx(Resource r) { return static_cast<std::size_t>(r); }

// The resource each latency part is spent on (kCount: none of the drive's, the host's NCQ queue).
Resource part_resource(Part p) {
  switch (p) {
    case Part::kLinkWait:
    case Part::kLinkTransfer:
    case Part::kLinkWake:
      return Resource::kSataLink;
    case Part::kFwQueue:
    case Part::kFirmware:
      return Resource::kFirmwareCpu;
    case Part::kMapWait:
    case Part::kDieWaitMap:
      return Resource::kMappingCache;
    case Part::kBufferWait:
      return Resource::kWriteBuffer;
    case Part::kDieWaitGc:
      return Resource::kGc;
    case Part::kBusWait:
    case Part::kBusTransfer:
      return Resource::kChannelBus;
    case Part::kStaging:
    case Part::kDieWaitHost:
    case Part::kArray:
    case Part::kFlushWait:
      return Resource::kDies;
    case Part::kUsb:
      return Resource::kUsb;
    default:
      return Resource::kCount;
  }
}

// Waiting in a queue in front of a resource (not using it). Write-buffer waits are left out: they
// are the backlog of whatever drains the buffer, not a queue of their own.
bool is_queue(Part p) {
  return p == Part::kLinkWait || p == Part::kFwQueue || p == Part::kMapWait || p == Part::kDieWaitHost ||
         p == Part::kDieWaitGc || p == Part::kDieWaitMap || p == Part::kBusWait;
}

// The dies, their GC and their translation-page work are one family: relieving the dies relieves all three.
bool same_family(Resource a, Resource b) {
  auto die_side = [](Resource r) { return r == Resource::kDies || r == Resource::kGc || r == Resource::kMappingCache; };
  return a == b || (die_side(a) && die_side(b));
}

double busy_fraction_or_0(const StatsDelta& s, const std::string& name) {
  return s.catalogue().find(name) >= 0 ? s.busy_fraction(name) : 0.0;
}

std::string pct(double v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%.0f %%", 100.0 * v);
  return buf;
}

}  // namespace

const char* resource_name(Resource r) {
  static constexpr const char* kNames[kResources] = {"sata_link", "firmware_cpu",  "channel_bus",  "dies",
                                                     "gc",        "mapping_cache", "write_buffer", "usb"};
  return kNames[idx(r)];
}

const char* resource_words(Resource r) {
  static constexpr const char* kWords[kResources] = {"the SATA link",
                                                     "the firmware CPU",
                                                     "the channel buses",
                                                     "the dies",
                                                     "garbage collection (its share of die time)",
                                                     "mapping-cache misses (translation-page reads and writes)",
                                                     "the write buffer",
                                                     "the USB 2.0 bus"};
  return kWords[idx(r)];
}

LimitingResource judge_limit(const PhaseResult& r) {
  LimitingResource l;
  if (r.stats.empty() || r.stats.span_ps() == 0 || r.io.reads + r.io.writes == 0) return l;
  l.judged = true;
  auto& u = l.utilisation;
  u[idx(Resource::kSataLink)] = r.link_utilisation();
  u[idx(Resource::kFirmwareCpu)] = busy_fraction_or_0(r.stats, stat_path::kController + "firmware_cpu.busy");
  u[idx(Resource::kChannelBus)] = r.stats.mean_busy_fraction("drive.nand.channel[].busy");
  u[idx(Resource::kDies)] = r.die_utilisation();
  u[idx(Resource::kGc)] = r.stats.mean_busy_fraction("drive.nand.channel[].die[].busy_gc");
  u[idx(Resource::kMappingCache)] = r.stats.mean_busy_fraction("drive.nand.channel[].die[].busy_map");
  u[idx(Resource::kUsb)] = busy_fraction_or_0(r.stats, "drive.usb.busy");
  u[idx(Resource::kWriteBuffer)] = r.io.writes ? std::min(1.0, double(r.buffer_waits()) / double(r.io.writes)) : 0.0;

  // Latency shares: reads and writes weighted by their counts (a part's mean x count = its sum).
  double total = 0;
  std::array<double, kParts> sum{};
  for (std::size_t p = 0; p < kParts; ++p) {
    sum[p] = r.io.read_anatomy.mean(Part(p)) * double(r.io.read_anatomy.count()) +
             r.io.write_anatomy.mean(Part(p)) * double(r.io.write_anatomy.count());
    total += sum[p];
  }
  for (std::size_t p = 0; p < kParts && total > 0; ++p) {
    const Resource res = part_resource(Part(p));
    if (res == Resource::kCount) continue;
    l.latency_share[idx(res)] += sum[p] / total;
    if (is_queue(Part(p))) l.queue_share[idx(res)] += sum[p] / total;
  }
  const std::uint64_t n = r.io.read_anatomy.count() + r.io.write_anatomy.count();
  l.in_flight = n ? r.iops() * total / double(n) / double(kPicosPerSec) : 0.0;

  // Rule 1: the busiest of the time-shared resources (the USB bus with host.link usb2), if saturated.
  Resource top = Resource::kSataLink;
  for (Resource c : {Resource::kFirmwareCpu, Resource::kChannelBus, Resource::kDies, Resource::kUsb}) {
    if (u[idx(c)] > u[idx(top)]) top = c;
  }
  if (u[idx(top)] >= kSaturated) {
    l.saturated = true;
    if (top == Resource::kDies && u[idx(Resource::kChannelBus)] >= kSaturated) top = Resource::kChannelBus;
    if (top == Resource::kDies) {
      if (u[idx(Resource::kGc)] >= 0.5 * u[idx(Resource::kDies)]) {
        top = Resource::kGc;
      } else if (u[idx(Resource::kMappingCache)] >= 0.5 * u[idx(Resource::kDies)]) {
        top = Resource::kMappingCache;
      }
    }
    l.name = top;
    // Co-limited: the requests queued mostly at a resource outside the named one's family.
    Resource q = top;
    double own = 0, most = 0;
    for (std::size_t i = 0; i < kResources; ++i) {
      if (same_family(Resource(i), top)) {
        own += l.queue_share[i];
      } else if (l.queue_share[i] > most) {
        most = l.queue_share[i];
        q = Resource(i);
      }
    }
    l.co_limited = q != top && most > own && most >= 0.1;
    l.queued_at = q;
    return l;
  }
  // Rule 2: latency-bound. The largest share of the mean latency.
  l.open_loop = r.tally.timed > 0 || r.arrival != nullptr;
  Resource best = Resource::kDies;
  for (std::size_t i = 0; i < kResources; ++i) {
    if (l.latency_share[i] > l.latency_share[idx(best)]) best = Resource(i);
  }
  l.name = best;
  return l;
}

namespace {

// "SATA link 96 %, firmware CPU 34 %, ..." for the four time-shared resources but `skip`.
std::string loads(const LimitingResource& l, Resource skip) {
  std::string out;
  for (Resource c :
       {Resource::kUsb, Resource::kSataLink, Resource::kFirmwareCpu, Resource::kChannelBus, Resource::kDies}) {
    if (c == skip || (c == Resource::kUsb && l.utilisation[idx(c)] == 0)) continue;
    out += (out.empty() ? "" : ", ") + std::string(resource_words(c)).substr(4) + " " + pct(l.utilisation[idx(c)]);
  }
  return out;
}

}  // namespace

std::string limit_words(const LimitingResource& l) {
  if (!l.judged) return "";
  const std::size_t k = idx(l.name);
  const auto& u = l.utilisation;
  std::string s = "limited by " + std::string(resource_words(l.name)) + ": ";
  if (l.saturated) {
    if (l.name == Resource::kGc || l.name == Resource::kMappingCache) {
      s += "the dies were " + pct(u[idx(Resource::kDies)]) + " busy, " + pct(u[k]) + " of the phase on " +
           (l.name == Resource::kGc ? "GC" : "translation pages");
    } else {
      s += pct(u[k]) + " busy";
    }
    s += " (" + loads(l, l.name) + ")";
    const double busy = l.name == Resource::kGc || l.name == Resource::kMappingCache ? u[idx(Resource::kDies)] : u[k];
    char head[96];
    std::snprintf(head, sizeof head, "; relieving anything else can add at most %.1f %% of throughput",
                  busy > 0 ? 100.0 * (1.0 / busy - 1.0) : 0.0);
    s += head;
    if (l.co_limited) {
      s += "; but the requests queued mostly at " + std::string(resource_words(l.queued_at)) + " (" +
           pct(l.queue_share[idx(l.queued_at)]) + " of the mean latency): co-limited, relieving " +
           resource_words(l.name) + " alone moves the limit there";
    }
    return s;
  }
  char flight[64];
  std::snprintf(flight, sizeof flight, "%.1f", l.in_flight);
  s += "no resource was saturated (" + loads(l, Resource::kCount) + "), so the phase is latency-bound (" + flight +
       " requests in the drive on average" + (l.open_loop ? ", issued at the host's own pace" : "") + "); " +
       pct(l.latency_share[k]) + " of the mean latency is spent on " + resource_words(l.name);
  return s;
}

nlohmann::json limit_json(const LimitingResource& l) {
  nlohmann::json util = nlohmann::json::object();
  for (std::size_t i = 0; i < kResources; ++i) util[resource_name(Resource(i))] = l.utilisation[i];
  nlohmann::json share = nlohmann::json::object();
  for (std::size_t i = 0; i < kResources; ++i) share[resource_name(Resource(i))] = l.latency_share[i];
  nlohmann::json j = {{"name", resource_name(l.name)},
                      {"utilisation", l.utilisation[idx(l.name)]},
                      {"basis", l.saturated ? "saturated" : "latency"},
                      {"co_limited", l.co_limited},
                      {"why", limit_words(l)},
                      {"utilisations", util},
                      {"latency_shares", share}};
  if (l.co_limited) j["queued_at"] = resource_name(l.queued_at);
  return j;
}

}  // namespace ssdlab
