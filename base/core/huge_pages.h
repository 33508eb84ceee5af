// Asks the kernel to back a large, not yet touched allocation with transparent huge pages
// (Linux, THP in "madvise" mode): random accesses over hundreds of MiB then miss the TLB far
// less often. A hint only: elsewhere, or when refused, nothing changes.
#pragma once

#include <cstddef>

namespace ssdlab {

void advise_huge_pages(void* data, std::size_t bytes);

}  // namespace ssdlab
