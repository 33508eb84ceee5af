// Ftl::save / Ftl::load: the whole mapping state as bytes (VictimIndex's own in
// victim_index_image.cpp), so
// that `ssdlab serve --image` can keep an aged drive across runs.
//
// Layout (native-endian fixed-width fields; sections as in ftl_image.h):
//   "SSDLFTL1"  u32 byte-order mark  u32 format version (2)
//   GEOM geometry and GC policy          L2P  u32 per LPN        P2L  u32 per physical unit
//   VALD u32 valid units per block       ERAS u32 erase count    AGES u64 last change
//   STAT u8 state per block              DIE  one per die (open blocks, free ring, FIFO order,
//   GC victim and progress, GC queue)    CNTR sequence and statistics
//   RELC (only with relocation: striped) the cursor and counters of striped GC relocation
//   WEAR (only with wear_leveling: static) per die whether GC's victim and its last victim were
//   cold blocks, and the wear-levelling counters
//   HYBR (only with ftl: hybrid) the log-block map (controller/ftl/hybrid/hybrid_image.cpp)
//   VIDX the victim index                "FTLEND.."
// Every section's length is bounded by the geometry before it is read, its checksum is checked,
// and every index it holds is range-checked before it is used. load() reads into fresh objects
// and only then replaces the current state, so a bad stream leaves the FTL as it was; into a
// drive that maps nothing the two big tables are read in place and emptied again on failure.
#include "controller/ftl/ftl_image.h"

#include <algorithm>
#include <cstring>
#include <istream>
#include <optional>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace ssdlab {

using image::SectionReader;
using image::SectionWriter;

namespace image {

void corrupt(const std::string& what) { throw ImageFormatError("FTL image: " + what); }

void expect_field(std::uint64_t got, std::uint64_t want, const char* name) {
  if (got != want) {
    corrupt(std::string("saved for a drive with ") + name + " = " + std::to_string(got) + ", this drive has " +
            std::to_string(want));
  }
}

}  // namespace image

