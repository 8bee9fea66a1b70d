#include "core/sim/simulator.h"

#include "core/sim/stepper.h"

namespace tetlab {

const char* backendName(Backend backend) { return backend == Backend::OpenCl ? "opencl" : "cpu"; }

CpuSimulator::CpuSimulator(const SimModel& model, State state, SolverKind kind)
    : model_(&model), state_(std::move(state)), solver_(makeCpuSolver(kind)) {
  solver_->reset(*model_, state_);
}

Status CpuSimulator::step(const SolverSettings& settings, StepDiagnostics& out) {
  if (settings.solver != solver_->kind())
    if (Status s = setSolver(settings.solver); !s) return s;
  stepSimulation(*model_, settings, *solver_, state_, out);
  // The end-of-frame break check (anchor_springs.h); the energy just reported already holds the spring's
  // last stretch, as the frame ended with it whole.
  if (!state_.springs.empty() && out.finite) {
    gatherSpringPositions(state_.springs, state_.x, springX_);
    const double before = anchorSpringEnergy(state_.springs, springX_);
    out.springsBroken = breakOverloadedSprings(state_.springs, springX_, state_.time);
    // A spring that broke stores nothing from here on (as the device's energy, read after the check, says).
    if (out.springsBroken) out.energy.elastic += anchorSpringEnergy(state_.springs, springX_) - before;
  }
  last_ = out;
  for (Stage stage : kAllStages) pendingTimes_[stage] += out.stages[stage];
  badRead_ = false;
  return Ok{};
}

Status CpuSimulator::setSolver(SolverKind kind) {
  solver_ = makeCpuSolver(kind);
  solver_->reset(*model_, state_);
  return Ok{};
}

Status CpuSimulator::readState(State& out) {
  out.x = state_.x;
  out.xPrev = state_.xPrev;
  out.v = state_.v;
  return Ok{};
}

Status CpuSimulator::readPositions(std::vector<glm::vec4>& outX) {
  outX = state_.x;
  return Ok{};
}

Status CpuSimulator::moveKinematic(std::span<const uint32_t> vertices, std::span<const glm::vec3> positions) {
  for (size_t k = 0; k < vertices.size() && k < positions.size(); ++k) {
    if (vertices[k] >= state_.x.size()) return Error{"kinematic vertex " + std::to_string(vertices[k]) + " out of range"};
    state_.x[vertices[k]] = glm::vec4(positions[k], 0.0f);
  }
  solver_->pinsMoved(vertices);
  return Ok{};
}

Status CpuSimulator::writeState(const State& state) {
  state_.x = state.x;
  state_.xPrev = state.xPrev;
  state_.v = state.v;
  state_.xInertial.resize(state.x.size());
  state_.mouse = state.mouse;
  state_.springs = state.springs;
  state_.spheres = state.spheres;
  state_.time = state.time;
  solver_->reset(*model_, state_);
  return Ok{};
}

Result<int64_t> CpuSimulator::readBadVertex() {
  const int64_t bad = badRead_ ? -1 : last_.badVertex;
  badRead_ = true;
  return bad;
}

Result<Simulator::BodyContactCounts> CpuSimulator::readBodyContacts() {
  return BodyContactCounts{last_.bodyContacts, last_.bodyContactOverflow};
}

StageTimes CpuSimulator::takeStageTimes() {
  StageTimes out = pendingTimes_;
  pendingTimes_ = {};
  return out;
}

}  // namespace tetlab
