// Flips, smoothing and hull-sliver removal (see tet_improve.h). Each pass
// rebuilds the adjacency, then works the tets below the goal worst first; an
// operation may only read tets nobody changed in this pass, so the adjacency
// it reads is never stale.
#include "core/mesh/tet_improve.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <unordered_map>
#include <utility>
#include <vector>

#include <glm/geometric.hpp>

namespace tetlab {
namespace {

using Vec = glm::dvec3;

double qualityOf(const Vec& a, const Vec& b, const Vec& c, const Vec& d) {
  const double v6 = glm::dot(b - a, glm::cross(c - a, d - a));
  const double l2 = std::max({glm::dot(b - a, b - a), glm::dot(c - a, c - a), glm::dot(d - a, d - a),
                              glm::dot(c - b, c - b), glm::dot(d - b, d - b), glm::dot(d - c, d - c)});
  return l2 > 0.0 ? v6 / (l2 * std::sqrt(l2)) : 0.0;
}

double signedVolume6(const Vec& a, const Vec& b, const Vec& c, const Vec& d) {
  return glm::dot(b - a, glm::cross(c - a, d - a));
}

struct FaceKey {
  uint32_t a, b, c;  // sorted
  bool operator==(const FaceKey& o) const { return a == o.a && b == o.b && c == o.c; }
};

FaceKey faceKey(uint32_t x, uint32_t y, uint32_t z) {
  if (x > y) std::swap(x, y);
  if (y > z) std::swap(y, z);
  if (x > y) std::swap(x, y);
  return {x, y, z};
}

struct FaceHash {
  size_t operator()(const FaceKey& k) const {
    uint64_t h = k.a;
    h = h * 0x9E3779B97F4A7C15ull ^ k.b;
    h = h * 0x9E3779B97F4A7C15ull ^ k.c;
    return size_t(h ^ (h >> 29));
  }
};

constexpr int32_t kNone = -1;
using FaceTets = std::array<int32_t, 2>;

// Corners of tet t without corner k, as one of its faces.
FaceKey faceOpposite(const glm::uvec4& t, int k) {
  uint32_t v[3];
  int j = 0;
  for (int l = 0; l < 4; ++l)
    if (l != k) v[j++] = t[l];
  return faceKey(v[0], v[1], v[2]);
}

bool contains(const glm::uvec4& t, uint32_t v) { return t.x == v || t.y == v || t.z == v || t.w == v; }

class Improver {
 public:
  Improver(TetMesh& mesh, const TetImproveOptions& options) : mesh_(mesh), options_(options) {}

  TetImproveReport run() {
    TetImproveReport report;
    report.minQualityBefore = minTetQuality(mesh_);
    for (int pass = 0; pass < options_.maxPasses; ++pass) {
      const size_t before = report_.changes();
      onePass();
      report.passes = pass + 1;
      if (report_.changes() == before) break;
    }
    report_.minQualityBefore = report.minQualityBefore;
    report_.passes = report.passes;
    report_.minQualityAfter = minTetQuality(mesh_);
    return report_;
  }

 private:
  Vec at(uint32_t v) const { return Vec(mesh_.positions[v]); }
  double quality(const glm::uvec4& t) const { return qualityOf(at(t.x), at(t.y), at(t.z), at(t.w)); }
  bool usable(int32_t t) const { return t != kNone && alive_[size_t(t)] && !touched_[size_t(t)]; }

  void build() {
    const size_t n = mesh_.tets.size();
    alive_.assign(n, 1);
    touched_.assign(n, 0);
    star_.assign(mesh_.positions.size(), {});
    faces_.clear();
    faces_.reserve(2 * n);
    for (size_t t = 0; t < n; ++t) {
      const glm::uvec4& tet = mesh_.tets[t];
      for (int k = 0; k < 4; ++k) {
        star_[tet[k]].push_back(uint32_t(t));
        auto [it, inserted] = faces_.try_emplace(faceOpposite(tet, k), FaceTets{int32_t(t), kNone});
        if (!inserted) it->second[1] = int32_t(t);
      }
    }
    onSurface_.assign(mesh_.positions.size(), 0);
    for (const auto& [key, tets] : faces_)
      if (tets[1] == kNone) onSurface_[key.a] = onSurface_[key.b] = onSurface_[key.c] = 1;
  }

