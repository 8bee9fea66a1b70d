// Garland-Heckbert simplification with a lazy min-heap: every push carries
// the version stamps of both end vertices, and a popped candidate whose
// vertices have changed since is stale and skipped. Per-vertex face lists
// give the one-ring; all geometry is in double.
#include "core/mesh/surface_simplify.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <queue>
#include <vector>

#include <glm/common.hpp>
#include <glm/geometric.hpp>
#include <glm/mat3x3.hpp>

#include "core/mesh/surface_checks.h"

namespace tetlab {
namespace {

// Minimum shape quality 4 sqrt(3) A / (sum of squared edges) (1 for an
// equilateral triangle) a collapse may create; TetGen needs sane facets.
constexpr double kMinTriangleQuality = 0.05;
// A face normal may turn by at most ~78 degrees in one collapse.
constexpr double kMinNormalCosine = 0.2;
// A collapse may move the surface by at most this fraction of the bounding-box
// diagonal (RMS over the merged planes); past it simplification stops short.
constexpr double kMaxRelativeDeviation = 0.005;

// Symmetric 4x4 error quadric Q = sum area * p p^T, p = (n, d) (Garland & Heckbert 1997, Sec. 4).
struct Quadric {
  double a[10] = {0};  // xx xy xz xd yy yz yd zz zd dd
  double weight = 0.0; // summed plane weights (areas): error / weight is a mean squared distance
  void addPlane(const glm::dvec3& n, double d, double w) {
    const double p[4] = {n.x, n.y, n.z, d};
    int k = 0;
    for (int i = 0; i < 4; ++i)
      for (int j = i; j < 4; ++j) a[k++] += w * p[i] * p[j];
    weight += w;
  }
  Quadric operator+(const Quadric& o) const {
    Quadric r;
    for (int i = 0; i < 10; ++i) r.a[i] = a[i] + o.a[i];
    r.weight = weight + o.weight;
    return r;
  }
  // v^T Q v with v = (x, y, z, 1) (Garland & Heckbert Eq. 2).
  double error(const glm::dvec3& v) const {
    return a[0] * v.x * v.x + 2 * a[1] * v.x * v.y + 2 * a[2] * v.x * v.z + 2 * a[3] * v.x + a[4] * v.y * v.y +
           2 * a[5] * v.y * v.z + 2 * a[6] * v.y + a[7] * v.z * v.z + 2 * a[8] * v.z + a[9];
  }
};

struct Candidate {
  double cost;
  double rmsDistance;  // sqrt(cost / weight): how far, on average, from the original planes
  uint32_t u, v;
  uint32_t versionU, versionV;
  glm::dvec3 position;
  bool operator>(const Candidate& o) const { return cost > o.cost; }
};

double triangleQuality(const glm::dvec3& a, const glm::dvec3& b, const glm::dvec3& c) {
  const double area = 0.5 * glm::length(glm::cross(b - a, c - a));
  const double sum = glm::dot(b - a, b - a) + glm::dot(c - b, c - b) + glm::dot(a - c, a - c);
  return sum > 0.0 ? 4.0 * std::sqrt(3.0) * area / sum : 0.0;
}

class Simplifier {
 public:
  explicit Simplifier(const SurfaceMesh& s) {
    pos_.reserve(s.positions.size());
    for (const glm::vec3& p : s.positions) pos_.push_back(glm::dvec3(p));
    glm::dvec3 lo = pos_[0], hi = pos_[0];
    for (const glm::dvec3& p : pos_) {
      lo = glm::min(lo, p);
      hi = glm::max(hi, p);
    }
    maxDeviation_ = kMaxRelativeDeviation * glm::length(hi - lo);
    tris_ = s.triangles;
    faceAlive_.assign(tris_.size(), 1);
    alive_ = tris_.size();
    vertexFaces_.resize(pos_.size());
    version_.assign(pos_.size(), 0);
    refused_.resize(pos_.size());
    quadric_.resize(pos_.size());
    for (uint32_t f = 0; f < tris_.size(); ++f) {
      const glm::uvec3 t = tris_[f];
      const glm::dvec3 cr = glm::cross(pos_[t.y] - pos_[t.x], pos_[t.z] - pos_[t.x]);
      const double len = glm::length(cr);
      if (len > 0.0) {
        const glm::dvec3 n = cr / len;
        for (int k = 0; k < 3; ++k) quadric_[t[k]].addPlane(n, -glm::dot(n, pos_[t.x]), 0.5 * len);
      }
      for (int k = 0; k < 3; ++k) vertexFaces_[t[k]].push_back(f);
    }
    for (uint32_t f = 0; f < tris_.size(); ++f)
      for (int k = 0; k < 3; ++k) {
        const uint32_t a = tris_[f][k], b = tris_[f][(k + 1) % 3];
        if (a < b) push(a, b);  // each interior edge once (the other face walks it b -> a)
      }
  }

