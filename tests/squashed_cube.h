#pragma once
// An animated input for the deformer tests: assets/meshes/cube_5.obj squashed
// along y a little more every frame (frame i at 1 - 0.1 i of its height;
// frame 0 is the rest pose), written as f_0000.obj, f_0001.obj, ... into a
// fresh folder under the test's temp dir.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "core/deform/anim_sequence.h"
#include "tests/preset_files.h"

namespace tetlab::test {

inline std::filesystem::path writeSquashedCubes(const std::string& name, int frames) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(::testing::TempDir()) / ("tetlab_deform_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  const SurfaceMesh rest = *loadDeformRestMesh((assetsDir() / "meshes" / "cube_5.obj").string());
  for (int i = 0; i < frames; ++i) {
    char file[32];
    std::snprintf(file, sizeof file, "f_%04d.obj", i);
    std::ofstream out(dir / file);
    for (const glm::vec3& p : rest.positions) out << "v " << p.x << " " << p.y * (1.0f - 0.1f * i) << " " << p.z << "\n";
    for (const glm::uvec3& t : rest.triangles) out << "f " << t.x + 1 << " " << t.y + 1 << " " << t.z + 1 << "\n";
  }
  return dir;
}

}  // namespace tetlab::test
