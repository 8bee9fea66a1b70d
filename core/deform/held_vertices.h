#pragma once
// A painted hold of the deformer (DeformHold::Painted) as a file, so a hold
// painted in the window serves `tetlab deform --hold-vertices FILE`: plain
// text, one vertex number per line in the rest OBJ's numbering (1 = its first
// `v`), `#` starts a comment.
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "core/result.h"

namespace tetlab {

// One flag per rest-mesh vertex (1: held). Errors name the file and line: a
// word that is not a vertex number, or a number outside 1..vertexCount.
Result<std::vector<uint8_t>> loadHeldVertices(const std::filesystem::path& path, size_t vertexCount);

// The file's text for `held` (a header naming the rest mesh, then the numbers).
std::string heldVerticesText(std::span<const uint8_t> held, const std::string& restName);

// Written atomically (core/atomic_file.h); errors name the file.
Status saveHeldVertices(const std::filesystem::path& path, std::span<const uint8_t> held, const std::string& restName);

}  // namespace tetlab
