#include "core/deform/deformer.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <span>
#include <unordered_map>

#include <glm/geometric.hpp>

#include "core/cpu/position_based_solver.h"
#include "core/mesh/tetrahedralize.h"
#include "core/model/model_builder.h"
#include "core/scene/scene_build.h"
#include "core/sim/state_setup.h"

namespace tetlab {

namespace {

// Interior vertices follow this many nearest surface vertices.
constexpr int kNeighbours = 8;
// With no attraction the inertia term m/h^2 is this fraction of a typical
// element's stiffness E L (a proximal term, not a pull).
constexpr float kRelaxInertiaShare = 1.0e-3f;

struct PositionKey {
  uint32_t b[3];
  bool operator==(const PositionKey& o) const { return b[0] == o.b[0] && b[1] == o.b[1] && b[2] == o.b[2]; }
};
struct PositionKeyHash {
  size_t operator()(const PositionKey& k) const {
    return (size_t(k.b[0]) * 73856093u) ^ (size_t(k.b[1]) * 19349663u) ^ (size_t(k.b[2]) * 83492791u);
  }
};
PositionKey keyOf(glm::vec3 p) {
  PositionKey k;
  std::memcpy(k.b, &p.x, sizeof(float));
  std::memcpy(k.b + 1, &p.y, sizeof(float));
  std::memcpy(k.b + 2, &p.z, sizeof(float));
  return k;
}

bool insideBox(glm::vec3 p, glm::vec3 lo, glm::vec3 hi) {
  return p.x >= lo.x && p.y >= lo.y && p.z >= lo.z && p.x <= hi.x && p.y <= hi.y && p.z <= hi.z;
}

// The k nearest of a fixed point set, through a uniform grid of about two
// points a cell: rings of cells around the query's cell are searched outward
// until the k-th best is nearer than anything the next ring can hold (a point
// in ring r + 1 is at least r cells away). Exact, like the brute force it
// replaces (O(interior x surface) made a 100k-vertex mesh take minutes).
class PointGrid {
 public:
  explicit PointGrid(std::span<const glm::vec3> points) : points_(points) {
    if (points.empty()) return;
    lo_ = hi_ = points[0];
    for (const glm::vec3& p : points) lo_ = glm::min(lo_, p), hi_ = glm::max(hi_, p);
    const glm::vec3 extent = hi_ - lo_;
    const float longest = std::max({extent.x, extent.y, extent.z, 1e-12f});
    cell_ = std::max(longest / std::max(1.0f, std::cbrt(float(points.size()) / 2.0f)), 1e-12f);
    for (int a = 0; a < 3; ++a) dims_[a] = std::min(256, int(extent[a] / cell_) + 1);
    offsets_.assign(size_t(dims_[0]) * dims_[1] * dims_[2] + 1, 0u);
    for (const glm::vec3& p : points) ++offsets_[index(cellOf(p)) + 1];
    for (size_t c = 1; c < offsets_.size(); ++c) offsets_[c] += offsets_[c - 1];
    items_.resize(points.size());
    std::vector<uint32_t> fill(offsets_.begin(), offsets_.end() - 1);
    for (uint32_t s = 0; s < points.size(); ++s) items_[fill[index(cellOf(points[s]))]++] = s;
  }

  // The k nearest to q as (squared distance, index), nearest first.
  void nearest(glm::vec3 q, size_t k, std::vector<std::pair<float, uint32_t>>& out) const {
    out.clear();
    if (points_.empty() || k == 0) return;
    const glm::ivec3 c = cellOf(q);
    const int maxRing = std::max({dims_[0], dims_[1], dims_[2]});
    for (int r = 0; r <= maxRing; ++r) {
      for (int x = c.x - r; x <= c.x + r; ++x)
        for (int y = c.y - r; y <= c.y + r; ++y)
          for (int z = c.z - r; z <= c.z + r; ++z) {
            if (std::max({std::abs(x - c.x), std::abs(y - c.y), std::abs(z - c.z)}) != r) continue;  // ring r only
            if (x < 0 || y < 0 || z < 0 || x >= dims_[0] || y >= dims_[1] || z >= dims_[2]) continue;
            const size_t cell = index(glm::ivec3(x, y, z));
            for (uint32_t t = offsets_[cell]; t < offsets_[cell + 1]; ++t) {
              const glm::vec3 e = points_[items_[t]] - q;
              out.emplace_back(glm::dot(e, e), items_[t]);
            }
          }
      if (out.size() >= k) {
        std::partial_sort(out.begin(), out.begin() + ptrdiff_t(k), out.end());
        out.resize(k);
        const float reach = float(r) * cell_;
        if (out.back().first <= reach * reach) return;
      }
    }
    std::sort(out.begin(), out.end());
    if (out.size() > k) out.resize(k);
  }

