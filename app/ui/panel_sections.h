#pragma once
// The side panel's section names, as `--ui-open` takes them. Apart from
// ui_panel.h so the command line (app/commands/cli.cpp) can check them
// without ImGui or GL headers.
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace tetlab {

// The panel's sections by the short names `--ui-open` takes, top to bottom.
inline constexpr std::string_view kPanelSections[] = {
    "scene", "simulation", "parameters", "constraints", "materials", "colliders", "wind",   "spheres", "fields",
    "springs", "keys", "drag", "numbers", "compare", "deform", "view", "record", "opencl", "opengl"};

// "opencl,view" -> {"opencl", "view"}; an unknown or empty name is an error that lists the valid ones.
Result<std::vector<std::string>> parsePanelSections(const std::string& list);

}  // namespace tetlab