namespace {

constexpr char kFtlMagic[8] = {'S', 'S', 'D', 'L', 'F', 'T', 'L', '1'};
constexpr char kFtlEnd[8] = {'F', 'T', 'L', 'E', 'N', 'D', '.', '.'};
constexpr std::uint32_t kByteOrder = 0x01020304u;
// 1: no sections, no checksums. 2: checksummed sections.
constexpr std::uint32_t kFormatVersion = 2;
constexpr std::uint64_t kGeometryBytes = 7 * 4 + 8 + 8 + 4;
constexpr std::uint64_t kDieFixedBytes = 8 + 4 + 8 + 4 + 4 + 4 + 4 + 8 + 4 + 8 + 8 + 8;
constexpr std::uint64_t kCounterBytes = 10 * 8;
constexpr std::uint64_t kRelocationBytes = 4 + 8 + 8;
constexpr Lpn kNoLpnEntry = Ftl::kNoLpn;
constexpr std::uint8_t kLastBlockState = 2;  // Ftl::BlockState: free, open, closed

using image::corrupt;
using image::expect_field;

std::uint64_t index_bytes(const Geometry& g) {
  const std::uint64_t buckets = std::uint64_t(g.dies) * (std::uint64_t(g.units_per_block) + 1);
  return 8 + 3 * 4 + 2 * (8 + 4 * std::uint64_t(g.blocks)) + 2 * (8 + 4 * buckets) +
         2 * (8 + 4 * std::uint64_t(g.dies));
}

std::uint64_t die_max_bytes(const Geometry& g) {
  return kDieFixedBytes + 2 * 4 * std::uint64_t(g.blocks_per_die) + 2 * 4 * std::uint64_t(g.units_per_block);
}

// A whole table as one section of exactly `entries` entries.
template <class T>
void write_table(std::ostream& out, const char (&tag)[5], const std::vector<T>& v) {
  SectionWriter s(out, tag, v.size() * sizeof(T));
  s.put_all(v);
  s.finish();
}
template <class T>
std::vector<T> read_table(std::istream& in, const char (&tag)[5], const char* name, std::uint64_t entries,
                          bool verify) {
  SectionReader s(in, tag, name, entries * sizeof(T), entries * sizeof(T), verify);
  std::vector<T> v = s.get_all<T>(entries);
  s.finish();
  return v;
}

// One die's record: Die is Ftl's private DieState (write points, free pool), `g` its GC
// progress and `closed` its FIFO order, oldest first.
using GcDie = GarbageCollector::Die;
template <class Die>
void write_die(std::ostream& out, const Die& d, const GcDie& g, const std::vector<std::uint32_t>& closed) {
  SectionWriter s(out, "DIE ", kDieFixedBytes + 4 * (d.free_ring.size() + closed.size() + g.pending.size()));
  s.put<std::int64_t>(d.host.block);
  s.put<std::uint32_t>(d.host.next_page);
  s.put<std::int64_t>(d.gc.block);
  s.put<std::uint32_t>(d.gc.next_page);
  s.put<std::uint32_t>(d.free_head);
  s.put<std::uint32_t>(d.free_count);
  s.put<std::uint32_t>(static_cast<std::uint32_t>(closed.size()));
  s.put<std::int64_t>(g.victim);
  s.put<std::uint32_t>(g.victim_page);
  s.put<std::uint64_t>(g.victim_valid_at_start);
  s.put<std::uint64_t>(g.victim_invalid_at_start);
  s.put<std::uint64_t>(g.credit);
  s.put_all(d.free_ring);
  s.put_all(closed);
  s.put_all(g.pending);
  s.finish();
}

template <class Die>
void read_die(std::istream& in, std::uint32_t die, const Geometry& g, bool fifo, bool verify, Die& d, GcDie& gc,
              std::vector<std::uint32_t>& closed) {
  SectionReader s(in, "DIE ", "die state", kDieFixedBytes + 4 * std::uint64_t(g.blocks_per_die), die_max_bytes(g),
                  verify, die);
  s.verify_first();
  d.host.block = s.get<std::int64_t>();
  d.host.next_page = s.get<std::uint32_t>();
  d.gc.block = s.get<std::int64_t>();
  d.gc.next_page = s.get<std::uint32_t>();
  d.free_head = s.get<std::uint32_t>();
  d.free_count = s.get<std::uint32_t>();
  const auto closed_count = s.get<std::uint32_t>();
  gc.victim = s.get<std::int64_t>();
  gc.victim_page = s.get<std::uint32_t>();
  gc.victim_valid_at_start = s.get<std::uint64_t>();
  gc.victim_invalid_at_start = s.get<std::uint64_t>();
  gc.credit = s.get<std::uint64_t>();
  d.free_ring = s.get_all<std::uint32_t>(g.blocks_per_die);
  if (closed_count > (fifo ? g.blocks_per_die : 0)) {
    s.fail("names " + std::to_string(closed_count) + " closed blocks in FIFO order" +
           (fifo ? ", the die has " + std::to_string(g.blocks_per_die) + " blocks" : ", but only FIFO GC keeps one"));
  }
  closed = s.get_all<std::uint32_t>(closed_count);
  if (s.left() % sizeof(Lpn) != 0 || s.left() / sizeof(Lpn) > 2 * std::uint64_t(g.units_per_block)) {
    s.fail("GC queue of " + std::to_string(s.left()) + " bytes is not a whole number of entries or too long");
  }
  gc.pending = s.get_all<Lpn>(s.left() / sizeof(Lpn));
  gc.pending.reserve(2 * std::size_t(g.units_per_page));
  s.finish();
}

// Range checks of a die record: every block it names is a block of that die, every position is
// inside a block, every LPN inside the drive.
template <class Die>
void check_die(const Die& d, const GcDie& gc, std::uint32_t die, const Geometry& g, std::uint64_t user_units,
               const std::vector<std::uint32_t>& closed) {
  const std::string where = "die " + std::to_string(die) + ": ";
  auto block_of_die = [&](std::int64_t b) {
    return b >= 0 && b < std::int64_t(g.blocks) && g.die_of_block(static_cast<std::uint32_t>(b)) == die;
  };
  for (const std::int64_t b : {d.host.block, d.gc.block, gc.victim}) {
    if (b != -1 && !block_of_die(b))
      corrupt(where + "open or victim block " + std::to_string(b) + " is not a block of that die");
  }
  // An open block is closed when its last page is written: its write position is below the end.
  if (d.free_head >= g.blocks_per_die || d.free_count > g.blocks_per_die ||
      (d.host.block >= 0 && d.host.next_page >= g.pages_per_block) ||
      (d.gc.block >= 0 && d.gc.next_page >= g.pages_per_block) || gc.victim_page > g.pages_per_block) {
    corrupt(where + "free ring position or page position out of range");
  }
  if (gc.victim < 0 && !gc.pending.empty()) corrupt(where + "GC queue without a GC victim");
  if (gc.victim >= 0 &&
      (gc.victim_invalid_at_start == 0 || gc.victim_valid_at_start + gc.victim_invalid_at_start != g.units_per_block ||
       gc.credit >= gc.victim_invalid_at_start)) {
    corrupt(where + "GC victim progress out of range");
  }
  for (const std::uint32_t b : d.free_ring) {
    if (!block_of_die(b))
      corrupt(where + "free block ring names block " + std::to_string(b) + ", not a block of that die");
  }
  for (const std::uint32_t b : closed) {
    if (!block_of_die(b)) corrupt(where + "FIFO order names block " + std::to_string(b) + ", not a block of that die");
  }
  for (const Lpn lpn : gc.pending) {
    if (lpn >= user_units) corrupt(where + "GC queue names an LPN outside the drive");
  }
}

// Where the FTL will write and read next agrees with the mapping: no mapped unit lies at or past
// an open block's write position (it would be overwritten), and a GC victim's valid units are
// queued for copying exactly when they lie before its scan position (else they would be copied
// twice, or never). The tables are range-checked already, and every mapped LPN is paired with its
// unit (Ftl::check_invariants), so a mapped unit is one whose P2L entry maps back to it.
template <class Die>
std::string check_positions(const std::vector<Die>& dies, const GarbageCollector& gc, const Geometry& g,
                            const std::vector<std::uint32_t>& l2p, const P2lTable& p2l) {
  const auto mapped_here = [&](Pua u, Lpn& lpn) {
    lpn = p2l.get(u);
    return lpn != kNoLpnEntry && lpn < l2p.size() && l2p[lpn] == u;
  };
  for (const Die& d : dies) {
    for (const auto* open : {&d.host, &d.gc}) {
      if (open->block < 0) continue;
      const auto block = static_cast<std::uint32_t>(open->block);
      for (Pua u = g.first_unit_of_page(block, open->next_page); u < g.first_unit_of_page(block, 0) + g.units_per_block;
           ++u) {
        Lpn lpn = 0;
        if (mapped_here(u, lpn)) {
          return "LPN " + std::to_string(lpn) + " maps past the write position of open block " + std::to_string(block);
        }
      }
    }
  }
  for (std::uint32_t die = 0; die < dies.size(); ++die) {
    const GcDie& d = gc.die(die);
    if (d.victim < 0) continue;
    const auto victim = static_cast<std::uint32_t>(d.victim);
    std::vector<Lpn> queued;  // the GC queue's entries still valid in the victim
    for (const Lpn lpn : d.pending) {
      if (l2p[lpn] != kUnmapped && !(l2p[lpn] & Ftl::kBufferedBit) && g.block_of_unit(l2p[lpn]) == victim)
        queued.push_back(lpn);
    }
    std::sort(queued.begin(), queued.end());
    if (std::adjacent_find(queued.begin(), queued.end()) != queued.end())
      return "die " + std::to_string(die) + ": GC queue names an LPN twice";
    for (std::uint32_t i = 0; i < g.units_per_block; ++i) {
      const Pua u = g.first_unit_of_page(victim, 0) + i;
      const Lpn lpn = p2l.get(u);
      if (lpn == kNoLpnEntry || l2p[lpn] != u) continue;  // not valid
      const bool scanned = g.page_of_unit(u) < d.victim_page;
      if (scanned != std::binary_search(queued.begin(), queued.end(), lpn)) {
        return "die " + std::to_string(die) + ": GC victim's scan position does not match its GC queue";
      }
    }
  }
  return {};
}

}  // namespace

