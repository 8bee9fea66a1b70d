#include "core/sim/stepper.h"

#include <chrono>
#include <cmath>
#include <cstring>
#include <span>
#include <sstream>

#include "shaders/cl/common/compat_cpp.h"  // before any .clh
#include "shaders/cl/common/step_integrate.clh"
#include "shaders/cl/common/force_fields.clh"
#include "shaders/cl/common/wind.clh"

#include "core/sim/body_contact_detection.h"
#include "core/sim/energy.h"
#include "core/sim/rayleigh_damping.h"
#include "core/sim/sphere_constraints.h"
#include "core/sim/step_error.h"

namespace tetlab {
namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

bool finite3(const glm::vec4& p) { return std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z); }

void resetDiagnostics(StepDiagnostics& d) {
  d.energy = {};
  d.residualHistory.clear();  // keeps capacity: no allocation in steady state
  d.residual = 0.0f;
  d.maxViolation = 0.0f;
  d.stepError = {};
  d.finite = true;
  d.badVertex = -1;
  d.problem.clear();
  d.warning.clear();
  d.bodyContacts = 0;
  d.bodyContactOverflow = 0;
  d.stepMs = 0.0;
  d.dampingIterations = 0;
  d.dampingResidual = 0.0f;
  d.stages = {};
}

// The wind's velocity kick of one substep (shaders/cl/common/wind.clh), every
// vertex's change from the same velocities, as the step_wind kernels do.
void applyWind(const SimModel& model, const WindSettings& wind, double time, float h,
               std::span<const glm::uvec4> triangles, std::vector<glm::vec3>& dv, State& state) {
  const glm::vec3 w = windVelocityAt(wind, time);
  const uint32_t n = model.vertexCount();
  dv.resize(n);
  for (uint32_t i = 0; i < n; ++i)
    dv[i] = clm::wind_vertex_dv(i, state.x.data(), state.v.data(), triangles.data(),
                                model.vertexWindElements.offsets.data(), model.vertexWindElements.items.data(), w,
                                wind.fluidDensity, wind.drag, wind.lift, h);
  for (uint32_t i = 0; i < n; ++i) state.v[i] += glm::vec4(dv[i], 0.0f);
}

}  // namespace

std::vector<glm::uvec4> packWindElements(const SimModel& model) {
  std::vector<glm::uvec4> out;
  out.reserve(model.clothTriangles.size() + model.strandSegments.size());
  for (const glm::uvec3& t : model.clothTriangles) out.emplace_back(t, 0u);
  for (size_t k = 0; k < model.strandSegments.size(); ++k) {
    const float d = model.materials[model.strandSegmentBody[k]].thickness;
    uint32_t bits;
    std::memcpy(&bits, &d, sizeof bits);
    out.emplace_back(model.strandSegments[k], WIND_SEGMENT, bits);
  }
  return out;
}

bool windActs(const SimModel& model, const SolverSettings& settings) {
  return settings.wind.enabled && (model.hasCloth() || model.hasStrands());
}

