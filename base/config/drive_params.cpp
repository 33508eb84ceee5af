// The drive config keys: one entry each, bound to the DriveConfig member it fills.
#include <iterator>
#include <limits>

#include "base/config/drive_params_host.h"
#include "base/config/gc_policy_names.h"
#include "base/config/params.h"

namespace ssdlab {
namespace {

constexpr std::uint64_t kU32Max = std::numeric_limits<std::uint32_t>::max();

void add_nand(ParamTable& t) {
  using K = ParamKind;
  t.push_back(make_param("name", K::kString)
                  .required()
                  .not_empty()
                  .text([](DriveConfig& c) -> std::string& { return c.name; })
                  .desc_is("name of the drive model (used in reports and as the NBD export name)"));
  t.push_back(make_param("description", K::kString)
                  .def("")
                  .text([](DriveConfig& c) -> std::string& { return c.description; })
                  .desc_is("free text describing the drive"));

  t.push_back(make_param("nand", K::kSection).required().desc_is("the flash array: geometry and timing"));
  t.push_back(make_param("nand.channels", K::kCount, "count")
                  .required()
                  .range(1, kU32Max)
                  .u32([](DriveConfig& c) -> std::uint32_t& { return c.nand.channels; })
                  .desc_is("independent flash buses, one controller port each"));
  t.push_back(make_param("nand.dies_per_channel", K::kCount, "count")
                  .required()
                  .range(1, kU32Max)
                  .u32([](DriveConfig& c) -> std::uint32_t& { return c.nand.dies_per_channel; })
                  .desc_is("dies sharing one channel's bus (chip enables)"));
  t.push_back(make_param("nand.planes_per_die", K::kCount, "count")
                  .def("1")
                  .range(1, 16)
                  .u32([](DriveConfig& c) -> std::uint32_t& { return c.nand.planes_per_die; })
                  .desc_is("planes per die; above 1, multi-plane operations: the FTL's block and page are one on "
                           "each plane, programmed, read and erased together (docs/planes.md)"));
  t.push_back(make_param("nand.blocks_per_plane", K::kCount, "count")
                  .required()
                  .range(1, kU32Max)
                  .u32([](DriveConfig& c) -> std::uint32_t& { return c.nand.blocks_per_plane; })
                  .desc_is("erase blocks per plane"));
  t.push_back(make_param("nand.pages_per_block", K::kCount, "count")
                  .required()
                  .range(1, 65536)
                  .u32([](DriveConfig& c) -> std::uint32_t& { return c.nand.pages_per_block; })
                  .desc_is("program units (pages) per erase block"));
  t.push_back(make_param("nand.page_size", K::kSize, "bytes")
                  .required()
                  .multiple(512)
                  .range(512, kU32Max)
                  .u32([](DriveConfig& c) -> std::uint32_t& { return c.nand.page_size_bytes; })
                  .desc_is("data area of a page (spare/OOB bytes are not modelled)"));
  t.push_back(make_param("nand.cell", K::kChoice)
                  .required()
                  .pick({"SLC", "MLC", "TLC"})
                  .choice([](DriveConfig& c, std::size_t i) { c.nand.cell = static_cast<CellType>(i + 1); },
                          [](const DriveConfig& c) { return static_cast<std::size_t>(c.nand.cell) - 1; })
                  .desc_is("cell type: bits per cell = page types (SLC: lsb; MLC: lsb, msb; TLC: lsb, csb, msb)"));
  t.push_back(make_param("nand.t_read", K::kPageTimes, "duration")
                  .required()
                  .times([](DriveConfig& c) -> std::array<Picos, 3>& { return c.nand.t_read_ps; })
                  .desc_is("array-to-register read time: one duration, or one per page type {lsb, csb, msb}"));
  t.push_back(make_param("nand.t_prog", K::kPageTimes, "duration")
                  .required()
                  .times([](DriveConfig& c) -> std::array<Picos, 3>& { return c.nand.t_prog_ps; })
                  .desc_is("register-to-array program time: one duration, or one per page type {lsb, csb, msb}"));
  t.push_back(make_param("nand.t_erase", K::kDuration, "duration")
                  .required()
                  .at_least(1)
                  .u64([](DriveConfig& c) -> std::uint64_t& { return c.nand.t_erase_ps; })
                  .desc_is("block erase time"));
  t.push_back(make_param("nand.bus_rate", K::kDataRate, "bytes/s")
                  .required()
                  .at_least(1)
                  .u64([](DriveConfig& c) -> std::uint64_t& { return c.nand.bus_bytes_per_s; })
                  .desc_is("data rate of a channel's bus"));
  t.push_back(make_param("nand.t_cmd", K::kDuration, "duration")
                  .def("0ps")
                  .u64([](DriveConfig& c) -> std::uint64_t& { return c.nand.t_cmd_ps; })
                  .desc_is("command and address cycles on the bus per operation"));
  t.push_back(make_param("nand.cache_program", K::kBool)
                  .def("false")
                  .flag([](DriveConfig& c) -> bool& { return c.nand.cache_program; })
                  .desc_is("ONFI program cache (PROGRAM PAGE CACHE): a die's next program takes its command and data "
                           "cycles during the tPROG before it, its own tPROG starting when that one ends "
                           "(docs/planes.md); off: each program's cycles after the op before it"));
  t.push_back(make_param("nand.cache_read", K::kBool)
                  .def("false")
                  .flag([](DriveConfig& c) -> bool& { return c.nand.cache_read; })
                  .desc_is("ONFI read cache (READ CACHE RANDOM 00h-31h, READ CACHE END 3Fh): each read's data-out "
                           "follows one command slot; a read next in the die's queue by then issues its command "
                           "there and starts its tR while the page before it goes out (docs/planes.md); off: each "
                           "read's command after the op before it"));
  t.push_back(make_param("nand.endurance", K::kCount, "P/E cycles")
                  .def("0")
                  .range(0, kU32Max)
                  .u32([](DriveConfig& c) -> std::uint32_t& { return c.nand.endurance_pe; })
                  .desc_is("rated program/erase cycles per block; 0 = the cell type's datasheet rating (SLC "
                           "100000, MLC 10000, TLC 1000); sets SMART's life used and the lifetime estimate"));
  t.push_back(make_param("nand.errors", K::kSection)
                  .desc_is("raw bit errors as the cell type's published characterisation gives them (P/E cycles, "
                           "data age, reads of the block), corrected by controller.ecc, with read retry"));
  t.push_back(make_param("nand.errors.enabled", K::kBool)
                  .def("false")
                  .flag([](DriveConfig& c) -> bool& { return c.nand.errors.enabled; })
                  .desc_is("model bit errors; false: the flash never errs and reads take no ECC time"));
  t.push_back(make_param("nand.errors.scale", K::kNumber, "factor")
                  .def("1")
                  .real_range(0.0, 1e6, false)
                  .real([](DriveConfig& c) -> double& { return c.nand.errors.scale; })
                  .desc_is("multiplies the published raw bit error rate (another vendor or process: assumed 1)"));
  // Micron/Intel MLC of 25 nm and before rarely needed read retry; the SET FEATURES 89h retry
  // modes came with 20 nm parts (Linux "mtd: nand: add generic READ RETRY support": "N = 0,
  // traditionally"); 0 for the 2009 presets.
  t.push_back(make_param("nand.errors.retry_levels", K::kCount, "count")
                  .def("0")
                  .range(0, 64)
                  .u32([](DriveConfig& c) -> std::uint32_t& { return c.nand.errors.retry_levels; })
                  .desc_is("read-retry table of the chip: reads with shifted thresholds after a failed decode, each a "
                           "further command, tR, data-out and decode; 0 = none (NAND before ~2011)"));
  // Cai et al. (HPCA 2015): reading a retention-worn page with shifted references "halves RBER".
  t.push_back(make_param("nand.errors.retry_gain", K::kNumber, "fraction")
                  .def("0.5")
                  .real_range(0.0, 1.0, false)
                  .real([](DriveConfig& c) -> double& { return c.nand.errors.retry_gain; })
                  .desc_is("the raw bit error rate a retry level keeps of the read before it"));
  t.push_back(make_param("nand.errors.seed", K::kCount, "count")
                  .def("1")
                  .u64([](DriveConfig& c) -> std::uint64_t& { return c.nand.errors.seed; })
                  .desc_is("seed of each page's place in the error distribution (same seed, same errors)"));
  t.push_back(make_param("nand.bad_blocks", K::kSection)
                  .desc_is("grown bad blocks: erases fail more often with wear, a failed block is retired; when a "
                           "die's spare is used up the drive turns read-only (page mapping only)"));
  t.push_back(make_param("nand.bad_blocks.grown", K::kBool)
                  .def("false")
                  .flag([](DriveConfig& c) -> bool& { return c.nand.bad_blocks.grown; })
                  .desc_is("blocks fail at erase as they wear; false: blocks never fail"));
  // Samsung K9GAG08U0M (51 nm MLC) datasheet: at least 3,996 of its 4,096 blocks stay valid over
  // the rated endurance (invalid blocks at shipment and those that develop in use): 2.4 %.
  t.push_back(make_param("nand.bad_blocks.end_of_life", K::kNumber, "fraction")
                  .def("0.024")
                  .real_range(0.0, 1.0, false)
                  .real([](DriveConfig& c) -> double& { return c.nand.bad_blocks.end_of_life; })
                  .desc_is("share of the blocks whose erase has failed by the rated endurance (nand.endurance); "
                           "failures grow as (erases / endurance)^4"));
  // Initial invalid blocks: "the device may include invalid blocks when first shipped"; the same
  // datasheet's valid-block minimum (3,996 of 4,096) counts them with those that develop in use,
  // so together with end_of_life at most 2.4 % (Samsung K9GAG08U0M). Off by default.
  t.push_back(make_param("nand.bad_blocks.factory", K::kNumber, "fraction")
                  .def("0")
                  .real_range(0.0, 0.5, false)
                  .real([](DriveConfig& c) -> double& { return c.nand.bad_blocks.factory; })
                  .desc_is("share of the blocks marked bad at shipment, placed by the seed: never used, they come "
                           "out of the spare (page mapping only); 0 = none"));
  t.push_back(make_param("nand.bad_blocks.seed", K::kCount, "count")
                  .def("1")
                  .u64([](DriveConfig& c) -> std::uint64_t& { return c.nand.bad_blocks.seed; })
                  .desc_is("seed of each block's erase count at failure (same seed, same failures)"));
  t.push_back(
      make_param("nand.suspend", K::kSection)
          .desc_is("program/erase suspend: a host read at a die busy with an erase (program) in its array time, "
                   "nothing queued there, suspends it; the op resumes with the time it had left"));
  t.push_back(make_param("nand.suspend.erase", K::kBool)
                  .def("false")
                  .flag([](DriveConfig& c) -> bool& { return c.nand.suspend.erase; })
                  .desc_is("host reads suspend erases (no 2009 drive is known to have done it)"));
  t.push_back(make_param("nand.suspend.program", K::kBool)
                  .def("false")
                  .flag([](DriveConfig& c) -> bool& { return c.nand.suspend.program; })
                  .desc_is("host reads suspend programs"));
  // Samsung's OneNAND128 datasheet (KFG2816D1M): "the device requires a maximum of 500us to
  // suspend erase operation".
  t.push_back(make_param("nand.suspend.erase_latency", K::kDuration, "duration")
                  .def("500us")
                  .u64([](DriveConfig& c) -> std::uint64_t& { return c.nand.suspend.erase_latency_ps; })
                  .desc_is("from the suspend command to the die taking the read (the erase makes no progress)"));
  // Assumed: no NAND datasheet value found; MQSim's example configuration uses 100 us.
  t.push_back(make_param("nand.suspend.program_latency", K::kDuration, "duration")
                  .def("100us")
                  .u64([](DriveConfig& c) -> std::uint64_t& { return c.nand.suspend.program_latency_ps; })
                  .desc_is("from the suspend command to the die taking the read (the program makes no progress)"));
  // Assumed (Wu and He, FAST 2012, serve every pending read before resuming; a bound keeps an
  // erase from waiting for ever).
  t.push_back(make_param("nand.suspend.max_per_op", K::kCount, "count")
                  .def("4")
                  .range(1, 255)
                  .u32([](DriveConfig& c) -> std::uint32_t& { return c.nand.suspend.max_per_op; })
                  .desc_is("host reads one erase or program lets through, over all its suspensions"));
}

void add_controller(ParamTable& t) {
  using K = ParamKind;
  t.push_back(
      make_param("controller", K::kSection).required().desc_is("the controller: firmware, buffer, mapping and GC"));
  t.push_back(make_param("controller.queue_depth", K::kCount, "count")
                  .def("32")
                  .range(1, 32)
                  .u32([](DriveConfig& c) -> std::uint32_t& { return c.controller.queue_depth; })
                  .desc_is("device NCQ depth: commands the firmware accepts at once"));
  t.push_back(make_param("controller.firmware_cost", K::kDuration, "duration")
                  .def("0ps")
                  .u64([](DriveConfig& c) -> std::uint64_t& { return c.controller.firmware_cost_ps; })
                  .desc_is("controller CPU time per host command"));
  t.push_back(make_param("controller.firmware_write_cost", K::kDuration, "duration")
                  .def("0ps")
                  .u64([](DriveConfig& c) -> std::uint64_t& { return c.controller.firmware_write_cost_ps; })
                  .desc_is("extra CPU time per write command (allocation, mapping)"));
  t.push_back(make_param("controller.firmware_write_unit_cost", K::kDuration, "duration")
                  .def("0ps")
                  .u64([](DriveConfig& c) -> std::uint64_t& { return c.controller.firmware_write_unit_cost_ps; })
                  .desc_is("extra CPU time per mapping unit a write command's data fills (placing and mapping each "
                           "unit): a firmware-bound write ceiling in bytes/s"));
  t.push_back(make_param("controller.firmware_gc_cost", K::kDuration, "duration")
                  .def("0ps")
                  .u64([](DriveConfig& c) -> std::uint64_t& { return c.controller.firmware_gc_cost_ps; })
                  .desc_is("CPU time per mapping unit relocated by foreground GC"));
  // Assumed: not modelled (0) unless a preset calibrates it on its clean QD1 read.
  t.push_back(make_param("controller.read_dma_rate", K::kDataRate, "bytes/s")
                  .def("0")
                  .u64([](DriveConfig& c) -> std::uint64_t& { return c.controller.read_dma_bytes_per_s; })
                  .shows("0 (at once), or a rate")
                  .desc_is("rate at which read data found in DRAM (zeros for never-written LBAs, the write buffer's, "
                           "read-ahead's) leaves the buffer for the link; flash data goes as each page is read "
                           "(calibrated on a clean QD1 read)"));
  t.push_back(make_param("controller.write_buffer", K::kSize, "bytes")
                  .required()
                  .u64([](DriveConfig& c) -> std::uint64_t& { return c.controller.write_buffer_bytes; })
                  .shows(">= one page, a multiple of mapping_unit, <= user capacity")
                  .desc_is("DRAM write buffer"));
  t.push_back(make_param("controller.write_cache", K::kBool)
                  .def("true")
                  .flag([](DriveConfig& c) -> bool& { return c.controller.write_cache; })
                  .desc_is("complete writes once they are in the buffer (false: once programmed)"));
  t.push_back(make_param("controller.trim", K::kBool)
                  .def("true")
                  .flag([](DriveConfig& c) -> bool& { return c.controller.trim; })
                  .desc_is("DATA SET MANAGEMENT / TRIM supported"));
  t.push_back(make_param("controller.mapping_cache", K::kSize, "bytes")
                  .def("0B")
                  .u64([](DriveConfig& c) -> std::uint64_t& { return c.controller.mapping_cache_bytes; })
                  .shows("0, or >= one page and <= raw capacity")
                  .desc_is("DRAM for the mapping table's translation pages; 0 = the whole table is in DRAM"));
  t.push_back(make_param("controller.op", K::kNumber, "fraction")
                  .one_of("op or capacity")
                  .real_range(0.0, 1.0, true)
                  .real([](DriveConfig& c) -> double& { return c.controller.op; })
                  .desc_is("over-provisioning: spare fraction of raw capacity hidden from the host"));
  t.push_back(make_param("controller.capacity", K::kSize, "bytes")
                  .one_of("op or capacity")
                  .at_least(1)
                  .u64([](DriveConfig& c) -> std::uint64_t& { return c.controller.user_bytes; })
                  .shows("whole 512B sectors, <= raw capacity")
                  .desc_is("user capacity, instead of op (op is derived from it)"));
  t.push_back(
      make_param("controller.mapping_unit", K::kSize, "bytes")
          .def("4KiB")
          .multiple(512)
          .pow2()
          .range(512, kU32Max)
          .u32([](DriveConfig& c) -> std::uint32_t& { return c.controller.mapping_unit_bytes; })
          .shows("power of two, multiple of 512B, divides nand.page_size or is k pages (k <= 16 divides the dies)")
          .desc_is("FTL mapping granularity; k pages: a virtual page over k dies, smaller writes read-modify-write"));
  t.push_back(make_param("controller.max_transfer", K::kSize, "bytes")
                  .derived("write_buffer, at most 32MiB")
                  .multiple(512)
                  .range(512, 65536ULL * 512)
                  .u64([](DriveConfig& c) -> std::uint64_t& { return c.controller.max_transfer_bytes; })
                  .shows("512B..32MiB, multiple of 512B, <= write_buffer")
                  .desc_is("largest single ATA command (NBD requests are split above it)"));
}

// The FTL scheme (controller/ftl/ftl.h, hybrid: controller/ftl/hybrid/hybrid_map.h), after the GC keys.
void add_ftl_scheme(ParamTable& t) {
  using K = ParamKind;
  t.push_back(make_param("controller.ftl", K::kChoice)
                  .def("page")
                  .pick({"page", "hybrid"})
                  .choice([](DriveConfig& c, std::size_t i) { c.controller.ftl = static_cast<FtlScheme>(i); },
                          [](const DriveConfig& c) { return static_cast<std::size_t>(c.controller.ftl); })
                  .desc_is("mapping: page (any unit anywhere, GC as controller.gc) or hybrid (block-mapped data "
                           "blocks, page-mapped log blocks, merges; needs mapping_unit = page_size; its map is "
                           "held in SRAM, so mapping_cache is not used)"));
  t.push_back(make_param("controller.hybrid", K::kSection).desc_is("hybrid log-block FTL (controller.ftl: hybrid)"));
  t.push_back(
      make_param("controller.hybrid.scheme", K::kChoice)
          .def("fast")
          .pick({"fast", "bast"})
          .choice([](DriveConfig& c, std::size_t i) { c.controller.hybrid.scheme = static_cast<HybridScheme>(i); },
                  [](const DriveConfig& c) { return static_cast<std::size_t>(c.controller.hybrid.scheme); })
          .desc_is("fast: log blocks shared by all data blocks (one sequential and random logs per die, "
                   "Lee et al. 2007); bast: one log block per data block (Kim et al. 2002)"));
  t.push_back(make_param("controller.hybrid.log_blocks", K::kCount, "count")
                  .def("0")
                  .range(0, kU32Max)
                  .u32([](DriveConfig& c) -> std::uint32_t& { return c.controller.hybrid.log_blocks; })
                  .desc_is("log blocks over all dies (split evenly; fast needs 2 per die); 0 = every spare block "
                           "but one per die (the merge destination)"));
  t.push_back(make_param("controller.hybrid.partial_merge", K::kBool)
                  .def("true")
                  .flag([](DriveConfig& c) -> bool& { return c.controller.hybrid.partial_merge; })
                  .desc_is("a log written in order from its first page is completed from its data block and becomes "
                           "the data block (false: such a log takes a full merge)"));
}

template <double PowerConfig::*F>
double& power_field(DriveConfig& c) {
  return c.power.*F;
}

// The drive's power (docs/power.md). NAND currents: Samsung K9GAG08U0M (51 nm 16 Gb MLC, the
// Vertex's and the default drive's generation) datasheet, DC and operating characteristics,
// typical values at VCC 3.3 V: ICC1 page read with serial access 15 mA, ICC2 program 15 mA, ICC3
// erase 15 mA, ISB2 CMOS standby 10 uA. The controller, DRAM and PHY figures are assumed (no 2009
// vendor published them); presets calibrate the controller's to their drive's published idle and
// active power.
void add_power(ParamTable& t) {
  using K = ParamKind;
  t.push_back(make_param("power", K::kSection)
                  .desc_is("the drive's power and energy: NAND operations and bus transfers from datasheet "
                           "currents, controller, DRAM and SATA PHY; reported per phase, no effect on timing"));
  t.push_back(make_param("power.enabled", K::kBool)
                  .def("false")
                  .flag([](DriveConfig& c) -> bool& { return c.power.enabled; })
                  .desc_is("report power and energy per phase (summary.json, console, time series, report)"));
  t.push_back(make_param("power.nand", K::kSection).desc_is("per die: supply voltage and datasheet currents"));
  t.push_back(make_param("power.nand.vcc", K::kNumber, "V")
                  .def("3.3")
                  .real_range(0.0, 1000.0, false)
                  .real(&power_field<&PowerConfig::nand_vcc_v>)
                  .desc_is("supply voltage of the dies"));
  t.push_back(make_param("power.nand.read_current", K::kNumber, "mA")
                  .def("15")
                  .real_range(0.0, 1000.0, false)
                  .real(&power_field<&PowerConfig::nand_read_ma>)
                  .desc_is("during a read's array time (tR, each retry's too; datasheet ICC1)"));
  t.push_back(make_param("power.nand.program_current", K::kNumber, "mA")
                  .def("15")
                  .real_range(0.0, 1000.0, false)
                  .real(&power_field<&PowerConfig::nand_program_ma>)
                  .desc_is("during a program's array time (tPROG; datasheet ICC2)"));
  t.push_back(make_param("power.nand.erase_current", K::kNumber, "mA")
                  .def("15")
                  .real_range(0.0, 1000.0, false)
                  .real(&power_field<&PowerConfig::nand_erase_ma>)
                  .desc_is("during an erase (tBERS; datasheet ICC3)"));
  t.push_back(make_param("power.nand.io_current", K::kNumber, "mA")
                  .def("15")
                  .real_range(0.0, 1000.0, false)
                  .real(&power_field<&PowerConfig::nand_io_ma>)
                  .desc_is("while the die's channel bus carries its commands or data (serial access, ICC1)"));
  t.push_back(make_param("power.nand.standby_current", K::kNumber, "mA")
                  .def("0.01")
                  .real_range(0.0, 1000.0, false)
                  .real(&power_field<&PowerConfig::nand_standby_ma>)
                  .desc_is("per die, always (CMOS standby, datasheet ISB2)"));
  t.push_back(
      make_param("power.controller", K::kSection)
          .desc_is("the controller chip (assumed; presets calibrate idle and energy per byte to published figures)"));
  t.push_back(make_param("power.controller.idle", K::kNumber, "W")
                  .def("0.25")
                  .real_range(0.0, 1000.0, false)
                  .real(&power_field<&PowerConfig::controller_idle_w>)
                  .desc_is("always (clocks, leakage, its NAND and host interfaces idle)"));
  t.push_back(make_param("power.controller.active", K::kNumber, "W")
                  .def("0.05")
                  .real_range(0.0, 1000.0, false)
                  .real(&power_field<&PowerConfig::controller_active_w>)
                  .desc_is("added while the firmware CPU is busy (its busy time)"));
  t.push_back(make_param("power.controller.energy_per_byte", K::kNumber, "nJ")
                  .def("1")
                  .real_range(0.0, 1000.0, false)
                  .real(&power_field<&PowerConfig::controller_nj_per_byte>)
                  .desc_is("per byte through its data path (host and flash interfaces, ECC, DMA): host data in and "
                           "out, flash pages in and out"));
  t.push_back(make_param("power.dram", K::kSection).desc_is("the controller's DRAM (assumed)"));
  t.push_back(make_param("power.dram.idle", K::kNumber, "W")
                  .def("0.05")
                  .real_range(0.0, 1000.0, false)
                  .real(&power_field<&PowerConfig::dram_idle_w>)
                  .desc_is("always (refresh and standby)"));
  t.push_back(make_param("power.dram.energy_per_byte", K::kNumber, "nJ")
                  .def("0.2")
                  .real_range(0.0, 1000.0, false)
                  .real(&power_field<&PowerConfig::dram_nj_per_byte>)
                  .desc_is("per byte through the DRAM: host data in and out, flash pages in and out"));
  t.push_back(make_param("power.link", K::kSection).desc_is("the drive's SATA PHY per link state (assumed)"));
  t.push_back(make_param("power.link.active", K::kNumber, "W")
                  .def("0.1")
                  .real_range(0.0, 1000.0, false)
                  .real(&power_field<&PowerConfig::link_active_w>)
                  .desc_is("link Active (sending or idling with SYNC/ALIGN)"));
  t.push_back(make_param("power.link.partial", K::kNumber, "W")
                  .def("0.05")
                  .real_range(0.0, 1000.0, false)
                  .real(&power_field<&PowerConfig::link_partial_w>)
                  .desc_is("link in Partial (host.link_pm)"));
  t.push_back(make_param("power.link.slumber", K::kNumber, "W")
                  .def("0.01")
                  .real_range(0.0, 1000.0, false)
                  .real(&power_field<&PowerConfig::link_slumber_w>)
                  .desc_is("link in Slumber (host.link_pm)"));
}

void add_gc_and_firmware(ParamTable& t) {
  using K = ParamKind;
  t.push_back(make_param("controller.gc", K::kSection).desc_is("garbage collection"));
  t.push_back(make_param("controller.gc.policy", K::kChoice)
                  .def("greedy")
                  .pick({std::begin(kGcPolicyNames), std::end(kGcPolicyNames)})
                  .choice([](DriveConfig& c, std::size_t i) { c.controller.gc.policy = static_cast<GcPolicyKind>(i); },
                          [](const DriveConfig& c) { return static_cast<std::size_t>(c.controller.gc.policy); })
                  .desc_is("victim selection: fewest valid pages, cost-benefit (age), oldest block, a random block "
                           "holding invalid data, or the fewest valid of d_choices random ones"));
  t.push_back(make_param("controller.gc.free_blocks_low", K::kCount, "count")
                  .def("2")
                  .range(1, kU32Max - 2)
                  .u32([](DriveConfig& c) -> std::uint32_t& { return c.controller.gc.free_blocks_low; })
                  .desc_is("per die: foreground GC starts below this many free blocks"));
  t.push_back(make_param("controller.gc.free_blocks_high", K::kCount, "count")
                  .def("3")
                  .range(1, kU32Max - 2)
                  .u32([](DriveConfig& c) -> std::uint32_t& { return c.controller.gc.free_blocks_high; })
                  .shows("> free_blocks_low")
                  .desc_is("per die: foreground GC reclaims victims until this many blocks are free"));
  t.push_back(make_param("controller.gc.idle_delay", K::kDuration, "duration")
                  .def("100ms")
                  .u64([](DriveConfig& c) -> std::uint64_t& { return c.controller.gc.idle_delay_ps; })
                  .desc_is("host idle time after which background GC starts"));
  t.push_back(make_param("controller.gc.idle_free_blocks", K::kCount, "count")
                  .def("0")
                  .range(0, kU32Max - 2)
                  .u32([](DriveConfig& c) -> std::uint32_t& { return c.controller.gc.idle_free_blocks; })
                  .desc_is("per die: background GC collects until this many blocks are free; 0 = off"));
  // FEMU's d-choice policy samples 4 (FEMU_DCHOICE_D, hw/femu/bbssd/ftl-line-gc.c, "d=4 is the
  // common choice in the literature"); MQSim's RGA samples log2(blocks per plane)
  // (rga_set_size, src/ssd/GC_and_WL_Unit_Page_Level.cpp).
  t.push_back(make_param("controller.gc.d_choices", K::kCount, "count")
                  .def("4")
                  .range(1, kU32Max)
                  .u32([](DriveConfig& c) -> std::uint32_t& { return c.controller.gc.d_choices; })
                  .shows("1..blocks per die")
                  .desc_is("d_choice: closed blocks with invalid data sampled per victim (FEMU's d; MQSim uses "
                           "log2(blocks per plane))"));
  t.push_back(make_param("controller.gc.seed", K::kCount, "count")
                  .def("1")
                  .u64([](DriveConfig& c) -> std::uint64_t& { return c.controller.gc.seed; })
                  .desc_is("random and d_choice: seed of the victim samples (same seed, same run)"));
  t.push_back(
      make_param("controller.gc.destination", K::kChoice)
          .def("separate")
          .pick({"separate", "shared"})
          .choice([](DriveConfig& c, std::size_t i) { c.controller.gc.destination = static_cast<GcDestination>(i); },
                  [](const DriveConfig& c) { return static_cast<std::size_t>(c.controller.gc.destination); })
          .desc_is("where relocated data goes: a GC open block of its own per die, or the host's open block"));
  t.push_back(
      make_param("controller.gc.relocation", K::kChoice)
          .def("in_die")
          .pick({"in_die", "striped"})
          .choice([](DriveConfig& c, std::size_t i) { c.controller.gc.relocation = static_cast<GcRelocation>(i); },
                  [](const DriveConfig& c) { return static_cast<std::size_t>(c.controller.gc.relocation); })
          .desc_is("which die a victim's valid units go to: the victim's own, or page by page the next die of a "
                   "round-robin cursor over all dies (a die near its reserve is skipped: the victim's own "
                   "instead); page mapping only"));
  t.push_back(make_param("controller.gc.background", K::kSection).desc_is("background (idle-time) GC and the host"));
  t.push_back(make_param("controller.gc.background.preemptible", K::kBool)
                  .def("false")
                  .flag([](DriveConfig& c) -> bool& { return c.controller.gc.background_preemptible; })
                  .desc_is("background GC yields to host reads: its queued ops wait in the controller and go to a "
                           "die one at a time, so a host read waits only for the op already on the die"));
  t.push_back(make_param("controller.scheduler", K::kSection).desc_is("the flash scheduler's queue order per die"));
  t.push_back(
      make_param("controller.scheduler.read_priority", K::kChoice)
          .def("off")
          .pick({"off", "over_gc", "over_all"})
          .choice([](DriveConfig& c,
                     std::size_t i) { c.controller.scheduler.read_priority = static_cast<ReadPriority>(i); },
                  [](const DriveConfig& c) { return static_cast<std::size_t>(c.controller.scheduler.read_priority); })
          .desc_is("host reads queued at a die go ahead of queued GC work (over_gc) or of all queued writes and "
                   "erases (over_all); a held op is overtaken by at most 8 reads, then the die is FIFO again"));

  t.push_back(make_param("controller.wear_leveling", K::kSection)
                  .desc_is("wear levelling: which free block opens next (dynamic: either FTL), and cold-data migration "
                           "(static: page mapping)"));
  t.push_back(
      make_param("controller.wear_leveling.mode", K::kChoice)
          .def("none")
          .pick({"none", "dynamic", "static"})
          .choice([](DriveConfig& c, std::size_t i) { c.controller.wear.mode = static_cast<WearLeveling>(i); },
                  [](const DriveConfig& c) { return static_cast<std::size_t>(c.controller.wear.mode); })
          .desc_is("none: free blocks open in the order they were erased; dynamic: a die opens its least-erased "
                   "free block; static: dynamic, and a die whose closed block lags its most-erased block by more "
                   "than threshold erases moves that block's data (counted as wear-levelling copies in WAF)"));
  // MQSim's default static wear-levelling threshold is 100 erases (Static_Wearleveling_Threshold,
  // its ssdconfig.xml); no 2009 firmware published its own: assumed.
  t.push_back(make_param("controller.wear_leveling.threshold", K::kCount, "P/E cycles")
                  .def("100")
                  .range(1, kU32Max)
                  .u32([](DriveConfig& c) -> std::uint32_t& { return c.controller.wear.threshold; })
                  .desc_is("static: the erase-count spread within a die that triggers a cold-block migration"));

  // The SLC-mode cache. Samsung's Flex-MuxOneNAND datasheet (KFN8GH6Q4M, 2008, sec. 3.9) gives
  // the same block 128 pages in MLC mode and 64 in SLC mode: one bit per cell, the LSB pages.
  // FlexFS (Lee et al., USENIX ATC 2009) writes hot data to such SLC-mode blocks and migrates it
  // to MLC blocks later, the scheme later drives called an SLC cache.
  t.push_back(make_param("controller.slc_cache", K::kSection)
                  .desc_is("an SLC-mode write cache on MLC/TLC NAND: host pages go to blocks programmed one bit per "
                           "cell (their LSB pages only, at the LSB program time) while the cache has room; GC folds "
                           "them into full blocks (page mapping)"));
  t.push_back(
      make_param("controller.slc_cache.mode", K::kChoice)
          .def("off")
          .pick({"off", "static", "dynamic"})
          .choice([](DriveConfig& c, std::size_t i) { c.controller.slc_cache.mode = static_cast<SlcCacheMode>(i); },
                  [](const DriveConfig& c) { return static_cast<std::size_t>(c.controller.slc_cache.mode); })
          .desc_is("off; static: up to size in SLC-mode blocks, whatever the drive holds (carved from the spare); "
                   "dynamic: the same, but only with free blocks beyond GC's free_blocks_high (the cache shrinks "
                   "as the drive fills)"));
  // Assumed: no 2009 drive had one (the first SLC caches came with TLC drives, 2012).
  t.push_back(make_param("controller.slc_cache.size", K::kSize, "bytes")
                  .def("0")
                  .u64([](DriveConfig& c) -> std::uint64_t& { return c.controller.slc_cache.size_bytes; })
                  .shows("> 0 with a mode; rounded up to whole SLC-mode blocks per die")
                  .desc_is("host data the cache holds, over all dies"));
  t.push_back(make_param("controller.slc_cache.idle_fold", K::kBool)
                  .def("true")
                  .flag([](DriveConfig& c) -> bool& { return c.controller.slc_cache.idle_fold; })
                  .desc_is("fold the cache's blocks into full blocks once the host has been idle for gc.idle_delay "
                           "(false: only when GC collects them)"));

  t.push_back(
      make_param("controller.read_ahead", K::kSection)
          .desc_is("sequential read-ahead: after `trigger` read commands each starting where the last "
                   "ended, the firmware reads the next `depth` of LBAs from flash into DRAM, ahead of the host"));
  // Assumed: off (no preset's firmware is known to prefetch; docs/read-ahead.md).
  t.push_back(make_param("controller.read_ahead.depth", K::kSize, "bytes")
                  .def("0")
                  .u64([](DriveConfig& c) -> std::uint64_t& { return c.controller.read_ahead_bytes; })
                  .shows("0 (off), or whole mapping units")
                  .desc_is("data read ahead of the stream's position (its DRAM); 0 = no read-ahead"));
  // Assumed: a stream is two commands in a row (the first may start anywhere).
  t.push_back(make_param("controller.read_ahead.trigger", K::kCount, "commands")
                  .def("2")
                  .range(1, 64)
                  .u32([](DriveConfig& c) -> std::uint32_t& { return c.controller.read_ahead_trigger; })
                  .desc_is("sequential read commands in a row before the firmware reads ahead"));

  t.push_back(
      make_param("controller.ecc", K::kSection)
          .desc_is("the ECC engine (with nand.errors.enabled only): BCH strength per codeword and decode time"));
  // BCH-15 per 512-byte sector: what the 3x-nm consumer SSDs Hetzler measured used ("Series SDD 5:
  // The error rate surface for MLC NAND flash", smorgastor.drhetzler.com, 2012, p.3).
  t.push_back(make_param("controller.ecc.bits", K::kCount, "bits")
                  .def("15")
                  .range(1, 1024)
                  .u32([](DriveConfig& c) -> std::uint32_t& { return c.controller.ecc.bits; })
                  .desc_is("correctable bits per codeword (BCH t)"));
  t.push_back(make_param("controller.ecc.codeword", K::kSize, "bytes")
                  .def("512B")
                  .multiple(512)
                  .range(512, 65536)
                  .u32([](DriveConfig& c) -> std::uint32_t& { return c.controller.ecc.codeword_bytes; })
                  .desc_is("data bytes per codeword"));
  // A pipelined BCH decoder of 800 MB/s (Lee, Lim, Kim, ISCAS 2012) decodes a 512 B codeword in
  // 0.64 us; the others overlap the data-out, the last one's decode follows it.
  t.push_back(make_param("controller.ecc.decode", K::kDuration, "duration")
                  .def("640ns")
                  .u64([](DriveConfig& c) -> std::uint64_t& { return c.controller.ecc.decode_ps; })
                  .desc_is("decode time per read attempt after its data-out (the die waits for the verdict)"));

  add_ftl_scheme(t);
}

ParamTable build_drive_table() {
  ParamTable t;
  add_nand(t);
  add_controller(t);
  add_gc_and_firmware(t);
  add_host(t);
  add_power(t);
  return t;
}

}  // namespace

const ParamTable& drive_params() {
  static const ParamTable table = build_drive_table();
  return table;
}

}  // namespace ssdlab
