// `ssdlab_bench table FILE`: the JSON lines of bench/run as a readable table.
#pragma once

#include <string>

namespace ssdlab::bench {

// Prints one row per JSON line of `path`; returns a process exit status.
int print_table(const std::string& path);

}  // namespace ssdlab::bench
