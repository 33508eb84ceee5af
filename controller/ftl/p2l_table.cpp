#include "controller/ftl/p2l_table.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include <fcntl.h>
#include <unistd.h>

#include "base/core/huge_pages.h"

namespace ssdlab {

namespace {

int log2_exact(std::uint32_t v) {
  if (v == 0 || (v & (v - 1)) != 0) return -1;
  int s = 0;
  while ((std::uint32_t(1) << s) != v) ++s;
  return s;
}

std::string spill_dir() {
  const char* tmp = std::getenv("TMPDIR");
  return tmp && *tmp ? tmp : "/var/tmp";
}

}  // namespace

P2lTable::P2lTable(std::uint64_t units, std::uint32_t units_per_block, std::uint64_t memory_budget_bytes,
                   std::uint32_t cache_blocks)
    : m_units(units), m_upb(units_per_block), m_shift(log2_exact(units_per_block)) {
  if (m_upb == 0 || units % m_upb != 0) throw std::invalid_argument("P2L table: units must be whole blocks");
  if (units * sizeof(Lpn) <= memory_budget_bytes) {
    m_array.reserve(units);
    advise_huge_pages(m_array.data(), units * sizeof(Lpn));
    m_array.assign(units, kNoLpn);
    return;
  }
  const std::uint64_t blocks = units / m_upb;
  // Blocks in use at once: open host and GC blocks and a victim per die. 1,024 blocks covers
  // 340 dies; fewer only costs more reloads.
  const std::uint64_t slots = std::min<std::uint64_t>(blocks, cache_blocks ? cache_blocks : 1024);
  m_cache.assign(slots * m_upb, kNoLpn);
  m_slot_of_block.assign(blocks, kNoSlot);
  m_block_of_slot.assign(slots, 0);
  m_dirty.assign(slots, 0);
  m_referenced.assign(slots, 0);
  m_on_file.assign((blocks + 63) / 64, 0);
  open_file();
}

void P2lTable::open_file() {
  m_dir = spill_dir();
  std::string path = m_dir + "/ssdlab-p2l-XXXXXX";
  std::vector<char> name(path.begin(), path.end());
  name.push_back('\0');
  m_fd = mkstemp(name.data());
  if (m_fd < 0) {
    throw std::runtime_error("cannot create the P2L spill file in " + m_dir + " (set TMPDIR): " + std::strerror(errno));
  }
  unlink(name.data());  // gone when the descriptor closes
}

P2lTable::~P2lTable() {
  if (m_fd >= 0) close(m_fd);
}

P2lTable::P2lTable(const P2lTable& other) : m_units(other.m_units), m_upb(other.m_upb), m_shift(other.m_shift) {
  copy_from(other);
}

P2lTable& P2lTable::operator=(const P2lTable& other) {
  if (this == &other) return *this;
  if (m_fd >= 0) close(m_fd);
  m_fd = -1;
  m_units = other.m_units;
  m_upb = other.m_upb;
  m_shift = other.m_shift;
  copy_from(other);
  return *this;
}

void P2lTable::copy_from(const P2lTable& other) {
  m_array = other.m_array;
  m_cache = other.m_cache;
  m_slot_of_block = other.m_slot_of_block;
  m_block_of_slot = other.m_block_of_slot;
  m_dirty = other.m_dirty;
  m_referenced = other.m_referenced;
  m_on_file = other.m_on_file;
  m_slots_used = other.m_slots_used;
  m_hand = other.m_hand;
  m_loads = other.m_loads;
  m_stores = other.m_stores;
  if (other.m_fd < 0) return;
  open_file();
  // The file's blocks, copied as they are (the cache came with the vectors above).
  std::vector<Lpn> buffer(m_upb);
  const std::size_t bytes = std::size_t(m_upb) * sizeof(Lpn);
  for (std::uint64_t block = 0; block < m_slot_of_block.size(); ++block) {
    if (!(m_on_file[block / 64] >> (block % 64) & 1)) continue;
    const off_t at = static_cast<off_t>(block * bytes);
    if (pread(other.m_fd, buffer.data(), bytes, at) != static_cast<ssize_t>(bytes) ||
        pwrite(m_fd, buffer.data(), bytes, at) != static_cast<ssize_t>(bytes)) {
      throw std::runtime_error("P2L spill file in " + m_dir + ": copy failed: " + std::strerror(errno));
    }
  }
}

void P2lTable::write_back(std::uint32_t slot) const {
  const std::uint64_t block = m_block_of_slot[slot];
  const std::size_t bytes = std::size_t(m_upb) * sizeof(Lpn);
  if (pwrite(m_fd, &m_cache[std::size_t(slot) * m_upb], bytes, static_cast<off_t>(block * bytes)) !=
      static_cast<ssize_t>(bytes)) {
    throw std::runtime_error("P2L spill file in " + m_dir + ": write failed: " + std::strerror(errno));
  }
  m_on_file[block / 64] |= std::uint64_t(1) << (block % 64);
  m_dirty[slot] = 0;
  ++m_stores;
}

std::uint32_t P2lTable::load(std::uint64_t block) const {
  std::uint32_t slot;
  if (m_slots_used < m_block_of_slot.size()) {
    slot = m_slots_used++;
  } else {
    // Clock: the first slot not referenced since the hand last passed it.
    while (m_referenced[m_hand]) {
      m_referenced[m_hand] = 0;
      m_hand = m_hand + 1 == m_block_of_slot.size() ? 0 : m_hand + 1;
    }
    slot = m_hand;
    m_hand = m_hand + 1 == m_block_of_slot.size() ? 0 : m_hand + 1;
    if (m_dirty[slot]) write_back(slot);
    m_slot_of_block[m_block_of_slot[slot]] = kNoSlot;
  }
  Lpn* entries = &m_cache[std::size_t(slot) * m_upb];
  if (m_on_file[block / 64] >> (block % 64) & 1) {
    const std::size_t bytes = std::size_t(m_upb) * sizeof(Lpn);
    if (pread(m_fd, entries, bytes, static_cast<off_t>(block * bytes)) != static_cast<ssize_t>(bytes)) {
      throw std::runtime_error("P2L spill file in " + m_dir + ": read failed: " + std::strerror(errno));
    }
  } else {
    std::fill(entries, entries + m_upb, kNoLpn);
  }
  ++m_loads;
  m_block_of_slot[slot] = block;
  m_slot_of_block[block] = slot;
  m_dirty[slot] = 0;
  return slot;
}

std::uint64_t P2lTable::file_bytes() const {
  std::uint64_t blocks = 0;
  for (std::uint64_t word : m_on_file) blocks += static_cast<std::uint64_t>(__builtin_popcountll(word));
  return blocks * m_upb * sizeof(Lpn);
}

void P2lTable::read(Pua first, std::uint64_t count, Lpn* out) const {
  if (m_fd < 0) {
    std::copy(m_array.begin() + std::ptrdiff_t(first), m_array.begin() + std::ptrdiff_t(first + count), out);
    return;
  }
  for (std::uint64_t i = 0; i < count; ++i) out[i] = get(static_cast<Pua>(first + i));
}

bool P2lTable::exchange(std::vector<Lpn>& all) {
  if (all.size() != m_units) throw std::invalid_argument("P2L table: wrong number of entries");
  if (m_fd >= 0) return false;
  m_array.swap(all);
  return true;
}

void P2lTable::write(Pua first, std::uint64_t count, const Lpn* in) {
  if (m_fd < 0) {
    std::copy(in, in + count, m_array.begin() + std::ptrdiff_t(first));
    return;
  }
  // Spilled: whole blocks not in the cache go straight to the file, runs of them in one write;
  // cached blocks and the parts of blocks at either end through the cache.
  const std::size_t block_bytes = std::size_t(m_upb) * sizeof(Lpn);
  std::uint64_t u = first;
  const std::uint64_t end = first + count;
  while (u < end) {
    const std::uint64_t block = block_of(static_cast<Pua>(u));
    if (offset_in_block(static_cast<Pua>(u)) != 0 || end - u < m_upb || m_slot_of_block[block] != kNoSlot) {
      const std::uint64_t stop = std::min(end, (block + 1) * m_upb);
      for (; u < stop; ++u) set(static_cast<Pua>(u), in[u - first]);
      continue;
    }
    std::uint64_t last = block + 1;  // a run of whole, uncached blocks [block, last)
    while ((last + 1) * m_upb <= end && m_slot_of_block[last] == kNoSlot && last - block < 4096) ++last;
    const std::size_t bytes = std::size_t(last - block) * block_bytes;
    const auto* from = reinterpret_cast<const char*>(in + (u - first));
    std::size_t done = 0;
    while (done < bytes) {
      const ssize_t n = pwrite(m_fd, from + done, bytes - done, static_cast<off_t>(block * block_bytes + done));
      if (n <= 0) throw std::runtime_error("P2L spill file in " + m_dir + ": write failed: " + std::strerror(errno));
      done += std::size_t(n);
    }
    for (std::uint64_t b = block; b < last; ++b) m_on_file[b / 64] |= std::uint64_t(1) << (b % 64);
    m_stores += last - block;
    u = last * m_upb;
  }
}

void P2lTable::clear() {
  if (m_fd < 0) {
    std::fill(m_array.begin(), m_array.end(), kNoLpn);
    return;
  }
  std::fill(m_slot_of_block.begin(), m_slot_of_block.end(), kNoSlot);
  std::fill(m_dirty.begin(), m_dirty.end(), 0);
  std::fill(m_referenced.begin(), m_referenced.end(), 0);
  std::fill(m_on_file.begin(), m_on_file.end(), 0);
  m_slots_used = 0;
  m_hand = 0;
  if (ftruncate(m_fd, 0) != 0) {  // blocks not marked on file are read as kNoLpn anyway
    throw std::runtime_error("P2L spill file in " + m_dir + ": truncate failed: " + std::strerror(errno));
  }
}

void P2lTable::assign(const std::vector<Lpn>& all) {
  if (all.size() != m_units) throw std::invalid_argument("P2L table: wrong number of entries");
  if (m_fd < 0) {
    m_array = all;
    return;
  }
  write(0, m_units, all.data());
}

}  // namespace ssdlab
