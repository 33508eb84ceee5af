// Ftl::save / Ftl::load and VictimIndex::save / load: the whole mapping state as bytes, so
// that `ssdlab serve --image` can keep an aged drive across runs. The layout is private to
// this file: native-endian fixed-width fields, every vector preceded by its length, a magic
// at both ends. load() reads into fresh objects and only then replaces the current state, so
// a bad stream leaves the FTL as it was.
#include <cstring>
#include <istream>
#include <ostream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "controller/ftl/ftl.h"

namespace ssdlab {

namespace {

constexpr char kFtlMagic[8] = {'S', 'S', 'D', 'L', 'F', 'T', 'L', '1'};
constexpr char kFtlEnd[8] = {'F', 'T', 'L', 'E', 'N', 'D', '.', '.'};
constexpr char kIndexMagic[8] = {'S', 'S', 'D', 'L', 'V', 'I', 'X', '1'};
constexpr std::uint32_t kByteOrder = 0x01020304u;
constexpr std::uint32_t kFormatVersion = 1;

[[noreturn]] void corrupt(const std::string& what) {
  throw std::runtime_error("FTL image: " + what);
}

template <class T>
void put(std::ostream& out, const T& v) {
  static_assert(std::is_trivially_copyable<T>::value, "plain fields only");
  out.write(reinterpret_cast<const char*>(&v), sizeof v);
}

template <class T>
T get(std::istream& in, const char* what) {
  static_assert(std::is_trivially_copyable<T>::value, "plain fields only");
  T v;
  if (!in.read(reinterpret_cast<char*>(&v), sizeof v)) corrupt(std::string("stream ends inside ") + what);
  return v;
}

template <class T>
void put_vector(std::ostream& out, const std::vector<T>& v) {
  put<std::uint64_t>(out, v.size());
  if (!v.empty()) out.write(reinterpret_cast<const char*>(v.data()), std::streamsize(v.size() * sizeof(T)));
}

// Reads a vector whose length must be `expected` (the geometry decides every length).
template <class T>
std::vector<T> get_vector(std::istream& in, std::uint64_t expected, const char* what) {
  const auto n = get<std::uint64_t>(in, what);
  if (n != expected) {
    corrupt(std::string(what) + " holds " + std::to_string(n) + " entries, this drive needs " +
            std::to_string(expected));
  }
  std::vector<T> v(n);
  if (n && !in.read(reinterpret_cast<char*>(v.data()), std::streamsize(n * sizeof(T)))) {
    corrupt(std::string("stream ends inside ") + what);
  }
  return v;
}

void put_magic(std::ostream& out, const char (&magic)[8]) { out.write(magic, 8); }

void expect_magic(std::istream& in, const char (&magic)[8], const char* what) {
  char buf[8];
  if (!in.read(buf, 8) || std::memcmp(buf, magic, 8) != 0) corrupt(std::string("missing ") + what);
}

void expect_field(std::uint64_t got, std::uint64_t want, const char* name) {
  if (got != want) {
    corrupt(std::string("saved for a drive with ") + name + " = " + std::to_string(got) +
            ", this drive has " + std::to_string(want));
  }
}

}  // namespace

// ---- VictimIndex -------------------------------------------------------------------------

void VictimIndex::save(std::ostream& out) const {
  put_magic(out, kIndexMagic);
  put<std::uint32_t>(out, static_cast<std::uint32_t>(m_count.size()));
  put<std::uint32_t>(out, m_blocks_per_die);
  put<std::uint32_t>(out, m_units_per_block);
  put_vector(out, m_next);
  put_vector(out, m_prev);
  put_vector(out, m_head);
  put_vector(out, m_tail);
  put_vector(out, m_count);
  put_vector(out, m_min_hint);
}

void VictimIndex::load(std::istream& in) {
  expect_magic(in, kIndexMagic, "victim index");
  const std::uint64_t dies = m_count.size();
  expect_field(get<std::uint32_t>(in, "victim index"), dies, "dies");
  expect_field(get<std::uint32_t>(in, "victim index"), m_blocks_per_die, "blocks per die");
  expect_field(get<std::uint32_t>(in, "victim index"), m_units_per_block, "units per block");
  const std::uint64_t blocks = dies * m_blocks_per_die;
  const std::uint64_t buckets = dies * (std::uint64_t(m_units_per_block) + 1);
  auto next = get_vector<std::int32_t>(in, blocks, "victim index links");
  auto prev = get_vector<std::int32_t>(in, blocks, "victim index links");
  auto head = get_vector<std::int32_t>(in, buckets, "victim index buckets");
  auto tail = get_vector<std::int32_t>(in, buckets, "victim index buckets");
  auto count = get_vector<std::uint32_t>(in, dies, "victim index counts");
  auto hint = get_vector<std::uint32_t>(in, dies, "victim index hints");
  auto in_range = [&](const std::vector<std::int32_t>& v) {
    for (std::int32_t b : v) {
      if (b != kNone && (b < 0 || std::uint64_t(b) >= blocks)) return false;
    }
    return true;
  };
  if (!in_range(next) || !in_range(prev) || !in_range(head) || !in_range(tail)) {
    corrupt("victim index names a block outside the drive");
  }
  // Every bucket must be a proper doubly linked list (no cycles, no shared blocks) of blocks of
  // its die; each die's count must match its lists, and its hint must not skip a non-empty bucket.
  std::vector<std::uint8_t> seen(blocks, 0);
  const std::uint64_t per_die = std::uint64_t(m_units_per_block) + 1;
  std::vector<std::uint32_t> listed(dies, 0);
  for (std::uint64_t b = 0; b < buckets; ++b) {
    const std::uint64_t die = b / per_die;
    std::int32_t prev_block = kNone;
    for (std::int32_t blk = head[b]; blk != kNone; blk = next[blk]) {
      if (seen[blk] || prev[blk] != prev_block || die_of(static_cast<std::uint32_t>(blk)) != die) {
        corrupt("victim index lists are broken");
      }
      seen[blk] = 1;
      prev_block = blk;
      ++listed[die];
    }
    if (tail[b] != prev_block) corrupt("victim index lists are broken");
    if (head[b] != kNone && hint[die] > b % per_die) corrupt("victim index hint of die " + std::to_string(die) + " skips blocks");
  }
  for (std::uint64_t die = 0; die < dies; ++die) {
    if (listed[die] != count[die]) corrupt("victim index count of die " + std::to_string(die) + " does not match its lists");
  }
  m_next = std::move(next);
  m_prev = std::move(prev);
  m_head = std::move(head);
  m_tail = std::move(tail);
  m_count = std::move(count);
  m_min_hint = std::move(hint);
}

// ---- Ftl ---------------------------------------------------------------------------------

void Ftl::save(std::ostream& out) const {
  put_magic(out, kFtlMagic);
  put<std::uint32_t>(out, kByteOrder);
  put<std::uint32_t>(out, kFormatVersion);
  // Geometry and policy: load() refuses a stream made for another drive.
  put<std::uint32_t>(out, m_geo.channels);
  put<std::uint32_t>(out, m_geo.dies);
  put<std::uint32_t>(out, m_geo.blocks_per_die);
  put<std::uint32_t>(out, m_geo.pages_per_block);
  put<std::uint32_t>(out, m_geo.units_per_page);
  put<std::uint32_t>(out, m_geo.unit_bytes);
  put<std::uint32_t>(out, m_geo.page_bytes);
  put<std::uint64_t>(out, m_geo.total_units);
  put<std::uint64_t>(out, m_l2p.size());
  put<std::uint32_t>(out, static_cast<std::uint32_t>(m_gc.policy));

  put_vector(out, m_l2p);
  {  // the P2L table, in put_vector's layout, a block at a time (it may live in a spill file)
    put<std::uint64_t>(out, m_p2l.size());
    std::vector<Lpn> block(m_geo.units_per_block);
    for (std::uint64_t first = 0; first < m_p2l.size(); first += block.size()) {
      m_p2l.read(static_cast<Pua>(first), block.size(), block.data());
      out.write(reinterpret_cast<const char*>(block.data()), std::streamsize(block.size() * sizeof(Lpn)));
    }
  }
  put_vector(out, m_valid);
  put_vector(out, m_erase_count);
  put_vector(out, m_modified);
  std::vector<std::uint8_t> state(m_state.size());
  for (std::size_t b = 0; b < m_state.size(); ++b) state[b] = static_cast<std::uint8_t>(m_state[b]);
  put_vector(out, state);

  const bool fifo = m_gc.policy == GcPolicyKind::kFifo;
  for (std::uint32_t die = 0; die < m_dies.size(); ++die) {
    const DieState& d = m_dies[die];
    put<std::int64_t>(out, d.host.block);
    put<std::uint32_t>(out, d.host.next_page);
    put<std::int64_t>(out, d.gc.block);
    put<std::uint32_t>(out, d.gc.next_page);
    put_vector(out, d.free_ring);
    put<std::uint32_t>(out, d.free_head);
    put<std::uint32_t>(out, d.free_count);
    // FIFO policy: the closed blocks oldest first, as a ring of blocks_per_die slots (head 0).
    std::vector<std::uint32_t> closed_ring;
    if (fifo) {
      closed_ring = m_fifo.order(die);
      closed_ring.resize(m_geo.blocks_per_die, 0);
    }
    put_vector(out, closed_ring);
    put<std::uint32_t>(out, 0);
    put<std::uint32_t>(out, fifo ? m_fifo.closed_count(die) : 0);
    put<std::int64_t>(out, d.victim);
    put<std::uint32_t>(out, d.victim_page);
    put<std::uint64_t>(out, d.victim_valid_at_start);
    put<std::uint64_t>(out, d.victim_invalid_at_start);
    put<std::uint64_t>(out, d.credit);
    put_vector(out, d.gc_pending);
  }
  put<std::uint64_t>(out, m_sequence);
  const FtlStats& s = m_stats;
  for (std::uint64_t v : {s.host_units_written, s.host_units_programmed, s.gc_units_copied, s.pad_units,
                          s.pages_programmed, s.erases, s.gc_erases, s.gc_victims, s.units_trimmed}) {
    put<std::uint64_t>(out, v);
  }
  m_index.save(out);
  put_magic(out, kFtlEnd);
  if (!out) throw std::runtime_error("FTL image: write failed");
}

void Ftl::load(std::istream& in) {
  expect_magic(in, kFtlMagic, "FTL header (not an ssdlab FTL image)");
  if (get<std::uint32_t>(in, "header") != kByteOrder) corrupt("written on a machine of the other byte order");
  const auto version = get<std::uint32_t>(in, "header");
  if (version != kFormatVersion) corrupt("format version " + std::to_string(version) + " is not supported");
  expect_field(get<std::uint32_t>(in, "geometry"), m_geo.channels, "channels");
  expect_field(get<std::uint32_t>(in, "geometry"), m_geo.dies, "dies");
  expect_field(get<std::uint32_t>(in, "geometry"), m_geo.blocks_per_die, "blocks per die");
  expect_field(get<std::uint32_t>(in, "geometry"), m_geo.pages_per_block, "pages per block");
  expect_field(get<std::uint32_t>(in, "geometry"), m_geo.units_per_page, "mapping units per page");
  expect_field(get<std::uint32_t>(in, "geometry"), m_geo.unit_bytes, "mapping unit bytes");
  expect_field(get<std::uint32_t>(in, "geometry"), m_geo.page_bytes, "page bytes");
  expect_field(get<std::uint64_t>(in, "geometry"), m_geo.total_units, "physical units");
  expect_field(get<std::uint64_t>(in, "geometry"), m_l2p.size(), "user mapping units");
  expect_field(get<std::uint32_t>(in, "geometry"), static_cast<std::uint32_t>(m_gc.policy), "GC policy");

  const std::uint64_t blocks = m_geo.blocks;
  auto l2p = get_vector<std::uint32_t>(in, m_l2p.size(), "L2P table");
  auto p2l = get_vector<std::uint32_t>(in, m_p2l.size(), "P2L table");
  auto valid = get_vector<std::uint32_t>(in, blocks, "valid counts");
  auto erase_count = get_vector<std::uint32_t>(in, blocks, "erase counts");
  auto modified = get_vector<std::uint64_t>(in, blocks, "block ages");
  auto state_bytes = get_vector<std::uint8_t>(in, blocks, "block states");
  std::vector<BlockState> state(blocks);
  for (std::uint64_t b = 0; b < blocks; ++b) {
    if (state_bytes[b] > static_cast<std::uint8_t>(BlockState::kClosed)) corrupt("unknown block state");
    state[b] = static_cast<BlockState>(state_bytes[b]);
  }

  auto check_block = [&](std::int64_t block, std::uint32_t die, const char* what) {
    if (block < -1 || block >= std::int64_t(blocks) ||
        (block >= 0 && m_geo.die_of_block(static_cast<std::uint32_t>(block)) != die)) {
      corrupt(std::string(what) + " of die " + std::to_string(die) + " is not a block of that die");
    }
  };
  const bool fifo = m_gc.policy == GcPolicyKind::kFifo;
  FifoOrder fifo_order = fifo ? FifoOrder(m_geo.dies, m_geo.blocks_per_die) : FifoOrder();
  std::vector<bool> in_fifo(fifo ? blocks : 0, false);
  std::vector<DieState> dies(m_dies.size());
  for (std::uint32_t die = 0; die < dies.size(); ++die) {
    DieState& d = dies[die];
    d.host.block = get<std::int64_t>(in, "die state");
    d.host.next_page = get<std::uint32_t>(in, "die state");
    d.gc.block = get<std::int64_t>(in, "die state");
    d.gc.next_page = get<std::uint32_t>(in, "die state");
    d.free_ring = get_vector<std::uint32_t>(in, m_geo.blocks_per_die, "free block ring");
    d.free_head = get<std::uint32_t>(in, "die state");
    d.free_count = get<std::uint32_t>(in, "die state");
    const auto closed_ring = get_vector<std::uint32_t>(in, fifo ? m_geo.blocks_per_die : 0, "closed block ring");
    const auto closed_head = get<std::uint32_t>(in, "die state");
    const auto closed_count = get<std::uint32_t>(in, "die state");
    d.victim = get<std::int64_t>(in, "die state");
    d.victim_page = get<std::uint32_t>(in, "die state");
    d.victim_valid_at_start = get<std::uint64_t>(in, "die state");
    d.victim_invalid_at_start = get<std::uint64_t>(in, "die state");
    d.credit = get<std::uint64_t>(in, "die state");
    const auto pending = get<std::uint64_t>(in, "GC queue");
    if (pending > 2 * std::uint64_t(m_geo.units_per_block)) corrupt("GC queue too long");
    d.gc_pending.resize(pending);
    if (pending && !in.read(reinterpret_cast<char*>(d.gc_pending.data()), std::streamsize(pending * sizeof(Lpn)))) {
      corrupt("stream ends inside GC queue");
    }
    d.gc_pending.reserve(2 * std::size_t(m_geo.units_per_page));
    check_block(d.host.block, die, "open host block");
    check_block(d.gc.block, die, "open GC block");
    check_block(d.victim, die, "GC victim");
    if (d.free_head >= m_geo.blocks_per_die || d.free_count > m_geo.blocks_per_die ||
        d.host.next_page > m_geo.pages_per_block || d.gc.next_page > m_geo.pages_per_block ||
        d.victim_page > m_geo.pages_per_block ||
        (fifo && (closed_head >= m_geo.blocks_per_die || closed_count > m_geo.blocks_per_die)) ||
        (d.victim >= 0 && d.victim_invalid_at_start == 0)) {
      corrupt("die " + std::to_string(die) + " state out of range");
    }
    for (std::uint32_t b : d.free_ring) {
      if (b >= blocks) corrupt("free block ring names a block outside the drive");
    }
    for (std::uint32_t b : closed_ring) {
      if (b >= blocks) corrupt("closed block ring names a block outside the drive");
    }
    for (std::uint32_t i = 0; i < closed_count; ++i) {  // oldest first
      const std::uint32_t b = closed_ring[(closed_head + i) % m_geo.blocks_per_die];
      if (m_geo.die_of_block(b) != die || state[b] != BlockState::kClosed || in_fifo[b]) {
        corrupt("closed block ring of die " + std::to_string(die) + " names block " + std::to_string(b) +
                ", which is not a closed block of that die or is named twice");
      }
      in_fifo[b] = true;
      fifo_order.closed(die, b, valid[b] < m_geo.units_per_block);
    }
    for (Lpn lpn : d.gc_pending) {
      if (lpn >= l2p.size()) corrupt("GC queue names an LPN outside the drive");
    }
  }
  const auto sequence = get<std::uint64_t>(in, "counters");
  FtlStats stats;
  for (std::uint64_t* v : {&stats.host_units_written, &stats.host_units_programmed, &stats.gc_units_copied,
                           &stats.pad_units, &stats.pages_programmed, &stats.erases, &stats.gc_erases,
                           &stats.gc_victims, &stats.units_trimmed}) {
    *v = get<std::uint64_t>(in, "counters");
  }
  for (std::uint32_t e : l2p) {
    if (e != kUnmapped && !(e & kBufferedBit) && e >= m_geo.total_units) corrupt("L2P entry outside the drive");
  }
  for (std::uint32_t lpn : p2l) {
    if (lpn != kNoLpn && lpn >= l2p.size()) corrupt("P2L entry outside the user range");
  }
  VictimIndex index = m_index;
  index.load(in);
  expect_magic(in, kFtlEnd, "FTL end marker");

  // Everything read and range-checked: take it, then check the invariants as a whole.
  Ftl saved = *this;
  m_l2p = std::move(l2p);
  m_p2l.assign(p2l);
  m_valid = std::move(valid);
  m_erase_count = std::move(erase_count);
  m_modified = std::move(modified);
  m_state = std::move(state);
  m_dies = std::move(dies);
  m_index = std::move(index);
  m_fifo = std::move(fifo_order);
  m_sequence = sequence;
  m_stats = stats;
  const std::string broken = check_invariants();
  if (!broken.empty()) {
    *this = std::move(saved);
    corrupt("inconsistent state: " + broken);
  }
}

}  // namespace ssdlab
