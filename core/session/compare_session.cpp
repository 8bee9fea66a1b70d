#include "core/session/compare_session.h"

#include <algorithm>
#include <cmath>

#include "core/scene/enum_names.h"

namespace tetlab {
namespace {

LaneSpec specOf(const SimSession& s) {
  LaneSpec spec;
  spec.solver = s.solver();
  spec.substeps = s.settings().step.substeps;
  spec.iterations = s.settings().step.iterations;
  spec.backend = s.backend();
  return spec;
}

float stiffestMaterial(const SimModel& m) {
  float e = 0.0f;
  for (uint32_t b = 0; b < m.materials.size(); ++b) e = std::max(e, m.materials[b].youngsModulus);
  return e;
}

}  // namespace

Result<std::unique_ptr<CompareSession>> CompareSession::create(SimSession& primary, CompareSpec spec,
                                                               const ClContext* context, Backend defaultBackend) {
  if (spec.autoReference && !spec.reference) {
    spec.reference = autoReferenceLane(spec.lanes, stiffestMaterial(primary.model()));
    // On the faster backend where there is one: a device runs VBD's colours in parallel
    // (docs/benchmarks.md: on PoCL here too).
    if (context) spec.reference->backend = Backend::OpenCl;
  }
  if (Status s = validateCompareSpec(spec); !s) return s.error();
  std::unique_ptr<CompareSession> c(new CompareSession());
  c->spec_ = spec;
  c->context_ = context;
  c->defaultBackend_ = defaultBackend;
  c->paused_ = primary.paused();
  std::vector<LaneSpec> all = spec.lanes;
  if (spec.reference) all.push_back(*spec.reference);
  for (size_t i = 0; i < all.size(); ++i) {
    Lane lane;
    if (i == 0) {
      lane.session = &primary;
    } else {
      lane.owned = SimSession::createLane(primary);
      lane.session = lane.owned.get();
    }
    const Backend backend = all[i].backend.value_or(defaultBackend);
    if (Status s = c->configureLane(lane, all[i], backend); !s)
      return Error{"lane " + std::to_string(i + 1) + " (" + laneSpecText(all[i]) + "): " + s.error().message};
    c->lanes_.push_back(std::move(lane));
  }
  if (spec.reference) c->reference_ = c->lanes_.size() - 1;
  c->setProbe(std::nullopt);
  return c;
}

Status CompareSession::configureLane(Lane& lane, const LaneSpec& spec, Backend backend) {
  SimSession& s = *lane.session;
  if (s.solver() != spec.solver) s.setSolver(spec.solver);
  s.settings().step.substeps = spec.substeps;
  s.settings().step.iterations = spec.iterations;
  if (s.backend() != backend)
    if (Status st = s.setBackend(backend, context_); !st) return st;
  // The solver switch or the backend may have fallen back (a solver without kernels here).
  if (s.solver() != spec.solver) return Error{"the solver could not be selected"};
  return Ok{};
}

LaneSpec CompareSession::laneSpec(size_t i) const { return specOf(*lanes_[i].session); }

std::string CompareSession::laneLabel(size_t i) const {
  const SimSession& s = *lanes_[i].session;
  std::string out = tetlab::laneLabel(laneSpec(i));
  if (s.solver() == SolverKind::Xpbd && s.substepsUsed() != s.settings().step.substeps)
    out += " (runs " + std::to_string(s.substepsUsed()) + " substeps)";
  if (isReference(i)) out += " [reference]";
  return out;
}

CompareSpec CompareSession::describe() const {
  CompareSpec out = spec_;
  out.lanes.clear();
  for (size_t i = 0; i < lanes_.size(); ++i) {
    LaneSpec spec = laneSpec(i);
    // A lane keeps a backend of its own only when it was given one.
    const std::optional<Backend> asked =
        i < spec_.lanes.size() ? spec_.lanes[i].backend : (spec_.reference ? spec_.reference->backend : std::nullopt);
    spec.backend = asked;
    if (isReference(i)) out.reference = spec;
    else out.lanes.push_back(spec);
  }
  if (spec_.autoReference) out.reference.reset();
  return out;
}

// ---- stepping ----

void CompareSession::copySceneSettings() {
  const SimSession& primary = *lanes_[0].session;
  for (size_t i = 1; i < lanes_.size(); ++i) {
    SimSession& s = *lanes_[i].session;
    const SolverSettings& own = s.settings();
    SolverSettings next = primary.settings();
    next.solver = own.solver;
    next.step.substeps = own.step.substeps;
    next.step.iterations = own.step.iterations;
    next.positionBased = own.positionBased;
    next.pbd = own.pbd;
    next.xpbd = own.xpbd;
    next.vbd = own.vbd;
    next.avbd = own.avbd;
    s.settings() = std::move(next);
    // A collider moved or a material edited through the primary did work on every lane.
    if (primary.externallyForced()) s.markExternalWork();
    s.mouse() = lanes_[0].session->mouse();
    s.slowMotion = primary.slowMotion;
    s.setXpbdAutoRaise(primary.xpbdAutoRaise());
  }
}

void CompareSession::setPaused(bool paused) {
  paused_ = paused;
  for (Lane& lane : lanes_) lane.session->setPaused(paused);
}

void CompareSession::advance(int steps) {
  // The panels and keys pause and step the primary: its clock is the lanes'
  // (unless it blew up, and is held where it stopped while the others go on).
  SimSession& primary = *lanes_[0].session;
  if (!primary.blownUp()) paused_ = primary.paused();
  if (primary.takeSingleStep()) singleStep_ = true;
  if (paused_) {
    if (!singleStep_) return;
    steps = 1;
  }
  singleStep_ = false;
  for (int k = 0; k < steps; ++k) {
    copySceneSettings();
    for (Lane& lane : lanes_) {
      SimSession& s = *lane.session;
      if (s.blownUp()) continue;  // stays where it blew up; the others go on
      s.setPaused(false);
      s.advance(1);
      if (!s.blownUp()) s.setPaused(paused_);
    }
    ++frame_;
    measureErrors();
    measureProbes();
    if (spec_.equalCostMs > 0.0f && frame_ % kEqualCostEvery == 0) adaptEqualCost();
  }
}

void CompareSession::measureErrors() {
  if (!reference_) return;
  const SimSession& ref = *lanes_[*reference_].session;
  const std::vector<glm::vec4>& xr = ref.state().x;
  for (size_t i = 0; i < lanes_.size(); ++i) {
    Lane& lane = lanes_[i];
    LaneError e;
    const SimSession& s = *lane.session;
    if (i != *reference_ && !s.blownUp() && !ref.blownUp() && s.frame() == ref.frame()) {
      const std::vector<glm::vec4>& x = s.state().x;
      double sum = 0.0, worst = 0.0;
      for (size_t v = 0; v < x.size() && v < xr.size(); ++v) {
        const double d = glm::length(glm::dvec3(glm::vec3(x[v])) - glm::dvec3(glm::vec3(xr[v])));
        sum += d * d;
        worst = std::max(worst, d);
      }
      e.rms = x.empty() ? 0.0 : std::sqrt(sum / double(x.size()));
      e.max = worst;
      if (s.diagnosticsFresh() && ref.diagnosticsFresh())
        e.energy = s.diagnostics().energy.dynamicTotal() - ref.diagnostics().energy.dynamicTotal();
    } else if (i == *reference_ && !ref.blownUp()) {
      e.rms = e.max = e.energy = 0.0;
    }
    lane.error = e;
    if (e.valid()) lane.series.errorRms.push(float(e.rms));
  }
}

void CompareSession::measureProbes() {
  for (Lane& lane : lanes_) {
    const SimSession& s = *lane.session;
    const std::vector<glm::vec4>& x = s.state().x;
    if (probe_) {
      if (*probe_ < x.size() && *probe_ < probeStart_.size())
        lane.series.probe.push(glm::length(glm::vec3(x[*probe_]) - probeStart_[*probe_]));
      continue;
    }
    const SimModel& m = s.model();
    double mass = 0.0, y = 0.0;
    for (uint32_t v = 0; v < m.vertexCount() && v < x.size(); ++v) {
      mass += m.mass[v];
      y += double(m.mass[v]) * double(x[v].y);
    }
    lane.series.probe.push(mass > 0.0 ? float(y / mass) : 0.0f);
  }
}

void CompareSession::adaptEqualCost() {
  for (size_t i = 0; i < lanes_.size(); ++i) {
    if (isReference(i)) continue;
    SimSession& s = *lanes_[i].session;
    const Series& ms = s.series().stepMs;
    if (s.blownUp() || ms.size() < size_t(kEqualCostEvery)) continue;
    double sum = 0.0;
    for (size_t k = ms.size() - kEqualCostEvery; k < ms.size(); ++k) sum += ms.at(k);
    const int next = equalCostIterations(s.settings().step.iterations, sum / kEqualCostEvery, spec_.equalCostMs);
    s.settings().step.iterations = next;
  }
}

// ---- edits ----

void CompareSession::reset() {
  for (Lane& lane : lanes_) {
    lane.session->reset();
    lane.series = {};
    lane.error = {};
  }
  frame_ = 0;
  setProbe(probe_);
}

void CompareSession::restoreLastGood() {
  for (Lane& lane : lanes_)
    if (lane.session->blownUp()) lane.session->restoreLastGood();
  paused_ = true;
  for (Lane& lane : lanes_) lane.session->setPaused(true);
}

void CompareSession::togglePin(uint32_t vertex) {
  for (Lane& lane : lanes_) lane.session->togglePin(vertex);
}

void CompareSession::beginDrag(const std::vector<uint32_t>& vertices, const std::vector<float>& weights,
                               glm::vec3 target) {
  for (Lane& lane : lanes_) lane.session->beginDrag(vertices, weights, target);
}

void CompareSession::moveDrag(glm::vec3 target) {
  for (Lane& lane : lanes_) lane.session->moveDrag(target);
}

void CompareSession::endDrag() {
  for (Lane& lane : lanes_) lane.session->endDrag();
}

Status CompareSession::setLane(size_t i, const LaneSpec& spec) {
  if (i >= lanes_.size()) return Error{"no lane " + std::to_string(i + 1)};
  const Backend backend = spec.backend.value_or(lanes_[i].session->backend());
  return configureLane(lanes_[i], spec, backend);
}

void CompareSession::setEqualCostMs(float ms) { spec_.equalCostMs = std::max(0.0f, ms); }

void CompareSession::setProbe(std::optional<uint32_t> vertex) {
  probe_ = vertex;
  probeStart_.clear();
  const std::vector<glm::vec4>& x = lanes_[0].session->state().x;
  for (const glm::vec4& p : x) probeStart_.push_back(glm::vec3(p));
  for (Lane& lane : lanes_) lane.series.probe.clear();
}

std::vector<std::string> CompareSession::takeNotices() {
  std::vector<std::string> out;
  for (size_t i = 0; i < lanes_.size(); ++i)
    for (std::string& n : lanes_[i].session->takeNotices()) out.push_back(laneLabel(i) + ": " + n);
  out.insert(out.end(), notices_.begin(), notices_.end());
  notices_.clear();
  return out;
}

}  // namespace tetlab
