#include "app/commands/resident_memory.h"

#include <unistd.h>

#include <fstream>

namespace tetlab {

std::optional<uint64_t> residentBytes() {
  std::ifstream statm("/proc/self/statm");
  uint64_t sizePages = 0, residentPages = 0;
  if (!(statm >> sizePages >> residentPages)) return std::nullopt;
  const long page = ::sysconf(_SC_PAGESIZE);
  if (page <= 0) return std::nullopt;
  return residentPages * uint64_t(page);
}

double memoryGrowth(uint64_t early, uint64_t late) {
  if (early == 0) return 0.0;
  return (double(late) - double(early)) / double(early);
}

}  // namespace tetlab