void stepSimulation(const SimModel& model, const SolverSettings& settings, Solver& solver, State& state,
                    StepDiagnostics& out) {
  const auto stepStart = Clock::now();
  resetDiagnostics(out);
  const size_t n = model.vertexCount();
  if (state.x.size() != n || state.v.size() != n || state.xPrev.size() != n || state.xInertial.size() != n) {
    out.finite = false;
    out.problem = "state has " + std::to_string(state.x.size()) + " vertices but the model has " +
                  std::to_string(n) + "; create it with makeState(model) after loading";
    return;
  }
  const int substeps = settings.step.substeps > 0 ? settings.step.substeps : 1;
  const float h = settings.step.dt / float(substeps);
  const glm::vec3 g = settings.step.gravity;
  const float damping = std::exp(-settings.step.velocityDamping * h);

  const bool wind = windActs(model, settings);
  std::vector<glm::uvec4> windTriangles;
  std::vector<glm::vec3> windDv;
  if (wind) windTriangles = packWindElements(model);
  const std::vector<glm::vec4> fields = packForceFields(settings.forceFields);
  const uint32_t fieldCount = uint32_t(fields.size() / TL_FIELD_STRIDE);
  for (int s = 0; s < substeps; ++s) {
    auto t0 = Clock::now();
    if (wind) applyWind(model, settings.wind, state.time, h, windTriangles, windDv, state);
    // Force fields: the same kick as step_fields, from x at the substep's start.
    for (size_t i = 0; i < n && fieldCount > 0; ++i)
      state.v[i] += glm::vec4(clm::field_vertex_dv(glm::vec3(state.x[i]), state.x[i].w, fields.data(), fieldCount, h),
                              0.0f);
    for (size_t i = 0; i < n; ++i) {
      const glm::vec4 x = state.x[i];
      state.xPrev[i] = x;
      state.xInertial[i] =
          x.w > 0.0f ? glm::vec4(clm::step_inertial_target(glm::vec3(x), glm::vec3(state.v[i]), g, h), x.w) : x;
    }
    out.stages[Stage::Predict] += msSince(t0);

    t0 = Clock::now();
    if (settings.step.constraints.bodyContacts)
      detectBodyContacts(model, settings.bodyContacts, state);
    else if (state.bodyContacts.active > 0)
      clearBodyContacts(state.bodyContacts);
    out.stages[Stage::BodyContacts] += msSince(t0);
    out.bodyContacts = state.bodyContacts.active;
    out.bodyContactOverflow = state.bodyContacts.overflow;

    t0 = Clock::now();
    out.residualHistory.clear();  // keeps the last substep's history
    out.maxViolation = 0.0f;
    solver.solveSubstep(model, settings, h, state, out);
    // Motion and separation spheres, after every solver's solve alike (core/sim/sphere_constraints.h).
    if (state.spheres.active())
      projectSpheres(state.spheres, float(s + 1) / float(substeps), sphereSubstepStiffness(state.spheres.stiffness, h),
                     state.x);
    out.stages[Stage::Solve] += msSince(t0);

    t0 = Clock::now();
    int64_t bad = -1;
    for (size_t i = 0; i < n; ++i) {
      const glm::vec4 x = state.x[i];
      glm::vec3 v = clm::step_end_velocity(glm::vec3(x), glm::vec3(state.xPrev[i]), glm::vec3(state.xInertial[i]),
                                           glm::vec3(state.v[i]), g, h, x.w);
      v *= damping;
      state.v[i] = glm::vec4(v, 0.0f);
      if (bad < 0 && !(finite3(x) && finite3(state.v[i]))) bad = int64_t(i);
    }
    out.stages[Stage::Velocity] += msSince(t0);
    if (bad >= 0) {
      out.finite = false;
      out.badVertex = bad;
      std::ostringstream msg;
      const glm::vec4 x = state.x[size_t(bad)];
      msg << "non-finite position/velocity at vertex " << bad << " (x = " << x.x << ", " << x.y << ", " << x.z
          << ") in substep " << s + 1 << " of " << substeps << " at t = " << state.time
          << " s; the step was rolled back. Try more substeps, a smaller dt, a softer material or another "
             "Hessian safeguard";
      out.problem = msg.str();
      for (size_t i = 0; i < n; ++i) {
        state.x[i] = state.xPrev[i];
        state.v[i] = glm::vec4(0.0f);
      }
      break;
    }
    state.time += double(h);
  }
  if (!out.residualHistory.empty()) out.residual = out.residualHistory.back();
  // Before the Rayleigh pass: the measure belongs to the step the solver took.
  if (out.finite) {
    const auto t0 = Clock::now();
    measureStepError(model, settings, h, state, out);
    out.stages[Stage::Energy] += msSince(t0);
  }

  // Material damping, once per frame and the same for every solver (core/sim/rayleigh_damping.h).
  if (out.finite) {
    const auto t0 = Clock::now();
    const RayleighDampingReport damping = applyRayleighDamping(model, settings.step.rayleigh,
                                                               springChoice(settings.step.constraints), settings.step.dt, state);
    out.dampingIterations = damping.iterations;
    out.dampingResidual = damping.relativeResidual;
    out.stages[Stage::Damping] = msSince(t0);
  }

  const auto t0 = Clock::now();
  out.energy = computeEnergy(model, settings, state);
  out.stages[Stage::Energy] += msSince(t0);
  out.stepMs = msSince(stepStart);
}

}  // namespace tetlab
