#pragma once
// Small builders for the mesh tests: hand-made surfaces with known answers,
// OBJ text writers and a per-test temporary directory.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <sstream>
#include <string>

#include <glm/geometric.hpp>

#include "core/mesh/tet_mesh.h"

namespace tetlab::test {

// A fresh directory under the system temp dir, removed at destruction.
class TempDir {
 public:
  TempDir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = std::string("tetlab_mesh_") + (info ? info->test_suite_name() : "x") + "_" +
                       (info ? info->name() : "y") + "_" + std::to_string(::getpid());
    for (char& c : name)
      if (c == '/') c = '_';
    path_ = std::filesystem::temp_directory_path() / name;
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  std::string write(const std::string& name, const std::string& bytes) const {
    const std::filesystem::path p = path_ / name;
    std::ofstream f(p, std::ios::binary);
    f.write(bytes.data(), std::streamsize(bytes.size()));
    return p.string();
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// Axis-aligned box [lo, hi], 12 outward (counter-clockwise from outside) triangles.
inline SurfaceMesh makeBox(glm::vec3 lo = glm::vec3(0.0f), glm::vec3 hi = glm::vec3(1.0f)) {
  SurfaceMesh m;
  for (int i = 0; i < 8; ++i) m.positions.push_back({(i & 1) ? hi.x : lo.x, (i & 2) ? hi.y : lo.y, (i & 4) ? hi.z : lo.z});
  // Quads listed counter-clockwise seen from outside.
  const int quads[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
  for (const auto& q : quads) {
    m.triangles.push_back({uint32_t(q[0]), uint32_t(q[1]), uint32_t(q[2])});
    m.triangles.push_back({uint32_t(q[0]), uint32_t(q[2]), uint32_t(q[3])});
  }
  return m;
}

// UV sphere, outward, watertight (poles are single vertices).
inline SurfaceMesh makeSphere(glm::vec3 centre, float radius, int rings = 12, int segments = 24) {
  SurfaceMesh m;
  m.positions.push_back(centre + glm::vec3(0, 0, radius));
  for (int r = 1; r < rings; ++r) {
    const double theta = std::numbers::pi * r / rings;
    for (int s = 0; s < segments; ++s) {
      const double phi = 2.0 * std::numbers::pi * s / segments;
      m.positions.push_back(centre + radius * glm::vec3(std::sin(theta) * std::cos(phi), std::sin(theta) * std::sin(phi),
                                                        std::cos(theta)));
    }
  }
  m.positions.push_back(centre + glm::vec3(0, 0, -radius));
  const uint32_t south = uint32_t(m.positions.size() - 1);
  auto ring = [&](int r, int s) { return uint32_t(1 + (r - 1) * segments + (s % segments)); };
  for (int s = 0; s < segments; ++s) m.triangles.push_back({0u, ring(1, s), ring(1, s + 1)});
  for (int r = 1; r + 1 < rings; ++r)
    for (int s = 0; s < segments; ++s) {
      m.triangles.push_back({ring(r, s), ring(r + 1, s), ring(r + 1, s + 1)});
      m.triangles.push_back({ring(r, s), ring(r + 1, s + 1), ring(r, s + 1)});
    }
  for (int s = 0; s < segments; ++s) m.triangles.push_back({south, ring(rings - 1, s + 1), ring(rings - 1, s)});
  return m;
}

// Concatenates b's triangles onto a (no welding).
inline SurfaceMesh merge(SurfaceMesh a, const SurfaceMesh& b) {
  const uint32_t base = uint32_t(a.positions.size());
  a.positions.insert(a.positions.end(), b.positions.begin(), b.positions.end());
  for (const glm::uvec3& t : b.triangles) a.triangles.push_back(t + base);
  return a;
}

inline std::string toObj(const SurfaceMesh& m, double scale = 1.0) {
  std::ostringstream s;
  s.precision(9);
  for (const glm::vec3& p : m.positions) s << "v " << p.x * scale << ' ' << p.y * scale << ' ' << p.z * scale << '\n';
  for (const glm::uvec3& t : m.triangles) s << "f " << t.x + 1 << ' ' << t.y + 1 << ' ' << t.z + 1 << '\n';
  return s.str();
}

inline double tetVolume(const TetMesh& m, const glm::uvec4& t) {
  const glm::dvec3 p0(m.positions[t.x]);
  return glm::dot(glm::dvec3(m.positions[t.y]) - p0,
                  glm::cross(glm::dvec3(m.positions[t.z]) - p0, glm::dvec3(m.positions[t.w]) - p0)) / 6.0;
}

inline double totalVolume(const TetMesh& m) {
  double v = 0.0;
  for (const glm::uvec4& t : m.tets) v += tetVolume(m, t);
  return v;
}

}  // namespace tetlab::test
