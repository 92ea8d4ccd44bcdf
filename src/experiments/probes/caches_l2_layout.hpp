// Where the TLB sweep puts a page's node (host and device): slot page * page_slots + an offset
// that moves by 5 lines (640 bytes) from page to page, so that the nodes do not all map to the
// same L2 sets and slices (every page start would).
#pragma once

#include <cstdint>

#include "experiments/probes/device_common.hpp"

namespace joseki::probes {

JOSEKI_HD std::uint64_t page_slot_of(std::uint64_t page, std::uint64_t page_slots) {
  return page * page_slots + (page * 5u * 16u) % page_slots;  // 16 slots = one 128-byte line
}

}  // namespace joseki::probes
