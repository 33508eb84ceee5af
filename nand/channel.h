// A channel bus shared by the dies on it: one transfer at a time. Each die books the transfers of
// an operation when the operation starts, for when it needs them (base/core/bus_calendar.h), so
// the bus needs no events of its own and an operation costs its die one callback.
#pragma once

#include "base/core/bus_calendar.h"

namespace ssdlab {

using Channel = BusCalendar;

}  // namespace ssdlab