std::uint64_t ftl_image_max_bytes(const Ftl& ftl) {
  const Geometry& g = ftl.geometry();
  constexpr std::uint64_t kFrame = 4 + 8 + 8;
  const std::uint64_t blocks = g.blocks;
  return 16 + kFrame * (8 + std::uint64_t(g.dies)) + kGeometryBytes + 4 * std::uint64_t(ftl.user_units()) +
         4 * g.total_units + blocks * (4 + 4 + 8 + 1) + std::uint64_t(g.dies) * die_max_bytes(g) + kCounterBytes +
         index_bytes(g) + 8 + (ftl.striped_relocation() ? kFrame + kRelocationBytes : 0) +
         (ftl.hybrid() ? kFrame + ftl.hybrid()->image_max_bytes() : 0);
}

void load_ftl_image(Ftl& ftl, const std::uint8_t* data, std::size_t size, const FtlLoadOptions& options) {
  image::MemoryView view(data, size);  // no copy; seekable, so sections are checked against the size
  std::istream in(&view);
  ftl.load(in, options);
}

// ---- Ftl ---------------------------------------------------------------------------------

void Ftl::save(std::ostream& out) const {
  if (m_stats.bad_blocks != 0 || m_stats.factory_bad_blocks != 0)  // the format has no state for a bad block yet
    throw std::invalid_argument(
        "an image of a drive with bad blocks (grown or factory: nand.bad_blocks) cannot be saved yet");
  if (slc_blocks_total() != 0)  // nor for a block's SLC mode
    throw std::invalid_argument(
        "an image of a drive whose SLC cache holds blocks (controller.slc_cache) cannot be saved yet");
  out.write(kFtlMagic, 8);
  for (const std::uint32_t field : {kByteOrder, kFormatVersion}) out.write(reinterpret_cast<const char*>(&field), 4);
  {  // geometry and policy: load() refuses a stream made for another drive
    SectionWriter s(out, "GEOM", kGeometryBytes);
    for (std::uint32_t v : {m_geo.channels, m_geo.dies, m_geo.blocks_per_die, m_geo.pages_per_block,
                            m_geo.units_per_page, m_geo.unit_bytes, m_geo.page_bytes}) {
      s.put(v);
    }
    s.put<std::uint64_t>(m_geo.total_units);
    s.put<std::uint64_t>(m_l2p.size());
    s.put<std::uint32_t>(static_cast<std::uint32_t>(m_gc.config().policy));
    s.finish();
  }
  write_table(out, "L2P ", m_l2p);
  {  // the P2L table a block at a time (it may live in a spill file)
    SectionWriter s(out, "P2L ", m_p2l.size() * sizeof(Lpn));
    std::vector<Lpn> block(m_geo.units_per_block);
    for (std::uint64_t first = 0; first < m_p2l.size(); first += block.size()) {
      m_p2l.read(static_cast<Pua>(first), block.size(), block.data());
      s.put_all(block);
    }
    s.finish();
  }
  write_table(out, "VALD", m_valid);
  write_table(out, "ERAS", m_erase_count);
  write_table(out, "AGES", m_policy.ages());
  std::vector<std::uint8_t> state(m_state.size());
  for (std::size_t b = 0; b < m_state.size(); ++b) state[b] = static_cast<std::uint8_t>(m_state[b]);
  write_table(out, "STAT", state);
  for (std::uint32_t die = 0; die < m_dies.size(); ++die) {
    write_die(out, m_dies[die], m_gc.die(die), m_policy.fifo_order(die));
  }
  {
    SectionWriter s(out, "CNTR", kCounterBytes);
    const FtlStats& st = m_stats;
    for (std::uint64_t v :
         {m_sequence, st.host_units_written, st.host_units_programmed, st.gc_units_copied, st.pad_units,
          st.pages_programmed, st.erases, st.gc_erases, st.gc_victims, st.units_trimmed}) {
      s.put(v);
    }
    s.finish();
  }
  if (m_striped) {
    SectionWriter s(out, "RELC", kRelocationBytes);
    s.put<std::uint32_t>(m_relocation.cursor);
    s.put<std::uint64_t>(m_relocation.cross_die_units);
    s.put<std::uint64_t>(m_relocation.own_die_fallbacks);
    s.finish();
  }
  if (m_cold.on()) {
    SectionWriter s(out, "WEAR", 16 + m_geo.dies);
    s.put<std::uint64_t>(m_stats.wl_victims);
    s.put<std::uint64_t>(m_stats.wl_units_copied);
    for (std::uint32_t die = 0; die < m_geo.dies; ++die) {
      const GcDie& g = m_gc.die(die);
      s.put<std::uint8_t>(static_cast<std::uint8_t>(g.wear | (g.after_wear << 1)));
    }
    s.finish();
  }
  if (m_hybrid) m_hybrid->save(out);
  {
    std::ostringstream index;
    m_policy.index().save(index);
    const std::string bytes = index.str();
    SectionWriter s(out, "VIDX", bytes.size());
    s.write(bytes.data(), bytes.size());
    s.finish();
  }
  out.write(kFtlEnd, 8);
  if (!out) throw std::runtime_error("FTL image: write failed");
}

