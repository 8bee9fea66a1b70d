#include "app/conformance/conformance_cases.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/model/generators.h"
#include "core/model/model_builder.h"
#include "core/sim/state_setup.h"
#include "core/sim/static_fem.h"

namespace tetlab {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kFrame = 1.0 / 60.0;  // the table's frame [s]
constexpr float kRho = 1000.0f;        // density of every case [kg/m^3]

std::string format(const char* fmt, double a, double b = 0.0, double c = 0.0) {
  char buf[256];
  std::snprintf(buf, sizeof buf, fmt, a, b, c);
  return buf;
}

// Whole frames covering at least `seconds`.
double wholeFrames(double seconds) { return std::ceil(seconds / kFrame - 1e-9) * kFrame; }

Scene oneBody(const std::string& name, TetMesh mesh, const Material& material) {
  Scene scene;
  scene.name = name;
  BodyDesc body{std::move(mesh), material, name};
  auto model = buildSimModel(std::span<const BodyDesc>(&body, 1));
  scene.model = std::move(model).value();  // the boxes below are always valid
  return scene;
}

double totalMass(const SimModel& m) {
  double M = 0.0;
  for (float mi : m.mass) M += mi;
  return M;
}

glm::dvec3 centerOfMass(const SimModel& m, const State& s) {
  glm::dvec3 c(0.0);
  for (uint32_t i = 0; i < m.vertexCount(); ++i) c += double(m.mass[i]) * glm::dvec3(glm::vec3(s.x[i]));
  return c / totalMass(m);
}

// Static settling with drag c = 2 omega (critical for the slowest mode): the
// drag force -m c v vanishes at rest, so the static answer is the undamped
// one; the run lasts 12 / omega (the slowest mode decays by e^-12 when
// critically damped), at least 0.5 s.
void settleWithDrag(CaseSetup& setup, double omega) {
  setup.scene.settings.step.velocityDamping = float(2.0 * omega);
  setup.seconds = wholeFrames(std::max(0.5, 12.0 / omega));
  setup.settles = true;
}

// ---- stiff free fall -------------------------------------------------------
// A 0.2 m cube (3^3 cells, 162 tets) falls from rest in free space for 0.5 s.
// Closed form: the centre of mass drops g t^2 / 2 (Newton), whatever E; the
// body stays undeformed (uniform gravity strains nothing), checked as a side
// condition: RMS shape change below 1 % of its size.
CaseSetup freeFall(float E) {
  CaseSetup s;
  const float size = 0.2f;
  s.scene = oneBody("free_fall", makeBoxTetMesh(glm::vec3(-0.5f * size), glm::vec3(size), {3, 3, 3}),
                    Material{E, 0.3f, kRho, 0.0f});
  s.scene.settings.colliders.ground.enabled = false;
  s.state = makeSceneState(s.scene);
  s.seconds = 0.5;
  const double g = 9.81;
  s.reference = 0.5 * g * s.seconds * s.seconds;
  s.errorScale = s.reference;
  s.measure = [size](const SimModel& m, const State& x, const std::vector<double>&, double) {
    const glm::dvec3 c = centerOfMass(m, x);
    glm::dvec3 restC(0.0);
    for (uint32_t i = 0; i < m.vertexCount(); ++i) restC += double(m.mass[i]) * glm::dvec3(m.restPositions[i]);
    restC /= totalMass(m);
    double sq = 0.0;
    for (uint32_t i = 0; i < m.vertexCount(); ++i) {
      const glm::dvec3 d = (glm::dvec3(glm::vec3(x.x[i])) - c) - (glm::dvec3(m.restPositions[i]) - restC);
      sq += glm::dot(d, d);
    }
    const double rms = std::sqrt(sq / m.vertexCount());
    CaseMeasure out{restC.y - c.y, ""};
    if (!(rms < 0.01 * size)) out.problem = format("the falling body deforms: RMS shape change %.2g m", rms);
    return out;
  };
  return s;
}

// ---- hanging bar -------------------------------------------------------------
// A 1 m bar of 0.1 x 0.1 m (2 x 20 x 2 cells, 480 tets) hangs from its pinned
// top face. nu = 0, so the pinned face does not restrain a lateral
// contraction and the bar is exactly one-dimensional. Closed form (1-D
// elasticity, strain rho g (L - s) / E at depth s): the free end moves
// delta = rho g L^2 / (2 E) = m g L / (2 E A). g_E gives a peak strain
// rho g L / E of 0.5 %.
CaseSetup hangingBar(float E) {
  CaseSetup s;
  const float L = 1.0f, w = 0.1f;
  s.scene = oneBody("hanging_bar", makeBoxTetMesh({-0.5f * w, -L, -0.5f * w}, {w, L, w}, {2, 20, 2}, CubeSplit::SixSymmetric),
                    Material{E, 0.0f, kRho, 0.0f});
  s.scene.settings.colliders.ground.enabled = false;
  const double g = 0.005 * E / (kRho * L);
  s.scene.settings.step.gravity = glm::vec3(0.0f, -float(g), 0.0f);
  for (uint32_t i = 0; i < s.scene.model.vertexCount(); ++i)
    if (s.scene.model.restPositions[i].y >= -1e-4f * L) s.scene.pinned.push_back(i);
  s.state = makeSceneState(s.scene);
  // Slowest mode: the first longitudinal one, omega = (pi / 2L) sqrt(E / rho).
  settleWithDrag(s, kPi / (2.0 * L) * std::sqrt(E / kRho));
  s.reference = kRho * g * L * L / (2.0 * E);
  s.errorScale = s.reference;
  auto tipDrop = [L](const SimModel& m, auto&& y) {
    double sum = 0.0;
    int n = 0;
    for (uint32_t i = 0; i < m.vertexCount(); ++i)
      if (m.restPositions[i].y <= -L + 1e-4f * L) {
        sum += double(m.restPositions[i].y) - y(i);
        ++n;
      }
    return sum / n;
  };
  const StaticFemResult fem = solveStaticFem(s.scene.model, s.scene.pinned, glm::dvec3(0.0, -g, 0.0));
  const double femTip = tipDrop(s.scene.model, [&](uint32_t i) { return s.scene.model.restPositions[i].y + fem.u[i].y; });
  s.note = format("g_E = %.3g m/s^2; the mesh's linear FEM gives %.4f of the closed form", g, femTip / s.reference);
  s.measure = [tipDrop](const SimModel& m, const State& x, const std::vector<double>&, double) {
    return CaseMeasure{tipDrop(m, [&](uint32_t i) { return double(x.x[i].y); }), ""};
  };
  return s;
}

// ---- cantilever ------------------------------------------------------------
// The `beam` preset (1 x 0.1 x 0.1 m, 20 x 2 x 2 cells, 480 tets, x = 0 face
// pinned), nu = 0.3, g_E = 0.08 E I / (rho A L^3) so Euler-Bernoulli's tip sag
// q L^3 / (8 E I) is 1 % of L. Reference: the centre-of-mass drop of the
// converged linear FEM of the same mesh (core/sim/static_fem.h), not beam
// theory: linear tets lock in bending, and this mesh's FEM is about half as
// soft as Euler-Bernoulli's q L^4 / (20 E I) (tests/cpu/cantilever_test.cpp).
struct Beam {
  Scene scene;
  double g = 0.0;
  double femDrop = 0.0;        // COM drop of the static FEM [m]
  double ebDrop = 0.0;         // Euler-Bernoulli COM drop q L^4 / (20 E I) [m]
  double omegaRayleigh = 0.0;  // the mesh's first bending mode from the FEM's static shape [rad/s]
  double omegaEb = 0.0;        // Euler-Bernoulli 1.875^2 sqrt(E I / (rho A L^4)) [rad/s]
};

Beam beam(float E) {
  Beam b;
  PresetOptions options;
  options.material = Material{E, 0.3f, kRho, 0.0f};
  b.scene = std::move(makePresetScene("beam", options)).value();
  const double L = 1.0, t = 0.1, A = t * t, I = t * t * t * t / 12.0;
  b.g = 0.08 * E * I / (kRho * A * L * L * L);
  b.scene.settings.step.gravity = glm::vec3(0.0f, -float(b.g), 0.0f);
  const StaticFemResult fem = solveStaticFem(b.scene.model, b.scene.pinned, glm::dvec3(0.0, -b.g, 0.0));
  b.femDrop = -meanDisplacement(b.scene.model, fem.u).y;
  const double q = kRho * b.g * A;
  b.ebDrop = q * L * L * L * L / (20.0 * E * I);
  // Rayleigh's quotient with the static shape u under the load f = m g:
  // omega^2 = f.u / (u^T M u) (= u^T K u / u^T M u); the static shape of a
  // uniformly loaded cantilever is within 0.1 % of the first mode's frequency
  // for beam theory (Rayleigh 1877; e.g. Timoshenko, Vibration Problems in
  // Engineering, Sec. 1.10).
  double fu = 0.0, uMu = 0.0;
  for (uint32_t i = 0; i < b.scene.model.vertexCount(); ++i) {
    fu += b.scene.model.mass[i] * b.g * -fem.u[i].y;
    uMu += b.scene.model.mass[i] * glm::dot(fem.u[i], fem.u[i]);
  }
  b.omegaRayleigh = std::sqrt(fu / uMu);
  b.omegaEb = 1.875104 * 1.875104 * std::sqrt(E * I / (kRho * A * L * L * L * L));
  return b;
}

double comDrop(const SimModel& m, const State& s) {
  double M = 0.0, drop = 0.0;
  for (uint32_t i = 0; i < m.vertexCount(); ++i) {
    M += m.mass[i];
    drop += m.mass[i] * (double(m.restPositions[i].y) - double(s.x[i].y));
  }
  return drop / M;
}

CaseSetup cantilever(float E) {
  Beam b = beam(E);
  CaseSetup s;
  s.scene = std::move(b.scene);
  s.state = makeSceneState(s.scene);
  settleWithDrag(s, b.omegaRayleigh);
  s.reference = b.femDrop;
  s.errorScale = b.femDrop;
  s.note = format("g_E = %.3g m/s^2; the mesh's FEM sags %.3f of Euler-Bernoulli (locking)", b.g, b.femDrop / b.ebDrop);
  s.measure = [](const SimModel& m, const State& x, const std::vector<double>&, double) {
    return CaseMeasure{comDrop(m, x), ""};
  };
  return s;
}

// ---- first bending mode --------------------------------------------------------
// The same beam released straight and at rest under g_E, undamped: it
// oscillates about its static sag, almost purely in the first bending mode
// (the uniform load's static shape). The period is fitted from the extrema
// of the centre-of-mass height over 2.75 periods. Reference: the mesh's own
// first-mode period 2 pi / omega_R (Rayleigh's quotient of its static FEM
// shape, above), because this mesh locks: its period is ~0.7 of
// Euler-Bernoulli's 2 pi / (1.875^2 sqrt(E I / (rho A L^4))), a gap no solver
// can close (the note gives it). The run is also the energy case: undamped and
// unforced but by gravity, its total energy may not rise (core/sim/convergence.h).
CaseMeasure fitPeriod(const std::vector<double>& y, double sampleDt, double expectedPeriod) {
  const int w = std::max(1, int(0.25 * expectedPeriod / sampleDt));
  std::vector<double> times;
  for (int i = w; i + w < int(y.size()); ++i) {
    bool isMax = true, isMin = true;
    for (int j = i - w; j <= i + w && (isMax || isMin); ++j) {
      if (j == i) continue;
      // Strict on the left, loose on the right: a plateau counts once.
      if (j < i ? y[j] >= y[i] : y[j] > y[i]) isMax = false;
      if (j < i ? y[j] <= y[i] : y[j] < y[i]) isMin = false;
    }
    if (!isMax && !isMin) continue;
    // Parabola through the three samples around the extremum.
    const double den = y[i - 1] - 2.0 * y[i] + y[i + 1];
    const double shift = den != 0.0 ? 0.5 * (y[i - 1] - y[i + 1]) / den : 0.0;
    times.push_back((i + std::clamp(shift, -0.5, 0.5)) * sampleDt);
  }
  if (times.size() < 2)
    return CaseMeasure{0.0, format("no oscillation: %.0f extrema of the tip in %.2g expected periods", double(times.size()),
                                   y.size() * sampleDt / expectedPeriod)};
  return CaseMeasure{2.0 * (times.back() - times.front()) / double(times.size() - 1), ""};
}

CaseSetup bendingMode(float E) {
  Beam b = beam(E);
  CaseSetup s;
  s.scene = std::move(b.scene);
  s.state = makeSceneState(s.scene);
  const double period = 2.0 * kPi / b.omegaRayleigh;
  s.seconds = 2.75 * period;  // extrema at T/2, T, ..., 5T/2
  s.sampleInterval = period / 40.0;
  s.reference = period;
  s.errorScale = period;
  s.undamped = true;
  s.note = format("Euler-Bernoulli period %.4g s; the mesh's FEM period is %.3f of it (locking)", 2.0 * kPi / b.omegaEb,
                  b.omegaEb / b.omegaRayleigh);
  s.probe = [](const SimModel& m, const State& x) { return -comDrop(m, x); };
  s.measure = [period](const SimModel&, const State&, const std::vector<double>& y, double dt) {
    return fitPeriod(y, dt, period);
  };
  return s;
}

// ---- slope -----------------------------------------------------------------------
// A 10 cm block (2^3 cells, 48 tets) resting on the ground, gravity tilted by
// theta = 20 deg (the same as a 20 deg slope; tests/friction_scenes.h). Coulomb:
// it slides when mu < tan(theta) = 0.364 with a = g (sin theta - mu cos theta),
// d(t) = a t^2 / 2; it sticks when mu >= tan(theta).
constexpr double kTheta = 20.0 * kPi / 180.0;

CaseSetup slope(float E, float mu) {
  CaseSetup s;
  s.scene = oneBody("slope", makeBoxTetMesh({-0.05f, 0.0f, -0.05f}, glm::vec3(0.1f), {2, 2, 2}),
                    Material{E, 0.3f, kRho, 0.0f});
  const double g = 9.81;
  s.scene.settings.step.gravity = float(g) * glm::vec3(std::sin(kTheta), -std::cos(kTheta), 0.0f);
  s.scene.settings.colliders.ground.friction = mu;
  s.state = makeSceneState(s.scene);
  s.seconds = 1.0;
  s.measure = [](const SimModel& m, const State& x, const std::vector<double>&, double) {
    double restX = 0.0;
    for (uint32_t i = 0; i < m.vertexCount(); ++i) restX += m.mass[i] * m.restPositions[i].x;
    return CaseMeasure{centerOfMass(m, x).x - restX / totalMass(m), ""};
  };
  return s;
}

CaseSetup slopeSlide(float E) {
  const float mu = 0.2f;
  CaseSetup s = slope(E, mu);
  s.reference = 0.5 * 9.81 * (std::sin(kTheta) - mu * std::cos(kTheta)) * s.seconds * s.seconds;
  s.errorScale = s.reference;
  return s;
}

// Sticking: the reference is no motion; the error is the creep in 1 s as a
// fraction of the block's 10 cm size (5 %: 5 mm; the elastic shear of the
// block under the tangential load moves its centre by < 0.5 mm at E = 1e5).
CaseSetup slopeStick(float E) {
  CaseSetup s = slope(E, 0.5f);
  s.reference = 0.0;
  s.errorScale = 0.1;
  return s;
}

// ---- two bodies colliding in free space --------------------------------------------
// Two 10 cm blocks (2^3 cells each), no gravity, no ground: A at 1 m/s hits B
// at rest 2 cm away (tests/cpu/body_contact_physics_test.cpp). Contact forces
// are internal, so the total momentum stays m_A v0 (Newton's third law) over
// 0.5 s; side conditions: B carries at least a quarter of it (the contact
// pushes, rather than one body passing through) and nothing goes sideways.
CaseSetup collision(float E) {
  CaseSetup s;
  s.scene.name = "collision";
  const Material material{E, 0.3f, kRho, 0.0f};
  std::vector<BodyDesc> bodies{
      BodyDesc{makeBoxTetMesh({-0.12f, 0.0f, -0.05f}, glm::vec3(0.1f), {2, 2, 2}), material, "a"},
      BodyDesc{makeBoxTetMesh({0.0f, 0.0f, -0.05f}, glm::vec3(0.1f), {2, 2, 2}), material, "b"}};
  s.scene.model = std::move(buildSimModel(std::span<const BodyDesc>(bodies.data(), bodies.size()))).value();
  s.scene.settings.step.gravity = glm::vec3(0.0f);
  s.scene.settings.colliders.ground.enabled = false;
  s.state = makeSceneState(s.scene);
  double massA = 0.0;
  for (uint32_t i = 0; i < s.scene.model.vertexCount(); ++i)
    if (s.scene.model.vertexBody[i] == 0) {
      s.state.v[i] = glm::vec4(1.0f, 0.0f, 0.0f, 0.0f);
      massA += s.scene.model.mass[i];
    }
  s.seconds = 0.5;
  s.reference = massA * 1.0;
  s.errorScale = s.reference;
  s.undamped = true;
  const double p0 = s.reference;
  s.measure = [p0](const SimModel& m, const State& x, const std::vector<double>&, double) {
    glm::dvec3 p(0.0), pB(0.0);
    for (uint32_t i = 0; i < m.vertexCount(); ++i) {
      const glm::dvec3 pi = double(m.mass[i]) * glm::dvec3(glm::vec3(x.v[i]));
      p += pi;
      if (m.vertexBody[i] == 1) pB += pi;
    }
    CaseMeasure out{p.x, ""};
    if (pB.x < 0.25 * p0) out.problem = format("B carries %.2f of the momentum: the contact did not push it", pB.x / p0);
    if (std::hypot(p.y, p.z) > 0.05 * p0) out.problem = format("sideways momentum %.2g of m v0", std::hypot(p.y, p.z) / p0);
    return out;
  };
  return s;
}

// ---- volume at nu = 0.49 ----------------------------------------------------------------
// A 10 cm block (3^3 cells, 162 tets) on the ground under a plate of 20 x its
// mass spread over its top vertices (tests/cpu/volume_test.cpp), g_E
// squeezing it by ~5 %. Linear elasticity, uniaxial stress: dV/V = (1 - 2 nu)
// eps_axial, so the volumetric strain per unit squeeze is -(1 - 2 nu) = -0.02
// (a nu = 0.3 material: -0.4). The error is |dV/V / eps + 0.02|, absolute
// (the scale is the squeeze itself): 5 % means the volume changes by less than
// 0.07 eps. Ground friction restrains the bottom face, which only moves the
// answer towards 0 (more confined, less volume change).
CaseSetup volume(float E) {
  CaseSetup s;
  const float size = 0.1f, nu = 0.49f;
  const uint32_t n = 3;
  s.scene = oneBody("volume", makeBoxTetMesh({-0.05f, 0.0f, -0.05f}, glm::vec3(size), glm::uvec3(n)),
                    Material{E, nu, kRho, 0.0f});
  SimModel& m = s.scene.model;
  const float plateMass = 20.0f, cell = size / n;
  for (uint32_t i = 0; i < m.vertexCount(); ++i) {
    const glm::vec3 p = m.restPositions[i];
    if (p.y < size - 1e-3f * cell) continue;
    const bool edgeX = std::fabs(std::fabs(p.x) - 0.05f) < 1e-3f * cell;
    const bool edgeZ = std::fabs(std::fabs(p.z) - 0.05f) < 1e-3f * cell;
    const float share = (edgeX ? 0.5f : 1.0f) * (edgeZ ? 0.5f : 1.0f) * cell * cell;
    m.mass[i] += plateMass * share / (size * size);
  }
  // Pressure plateMass g / size^2 = 0.05 E.
  const double g = 0.05 * E * size * size / plateMass;
  s.scene.settings.step.gravity = glm::vec3(0.0f, -float(g), 0.0f);
  s.state = makeSceneState(s.scene);
  // Slowest mode: the plate bouncing on the block, omega = sqrt(E A / (H m_plate)).
  settleWithDrag(s, std::sqrt(E * size * size / (size * plateMass)));
  s.reference = -(1.0 - 2.0 * nu);
  s.errorScale = 1.0;
  s.note = format("g_E = %.3g m/s^2", g);
  s.measure = [size](const SimModel& model, const State& x, const std::vector<double>&, double) {
    double V0 = 0.0, V = 0.0, top = 0.0;
    int nTop = 0;
    for (uint32_t t = 0; t < model.tetCount(); ++t) {
      const glm::uvec4 k = model.tets[t];
      const glm::dvec3 p0 = glm::vec3(x.x[k.x]);
      V += glm::dot(glm::dvec3(glm::vec3(x.x[k.y])) - p0,
                    glm::cross(glm::dvec3(glm::vec3(x.x[k.z])) - p0, glm::dvec3(glm::vec3(x.x[k.w])) - p0)) / 6.0;
      V0 += model.restVolume[t];
    }
    for (uint32_t i = 0; i < model.vertexCount(); ++i)
      if (model.restPositions[i].y >= size - 1e-4f) {
        top += x.x[i].y;
        ++nTop;
      }
    const double eps = 1.0 - top / nTop / size;
    CaseMeasure out{(V / V0 - 1.0) / eps, ""};
    if (!(eps > 0.01)) out.problem = format("the plate squeezes the block by only %.2g", eps);
    return out;
  };
  return s;
}

std::vector<ConformanceCase> makeCases() {
  return {
      {"free_fall", "stiff free fall", "centre-of-mass drop of a 0.2 m cube after 0.5 s in free space: g t^2 / 2", 0.05,
       freeFall},
      {"hanging_bar", "hanging bar stretch",
       "end displacement of a 1 m bar hanging from its top face, nu = 0: m g L / (2 E A) = rho g L^2 / (2 E)", 0.05,
       hangingBar},
      {"cantilever", "cantilever sag", "centre-of-mass drop of the beam preset against the static linear FEM of its mesh",
       0.05, cantilever},
      {"bending_mode", "first bending mode",
       "period of the beam's free vibration against the mesh's first-mode period (Euler-Bernoulli in the notes)", 0.05,
       bendingMode},
      {"slope_slide", "slope, sliding (mu = 0.2)",
       "distance slid in 1 s on a 20 deg slope: g (sin theta - mu cos theta) t^2 / 2", 0.05, slopeSlide},
      {"slope_stick", "slope, sticking (mu = 0.5)",
       "creep in 1 s on a 20 deg slope with mu > tan theta: 0 (error relative to the 10 cm block)", 0.05, slopeStick},
      {"collision", "momentum of two colliding bodies",
       "total momentum 0.5 s after a 1 m/s block hits another in free space: m_A v0", 0.05, collision},
      {"volume", "volume at nu = 0.49",
       "volumetric strain per unit squeeze of a block under a plate: -(1 - 2 nu) (error absolute)", 0.05, volume},
  };
}

}  // namespace

const std::vector<ConformanceCase>& conformanceCases() {
  static const std::vector<ConformanceCase> cases = makeCases();
  return cases;
}

const ConformanceCase* findConformanceCase(std::string_view id) {
  for (const ConformanceCase& c : conformanceCases())
    if (c.id == id) return &c;
  return nullptr;
}

}  // namespace tetlab
