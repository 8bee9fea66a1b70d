// The common error measure (step_error.h): one pass of VBD's per-vertex
// assembly (common/vbd_assembly.clh, the material's energy) at the end state,
// and a second with every coordinate one ulp away for the float floor. The
// assembly's Hessian is built and unused (one code path for the forces).
#include "core/sim/step_error.h"

#include <cmath>

#include "core/model/body_constants.h"
#include "core/model/cloth_bending.h"
#include "core/model/cloth_membrane.h"
#include "core/sim/rayleigh_damping.h"
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

bool tetsOn(const ConstraintToggles& on) { return on.neoHookean || on.tetVolume || on.strainBased; }

// r_i = -dG/dx_i of one free vertex [N] (VBD's assembly: f = r_i). The
// terms K (applyElementStiffness) does not hold (hinges, anchor springs, the
// mouse) put their per-vertex Hessian block in *outside when it is given.
glm::vec3 residualOf(const SimModel& model, const SolverSettings& settings, const StepErrorScratch& s, float h,
                     const State& state, uint32_t i, clm::Sym3* outside = nullptr) {
  const ConstraintToggles& on = settings.step.constraints;
  // A safeguard changes only the Hessian blocks: sys's are never read (K
  // holds those terms), rest's enter H and must be PSD.
  const HessianSafeguard unread = HessianSafeguard::None, psd = HessianSafeguard::EigenClampPsd;
  VbdVertexSystem sys, rest;
  vbdAddInertia(1.0f / state.x[i].w, h, glm::vec3(state.x[i]), glm::vec3(state.xInertial[i]), sys);
  if (tetsOn(on)) vbdAddTets(model, state, s.materials, i, sys);
  if (anyEdgeSprings(model, springChoice(on))) vbdAddSprings(model, state, s.materials, i, unread, sys);
  if (clothMembraneOn(model, on.membrane)) vbdAddMembranes(model, state, s.materials, i, unread, sys);
  if (clothBendingOn(model, on.bending)) vbdAddHinges(model, state, s.materials, i, rest);
  vbdAddAnchorSprings(state, i, psd, rest);
  const Attachment& mouse = state.mouse;
  if (mouse.active)
    for (size_t k = 0; k < mouse.vertices.size() && k < mouse.weights.size(); ++k)
      if (mouse.vertices[k] == i)
        clm::vbd_add_attachment(attachmentOffset(mouse, state), mouse.weights[k], mouse.stiffness, mouse.maxForce,
                                &rest.f, &rest.H);
  if (outside) *outside = rest.H;
  return sys.f + rest.f;
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

double dot3(glm::vec4 a, glm::vec4 b) { return double(a.x) * b.x + double(a.y) * b.y + double(a.z) * b.z; }

// d = H^-1 b on the measured vertices (the others held: d_i = 0), H = M / h^2
// + K at state.x plus the per-vertex blocks of the terms K lacks, by
// conjugate gradients preconditioned with M / h^2. From d = 0 every
// iterate's H-norm grows toward the answer's, so a truncated solve
// under-states |d| a little, never more. Without K (tets switched off, whose
// stiffness the operator would still hold) it is the inertia-only bound
// h^2 b_i / m_i. A direction of non-positive curvature (compressed past
// Neo-Hookean's convex range) stops the solve where it stands.
void newtonStep(const SimModel& model, const SolverSettings& settings, float h, const State& state,
                StepErrorScratch& s, const std::vector<glm::vec4>& b, std::vector<glm::vec4>& d) {
  const uint32_t n = model.vertexCount();
  const float h2 = h * h;
  auto measured = [&](uint32_t i) { return !std::isnan(s.d[i].x); };
  auto precondition = [&](uint32_t i, glm::vec4 v) { return measured(i) ? v * (h2 / model.mass[i]) : glm::vec4(0.0f); };
  d.assign(n, glm::vec4(0.0f));
  const ConstraintToggles& on = settings.step.constraints;
  const bool withK = tetsOn(on) || model.tetCount() == 0;
  if (!withK) {
    for (uint32_t i = 0; i < n; ++i) d[i] = precondition(i, b[i]);
    return;
  }
  const bool springs = anyEdgeSprings(model, springChoice(on));
  const bool membranes = clothMembraneOn(model, on.membrane);
  s.r = b;
  s.p.assign(n, glm::vec4(0.0f));
  s.q.assign(n, glm::vec4(0.0f));
  double rz = 0.0;
  for (uint32_t i = 0; i < n; ++i) {
    s.p[i] = precondition(i, s.r[i]);
    rz += dot3(s.r[i], s.p[i]);
  }
  const double rz0 = rz;
  for (int k = 0; k < kStepErrorCgIterations && rz > kStepErrorCgTolerance * kStepErrorCgTolerance * rz0; ++k) {
    applyElementStiffness(model, s.unitBodies, s.materials.dmInv, s.materials.edgeStiffness, springs, membranes, state,
                          s.p, s.corner, s.q);
    double pq = 0.0;
    for (uint32_t i = 0; i < n; ++i) {
      s.q[i] = measured(i) ? s.q[i] + s.p[i] * (model.mass[i] / h2) +
                                 glm::vec4(clm::sym3_mul_vec(s.outside[i], glm::vec3(s.p[i])), 0.0f)
                           : glm::vec4(0.0f);
      pq += dot3(s.p[i], s.q[i]);
    }
    if (!(pq > 0.0)) break;
    const float alpha = float(rz / pq);
    double next = 0.0;
    for (uint32_t i = 0; i < n; ++i) {
      d[i] += alpha * s.p[i];
      s.r[i] -= alpha * s.q[i];
      next += dot3(s.r[i], precondition(i, s.r[i]));
    }
    const float beta = float(next / rz);
    rz = next;
    for (uint32_t i = 0; i < n; ++i) s.p[i] = precondition(i, s.r[i]) + beta * s.p[i];
  }
}

double massWeightedSquare(const SimModel& model, const StepErrorScratch& s, const std::vector<glm::vec4>& d) {
  double sum = 0.0;
  for (uint32_t i = 0; i < model.vertexCount(); ++i)
    if (!std::isnan(s.d[i].x)) sum += double(model.mass[i]) * dot3(d[i], d[i]);
  return sum;
}

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
  if (settings.step.constraints.tethers) {
    e.unmeasured = "tethers are on (a projection, not an energy)";
    return;
  }
  if (state.spheres.active()) {
    e.unmeasured = "motion or separation spheres are on (a projection, not an energy)";
    return;
  }
  if (!(h > 0.0f) || !modelReady(model)) {
    e.unmeasured = h > 0.0f ? "the model has no vertex-to-element lists" : "the step has no length";
    return;
  }
  if (!out.stepErrorScratch.p) out.stepErrorScratch.p = std::make_shared<StepErrorScratch>();
  StepErrorScratch& s = *out.stepErrorScratch.p;
  s.materials.refresh(model, springChoice(settings.step.constraints));
  if (settings.step.constraints.collisions)
    packColliders(settings.colliders, s.colliders);
  else
    s.colliders = {};
  s.unitBodies = s.materials.bodies;
  for (glm::vec4& body : s.unitBodies) body.z = 1.0f;  // K itself (applyElementStiffness)
  const uint32_t n = model.vertexCount();
  s.d.assign(n, glm::vec3(NAN));  // NaN: held, in contact or not finite
  s.b.assign(n, glm::vec4(0.0f));
  s.outside.assign(n, clm::sym3_zero());
  const BodyContacts& bc = state.bodyContacts;
  const bool bodyContacts = settings.step.constraints.bodyContacts && bc.vertexCount.size() == n;
  double scale2 = 0.0, mass = 0.0;
  const double gravityStep2 = std::pow(double(h) * double(h) * double(glm::length(settings.step.gravity)), 2.0);
  for (uint32_t i = 0; i < n; ++i) {
    if (!(state.x[i].w > 0.0f)) continue;
    const glm::vec3 x(state.x[i]), xt(state.xPrev[i]);
    const bool touching = (bodyContacts && bc.vertexCount[i] > 0) || touchesCollider(s.colliders, settings, x, xt, h);
    const glm::vec3 r = touching ? glm::vec3(NAN) : residualOf(model, settings, s, h, state, i, &s.outside[i]);
    if (!(std::isfinite(r.x) && std::isfinite(r.y) && std::isfinite(r.z))) {
      ++e.excluded;
      continue;
    }
    s.d[i] = r;
    s.b[i] = glm::vec4(r, 0.0f);
    const double m = model.mass[i];
    const glm::vec3 fromInertia = x - glm::vec3(state.xInertial[i]);
    scale2 += m * (double(glm::dot(fromInertia, fromInertia)) + gravityStep2);
    mass += m;
    ++e.vertices;
  }
  if (e.vertices == 0 || !(mass > 0.0)) {
    e.unmeasured = "every free vertex is held or touches a collider or another body";
    return;
  }
  // The floor's right-hand side: what one ulp of every coordinate changes r by.
  perturb(state, false);
  s.db.assign(n, glm::vec4(0.0f));
  for (uint32_t i = 0; i < n; ++i)
    if (!std::isnan(s.d[i].x)) s.db[i] = glm::vec4(residualOf(model, settings, s, h, state, i) - s.d[i], 0.0f);
  perturb(state, true);
  newtonStep(model, settings, h, state, s, s.b, s.step);
  const double err2 = massWeightedSquare(model, s, s.step);
  for (uint32_t i = 0; i < n; ++i)
    if (!std::isnan(s.d[i].x)) e.max = std::max(e.max, glm::length(glm::vec3(s.step[i])));
  newtonStep(model, settings, h, state, s, s.db, s.step);
  const double floor2 = massWeightedSquare(model, s, s.step);
  e.measured = true;
  e.error = float(std::sqrt(err2 / mass));
  e.scale = float(std::sqrt(scale2 / mass));
  e.floor = float(std::sqrt(floor2 / mass));
}

void measureReadBackStepError(const SimModel& model, const SolverSettings& settings, State& state,
                              StepDiagnostics& out) {
  if (settings.step.constraints.bodyContacts && out.bodyContacts > 0) {
    out.stepError = {};
    out.stepError.unmeasured = "bodies touch (the device's read-back does not hold which vertices)";
    return;
  }
  const float h = settings.step.dt / float(std::max(settings.step.substeps, 1));
  measureStepError(model, settings, h, state, out);
}

}  // namespace tetlab