  void run(size_t target, SimplifyReport& report) {
    while (alive_ > target && !heap_.empty()) {
      const Candidate c = heap_.top();
      heap_.pop();
      if (version_[c.u] != c.versionU || version_[c.v] != c.versionV) continue;  // stale
      if (!collapse(c)) {
        // Refused here and now, but a later collapse nearby may make it valid:
        // remember it at both ends and offer it again when their rings change.
        ++report.rejectedCollapses;
        refused_[c.u].push_back(c.v);
        refused_[c.v].push_back(c.u);
        continue;
      }
      ++report.collapses;
    }
  }

  SurfaceMesh result() const {
    SurfaceMesh out;
    std::vector<uint32_t> remap(pos_.size(), UINT32_MAX);
    for (uint32_t f = 0; f < tris_.size(); ++f) {
      if (!faceAlive_[f]) continue;
      glm::uvec3 t = tris_[f];
      for (int k = 0; k < 3; ++k) {
        if (remap[t[k]] == UINT32_MAX) {
          remap[t[k]] = uint32_t(out.positions.size());
          out.positions.push_back(glm::vec3(pos_[t[k]]));
        }
        t[k] = remap[t[k]];
      }
      out.triangles.push_back(t);
    }
    return out;
  }

 private:
  void push(uint32_t u, uint32_t v) {
    const Quadric q = quadric_[u] + quadric_[v];
    const glm::dvec3 mid = 0.5 * (pos_[u] + pos_[v]);
    // Optimal point: solve the upper 3x3 block of Q (Garland & Heckbert Eq. 1);
    // fall back to the best of the ends and the midpoint when it is ill-posed.
    const glm::dmat3 A(q.a[0], q.a[1], q.a[2], q.a[1], q.a[4], q.a[5], q.a[2], q.a[5], q.a[7]);
    const glm::dvec3 b(q.a[3], q.a[6], q.a[8]);
    glm::dvec3 best = mid;
    double bestCost = q.error(mid);
    const double det = glm::determinant(A);
    const double scale = std::max({q.a[0], q.a[4], q.a[7], 1e-300});
    if (std::fabs(det) > 1e-9 * scale * scale * scale) {
      const glm::dvec3 p = glm::inverse(A) * (-b);
      if (glm::length(p - mid) <= glm::length(pos_[u] - pos_[v]) && q.error(p) < bestCost) {
        best = p;
        bestCost = q.error(p);
      }
    }
    for (const glm::dvec3& p : {pos_[u], pos_[v]})
      if (q.error(p) < bestCost) {
        best = p;
        bestCost = q.error(p);
      }
    bestCost = std::max(bestCost, 0.0);
    heap_.push({bestCost, q.weight > 0.0 ? std::sqrt(bestCost / q.weight) : 0.0, u, v, version_[u], version_[v], best});
  }

  void ring(uint32_t v, std::vector<uint32_t>& out) const {
    out.clear();
    for (uint32_t f : vertexFaces_[v])
      for (int k = 0; k < 3; ++k)
        if (tris_[f][k] != v) out.push_back(tris_[f][k]);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
  }

