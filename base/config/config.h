// Validated drive configuration: plain structs, filled once by the loader
// (config_loader.h) and handed to each component. No component sees YAML.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "base/core/types.h"

namespace ssdlab {

enum class CellType { kSlc = 1, kMlc = 2, kTlc = 3 };  // value = bits per cell = page types
enum class GcPolicyKind { kGreedy, kCostBenefit, kFifo, kRandom, kDChoice };
// Where GC writes the units it relocates: its own open block per die, or the host's.
enum class GcDestination { kSeparate, kShared };
// Which die GC writes a victim's valid units to: the victim's own (in_die), or the next die of a
// round-robin cursor over all dies, page by page (striped: a superblock-style GC whose copies
// no longer follow the host's striping; controller/ftl/ftl.h, program_copies).
enum class GcRelocation { kInDie, kStriped };
// Which queued flash work a host read may overtake at a die (controller/sched/flash_scheduler.h).
enum class ReadPriority { kOff, kOverGc, kOverAll };
// Wear levelling (controller/gc/wear_leveler.h): none, dynamic (a die's least-erased free block is
// opened first) or static (also: the coldest closed block's data is moved once a die's P/E spread
// passes a threshold, so that its block returns to use).
enum class WearLeveling { kNone, kDynamic, kStatic };

// An SLC-mode write cache on MLC/TLC NAND (controller.slc_cache): off, a fixed number of blocks
// per die (static, carved from the spare), or as many as the free pool can spare (dynamic).
enum class SlcCacheMode { kOff, kStatic, kDynamic };

// Which FTL maps the drive: page mapping (every unit anywhere), or a hybrid log-block FTL
// (controller/ftl/hybrid/hybrid_map.h): block-mapped data blocks and a pool of page-mapped log blocks.
enum class FtlScheme { kPage, kHybrid };
// Hybrid: FAST (log blocks shared by all data blocks: one sequential log and random logs per die)
// or BAST (one log block per data block).
enum class HybridScheme { kFast, kBast };

const char* to_string(CellType);
const char* to_string(GcPolicyKind);
const char* to_string(GcDestination);
const char* to_string(GcRelocation);
const char* to_string(ReadPriority);
const char* to_string(WearLeveling);
const char* to_string(SlcCacheMode);
const char* to_string(HybridScheme);

struct NandConfig {
  std::uint32_t channels = 0;
  std::uint32_t dies_per_channel = 0;
  std::uint32_t planes_per_die = 1;  // > 1: multi-plane operations (geometry.h, docs/planes.md)
  std::uint32_t blocks_per_plane = 0;
  std::uint32_t pages_per_block = 0;
  std::uint32_t page_size_bytes = 0;
  CellType cell = CellType::kMlc;
  // Per page type (index = page % bits_per_cell: 0 = LSB, 1 = CSB/MSB, 2 = MSB for TLC).
  std::array<Picos, 3> t_read_ps{};
  std::array<Picos, 3> t_prog_ps{};
  Picos t_erase_ps = 0;
  std::uint64_t bus_bytes_per_s = 0;  // channel data rate
  Picos t_cmd_ps = 0;                 // command/address cycles on the bus per operation
  // ONFI PROGRAM PAGE CACHE (80h-15h, docs/planes.md "Cache program"): a die's next program
  // loads its data into the cache register while the one before it programs.
  bool cache_program = false;
  // ONFI READ CACHE (00h-31h, 3Fh; docs/planes.md "Cache read"): a die's next read starts its tR
  // once the read before it moved its page to the cache register, while that page goes out.
  bool cache_read = false;
  // Rated program/erase cycles per block; 0: the cell type's rating (rated_endurance()).
  std::uint32_t endurance_pe = 0;
  // Raw bit errors (controller/media/bit_errors.h): off, the flash never errs (as before issue 26).
  struct Errors {
    bool enabled = false;
    double scale = 1.0;  // multiplies the cell type's published raw bit error rate
    // The chip's read-retry table: reads with shifted thresholds after a failed decode; each
    // keeps `retry_gain` of the errors the read before it had.
    std::uint32_t retry_levels = 0;
    double retry_gain = 0.5;
    std::uint64_t seed = 1;  // of each page's place in the error distribution
  } errors;
  // Grown bad blocks (controller/ftl: FtlCore::retire): a block whose erase fails is retired, as
  // the datasheets' valid-block minimum allows; off, blocks never fail.
  struct BadBlocks {
    bool grown = false;
    double end_of_life = 0.024;  // share of the blocks failed by the rated endurance
    std::uint64_t seed = 1;      // of each block's erase count at failure, and of the factory bad blocks
    double factory = 0;          // share of the blocks marked bad at shipment (never used)
  } bad_blocks;
  // Program/erase suspend (nand/die.h): a host read arriving at a die busy with an erase (a
  // program) in its array time, with nothing queued, suspends it after the suspend latency, runs,
  // and the op resumes with the time it had left. Off: never (as the 2009 drives did).
  struct Suspend {
    bool erase = false, program = false;
    Picos erase_latency_ps = 500 * kPicosPerUs;  // drive_params.cpp cites both
    Picos program_latency_ps = 100 * kPicosPerUs;
    std::uint32_t max_per_op = 4;  // reads served while one op is suspended, over all its suspensions
    bool enabled() const { return erase || program; }
  } suspend;
  // Not a key: the ECC decode time per read attempt the dies wait for, controller.ecc.decode when
  // errors are enabled, else 0 (set by FlashArray's owner, model/ssd.h).
  Picos t_decode_ps = 0;
  // Not a key: the dies add up their array time per operation kind (power.enabled, for the
  // energy of reads, programs and erases).
  bool array_times = false;

