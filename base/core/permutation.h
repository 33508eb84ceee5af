// A random permutation of [0, n) in O(1) memory: a keyed Feistel network over the smallest
// even power-of-two domain >= n, with cycle walking for values >= n. Used for fio's default
// random map (every block once per pass, in random order).
#pragma once

#include <cstdint>

#include "base/core/rng.h"

namespace ssdlab {

class Permutation {
 public:
  Permutation() = default;
  Permutation(std::uint64_t n, Rng& rng) : m_n(n) {
    int bits = 2;
    while ((std::uint64_t(1) << bits) < n) bits += 2;
    m_half_bits = bits / 2;
    m_mask = (std::uint64_t(1) << m_half_bits) - 1;
    for (auto& k : m_keys) k = rng.next();
  }
  std::uint64_t size() const { return m_n; }
  // The i-th element of the permutation, i < n.
  std::uint64_t at(std::uint64_t i) const {
    std::uint64_t x = i;
    do {
      x = encrypt(x);
    } while (x >= m_n);
    return x;
  }

 private:
  std::uint64_t round(std::uint64_t half, std::uint64_t key) const {
    std::uint64_t z = (half + key) * 0x9e3779b97f4a7c15ULL;
    z ^= z >> 29;
    z *= 0xbf58476d1ce4e5b9ULL;
    z ^= z >> 32;
    return z & m_mask;
  }
  std::uint64_t encrypt(std::uint64_t x) const {
    std::uint64_t left = x >> m_half_bits, right = x & m_mask;
    for (std::uint64_t key : m_keys) {
      const std::uint64_t next = left ^ round(right, key);
      left = right;
      right = next;
    }
    return (left << m_half_bits) | right;
  }

  std::uint64_t m_n = 0;
  int m_half_bits = 1;
  std::uint64_t m_mask = 1;
  std::uint64_t m_keys[4] = {};
};

}  // namespace ssdlab