  void onePass() {
    build();
    std::vector<std::pair<double, uint32_t>> bad;
    for (size_t t = 0; t < mesh_.tets.size(); ++t) {
      const double q = quality(mesh_.tets[t]);
      if (q < options_.goal) bad.push_back({q, uint32_t(t)});
    }
    std::sort(bad.begin(), bad.end());
    for (const auto& [q, t] : bad) {
      if (!usable(int32_t(t))) continue;
      if (removeEdge(t) || flipFace(t) || removeHullSliver(t, q) || smooth(t)) continue;
    }
    std::vector<glm::uvec4> kept;
    kept.reserve(mesh_.tets.size());
    for (size_t t = 0; t < mesh_.tets.size(); ++t)
      if (alive_[t]) kept.push_back(mesh_.tets[t]);
    mesh_.tets = std::move(kept);
  }

  void kill(uint32_t t) {
    alive_[t] = 0;
    touched_[t] = 1;
  }

  void add(glm::uvec4 t) {
    mesh_.tets.push_back(t);
    alive_.push_back(1);
    touched_.push_back(1);
  }

  // Orients (a, b, c, d) positively by swapping two corners.
  static glm::uvec4 oriented(uint32_t a, uint32_t b, uint32_t c, uint32_t d, double v6) {
    return v6 > 0.0 ? glm::uvec4(a, b, c, d) : glm::uvec4(b, a, c, d);
  }

  // Replacement tets are kept only when they fill exactly the old ones' volume
  // (a flip across a non-convex ring would overlap or leave a gap).
  bool sameVolume(double oldV6, double newV6) const {
    return std::fabs(newV6 - oldV6) <= 1e-9 * std::fabs(oldV6) + std::numeric_limits<double>::min();
  }

  // 2-3 flip: two tets sharing an interior face abc become three around edge de.
  bool flipFace(uint32_t t) {
    const glm::uvec4 tet = mesh_.tets[t];
    double bestGain = 0.0;
    std::array<glm::uvec4, 3> best{};
    int32_t bestOther = kNone;
    for (int k = 0; k < 4; ++k) {
      const FaceKey f = faceOpposite(tet, k);
      const FaceTets& ft = faces_.at(f);
      const int32_t o = ft[0] == int32_t(t) ? ft[1] : ft[0];
      if (!usable(o)) continue;
      const glm::uvec4 other = mesh_.tets[size_t(o)];
      uint32_t e = 0;
      for (int l = 0; l < 4; ++l)
        if (other[l] != f.a && other[l] != f.b && other[l] != f.c) e = other[l];
      const uint32_t d = tet[k];
      const uint32_t tri[3] = {f.a, f.b, f.c};
      double v6[3], oldV6 = signedVolume6(at(tet.x), at(tet.y), at(tet.z), at(tet.w)) +
                            signedVolume6(at(other.x), at(other.y), at(other.z), at(other.w));
      double newV6 = 0.0;
      bool ok = true;
      for (int j = 0; j < 3; ++j) {
        v6[j] = signedVolume6(at(tri[j]), at(tri[(j + 1) % 3]), at(d), at(e));
        if (v6[j] == 0.0 || (j > 0 && (v6[j] > 0.0) != (v6[0] > 0.0))) ok = false;
        newV6 += std::fabs(v6[j]);
      }
      if (!ok || !sameVolume(oldV6, newV6)) continue;
      std::array<glm::uvec4, 3> made;
      double newMin = 1.0;
      for (int j = 0; j < 3; ++j) {
        made[j] = oriented(tri[j], tri[(j + 1) % 3], d, e, v6[j]);
        newMin = std::min(newMin, quality(made[j]));
      }
      const double gain = newMin - std::min(quality(tet), quality(other));
      if (gain > bestGain) {
        bestGain = gain;
        best = made;
        bestOther = o;
      }
    }
    if (bestOther == kNone) return false;
    kill(t);
    kill(uint32_t(bestOther));
    for (const glm::uvec4& m : best) add(m);
    ++report_.flips23;
    return true;
  }

