#include "app/ui/panel_sections.h"

#include <algorithm>
#include <iterator>

namespace tetlab {

Result<std::vector<std::string>> parsePanelSections(const std::string& list) {
  std::vector<std::string> out;
  std::string valid;
  for (std::string_view name : kPanelSections) valid += (valid.empty() ? "" : ", ") + std::string(name);
  size_t begin = 0;
  while (begin <= list.size()) {
    const size_t end = std::min(list.find(',', begin), list.size());
    const std::string name = list.substr(begin, end - begin);
    if (std::find(std::begin(kPanelSections), std::end(kPanelSections), name) == std::end(kPanelSections))
      return Error{"unknown panel section '" + name + "' in '" + list + "': use a comma-separated list of " + valid};
    out.push_back(name);
    begin = end + 1;
  }
  return out;
}

}  // namespace tetlab
