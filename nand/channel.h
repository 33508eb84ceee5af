// A channel bus shared by the dies on it: one transfer at a time, granted in request order,
// so the bus is a calendar (base/time/calendar.h) and needs no events of its own.
#pragma once

#include "base/time/calendar.h"

namespace ssdlab {

using Channel = Calendar;

}  // namespace ssdlab