  // Edge removal: the k = 3..5 tets around an interior edge uv become
  // 2 (k - 2) tets, the ring polygon triangulated as a fan (for k <= 5 the
  // fans from each ring vertex are all its triangulations); k = 3 is the 3-2 flip.
  bool removeEdge(uint32_t t) {
    const glm::uvec4 tet = mesh_.tets[t];
    double bestGain = 0.0;
    std::vector<uint32_t> bestRing;
    std::vector<glm::uvec4> bestMade;
    for (int i = 0; i < 4; ++i)
      for (int j = i + 1; j < 4; ++j) {
        const uint32_t u = tet[i], v = tet[j];
        std::vector<uint32_t> ring;
        if (!ringAround(u, v, ring)) continue;
        std::vector<uint32_t> cycle;
        if (!ringCycle(ring, u, v, cycle)) continue;
        double oldMin = 1.0, oldV6 = 0.0;
        for (uint32_t r : ring) {
          const glm::uvec4& rt = mesh_.tets[r];
          oldMin = std::min(oldMin, quality(rt));
          oldV6 += signedVolume6(at(rt.x), at(rt.y), at(rt.z), at(rt.w));
        }
        const size_t k = cycle.size();
        for (size_t apex = 0; apex < (k == 3 ? 1 : k); ++apex) {
          std::vector<glm::uvec4> made;
          double newMin = 1.0, newV6 = 0.0;
          bool ok = true;
          int side = 0;
          for (size_t s = 1; s + 1 < k && ok; ++s) {
            const uint32_t a = cycle[apex], b = cycle[(apex + s) % k], c = cycle[(apex + s + 1) % k];
            const double vu = signedVolume6(at(a), at(b), at(c), at(u));
            const double vv = signedVolume6(at(a), at(b), at(c), at(v));
            const int su = vu > 0.0 ? 1 : (vu < 0.0 ? -1 : 0);
            if (su == 0 || vv == 0.0 || (vv > 0.0) == (su > 0) || (side != 0 && su != side)) ok = false;
            side = su;
            made.push_back(oriented(a, b, c, u, vu));
            made.push_back(oriented(a, b, c, v, vv));
            newV6 += std::fabs(vu) + std::fabs(vv);
          }
          if (!ok || !sameVolume(oldV6, newV6)) continue;
          for (const glm::uvec4& m : made) newMin = std::min(newMin, quality(m));
          if (newMin - oldMin > bestGain) {
            bestGain = newMin - oldMin;
            bestRing = ring;
            bestMade = made;
          }
        }
      }
    if (bestMade.empty()) return false;
    for (uint32_t r : bestRing) kill(r);
    for (const glm::uvec4& m : bestMade) add(m);
    if (bestRing.size() == 3) ++report_.flips32;
    else ++report_.flips23;  // 4-4 and 5-6 moves count with the face flips
    return true;
  }

  // The tets around edge uv, all usable, 3 to 5 of them.
  bool ringAround(uint32_t u, uint32_t v, std::vector<uint32_t>& ring) const {
    for (uint32_t r : star_[u]) {
      if (!contains(mesh_.tets[r], v)) continue;
      if (!usable(int32_t(r))) return false;
      ring.push_back(r);
    }
    return ring.size() >= 3 && ring.size() <= 5;
  }

