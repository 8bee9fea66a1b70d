#pragma once
// The process's resident memory, for `tetlab run --soak`: a long run must not
// grow (a leak per frame shows up as resident pages that never come back).
#include <cstdint>
#include <optional>

namespace tetlab {

// Resident set size [bytes] from /proc/self/statm; nullopt where that file is
// missing (not Linux) or unreadable.
std::optional<uint64_t> residentBytes();

// Growth from `early` to `late` as a fraction of `early` (0.05 = 5 %).
double memoryGrowth(uint64_t early, uint64_t late);

}  // namespace tetlab
