// The drive's host port for byte-addressed requests: a read, write, trim or flush of [offset,
// offset + length) becomes ATA commands on the drive's AHCI port (READ/WRITE FPDMA QUEUED split
// at controller.max_transfer, DATA SET MANAGEMENT, FLUSH CACHE), and its owner is told once the
// last of them completes. Written once for every front end that speaks bytes rather than ATA:
// the TLM-2.0 target (model/tlm_target.h) and `ssdlab serve`'s NBD bridge (app/serve).
//
// Requests are issued at the current simulated time and wait for NCQ tags in the HBA like any
// host's; completions arrive from inside the drive's event queue (now_picos() is their time).
// Each ATA command is counted exactly as `ssdlab run` counts a host's (host/io_record.h), so
// io_stats() means what a run's phase statistics mean. No allocation per request once the
// pools have grown to the deepest queue seen.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/core/slot_pool.h"
#include "base/stats/io_stats.h"
#include "host/sata/ahci_hba.h"

namespace ssdlab {

class Ssd;

enum class PortOp : std::uint8_t { kRead, kWrite, kTrim, kFlush };

// A byte-addressed request. `offset` and `length` are multiples of kSectorBytes inside the
// drive (HostPort::check says why not); `data` is the host memory a read fills or a write
// takes (length bytes, alive until completion; null when the drive does not carry data).
struct PortRequest {
  PortOp op = PortOp::kRead;
  std::uint64_t offset = 0, length = 0;
  std::uint8_t* data = nullptr;
  bool fua = false;  // write: forced unit access; trim: followed by FLUSH CACHE
};

// Who is told about completions (called inside the kernel, at the completion's simulated time
// now_picos(), possibly while the drive's event queue runs ahead of SystemC's time).
struct PortClient {
  virtual void port_done(std::uint64_t token, bool error) = 0;

 protected:
  ~PortClient() = default;
};

class HostPort : public IoCompletionIf {
 public:
  // Binds the drive's HBA completions to this port: a drive has one host.
  HostPort(Ssd& ssd, PortClient& client);

  // "" when `r` can go to the drive, else why not (misaligned, past the end, empty).
  std::string check(const PortRequest& r) const;
  // Issues the ATA commands of `r` now; `token` comes back with port_done.
  void submit(const PortRequest& r, std::uint64_t token);

  void io_done(IoRequest* request) override;

  std::uint64_t capacity_bytes() const { return m_capacity; }
  std::uint64_t max_transfer_bytes() const { return m_max_transfer; }
  std::uint32_t in_flight() const { return m_active.in_use(); }  // requests submitted, not done
  // Per ATA command, as `ssdlab run` counts (FLUSH CACHE, which scenarios never issue, aside).
  const IoStats& io_stats() const { return m_io; }

 private:
  struct Active {
    std::uint64_t token = 0;
    std::uint32_t parts = 0;
    bool error = false;
  };
  void add_part(std::uint32_t slot, AtaCommand command, Lba lba, std::uint32_t sectors, std::uint8_t* data, bool fua);

  AhciHba& m_hba;
  PortClient& m_client;
  std::uint64_t m_capacity, m_max_transfer;
  // An ATA command in the drive (its IoRequest::id is the slot) and the request it is part of.
  struct Part {
    std::unique_ptr<IoRequest> request;  // a stable address: the HBA holds it
    std::uint32_t owner = 0;             // its slot in m_active
  };
  SlotPool<Active> m_active;
  SlotPool<Part> m_parts;
  std::uint64_t m_seq = 0, m_last_completed_seq = 0;
  bool m_any_transfer = false;  // a READ/WRITE was issued: IoStats' window has begun
  IoStats m_io;
};

}  // namespace ssdlab