  // Orders the ring's other corners into one closed cycle; false for an open
  // fan (a surface edge) or anything else.
  bool ringCycle(const std::vector<uint32_t>& ring, uint32_t u, uint32_t v, std::vector<uint32_t>& cycle) const {
    std::vector<std::pair<uint32_t, uint32_t>> pairs;
    for (uint32_t r : ring) {
      uint32_t o[2], n = 0;
      for (int l = 0; l < 4; ++l) {
        const uint32_t w = mesh_.tets[r][l];
        if (w != u && w != v) o[n++] = w;
      }
      pairs.push_back({o[0], o[1]});
    }
    cycle.push_back(pairs[0].first);
    uint32_t next = pairs[0].second;
    std::vector<char> used(pairs.size(), 0);
    used[0] = 1;
    while (next != cycle.front()) {
      cycle.push_back(next);
      bool found = false;
      for (size_t p = 0; p < pairs.size() && !found; ++p) {
        if (used[p]) continue;
        if (pairs[p].first == next) next = pairs[p].second, found = true;
        else if (pairs[p].second == next) next = pairs[p].first, found = true;
        if (found) used[p] = 1;
      }
      if (!found || cycle.size() > pairs.size()) return false;
    }
    return cycle.size() == pairs.size() && std::all_of(used.begin(), used.end(), [](char c) { return c != 0; });
  }

  // A flat tet with two faces on the surface: removing it swaps those two
  // faces for its other two, unless their shared edge is already on the surface.
  bool removeHullSliver(uint32_t t, double q) {
    if (options_.keepSurface || q >= options_.hullSliverQuality) return false;
    const glm::uvec4 tet = mesh_.tets[t];
    int surfaceFaces = 0;
    int inner[2], ni = 0;
    for (int k = 0; k < 4; ++k) {
      const FaceTets& ft = faces_.at(faceOpposite(tet, k));
      if (ft[1] == kNone) ++surfaceFaces;
      else if (ni < 2) inner[ni++] = k;
    }
    if (surfaceFaces != 2) return false;
    // The inner faces are those opposite corners a and b; they share edge cd.
    uint32_t c = 0, d = 0;
    int nc = 0;
    for (int l = 0; l < 4; ++l)
      if (l != inner[0] && l != inner[1]) (nc++ == 0 ? c : d) = tet[l];
    for (uint32_t r : star_[c]) {
      if (!contains(mesh_.tets[r], d)) continue;
      if (!usable(int32_t(r))) return false;
      for (int k = 0; k < 4; ++k) {
        const uint32_t w = mesh_.tets[r][k];
        if (w == c || w == d) continue;
        if (faces_.at(faceOpposite(mesh_.tets[r], k))[1] == kNone) return false;  // cd is a surface edge
      }
    }
    for (int k = 0; k < 2; ++k) {
      const FaceTets& ft = faces_.at(faceOpposite(tet, inner[k]));
      const int32_t o = ft[0] == int32_t(t) ? ft[1] : ft[0];
      if (!usable(o)) return false;
    }
    for (int k = 0; k < 2; ++k) {
      const FaceTets& ft = faces_.at(faceOpposite(tet, inner[k]));
      touched_[size_t(ft[0] == int32_t(t) ? ft[1] : ft[0])] = 1;
    }
    kill(t);
    ++report_.hullSliversRemoved;
    return true;
  }

  // A surface corner whose surface faces are all within kFlatDegrees of one
  // plane may slide in that plane: the surface moves by at most
  // sin(kFlatDegrees) times the slide.
  bool flatSurfaceNormal(uint32_t v, Vec& normal) const {
    std::vector<Vec> normals;
    for (uint32_t r : star_[v]) {
      const glm::uvec4& tet = mesh_.tets[r];
      for (int k = 0; k < 4; ++k) {
        if (tet[k] == v) continue;
        const FaceKey f = faceOpposite(tet, k);
        if (faces_.at(f)[1] != kNone) continue;
        const Vec n = glm::cross(at(f.b) - at(f.a), at(f.c) - at(f.a));
        const double len = glm::length(n);
        if (len > 0.0) normals.push_back(n / len);
      }
    }
    if (normals.empty()) return false;
    Vec sum(0.0);
    for (const Vec& n : normals) sum += glm::dot(n, normals[0]) >= 0.0 ? n : -n;
    normal = glm::normalize(sum);
    const double cosFlat = std::cos(kFlatDegrees * 3.14159265358979323846 / 180.0);
    for (const Vec& n : normals)
      if (std::fabs(glm::dot(n, normal)) < cosFlat) return false;
    return true;
  }

