// VictimIndex::save / load: the victim index's raw stream, the payload of an FTL image's VIDX
// section (controller/ftl/ftl_image.cpp, which checks the section's length and checksum first).
// Every list is checked before it replaces the index: in range, properly linked, counted.
#include <cstdint>
#include <istream>
#include <ostream>
#include <string>
#include <type_traits>
#include <vector>

#include "controller/ftl/ftl_image.h"
#include "controller/gc/victim_index.h"

namespace ssdlab {

using image::corrupt;
using image::expect_field;

namespace {

constexpr char kIndexMagic[8] = {'S', 'S', 'D', 'L', 'V', 'I', 'X', '1'};

// VictimIndex's raw stream (inside the VIDX section): plain fields, vectors with their length.
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
// A vector whose length must be `expected` (the geometry decides every length).
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

}  // namespace

void VictimIndex::save(std::ostream& out) const {
  out.write(kIndexMagic, 8);
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
  image::expect_bytes(in, kIndexMagic, 8, "victim index");
  const std::uint64_t dies = m_count.size();
  expect_field(get<std::uint32_t>(in, "victim index"), dies, "dies");
  expect_field(get<std::uint32_t>(in, "victim index"), m_blocks_per_die, "blocks per die");
  expect_field(get<std::uint32_t>(in, "victim index"), m_units_per_block, "units per block");
  const std::uint64_t blocks = dies * m_blocks_per_die;
  const std::uint64_t per_die = std::uint64_t(m_units_per_block) + 1;
  const std::uint64_t buckets = dies * per_die;
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
  for (std::uint32_t h : hint) {
    if (h > per_die) corrupt("victim index hint out of range");
  }
  // Every bucket must be a proper doubly linked list (no cycles, no shared blocks) of blocks of
  // its die; each die's count must match its lists, and its hint must not skip a non-empty bucket.
  std::vector<std::uint8_t> seen(blocks, 0);
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
    if (head[b] != kNone && hint[die] > b % per_die)
      corrupt("victim index hint of die " + std::to_string(die) + " skips blocks");
  }
  for (std::uint64_t die = 0; die < dies; ++die) {
    if (listed[die] != count[die])
      corrupt("victim index count of die " + std::to_string(die) + " does not match its lists");
  }
  m_next = std::move(next);
  m_prev = std::move(prev);
  m_head = std::move(head);
  m_tail = std::move(tail);
  m_count = std::move(count);
  m_min_hint = std::move(hint);
}

}  // namespace ssdlab