  bool collapse(const Candidate& c) {
    const uint32_t u = c.u, v = c.v;
    // Faces on the edge; a closed manifold edge has exactly two.
    std::vector<uint32_t> shared;
    for (uint32_t f : vertexFaces_[u]) {
      const glm::uvec3 t = tris_[f];
      if (t.x == v || t.y == v || t.z == v) shared.push_back(f);
    }
    if (shared.size() != 2 || alive_ <= 4) return false;
    // Link condition: the one-rings of u and v share exactly the two opposite vertices.
    ring(u, ringU_);
    ring(v, ringV_);
    size_t common = 0;
    for (uint32_t w : ringU_) common += std::binary_search(ringV_.begin(), ringV_.end(), w);
    if (common != 2) return false;
    if (c.rmsDistance > maxDeviation_) return false;
    // No remaining face may flip, and the worst face shape around the edge may
    // not get worse than it was (or than kMinTriangleQuality): removing a
    // sliver is allowed even if a neighbour stays thin.
    double worstBefore = 1.0, worstAfter = 1.0;
    for (uint32_t f : shared) worstBefore = std::min(worstBefore, triangleQuality(pos_[tris_[f].x], pos_[tris_[f].y], pos_[tris_[f].z]));
    for (uint32_t moved : {u, v}) {
      for (uint32_t f : vertexFaces_[moved]) {
        if (f == shared[0] || f == shared[1]) continue;
        glm::dvec3 p[3], q[3];
        for (int k = 0; k < 3; ++k) {
          p[k] = pos_[tris_[f][k]];
          q[k] = tris_[f][k] == moved ? c.position : p[k];
        }
        const glm::dvec3 n0 = glm::cross(p[1] - p[0], p[2] - p[0]);
        const glm::dvec3 n1 = glm::cross(q[1] - q[0], q[2] - q[0]);
        const double l0 = glm::length(n0), l1 = glm::length(n1);
        if (!(l1 > 0.0) || glm::dot(n0, n1) < kMinNormalCosine * l0 * l1) return false;
        worstBefore = std::min(worstBefore, triangleQuality(p[0], p[1], p[2]));
        worstAfter = std::min(worstAfter, triangleQuality(q[0], q[1], q[2]));
      }
    }
    if (worstAfter < std::min(kMinTriangleQuality, worstBefore)) return false;
    // Collapse v into u.
    for (uint32_t f : shared) {
      faceAlive_[f] = 0;
      --alive_;
      for (int k = 0; k < 3; ++k) {
        auto& list = vertexFaces_[tris_[f][k]];
        list.erase(std::remove(list.begin(), list.end(), f), list.end());
      }
    }
    for (uint32_t f : vertexFaces_[v]) {
      for (int k = 0; k < 3; ++k)
        if (tris_[f][k] == v) tris_[f][k] = u;
      vertexFaces_[u].push_back(f);
    }
    vertexFaces_[v].clear();
    pos_[u] = c.position;
    quadric_[u] = quadric_[u] + quadric_[v];
    ++version_[u];
    ++version_[v];
    // Only edges at u changed cost; the others keep their stamps (their
    // validity is re-checked when they are popped).
    ring(u, ringU_);
    for (uint32_t w : ringU_) push(std::min(u, w), std::max(u, w));
    for (uint32_t w : ringU_) {
      for (uint32_t x : refused_[w])
        if (!vertexFaces_[x].empty() && x != u) push(std::min(w, x), std::max(w, x));
      refused_[w].clear();
    }
    refused_[u].clear();
    refused_[v].clear();
    return true;
  }

  std::vector<glm::dvec3> pos_;
  std::vector<glm::uvec3> tris_;
  std::vector<uint8_t> faceAlive_;
  size_t alive_ = 0;
  std::vector<std::vector<uint32_t>> vertexFaces_;
  std::vector<uint32_t> version_;
  std::vector<Quadric> quadric_;
  std::priority_queue<Candidate, std::vector<Candidate>, std::greater<Candidate>> heap_;
  std::vector<uint32_t> ringU_, ringV_;
  std::vector<std::vector<uint32_t>> refused_;  // per vertex: other ends of refused candidates
  double maxDeviation_ = 0.0;
};

}  // namespace

Result<SurfaceMesh> simplifySurface(const SurfaceMesh& surface, size_t targetTriangles, SimplifyReport* outReport) {
  SurfaceCheckOptions checkOptions;
  checkOptions.checkSelfIntersections = false;
  const SurfaceCheckReport checks = checkSurface(surface, checkOptions);
  if (!checks.watertight() || !checks.manifold()) {
    return Error{"surface simplification needs a closed manifold surface"};
  }
  SimplifyReport report;
  report.trianglesBefore = surface.triangles.size();
  Simplifier s(surface);
  s.run(std::max<size_t>(targetTriangles, 4), report);
  SurfaceMesh out = s.result();
  report.trianglesAfter = out.triangles.size();
  if (outReport) *outReport = report;
  return out;
}

}  // namespace tetlab