  static constexpr double kFlatDegrees = 5.0;

  double starMin(uint32_t v) const {
    double m = 1.0;
    for (uint32_t r : star_[v]) m = std::min(m, quality(mesh_.tets[r]));
    return m;
  }

  // Moves an interior corner of t up the gradient of its star's worst tet
  // (a max-min ascent; positions are rounded to float before each test, so a
  // kept move never inverts a stored tet).
  bool smooth(uint32_t t) {
    bool any = false;
    for (int k = 0; k < 4; ++k) {
      const uint32_t v = mesh_.tets[t][k];
      Vec normal(0.0);
      if (onSurface_[v] && (options_.keepSurface || !flatSurfaceNormal(v, normal))) continue;
      bool free = true;
      for (uint32_t r : star_[v]) free = free && usable(int32_t(r));
      if (!free) continue;
      const glm::vec3 start = mesh_.positions[v];
      double current = starMin(v);
      for (int step = 0; step < 12; ++step) {
        uint32_t worst = star_[v][0];
        for (uint32_t r : star_[v])
          if (quality(mesh_.tets[r]) < quality(mesh_.tets[worst])) worst = r;
        const glm::uvec4 w = mesh_.tets[worst];
        double lmax = 0.0;
        for (int a = 0; a < 4; ++a)
          for (int b = a + 1; b < 4; ++b) lmax = std::max(lmax, glm::length(at(w[a]) - at(w[b])));
        const glm::vec3 here = mesh_.positions[v];
        Vec grad(0.0);
        const double dh = 1e-4 * lmax;
        for (int axis = 0; axis < 3; ++axis) {
          Vec p = Vec(here);
          p[axis] += dh;
          mesh_.positions[v] = glm::vec3(p);
          const double qp = quality(w);
          p[axis] -= 2.0 * dh;
          mesh_.positions[v] = glm::vec3(p);
          grad[axis] = (qp - quality(w)) / (2.0 * dh);
        }
        mesh_.positions[v] = here;
        if (onSurface_[v]) grad -= glm::dot(grad, normal) * normal;  // slide within the flat surface
        const double g = glm::length(grad);
        if (!(g > 0.0)) break;
        bool moved = false;
        for (double alpha = 0.2 * lmax; alpha > 1e-4 * lmax && !moved; alpha *= 0.5) {
          mesh_.positions[v] = glm::vec3(Vec(here) + alpha * grad / g);
          const double m = starMin(v);
          if (m > current) {
            current = m;
            moved = true;
          } else {
            mesh_.positions[v] = here;
          }
        }
        if (!moved) break;
      }
      if (mesh_.positions[v] != start) {
        for (uint32_t r : star_[v]) touched_[r] = 1;
        ++report_.smoothed;
        any = true;
      }
    }
    return any;
  }

  TetMesh& mesh_;
  const TetImproveOptions& options_;
  TetImproveReport report_;
  std::vector<char> alive_, touched_, onSurface_;
  std::vector<std::vector<uint32_t>> star_;
  std::unordered_map<FaceKey, FaceTets, FaceHash> faces_;
};

}  // namespace

double tetQuality(const TetMesh& mesh, const glm::uvec4& t) {
  return qualityOf(Vec(mesh.positions[t.x]), Vec(mesh.positions[t.y]), Vec(mesh.positions[t.z]),
                   Vec(mesh.positions[t.w]));
}

double minTetQuality(const TetMesh& mesh) {
  double m = mesh.tets.empty() ? 0.0 : 1.0;
  for (const glm::uvec4& t : mesh.tets) m = std::min(m, tetQuality(mesh, t));
  return m;
}

TetImproveReport improveTetQuality(TetMesh& mesh, const TetImproveOptions& options) {
  return Improver(mesh, options).run();
}

}  // namespace tetlab
