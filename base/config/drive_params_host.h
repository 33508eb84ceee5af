// The drive parameter table's host side (host.*: the SATA link, the AHCI adapter, link power
// management), kept apart from the drive's own parameters (drive_params.cpp).
#pragma once

#include "base/config/params.h"

namespace ssdlab {

// Appends the host.* parameters to `t`.
void add_host(ParamTable& t);

}  // namespace ssdlab
