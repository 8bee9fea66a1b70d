// The common error measure (step_error.h): one pass of VBD's per-vertex
// assembly (common/vbd_assembly.clh, the material's energy) at the end state,
// and a second with every coordinate one ulp away for the float floor. The
// assembly's Hessian is built and unused (one code path for the forces).
#include "core/sim/step_error.h"

#include <cmath>

#include "core/model/body_constants.h"
#include "core/model/cloth_bending.h"
#include "core/model/cloth_membrane.h"
#include "shaders/cl/common/colliders.clh"

namespace tetlab {
namespace {

// Whether vertex i touches a collider: within the contact band of either
// family, widened by its own last motion and one gravity step (a vertex PBD
// projected onto the ground sits exactly at the offset).
bool touchesCollider(const ColliderRecords& colliders, const SolverSettings& settings, glm::vec3 x, glm::vec3 xt,
                     float h) {
  const float band = std::max(settings.vbd.contactThickness, settings.positionBased.contactOffset) +
                     glm::length(x - xt) + h * h * glm::length(settings.step.gravity);
  for (uint32_t k = 0; k < colliders.count(); ++k) {
    glm::vec3 n;
    float mu;
    if (clm::collider_sample(colliders.data.data(), k, x, &n, &mu) < band) return true;
  }
  return false;
}

// h^2 r_i / m_i of one free vertex (VBD's assembly: f = r_i).
glm::vec3 inertiaStep(const SimModel& model, const SolverSettings& settings, const StepErrorScratch& s, float h,
                      const State& state, uint32_t i) {
  const ConstraintToggles& on = settings.step.constraints;
  const HessianSafeguard guard = HessianSafeguard::None;  // only f is read
  VbdVertexSystem sys;
  vbdAddInertia(1.0f / state.x[i].w, h, glm::vec3(state.x[i]), glm::vec3(state.xInertial[i]), sys);
  if (on.neoHookean || on.tetVolume || on.strainBased) vbdAddTets(model, state, s.materials, i, sys);
  if (anyEdgeSprings(model, springChoice(on))) vbdAddSprings(model, state, s.materials, i, guard, sys);
  if (clothMembraneOn(model, on.membrane)) vbdAddMembranes(model, state, s.materials, i, guard, sys);
  if (clothBendingOn(model, on.bending)) vbdAddHinges(model, state, s.materials, i, sys);
  vbdAddAnchorSprings(state, i, guard, sys);
  const Attachment& mouse = state.mouse;
  if (mouse.active)
    for (size_t k = 0; k < mouse.vertices.size() && k < mouse.weights.size(); ++k)
      if (mouse.vertices[k] == i)
        clm::vbd_add_attachment(attachmentOffset(mouse, state), mouse.weights[k], mouse.stiffness, mouse.maxForce,
                                &sys.f, &sys.H);
  return sys.f * (h * h * state.x[i].w);
}

// The floor's perturbation: one ulp up or down, a fixed sign per coordinate,
// undone exactly by the opposite nextafter.
float ulpStep(float v, uint32_t i, int c, bool undo) {
  const bool up = ((i * 3u + uint32_t(c)) * 2654435761u >> 31) != 0u;
  return std::nextafter(v, (up != undo) ? INFINITY : -INFINITY);
}

void perturb(State& state, bool undo) {
  for (uint32_t i = 0; i < state.x.size(); ++i)
    for (int c = 0; c < 3; ++c) state.x[i][c] = ulpStep(state.x[i][c], i, c, undo);
}

// The vertex-to-element lists the assembly walks exist for every family
// present (a hand-built model may carry elements without them).
bool adjacencyReady(const Csr& c, size_t elements, uint32_t n) { return elements == 0 || c.offsets.size() == n + 1u; }

bool modelReady(const SimModel& m) {
  const uint32_t n = m.vertexCount();
  return adjacencyReady(m.vertexTets, m.tets.size(), n) && adjacencyReady(m.vertexEdges, m.edges.size(), n) &&
         adjacencyReady(m.vertexMembranes, m.membranes.size(), n) && adjacencyReady(m.vertexHinges, m.hinges.size(), n);
}

}  // namespace

void measureStepError(const SimModel& model, const SolverSettings& settings, float h, State& state,
                      StepDiagnostics& out) {
  StepError& e = out.stepError;
  e = {};
  // Tethers and motion spheres are projections, not energies: no residual to take.
  if (settings.step.constraints.tethers || state.spheres.active() || !(h > 0.0f) || !modelReady(model)) return;
  if (!out.stepErrorScratch.p) out.stepErrorScratch.p = std::make_shared<StepErrorScratch>();
  StepErrorScratch& s = *out.stepErrorScratch.p;
  s.materials.refresh(model, springChoice(settings.step.constraints));
  if (settings.step.constraints.collisions)
    packColliders(settings.colliders, s.colliders);
  else
    s.colliders = {};
  const uint32_t n = model.vertexCount();
  s.d.assign(n, glm::vec3(NAN));
  const BodyContacts& bc = state.bodyContacts;
  const bool bodyContacts = settings.step.constraints.bodyContacts && bc.vertexCount.size() == n;
  double err2 = 0.0, scale2 = 0.0, mass = 0.0;
  for (uint32_t i = 0; i < n; ++i) {
    if (!(state.x[i].w > 0.0f)) continue;
    const glm::vec3 x(state.x[i]), xt(state.xPrev[i]);
    const bool touching = (bodyContacts && bc.vertexCount[i] > 0) || touchesCollider(s.colliders, settings, x, xt, h);
    const glm::vec3 d = touching ? glm::vec3(NAN) : inertiaStep(model, settings, s, h, state, i);
    if (!(std::isfinite(d.x) && std::isfinite(d.y) && std::isfinite(d.z))) {
      ++e.excluded;
      continue;
    }
    s.d[i] = d;
    const double m = model.mass[i];
    err2 += m * double(glm::dot(d, d));
    scale2 += m * double(glm::dot(x - xt, x - xt));
    mass += m;
    e.max = std::max(e.max, glm::length(d));
    ++e.vertices;
  }
  if (e.vertices == 0 || !(mass > 0.0)) return;
  perturb(state, false);
  double floor2 = 0.0;
  for (uint32_t i = 0; i < n; ++i) {
    if (std::isnan(s.d[i].x)) continue;
    const glm::vec3 d = inertiaStep(model, settings, s, h, state, i) - s.d[i];
    floor2 += double(model.mass[i]) * double(glm::dot(d, d));
  }
  perturb(state, true);
  e.measured = true;
  e.error = float(std::sqrt(err2 / mass));
  e.scale = float(std::sqrt(scale2 / mass));
  e.floor = float(std::sqrt(floor2 / mass));
}

}  // namespace tetlab