namespace {

void read_header(std::istream& in, const Geometry& g, std::uint64_t user_units, GcPolicyKind policy, bool verify) {
  image::expect_bytes(in, kFtlMagic, 8, "FTL header (not an ssdlab FTL image)");
  std::uint32_t order = 0, version = 0;
  if (!in.read(reinterpret_cast<char*>(&order), 4) || !in.read(reinterpret_cast<char*>(&version), 4)) {
    corrupt("the image ends inside its header");
  }
  if (order != kByteOrder) corrupt("written on a machine of the other byte order");
  if (version != kFormatVersion) {
    corrupt("format version " + std::to_string(version) + " is not supported: this ssdlab reads version " +
            std::to_string(kFormatVersion) +
            (version < kFormatVersion ? " (older images carry no checksums: make a new one)" : ""));
  }
  SectionReader s(in, "GEOM", "geometry", kGeometryBytes, kGeometryBytes, verify);
  s.verify_first();
  expect_field(s.get<std::uint32_t>(), g.channels, "channels");
  expect_field(s.get<std::uint32_t>(), g.dies, "dies");
  expect_field(s.get<std::uint32_t>(), g.blocks_per_die, "blocks per die");
  expect_field(s.get<std::uint32_t>(), g.pages_per_block, "pages per block");
  expect_field(s.get<std::uint32_t>(), g.units_per_page, "mapping units per page");
  expect_field(s.get<std::uint32_t>(), g.unit_bytes, "mapping unit bytes");
  expect_field(s.get<std::uint32_t>(), g.page_bytes, "page bytes");
  expect_field(s.get<std::uint64_t>(), g.total_units, "physical units");
  expect_field(s.get<std::uint64_t>(), user_units, "user mapping units");
  expect_field(s.get<std::uint32_t>(), static_cast<std::uint32_t>(policy), "GC policy");
  s.finish();
}

// The per-LPN, per-unit and per-block tables, range-checked.
struct Tables {
  std::vector<std::uint32_t> l2p, p2l, valid, erase_count;
  std::vector<std::uint64_t> modified;
  std::vector<std::uint8_t> state;
};

void check_l2p_entries(const std::uint32_t* l2p, std::uint64_t n, const Geometry& g, const FtlLoadOptions& options) {
  for (std::uint64_t i = 0; i < n; ++i) {
    const std::uint32_t e = l2p[i];
    if (e == kUnmapped) continue;
    if (e & Ftl::kBufferedBit) {
      if (!options.allow_buffered) corrupt("L2P table names the write buffer (the image was saved undrained)");
    } else if (e >= g.total_units) {
      corrupt("L2P entry outside the drive");
    }
  }
}

bool p2l_entries_in_range(const std::uint32_t* p2l, std::uint64_t n, std::uint64_t user_units) {
  bool in_range = true;
  for (std::uint64_t i = 0; i < n; ++i) in_range = in_range && (p2l[i] == kNoLpnEntry || p2l[i] < user_units);
  return in_range;
}

void check_p2l_entries(const std::uint32_t* p2l, std::uint64_t n, std::uint64_t user_units) {
  if (!p2l_entries_in_range(p2l, n, user_units)) corrupt("P2L entry outside the user range");
}

// The per-LPN, per-unit and per-block tables, range-checked. With `l2p_in_place` and
// `p2l_in_place` the two big tables are read into them (t.l2p and t.p2l stay empty): no second
// copy of a 512 GiB drive's 1 GiB, no memory to fault in. The caller empties them again when the
// image is refused.
Tables read_tables(std::istream& in, const Geometry& g, std::uint64_t user_units, const FtlLoadOptions& options,
                   std::vector<std::uint32_t>* l2p_in_place = nullptr, P2lTable* p2l_in_place = nullptr) {
  const bool verify = options.verify_checksums;
  Tables t;
  if (l2p_in_place) {
    const std::uint64_t bytes = user_units * sizeof(std::uint32_t);
    SectionReader s(in, "L2P ", "L2P table", bytes, bytes, verify);
    if (bytes) s.read(l2p_in_place->data(), bytes);
    s.finish();
    check_l2p_entries(l2p_in_place->data(), user_units, g, options);
  } else {
    t.l2p = read_table<std::uint32_t>(in, "L2P ", "L2P table", user_units, verify);
    check_l2p_entries(t.l2p.data(), t.l2p.size(), g, options);
  }
  if (p2l_in_place) {  // through a bounded buffer: a spilled table goes to its file in runs
    const std::uint64_t bytes = g.total_units * sizeof(Lpn);
    SectionReader s(in, "P2L ", "P2L table", bytes, bytes, verify);
    std::vector<Lpn> chunk(std::min<std::uint64_t>(g.total_units, std::uint64_t(1) << 20));
    bool in_range = true;
    for (std::uint64_t first = 0; first < g.total_units; first += chunk.size()) {
      const std::uint64_t n = std::min<std::uint64_t>(chunk.size(), g.total_units - first);
      s.read(chunk.data(), n * sizeof(Lpn));
      in_range = in_range && p2l_entries_in_range(chunk.data(), n, user_units);
      p2l_in_place->write(static_cast<Pua>(first), n, chunk.data());
    }
    s.finish();  // damage is reported as such before the range
    if (!in_range) corrupt("P2L entry outside the user range");
  } else {
    t.p2l = read_table<std::uint32_t>(in, "P2L ", "P2L table", g.total_units, verify);
    check_p2l_entries(t.p2l.data(), t.p2l.size(), user_units);
  }
  t.valid = read_table<std::uint32_t>(in, "VALD", "valid counts", g.blocks, verify);
  t.erase_count = read_table<std::uint32_t>(in, "ERAS", "erase counts", g.blocks, verify);
  for (std::uint64_t b = 0; b < g.blocks; ++b) {
    if (t.erase_count[b] > FtlCore::kMaxEraseCount)
      corrupt("erase count " + std::to_string(t.erase_count[b]) + " of block " + std::to_string(b) + " is above " +
              std::to_string(FtlCore::kMaxEraseCount));
  }
  t.modified = read_table<std::uint64_t>(in, "AGES", "block ages", g.blocks, verify);
  t.state = read_table<std::uint8_t>(in, "STAT", "block states", g.blocks, verify);
  for (std::uint64_t b = 0; b < g.blocks; ++b) {
    if (t.state[b] > kLastBlockState) corrupt("unknown state of block " + std::to_string(b));
    if (t.valid[b] > g.units_per_block) corrupt("valid count of block " + std::to_string(b) + " out of range");
  }
  return t;
}

void read_counters(std::istream& in, bool verify, std::uint64_t& sequence, FtlStats& stats) {
  SectionReader s(in, "CNTR", "counters", kCounterBytes, kCounterBytes, verify);
  for (std::uint64_t* v :
       {&sequence, &stats.host_units_written, &stats.host_units_programmed, &stats.gc_units_copied, &stats.pad_units,
        &stats.pages_programmed, &stats.erases, &stats.gc_erases, &stats.gc_victims, &stats.units_trimmed}) {
    *v = s.get<std::uint64_t>();
  }
  s.finish();
}

RelocationState read_relocation(std::istream& in, const Geometry& g, bool verify) {
  SectionReader s(in, "RELC", "striped GC relocation (an image of a drive with relocation: in_die has none)",
                  kRelocationBytes, kRelocationBytes, verify);
  RelocationState r;
  r.cursor = s.get<std::uint32_t>();
  r.cross_die_units = s.get<std::uint64_t>();
  r.own_die_fallbacks = s.get<std::uint64_t>();
  s.finish();
  if (r.cursor >= g.dies)
    corrupt("striped GC relocation cursor names die " + std::to_string(r.cursor) + " of " + std::to_string(g.dies));
  return r;
}

// Static wear levelling's state (section WEAR) into `stats` and the GC dies of `gc`.
void read_wear(std::istream& in, const Geometry& g, bool verify, FtlStats& stats, GarbageCollector& gc) {
  SectionReader s(in, "WEAR", "static wear levelling (an image of a drive without it has none)", 16 + g.dies,
                  16 + g.dies, verify);
  stats.wl_victims = s.get<std::uint64_t>();
  stats.wl_units_copied = s.get<std::uint64_t>();
  for (std::uint32_t die = 0; die < g.dies; ++die) {
    const auto flags = s.get<std::uint8_t>();
    if (flags > 3) corrupt("wear-levelling flags of die " + std::to_string(die) + " are " + std::to_string(flags));
    GcDie& d = gc.die(die);
    d.wear = (flags & 1) != 0;
    d.after_wear = (flags & 2) != 0;
    if (d.wear && d.victim < 0)
      corrupt("die " + std::to_string(die) + " collects a cold block for wear levelling but has no victim");
  }
  s.finish();
}

void read_index(std::istream& in, const Geometry& g, bool verify, VictimPolicy& policy) {
  SectionReader s(in, "VIDX", "victim index", index_bytes(g), index_bytes(g), verify);
  std::string bytes(s.length(), '\0');
  s.read(&bytes[0], bytes.size());
  s.finish();  // checked before it is parsed
  std::istringstream index_in(bytes);
  policy.load_index(index_in);
}

}  // namespace