 private:
  glm::ivec3 cellOf(glm::vec3 p) const {
    glm::ivec3 c;
    for (int a = 0; a < 3; ++a) c[a] = std::clamp(int((p[a] - lo_[a]) / cell_), 0, dims_[a] - 1);
    return c;
  }
  size_t index(glm::ivec3 c) const { return (size_t(c.z) * dims_[1] + size_t(c.y)) * dims_[0] + size_t(c.x); }

  std::span<const glm::vec3> points_;
  glm::vec3 lo_{0.0f}, hi_{0.0f};
  float cell_ = 1.0f;
  int dims_[3] = {1, 1, 1};
  std::vector<uint32_t> offsets_, items_;
};

}  // namespace

double enclosedVolume(std::span<const glm::vec3> positions, std::span<const glm::uvec3> triangles) {
  double v = 0.0;
  for (const glm::uvec3& t : triangles) {
    const glm::dvec3 a(positions[t.x]), b(positions[t.y]), c(positions[t.z]);
    v += glm::dot(a, glm::cross(b, c));
  }
  return v / 6.0;
}

Result<Deformer> Deformer::create(const SurfaceMesh& rest, const Material& material, int targetTets) {
  TetOptions options;
  options.method = TetMethod::TetGenOnly;  // the voxel fallback's boundary is not the surface
  options.preserveSurface = true;
  options.splitCoarseSurface = false;
  options.keepSurfaceExact = true;
  options.simplifyDenseSurface = false;
  options.targetTets = std::max(targetTets, 1);
  Result<TetResult> tets = tetrahedralizeSurface(rest, options);
  if (!tets)
    return Error{"deformer: the rest mesh could not be tetrahedralized with its surface kept: " +
                 tets.error().message};

  Deformer d;
  d.rest_ = rest;
  BodyDesc body;
  body.mesh = std::move(tets->mesh);
  body.material = material;
  body.name = "deformed body";
  Result<SimModel> model = buildSimModel(std::span<const BodyDesc>(&body, 1));
  if (!model) return Error{"deformer: " + model.error().message};
  d.model_ = std::make_unique<SimModel>(std::move(model.value()));
  const SimModel& m = *d.model_;
  const size_t n = m.restPositions.size();

  // Every surface vertex is one of TetGen's points (-Y keeps them, copied exactly).
  std::unordered_map<PositionKey, uint32_t, PositionKeyHash> byPosition;
  byPosition.reserve(n);
  for (uint32_t i = 0; i < n; ++i) byPosition.emplace(keyOf(m.restPositions[i]), i);
  d.surfaceVertex_.resize(rest.positions.size());
  d.isSurface_.assign(n, 0);
  for (size_t s = 0; s < rest.positions.size(); ++s) {
    auto it = byPosition.find(keyOf(rest.positions[s]));
    if (it == byPosition.end())
      return Error{"deformer: TetGen did not keep surface vertex " + std::to_string(s + 1) +
                   " of the rest mesh as a tet vertex (the surface must reach TetGen unsplit); "
                   "check the mesh with `tetlab inspect`"};
    d.surfaceVertex_[s] = it->second;
    d.isSurface_[it->second] = 1;
  }

  // Ride-along weights of the interior: inverse-square distance to the nearest
  // surface vertices at rest, found through a grid of the surface points.
  std::vector<std::pair<float, uint32_t>> dist;
  const int k = int(std::min<size_t>(kNeighbours, rest.positions.size()));
  const PointGrid grid(rest.positions);
  for (uint32_t i = 0; i < n; ++i) {
    if (d.isSurface_[i]) continue;
    d.interior_.push_back(i);
    grid.nearest(m.restPositions[i], size_t(k), dist);
    float sum = 0.0f;
    const size_t first = d.neighbourWeight_.size();
    for (int j = 0; j < k; ++j) {
      const float w = 1.0f / std::max(dist[j].first, 1e-30f);
      d.neighbour_.push_back(dist[j].second);
      d.neighbourWeight_.push_back(w);
      sum += w;
    }
    for (size_t j = first; j < d.neighbourWeight_.size(); ++j) d.neighbourWeight_[j] /= sum;
  }

  // h of a pure relaxation: m / h^2 = share * E L with m ~ rho L^3 (L: mean edge).
  double edgeSum = 0.0;
  for (float l : m.restLength) edgeSum += l;
  const float L = m.restLength.empty() ? 1.0f : float(edgeSum / double(m.restLength.size()));
  d.meanEdge_ = L;
  d.relaxStep_ = L * std::sqrt(material.density / (material.youngsModulus * kRelaxInertiaShare));

  d.state_ = makeState(m);
  d.targets_.resize(n);
  d.solvedSurface_ = rest.positions;
  return d;
}

void Deformer::fillTargets(std::span<const glm::vec3> animated) {
  const SimModel& m = *model_;
  for (size_t s = 0; s < animated.size(); ++s) targets_[surfaceVertex_[s]] = animated[s];
  for (size_t j = 0; j < interior_.size(); ++j) {
    const uint32_t i = interior_[j];
    glm::vec3 move(0.0f);
    for (int q = 0; q < kNeighbours && j * kNeighbours + q < neighbour_.size(); ++q) {
      const uint32_t s = neighbour_[j * kNeighbours + q];
      move += neighbourWeight_[j * kNeighbours + q] * (animated[s] - rest_.positions[s]);
    }
    targets_[i] = m.restPositions[i] + move;
  }
}

SolverSettings Deformer::solverSettings(const DeformSettings& s, float h) const {
  SolverSettings out;
  out.solver = s.solver;
  out.step.dt = h;
  out.step.substeps = 1;
  out.step.iterations = std::max(s.iterationsPerPass, 1);
  out.step.gravity = s.gravity;
  ConstraintToggles& on = out.step.constraints;
  on = {};
  on.collisions = false;
  on.bodyContacts = false;
  const bool positionBased = s.solver == SolverKind::Pbd || s.solver == SolverKind::Xpbd;
  on.neoHookean = !positionBased;
  on.strainBased = positionBased;
  bool regionVolume = false;
  for (const DeformRegion& r : s.regions) regionVolume = regionVolume || (r.enabled && r.volumeScale > 0.0f);
  on.tetVolume = positionBased && (s.volume || regionVolume);
  out.positionBased.stretchScale = s.stretchScale;
  out.positionBased.shearScale = s.shearScale;
  out.positionBased.restScale = s.restScale;
  out.positionBased.materialAxis = s.materialAxis;
  // Iterations continue from x (VBD Sec. 3.7 "previous position").
  out.vbd.initialGuess = VbdInitialGuess::PreviousPosition;
  out.avbd.primal.initialGuess = VbdInitialGuess::PreviousPosition;
  return out;
}

void Deformer::assignRegions(const DeformSettings& s, DeformFrameReport& report) {
  regions_ = {};
  report.regionTets.assign(s.regions.size(), 0u);
  const bool positionBased = s.solver == SolverKind::Pbd || s.solver == SolverKind::Xpbd;
  // Set 1 is the body's own parameters (its volume on or off); regions follow.
  constexpr size_t kMaxRegions = 254;
  if (positionBased && !s.regions.empty()) {
    const SimModel& m = *model_;
    regions_.sets.push_back(
        makePbStrain(s.stretchScale, s.shearScale, s.restScale, s.materialAxis, s.volume ? 1.0f : 0.0f));
    std::vector<int> setOf(s.regions.size(), -1);
    for (size_t r = 0; r < s.regions.size() && r < kMaxRegions; ++r) {
      const DeformRegion& g = s.regions[r];
      if (!g.enabled) continue;
      setOf[r] = int(regions_.sets.size()) + 1;
      const glm::vec3 axis = glm::length(g.materialAxis) > 0.0f ? g.materialAxis : glm::vec3(1.0f, 0.0f, 0.0f);
      regions_.sets.push_back(makePbStrain(g.stretchScale, g.shearScale, g.restScale, axis, g.volumeScale));
    }
    regions_.tetSet.assign(m.tets.size(), uint8_t(1));
    for (size_t t = 0; t < m.tets.size(); ++t) {
      const glm::uvec4 ids = m.tets[t];
      const glm::vec3 c = 0.25f * (m.restPositions[ids.x] + m.restPositions[ids.y] + m.restPositions[ids.z] +
                                   m.restPositions[ids.w]);
      int in = -1;
      for (size_t r = 0; r < setOf.size(); ++r)
        if (setOf[r] > 0 && insideBox(c, s.regions[r].min, s.regions[r].max)) in = int(r);
      if (in < 0) continue;
      regions_.tetSet[t] = uint8_t(setOf[size_t(in)]);
      ++report.regionTets[size_t(in)];
    }
  }
  if (auto* pb = dynamic_cast<PositionBasedSolver*>(solver_.get()))
    pb->setStrainRegions(regions_.empty() ? nullptr : &regions_);
}

DeformFrameReport Deformer::solveFrame(std::span<const glm::vec3> animated, const DeformSettings& s) {
  DeformFrameReport report;
  SimModel& m = *model_;
  report.restVolume = enclosedVolume(rest_.positions, rest_.triangles);
  report.animatedVolume = enclosedVolume(animated, rest_.triangles);
  if (animated.size() != rest_.positions.size()) {
    report.finite = false;
    report.problem = "deformer: a frame of " + std::to_string(animated.size()) + " vertices for a rest mesh of " +
                     std::to_string(rest_.positions.size());
    return report;
  }
  if (!m.materials.empty() && (m.materials[0].youngsModulus != s.material.youngsModulus ||
                                m.materials[0].poissonRatio != s.material.poissonRatio ||
                                m.materials[0].density != s.material.density)) {
    m.materials.set(0, s.material);
    recomputeLumpedMass(m, {});
  }
  if (!solver_ || solver_->kind() != s.solver) solver_ = makeCpuSolver(s.solver);
  assignRegions(s, report);
  fillTargets(animated);
  const bool fromPrevious = s.start == DeformStart::Previous && havePrevious_;
  // A rest-length scale moves the equilibrium away from the rest shape.
  bool restIsEquilibrium = s.gravity == glm::vec3(0.0f);
  if (s.solver == SolverKind::Pbd || s.solver == SolverKind::Xpbd) {
    restIsEquilibrium = restIsEquilibrium && s.restScale == glm::vec3(1.0f);
    for (const DeformRegion& r : s.regions) restIsEquilibrium = restIsEquilibrium && (!r.enabled || r.restScale == glm::vec3(1.0f));
  }
  if (!fromPrevious && restIsEquilibrium && std::equal(animated.begin(), animated.end(), rest_.positions.begin())) {
    // The rest pose solves itself; its residual is float noise that no
    // number of iterations lowers by the tolerance.
    for (size_t i = 0; i < state_.x.size(); ++i)
      state_.x[i] = glm::vec4(m.restPositions[i], m.mass[i] > 0.0f ? 1.0f / m.mass[i] : 0.0f);
    previous_ = state_.x;
    havePrevious_ = true;
    solvedSurface_ = rest_.positions;
    report.converged = true;
    report.solvedVolume = report.restVolume;
    return report;
  }

  const float h = s.attraction > 0.0f ? 1.0f / std::sqrt(s.attraction) : relaxStep_;
  const size_t n = m.restPositions.size();
  std::vector<uint8_t> heldMask(n, 0);
  for (size_t sv = 0; sv < surfaceVertex_.size(); ++sv) {
    const uint32_t i = surfaceVertex_[sv];
    bool held = false;
    if (s.hold == DeformHold::All) held = true;
    if (s.hold == DeformHold::Box) held = insideBox(m.restPositions[i], s.holdMin, s.holdMax);
    if (s.hold == DeformHold::Painted) held = sv < s.painted.size() && s.painted[sv] != 0;
    if (held && !heldMask[i]) ++report.heldVertices;
    heldMask[i] = heldMask[i] || held;
  }
  for (uint32_t i = 0; i < n; ++i) {
    const bool held = heldMask[i] != 0;
    const glm::vec3 start = held || !fromPrevious ? targets_[i] : glm::vec3(previous_[i]);
    const float w = held || !(m.mass[i] > 0.0f) ? 0.0f : 1.0f / m.mass[i];
    state_.x[i] = glm::vec4(start, w);
    state_.v[i] = glm::vec4(0.0f);
    // The attraction's target (VBD Eq. 2's y); interior vertices have no
    // given position, so theirs is re-centred every pass (a proximal term).
    const bool attracted = s.attraction > 0.0f && isSurface_[i];
    state_.xInertial[i] = glm::vec4(attracted ? targets_[i] : start, w);
  }
  solver_->reset(m, state_);  // fresh multipliers and duals every frame

  const SolverSettings settings = solverSettings(s, h);
  SolverSettings pass = settings;
  std::vector<glm::vec4> start = state_.x;
  const int cap = std::max(s.maxIterations, 1);
  float best = 1.0f;  // lowest relative residual so far
  int sinceBest = 0;  // passes since it fell by 1 %
  float lastMove = -1.0f;  // the previous pass's largest vertex move [m]
  while (report.iterations < cap) {
    pass.step.iterations = std::min(settings.step.iterations, cap - report.iterations);
    for (uint32_t i = 0; i < n; ++i) {
      state_.xPrev[i] = state_.x[i];
      if (!(s.attraction > 0.0f && isSurface_[i])) state_.xInertial[i] = state_.x[i];
    }
    StepDiagnostics diag;
    solver_->continueSubstep(m, pass, h, state_, diag);
    report.iterations += pass.step.iterations;
    bool finite = true;
    for (const glm::vec4& x : state_.x) finite = finite && std::isfinite(x.x) && std::isfinite(x.y) && std::isfinite(x.z);
    if (!finite) {
      report.finite = false;
      report.problem = "deformer: the solve produced a non-finite position at iteration " +
                       std::to_string(report.iterations) + "; the frame's start is kept (lower the stiffness "
                       "ratio, or use VBD)";
      state_.x = start;
      break;
    }
    if (diag.residualHistory.empty()) break;
    if (report.iterations == pass.step.iterations) report.firstResidual = diag.residualHistory.front();
    const float last = diag.residualHistory.back();
    report.residual = report.firstResidual > 0.0f ? last / report.firstResidual : 0.0f;
    if (report.residual <= s.tolerance) {
      report.converged = true;
      break;
    }
    // The geometric test: passes shrinking by rho = move_k / move_k-1 leave at
    // most move rho / (1 - rho) to go (a geometric series). A frame that
    // starts near its solution (its first residual is already small, so the
    // relative one cannot fall by the tolerance) stops once that is below
    // `tolerance` of a mean edge: the shape cannot change visibly any more.
    float move = 0.0f;
    for (uint32_t i = 0; i < n; ++i) move = std::max(move, glm::length(glm::vec3(state_.x[i] - state_.xPrev[i])));
    if (lastMove > 0.0f && move < lastMove) {
      const float rho = move / lastMove;
      report.remainingMove = move * rho / (1.0f - rho);
      if (report.remainingMove <= s.tolerance * meanEdge_) {
        report.converged = report.convergedByMotion = true;
        break;
      }
    }
    lastMove = move;
    if (report.residual < 0.99f * best) {
      best = report.residual;
      sinceBest = 0;
    } else if (++sinceBest >= kStallPasses) {
      report.stalled = true;
      break;
    }
  }
  for (glm::vec4& v : state_.v) v = glm::vec4(0.0f);
  previous_ = state_.x;
  havePrevious_ = true;
  for (size_t sv = 0; sv < surfaceVertex_.size(); ++sv) solvedSurface_[sv] = glm::vec3(state_.x[surfaceVertex_[sv]]);
  report.solvedVolume = enclosedVolume(solvedSurface_, rest_.triangles);
  return report;
}

}  // namespace tetlab