  std::uint32_t dies() const { return channels * dies_per_channel; }
  std::uint32_t blocks_per_die() const { return planes_per_die * blocks_per_plane; }
  std::uint64_t blocks() const { return std::uint64_t(dies()) * blocks_per_die(); }
  std::uint64_t raw_bytes() const { return blocks() * pages_per_block * page_size_bytes; }
  std::uint32_t page_types() const { return static_cast<std::uint32_t>(cell); }
  // Datasheet ratings of the era when `endurance_pe` is 0 (config.cpp cites them).
  std::uint32_t rated_endurance() const;
};

struct GcConfig {
  GcPolicyKind policy = GcPolicyKind::kGreedy;
  // Per die. Foreground GC starts when a die's free blocks fall below `free_blocks_low`
  // and reclaims victims until it has `free_blocks_high`.
  std::uint32_t free_blocks_low = 2;
  std::uint32_t free_blocks_high = 3;
  // Background GC: once the host has been idle for `idle_delay`, dies with fewer than
  // `idle_free_blocks` free blocks collect victims a page at a time until they have that many
  // (or nothing more can be gained); a host command stops it. 0 disables it.
  Picos idle_delay_ps = 100 * kPicosPerMs;
  std::uint32_t idle_free_blocks = 0;
  // d-choice: closed blocks sampled per victim (greedy among them); random is d = 1.
  std::uint32_t d_choices = 4;
  std::uint64_t seed = 1;  // of the random and d-choice samples
  GcDestination destination = GcDestination::kSeparate;
  GcRelocation relocation = GcRelocation::kInDie;
  // Background GC yields to host reads: its queued ops are held in the controller and fed to a
  // die one at a time, so a host read waits only for the op already on the die.
  bool background_preemptible = false;
};

struct WearConfig {
  WearLeveling mode = WearLeveling::kNone;
  // Static: a die's closed block is migrated when its erase count is more than `threshold`
  // below the die's most-erased block.
  std::uint32_t threshold = 100;
};

// The SLC-mode cache (controller/ftl/ftl_core.h): host pages go to blocks programmed one bit per
// cell (their LSB pages only) while the cache has room; GC folds them into full blocks.
struct SlcCacheConfig {
  SlcCacheMode mode = SlcCacheMode::kOff;
  std::uint64_t size_bytes = 0;  // host data the cache holds, over all dies
  bool idle_fold = true;         // fold the cache's blocks once the host is idle (gc.idle_delay)
};

struct SchedulerConfig {
  ReadPriority read_priority = ReadPriority::kOff;
};

struct HybridConfig {
  HybridScheme scheme = HybridScheme::kFast;
  std::uint32_t log_blocks = 0;  // log-block pool over all dies; 0 = every spare block not needed for a merge
  bool partial_merge = true;     // a log written in order from its first page is completed from the data block
};

// The controller's ECC engine: what it corrects per codeword and how long a decode takes. Used
// only with nand.errors.enabled (without it there are no errors and no decode time).
struct EccConfig {
  std::uint32_t bits = 15;             // correctable bits per codeword (BCH t)
  std::uint32_t codeword_bytes = 512;  // data bytes per codeword
  Picos decode_ps = 640000;            // per read attempt, after its data-out (drive_params.cpp cites both)
};

struct ControllerConfig {
  std::uint32_t queue_depth = 32;         // device NCQ depth (1..32)
  Picos firmware_cost_ps = 0;             // CPU time per command
  Picos firmware_write_cost_ps = 0;       // extra CPU time per write command (allocation, mapping)
  Picos firmware_gc_cost_ps = 0;          // CPU time per unit relocated by foreground GC
  Picos firmware_write_unit_cost_ps = 0;  // extra CPU time per mapping unit a write's data fills
  // Read data a command finds in DRAM (zeros for never-written LBAs, the write buffer's, read-ahead's)
  // leaves the buffer for the link through the controller's DMA at this rate: bytes / rate before
  // the link takes it. Flash data goes to the link as each page is read. 0 = at once
  // (docs/sata-link.md, "Read data from DRAM").
  std::uint64_t read_dma_bytes_per_s = 0;
  std::uint64_t write_buffer_bytes = 0;  // DRAM write buffer
  bool write_cache = true;               // complete writes once buffered
  bool trim = true;                      // DATA SET MANAGEMENT / TRIM supported
  double op = 0.07;                      // spare fraction of raw capacity hidden from the host
  std::uint64_t user_bytes = 0;          // derived from op (or given as `capacity`)
  std::uint32_t mapping_unit_bytes = 4096;
  // DRAM for the mapping table's translation pages; 0 = the whole table is in DRAM.
  std::uint64_t mapping_cache_bytes = 0;
  std::uint64_t max_transfer_bytes = 0;  // largest single ATA command (NBD splits above it)
  GcConfig gc;
  SchedulerConfig scheduler;
  WearConfig wear;
  SlcCacheConfig slc_cache;
  // Sequential read-ahead (controller/hil/read_ahead.h): once `read_ahead_trigger` read commands
  // in a row each start where the last ended, the firmware reads the next `read_ahead_bytes` of
  // LBAs into DRAM ahead of the host. 0 = off.
  std::uint64_t read_ahead_bytes = 0;
  std::uint32_t read_ahead_trigger = 2;
  EccConfig ecc;
  FtlScheme ftl = FtlScheme::kPage;
  HybridConfig hybrid;
};

// SATA link power management (host.link_pm): the link enters Partial, then Slumber, once it has
// been idle with no command outstanding for the given times; the next command waits for the
// exit (OOB COMWAKE and the PHY's return). Off (both 0): the link stays Active, as before.
struct LinkPmConfig {
  Picos partial_after_ps = 0;                // idle time before Partial; 0: never
  Picos slumber_after_ps = 0;                // idle time before Slumber; 0: never
  Picos partial_exit_ps = 10 * kPicosPerUs;  // drive_params.cpp cites both (SATA 2.6 maxima)
  Picos slumber_exit_ps = 10 * kPicosPerMs;
  bool enabled() const { return partial_after_ps || slumber_after_ps; }
};

// The host's attachment (host.link): the AHCI adapter on the SATA link, or a USB 2.0 mass-storage
// bridge (bulk-only transport) in front of the drive's SATA port (host/usb/usb_bridge.h).
enum class HostLink { kSata, kUsb2 };

struct HostConfig {
  HostLink link = HostLink::kSata;
  // USB 2.0 (host.link: usb2): the host's time from one bulk-only phase's last transaction to the
  // next phase's first (completion interrupt, the driver queueing the next transfer).
  Picos usb_turnaround_ps = 125000000;
  std::uint64_t sata_line_bps = 3000000000ULL;  // 1.5, 3 or 6 Gb/s line rate, 8b/10b coded
  std::uint32_t ncq_tags = 32;                  // 1..32; 1 = no NCQ
  // Each frame's X_RDY/R_RDY and WTRM/R_OK handshakes: a round trip of the link, in Dwords
  // (host/sata/sata_wire.h). Defaults in drive_params.cpp, with their sources.
  std::uint32_t link_round_trip_dwords = 20;
  // The AHCI adapter's work per command: fetching its command header and table from host memory
  // before the command FIS (one command at a time), and reporting a completion (status write,
  // interrupt, the driver's handler) after the Set Device Bits FIS.
  Picos ahci_command_ps = 1000000;
  Picos ahci_completion_ps = 2000000;
  LinkPmConfig link_pm;
};

// The drive's power (power.*): energy per NAND operation and bus transfer from datasheet currents,
// the controller's and DRAM's idle and active power, the SATA PHY per link state. Computed from
// what the drive did (app/run/power_report.h): no simulated time, no effect on timing. Every default is
// cited or marked assumed in drive_params.cpp.
struct PowerConfig {
  bool enabled = false;
  double nand_vcc_v = 3.3;
  double nand_read_ma = 15, nand_program_ma = 15, nand_erase_ma = 15, nand_io_ma = 15;
  double nand_standby_ma = 0.01;
  double controller_idle_w = 0.25, controller_active_w = 0.05, controller_nj_per_byte = 1.0;
  double dram_idle_w = 0.05, dram_nj_per_byte = 0.2;
  double link_active_w = 0.1, link_partial_w = 0.05, link_slumber_w = 0.01;
};

struct DriveConfig {
  std::string name;
  std::string description;
  std::string source_path;  // file the config came from
  NandConfig nand;
  ControllerConfig controller;
  HostConfig host;
  PowerConfig power;
  // The flash array's config: `nand` with the ECC decode time its dies wait for (bit errors on).
  NandConfig flash_config() const {
    NandConfig n = nand;
    n.t_decode_ps = nand.errors.enabled ? controller.ecc.decode_ps : 0;
    n.array_times = power.enabled;
    return n;
  }
};

// User bytes for a spare fraction: floor(raw * (1 - op)), down to a whole mapping unit (the
// loader's controller.op, and the effective config's test that op reproduces them).
std::uint64_t user_bytes_for_op(std::uint64_t raw, double op, std::uint64_t mapping_unit);

// The SLC cache's sizes (controller.slc_cache): an SLC-mode block's data bytes (its LSB pages,
// every page_types-th), and the SLC-mode blocks per die its size asks for (rounded up).
std::uint64_t slc_block_bytes(const NandConfig& n);
std::uint64_t slc_cache_blocks_per_die(const DriveConfig& c);

}  // namespace ssdlab