void Ftl::load(std::istream& in, const FtlLoadOptions& options) {
  // A page-mapped drive that maps nothing has nothing to lose: its L2P and P2L tables are read in
  // place and emptied again if the image is refused (the P2L entries of a drive that maps nothing
  // are never consulted). Otherwise the image is read beside the current state, which stays
  // until the new one has passed every check.
  const bool in_place =
      !m_hybrid && std::all_of(m_l2p.begin(), m_l2p.end(), [](std::uint32_t e) { return e == kUnmapped; });
  try {
    load_checked(in, options, in_place);
  } catch (...) {
    if (in_place) {
      std::fill(m_l2p.begin(), m_l2p.end(), kUnmapped);
      m_p2l.clear();
    }
    throw;
  }
}

void Ftl::load_checked(std::istream& in, const FtlLoadOptions& options, bool in_place) {
  const bool verify = options.verify_checksums;
  read_header(in, m_geo, m_l2p.size(), m_gc.config().policy, verify);
  Tables t = in_place ? read_tables(in, m_geo, m_l2p.size(), options, &m_l2p, &m_p2l)
                      : read_tables(in, m_geo, m_l2p.size(), options);
  const std::uint64_t user_units = m_l2p.size();
  const std::uint64_t blocks = m_geo.blocks;
  static_assert(static_cast<std::uint8_t>(BlockState::kClosed) == kLastBlockState, "block states changed");
  std::vector<BlockState> state(blocks);
  for (std::uint64_t b = 0; b < blocks; ++b) state[b] = static_cast<BlockState>(t.state[b]);

  const bool fifo = m_gc.config().policy == GcPolicyKind::kFifo;
  GarbageCollector gc(m_geo, m_gc.config());  // no victims
  VictimPolicy victims = empty_victims(m_geo, m_gc.config());
  std::vector<bool> in_fifo(fifo ? blocks : 0, false);
  std::vector<DieState> dies(m_dies.size());
  for (std::uint32_t die = 0; die < dies.size(); ++die) {
    DieState& d = dies[die];
    std::vector<std::uint32_t> closed;
    read_die(in, die, m_geo, fifo, verify, d, gc.die(die), closed);
    check_die(d, gc.die(die), die, m_geo, user_units, closed);
    for (const std::uint32_t b : closed) {  // oldest first
      if (state[b] != BlockState::kClosed || in_fifo[b]) {
        corrupt("FIFO order of die " + std::to_string(die) + " names block " + std::to_string(b) +
                ", which is not a closed block or is named twice");
      }
      in_fifo[b] = true;
      victims.restore_fifo(b, t.valid[b] < m_geo.units_per_block);
    }
  }
  std::uint64_t sequence = 0;
  FtlStats stats;
  read_counters(in, verify, sequence, stats);
  RelocationState relocation = m_striped ? read_relocation(in, m_geo, verify) : RelocationState{};
  if (m_cold.on()) read_wear(in, m_geo, verify, stats, gc);
  std::optional<HybridMap> hybrid = m_hybrid;  // the same drive's map, to be overwritten
  if (hybrid) hybrid->load(in, verify);
  read_index(in, m_geo, verify, victims);
  image::expect_bytes(in, kFtlEnd, 8, "FTL end marker");

  // Everything read and range-checked: take it, then check the invariants as a whole. The
  // tables are exchanged, not copied (a 512 GiB drive's are 1 GiB), so that the old state can
  // come back when the new one is inconsistent. A spilled P2L table is copied in (and saved).
  victims.restore_ages(std::move(t.modified));
  std::optional<P2lTable> old_p2l;
  const auto exchange = [&] {
    if (!in_place) m_l2p.swap(t.l2p);
    m_valid.swap(t.valid);
    m_erase_count.swap(t.erase_count);
    m_state.swap(state);
    m_dies.swap(dies);
    std::swap(m_gc, gc);
    std::swap(m_policy, victims);
    std::swap(m_hybrid, hybrid);
    std::swap(m_sequence, sequence);
    std::swap(m_stats, stats);
    std::swap(m_relocation, relocation);
  };
  exchange();
  if (!in_place && !m_p2l.exchange(t.p2l)) {
    old_p2l.emplace(m_p2l);
    m_p2l.assign(t.p2l);
  }
  std::string broken = check_invariants();
  if (broken.empty()) broken = check_positions(m_dies, m_gc, m_geo, m_l2p, m_p2l);
  if (!broken.empty()) {
    exchange();
    if (old_p2l) {
      m_p2l = *old_p2l;
    } else if (!in_place) {
      m_p2l.exchange(t.p2l);
    }
    corrupt("inconsistent state: " + broken);
  }
  clear_slc();  // an image holds no SLC-mode block (save() refuses one)
  rebuild_wear();
}

}  // namespace ssdlab
