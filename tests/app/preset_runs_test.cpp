// Every preset in assets/scenes on every solver through the headless app,
// parsed from the command line a user would type:
//
//   tetlab --scene P.json --solver S [--backend opencl] --headless --frames N --screenshot P_S.png
//
// then App::create and main()'s loop (poll, new frame, UI, step, render), with
// the 3D view drawn only for the last frame: software GL is the slow part, and
// the simulation, input and UI run every frame exactly as in the app. One gtest
// case per (preset, solver[, backend]) so ctest runs them in parallel; presets
// are found in the folder, so a new one is covered without editing this file.
//
// N is what the scene needs (caseFrames): every body has done twice what its
// bound measures (landed and rested, swung out, sagged), every keyed event of
// its pins is past, and the late window follows; 1.5 s at least, 5 s (300
// frames) at most. Long runs are the soak's job (scripts/soak.sh); with
// TETLAB_LONG_TESTS=1 (scripts/long-tests.sh) every case runs the full 300.
//
// Asserted per body, with bounds derived from the scene itself (see BodyBound):
// finite and not blown up every frame, never below the ground, and it moved.
// The screenshots go to <build>/test-output/presets/P_S[_opencl].png.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>
#include <thread>
#include <unistd.h>


#include "tests/app/app_test_util.h"
#include "tests/app/body_pixels.h"
#include "app/app.h"
#include "app/commands/cli.h"
#include "core/model/cloth_bending.h"
#include "core/sim/collider_records.h"
#include "core/scene/enum_names.h"
#include "core/scene/scene_json.h"
#include "run_process.h"

namespace tetlab {
namespace {

namespace fs = std::filesystem;

const fs::path kAssets = fs::path(TETLAB_SOURCE_DIR) / "assets";
constexpr int kMaxFrames = 300;  // 5 s at the presets' 60 Hz
constexpr double kMinSeconds = 1.5;
constexpr double kG = 9.81;
constexpr double kPi = 3.14159265358979;
// OBJ bodies are tetrahedralized to about this many tets (the presets ask for
// 2000: 60 ms a PBD step on CI's cores, 18 s a run; the test is about the
// scene and the solvers, not the mesh resolution).
constexpr int kTestTets = 400;
// Below the ground by more than groundTolerance is a failure: 1 mm (the
// solvers' own contact tests, tests/cpu/contact_test.cpp), or, for a faster
// impact, half of what the fastest body travels in one substep, v h with
// v = sqrt(2 g d) after falling its clearance d. A vertex that reaches the
// ground inside a substep has gone that far in: PBD/XPBD project it out at
// once, VBD's 1e6 N/m penalty holds it within v sqrt(m / k) (0.4 mm for a 20 g
// bunny vertex at 2.8 m/s), and AVBD's first primal step with the penalty
// starting at k = m / h^2 (AVBD Eq. 10, kStartInertia = 1) removes half of the
// violation; its stabilisation then takes the rest out over the next substeps
// (AVBD Eq. 18), which is the "half of v h" AVBD shows right after an impact.
constexpr double kGroundToleranceFloor = 1e-3;  // [m]

using test::presetStems;

fs::path outputDir() {
  // TETLAB_EXE is <build>/tetlab.
  const fs::path dir = fs::path(TETLAB_EXE).parent_path() / "test-output" / "presets";
  fs::create_directories(dir);
  return dir;
}

// The preset as a file whose OBJ bodies are small and whose mesh paths are absolute (so it loads from anywhere).
fs::path testPresetFile(const std::string& stem, const fs::path& dir) {
  Result<SceneDesc> desc = loadSceneFile(kAssets / "scenes" / (stem + ".json"));
  EXPECT_TRUE(desc.ok()) << desc.error().message;
  if (!desc) return {};
  for (BodySpec& b : desc->bodies)
    if (b.source == BodySource::Mesh) {
      if (fs::path(b.meshPath).is_relative()) b.meshPath = (kAssets / b.meshPath).string();
      b.tets.targetTets = std::min(b.tets.targetTets, kTestTets);
    }
  const fs::path out = dir / (stem + ".json");
  EXPECT_TRUE(saveSceneFile(out, *desc).ok());
  return out;
}

// ---------------------------------------------------------------------------
// What "moved" means for one body, from the scene at frame 0.
//
//   free body (no pinned vertex): it falls its clearance d (vertical distance
//     from its vertices down to the first collider or other body's surface:
//     free fall is exact until then) and then rests, squeezed by its own
//     weight by s (a column of the body's mean cross-section V / H and its E,
//     each layer carrying the weight above it). Asserted: the mean centre-of-
//     mass drop over the last 0.5 s >= (d + s) / 2. The half allows for
//     tipping and rolling (moves the COM by a fraction of the body's size) and
//     for contact friction and Neo-Hookean stiffening under compression.
//   pinned body with an initial velocity: a pendulum of length L (pins to
//     COM) starting at v0 swings out to A = L sin(theta), cos(theta) =
//     1 - v0^2 / (2 g L). Asserted: the largest horizontal COM excursion >= A/2
//     (the swing is reached within a quarter period, before damping matters;
//     stretching the chain only lengthens L).
//   pinned body reaching out horizontally (L >= 2 H, L the largest horizontal
//     distance from a vertex to the nearest pin, H the height): a cantilever.
//     Euler-Bernoulli under its weight q = rho g A: w(x) = q x^2 (6 L^2 - 4 L x
//     + x^2) / (24 E I), mean over L q L^4 / (20 E I) = 0.6 rho g L^4 / (E H^2)
//     for a rectangle. Starting from rest under a constant load the largest
//     drop is at least the static one. Asserted: the largest COM drop >=
//     this / 5: linear tets two cells thick lock in bending (stiffer by a
//     factor of a few) and PBD's stiffness is not E.
//   pinned cloth sheet with bending, reaching out level: the same cantilever with EI = D w and
//     q = rho h g w: mean sag rho h g L^4 / (20 D), at most L / 2 (it hangs).
//     Asserted: the largest COM drop >= a fifth of it.
//   other pinned bodies: hanging from the pins, at least as compliant as a
//     column of its height held along its whole top (fewer constraints can
//     only soften it): COM drop rho g H^2 / (3 E). Asserted: the largest COM
//     drop >= half of it.
// ---------------------------------------------------------------------------
enum class BoundKind { Free, Pendulum, Cantilever, Hanging };

struct BodyBound {
  BoundKind kind = BoundKind::Free;
  double required = 0.0;   // [m], compared with the measure of the kind
  double clearance = 0.0;  // free body: how far it falls before touching anything [m]
  // When an ideal run has reached the measure: landed, a quarter swing, the
  // largest sag of the step load (half the first mode's period) [s].
  double eventTime = 0.0;
  std::string why;
};

struct BodyIndex {
  std::vector<std::vector<uint32_t>> vertices;  // per body
};

BodyIndex indexBodies(const SimModel& m) {
  BodyIndex out;
  for (uint32_t i = 0; i < m.vertexCount(); ++i) {
    const uint32_t b = m.vertexBody[i];
    if (b >= out.vertices.size()) out.vertices.resize(b + 1);
    out.vertices[b].push_back(i);
  }
  return out;
}

std::vector<glm::dvec3> centresOfMass(const SimModel& m, const State& s, const BodyIndex& bodies) {
  std::vector<glm::dvec3> out;
  for (const std::vector<uint32_t>& vs : bodies.vertices) {
    glm::dvec3 sum(0.0);
    double mass = 0.0;
    for (uint32_t i : vs) {
      sum += double(m.mass[i]) * glm::dvec3(glm::vec3(s.x[i]));
      mass += m.mass[i];
    }
    out.push_back(mass > 0.0 ? sum / mass : sum);
  }
  return out;
}

// Distance straight down from p to the first collider surface (sphere tracing the
// colliders' signed distance, exact for the analytic shapes); 0 when p is inside one.
double colliderClearance(const Colliders& colliderList, glm::vec3 p) {
  const ColliderRecords colliders = packColliders(colliderList);
  double t = 0.0;
  for (int k = 0; k < 512 && t < 1e3; ++k) {
    float phi = INFINITY;
    forEachCollider(colliders, p - glm::vec3(0.0f, float(t), 0.0f),
                    [&](const ColliderSample& s) { phi = std::min(phi, s.phi); });
    if (phi < 1e-5f) return std::max(0.0, t);
    t += phi;
  }
  return INFINITY;
}

// Distance straight down from p to a triangle (Moller-Trumbore with d = -y), or infinity.
double triangleClearance(glm::vec3 p, glm::vec3 a, glm::vec3 b, glm::vec3 c) {
  const glm::dvec3 dir(0.0, -1.0, 0.0);
  const glm::dvec3 e1 = glm::dvec3(b - a), e2 = glm::dvec3(c - a);
  const glm::dvec3 q = glm::cross(dir, e2);
  const double det = glm::dot(e1, q);
  if (std::fabs(det) < 1e-14) return INFINITY;
  const glm::dvec3 s = glm::dvec3(p - a);
  const double u = glm::dot(s, q) / det;
  if (u < 0.0 || u > 1.0) return INFINITY;
  const glm::dvec3 r = glm::cross(s, e1);
  const double v = glm::dot(dir, r) / det;
  if (v < 0.0 || u + v > 1.0) return INFINITY;
  const double t = glm::dot(e2, r) / det;
  return t >= 0.0 ? t : INFINITY;
}

double freeFallClearance(const SimModel& m, const State& s, const Colliders& colliders, uint32_t body,
                         const BodyIndex& bodies) {
  double d = INFINITY;
  for (uint32_t i : bodies.vertices[body]) {
    const glm::vec3 p(s.x[i]);
    d = std::min(d, colliderClearance(colliders, p));
    for (const glm::uvec3& t : m.boundaryTriangles) {
      if (m.vertexBody[t.x] == body) continue;
      d = std::min(d, triangleClearance(p, glm::vec3(s.x[t.x]), glm::vec3(s.x[t.y]), glm::vec3(s.x[t.z])));
    }
  }
  return d;
}

struct BodyShape {
  double mass = 0.0, volume = 0.0, height = 0.0, minY = INFINITY;
};

BodyShape shapeOf(const SimModel& m, const State& s, uint32_t body, const BodyIndex& bodies) {
  BodyShape out;
  double maxY = -INFINITY;
  for (uint32_t i : bodies.vertices[body]) {
    out.mass += m.mass[i];
    out.minY = std::min(out.minY, double(s.x[i].y));
    maxY = std::max(maxY, double(s.x[i].y));
  }
  for (uint32_t t = 0; t < m.tetCount(); ++t)
    if (m.tetBody[t] == body) out.volume += m.restVolume[t];
  for (size_t t = 0; t < m.clothTriangles.size(); ++t)  // a sheet: area x thickness
    if (m.clothTriangleBody[t] == body) out.volume += m.clothTriangleArea[t] * m.materials[body].thickness;
  for (size_t k = 0; k < m.strandSegments.size(); ++k)  // a strand: length x cross-section (diameter = thickness)
    if (m.strandSegmentBody[k] == body) {
      const double d = m.materials[body].thickness;
      out.volume += kPi * d * d / 4.0 *
                    glm::length(m.restPositions[m.strandSegments[k].x] - m.restPositions[m.strandSegments[k].y]);
    }
  out.height = maxY - out.minY;
  return out;
}

// COM drop of the body standing on its lowest point as a column of cross-section
// V / H: each height y carries the weight of the vertices above it (lumped masses,
// so heavy regions count), strain W(y) / (A E), integrated upwards.
double columnSag(const SimModel& m, const State& s, uint32_t body, const BodyIndex& bodies, const BodyShape& shape) {
  if (!(shape.height > 0.0)) return 0.0;  // a flat sheet lying level: no column to squeeze
  std::vector<uint32_t> vs = bodies.vertices[body];
  std::sort(vs.begin(), vs.end(), [&](uint32_t a, uint32_t b) { return s.x[a].y < s.x[b].y; });
  const double area = shape.volume / shape.height;
  const double E = m.materials[body].youngsModulus;
  double above = shape.mass, u = 0.0, weighted = 0.0;
  double y = s.x[vs.front()].y;
  for (uint32_t i : vs) {
    u += kG * above * (double(s.x[i].y) - y) / (area * E);
    y = s.x[i].y;
    weighted += m.mass[i] * u;
    above -= m.mass[i];
  }
  return weighted / shape.mass;
}

// Half the period of the mode a step load of gravity excites, from the static
// deflection it causes: omega^2 = g / delta (Rayleigh's quotient on the static
// shape; the tip deflection is used, the largest, so the period is not
// underestimated). A softer solver reaches a fifth of the stiff sag sooner
// still: delta_s (1 - cos omega_s t) = delta / 5 gives t ~ sqrt(0.4 delta / g).
double halfPeriodOfSag(double delta) { return kPi * std::sqrt(std::max(0.0, delta) / kG); }

BodyBound boundFor(const SimModel& m, const State& s, const SceneDesc& desc, const Colliders& colliders, uint32_t body,
                   const BodyIndex& bodies, glm::dvec3 com) {
  const BodyShape shape = shapeOf(m, s, body, bodies);
  std::vector<uint32_t> pinned;
  for (uint32_t i : bodies.vertices[body])
    if (s.x[i].w == 0.0f) pinned.push_back(i);
  const double E = m.materials[body].youngsModulus;
  const double rho = shape.mass / shape.volume;
  char why[256];
  BodyBound out;
  // Hung by anchor springs (core/sim/anchor_springs.h) of total stiffness K,
  // stretched by s0 at the start (their mean): released from rest it drops into
  // them by at least W / K - s0, what they still lack to carry it (an undamped
  // drop overshoots to twice that). A preset that starts at the hanging
  // balance needs no drop; the soft body's own sag between its springs comes on top.
  double springK = 0.0, springStretch = 0.0;
  std::vector<glm::vec4> subX;
  gatherSpringPositions(s.springs, s.x, subX);
  for (uint32_t k = 0; k < s.springs.springs.size(); ++k) {
    const AnchorSpring& sp = s.springs.springs[k];
    if (sp.body != body || sp.broken) continue;
    springK += sp.stiffness;
    springStretch += sp.stiffness * anchorSpringStrain(s.springs, k, subX) * sp.restLength;
  }
  if (pinned.empty() && springK > 0.0) {
    const double W = shape.mass * kG;
    const double s0 = springStretch / springK;  // stiffness-weighted mean stretch [m]
    out.kind = BoundKind::Hanging;
    out.required = 0.5 * std::max(0.0, W / springK - s0);
    out.eventTime = kPi * std::sqrt(shape.mass / springK);  // half the spring-mass period
    std::snprintf(why, sizeof(why),
                  "hung by springs of %.4g N/m in all, stretched %.4f m at the start: W / K - s0 = %.4f m, half of it",
                  springK, s0, W / springK - s0);
  } else if (pinned.empty()) {
    const double fallTime = kMaxFrames * double(desc.settings.step.dt);
    const double d = std::min(freeFallClearance(m, s, colliders, body, bodies), 0.5 * kG * fallTime * fallTime);
    const double sag = columnSag(m, s, body, bodies, shape);
    out.kind = BoundKind::Free;
    out.required = 0.5 * (d + sag);
    out.clearance = d;
    out.eventTime = std::sqrt(2.0 * d / kG);  // free fall to the first contact
    std::snprintf(why, sizeof(why), "free body: clearance %.4f m + own-weight column sag %.4f m, half of it", d, sag);
  } else {
    glm::dvec3 pin(0.0);
    for (uint32_t i : pinned) pin += glm::dvec3(glm::vec3(s.x[i]));
    pin /= double(pinned.size());
    const glm::vec3 v0 = body < desc.bodies.size() ? desc.bodies[body].initialVelocity : glm::vec3(0.0f);
    const double speed = glm::length(glm::vec2(v0.x, v0.z));
    double reach = 0.0;
    for (uint32_t i : bodies.vertices[body]) {
      double nearest = INFINITY;
      for (uint32_t j : pinned)
        nearest = std::min(nearest, double(glm::length(glm::vec2(s.x[i].x - s.x[j].x, s.x[i].z - s.x[j].z))));
      reach = std::max(reach, nearest);
    }
    if (speed > 0.0) {
      const double L = glm::length(com - pin);
      const double cosTheta = std::max(-1.0, 1.0 - speed * speed / (2.0 * kG * L));
      const double amplitude = L * std::sin(std::acos(cosTheta));
      out.kind = BoundKind::Pendulum;
      out.required = 0.5 * amplitude;
      out.eventTime = 0.5 * kPi * std::sqrt(L / kG);  // a quarter of the small-swing period
      std::snprintf(why, sizeof(why), "pendulum L = %.3f m, v0 = %.2f m/s: swing %.4f m, half of it", L, speed,
                    amplitude);
    } else if (m.isCloth(body) && reach >= 2.0 * shape.height && desc.settings.step.constraints.bending &&
               clothBendingStiffness(m.materials[body]) > 0.0f) {
      // A sheet's strip: EI = D w and q = rho h g w, so the mean sag is rho h g L^4 / (20 D);
      // past half its reach it simply hangs (the COM cannot drop more than about L / 2).
      const double D = clothBendingStiffness(m.materials[body]);
      const double beam = double(m.materials[body].density) * m.materials[body].thickness * kG * std::pow(reach, 4.0) /
                          (20.0 * D);
      out.kind = BoundKind::Cantilever;
      out.required = std::min(beam, 0.5 * reach) / 5.0;
      out.eventTime = halfPeriodOfSag(2.5 * std::min(beam, 0.5 * reach));
      std::snprintf(why, sizeof(why), "sheet cantilever L = %.3f m, D = %.3g N m: mean sag %.4f m (at most L/2), a fifth",
                    reach, D, beam);
    } else if (reach >= 2.0 * shape.height) {
      const double H = shape.height;
      const double beam = 0.6 * rho * kG * std::pow(reach, 4.0) / (E * H * H);
      out.kind = BoundKind::Cantilever;
      out.required = beam / 5.0;
      out.eventTime = halfPeriodOfSag(2.5 * beam);
      std::snprintf(why, sizeof(why), "cantilever L = %.3f m, H = %.3f m: Euler-Bernoulli mean sag %.4f m, a fifth",
                    reach, H, beam);
    } else {
      const double column = rho * kG * shape.height * shape.height / (3.0 * E);
      out.kind = BoundKind::Hanging;
      out.required = 0.5 * column;
      out.eventTime = halfPeriodOfSag(column);
      std::snprintf(why, sizeof(why), "hanging H = %.3f m: column sag %.4f m, half of it", shape.height, column);
    }
  }
  out.why = why;
  return out;
}

// What a body did over the run, in the measure of its kind.
struct BodyTrack {
  double maxDrop = 0.0;        // largest COM drop [m]
  double maxHorizontal = 0.0;  // largest horizontal COM excursion [m]
  double lateDrop = 0.0;       // mean COM drop over the last kLateFrames [m]
};
constexpr int kLateFrames = 30;

double measured(const BodyBound& b, const BodyTrack& t) {
  switch (b.kind) {
    case BoundKind::Free: return t.lateDrop;
    case BoundKind::Pendulum: return t.maxHorizontal;
    case BoundKind::Cantilever:
    case BoundKind::Hanging: return t.maxDrop;
  }
  return 0.0;
}

bool longRuns() {
  const char* v = std::getenv("TETLAB_LONG_TESTS");
  return v && *v && std::string(v) != "0";
}

// The frames a case runs (see the top of the file): twice the slowest body's
// event time, then 0.5 s to settle and the late window (0.5 s); past the last
// keyed pin event (a key, a release, a toggle) by 1 s, so a let-go body falls
// and lands; at least kMinSeconds, at most kMaxFrames.
int caseFrames(const std::vector<BodyBound>& bounds, const SceneDesc& desc, double dt) {
  if (longRuns()) return kMaxFrames;
  const double window = kLateFrames * dt;
  double seconds = kMinSeconds;
  for (const BodyBound& b : bounds) seconds = std::max(seconds, 2.0 * b.eventTime + 0.5 + window);
  for (const BodySpec& body : desc.bodies)
    for (const PinRegion& pins : body.pins) {
      const PinAnimation& a = pins.animation;
      double last = a.releaseAt;
      if (!a.keys.empty()) last = std::max(last, double(a.keys.back().time));
      if (!a.toggleAt.empty()) last = std::max(last, double(a.toggleAt.back()));
      if (last >= 0.0) seconds = std::max(seconds, last + 1.0);
    }
  if (!std::isfinite(seconds)) return kMaxFrames;
  return std::min(kMaxFrames, int(std::ceil(seconds / dt)));
}

// ---------------------------------------------------------------------------

struct PresetRun {
  std::string preset;
  SolverKind solver;
  Backend backend;
};

std::string caseName(const PresetRun& r) {
  return r.preset + "_" + solverName(r.solver) + (r.backend == Backend::OpenCl ? "_opencl" : "");
}

// Readable in ctest's test names instead of a byte dump.
void PrintTo(const PresetRun& r, std::ostream* os) { *os << caseName(r); }

using test::createApp;

using test::bodyPixelShare;

class PresetRuns : public testing::TestWithParam<PresetRun> {};

TEST_P(PresetRuns, MovesStaysAboveTheGroundAndFinite) {
  if (!test::hasDisplay()) GTEST_SKIP() << "no DISPLAY: run under xvfb-run";
  const PresetRun& run = GetParam();
  if (run.backend == Backend::OpenCl && !queryOpenClStatus(DeviceChoice{}).chosen)
    GTEST_SKIP() << "no OpenCL device";
  const std::string name = caseName(run);
  const fs::path tmp = fs::temp_directory_path() / ("tetlab_preset_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(tmp);
  fs::create_directories(tmp);
  const fs::path scene = testPresetFile(run.preset, tmp);
  ASSERT_FALSE(scene.empty());
  const fs::path shot = outputDir() / (name + ".png");
  fs::remove(shot);

  // Exactly the user's command line.
  std::vector<std::string> args{"tetlab",     "--scene",  scene.string(), "--solver", solverName(run.solver),
                                "--headless", "--frames", std::to_string(kMaxFrames), "--screenshot", shot.string()};
  args.insert(args.end(), {"--backend", run.backend == Backend::OpenCl ? "opencl" : "cpu"});
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  CliOutcome cli = parseCommandLine(int(argv.size()), argv.data());
  ASSERT_FALSE(cli.exitCode.has_value()) << "the command line was refused";
  Result<std::unique_ptr<App>> created = createApp(std::move(cli.app));
  ASSERT_TRUE(created.ok()) << created.error().message;
  App& app = **created;
  SimSession& session = *app.session();
  ASSERT_EQ(session.solver(), run.solver);
  ASSERT_EQ(session.backend(), run.backend);

  const SimModel& model = session.model();
  const BodyIndex bodies = indexBodies(model);
  const Colliders colliders = session.settings().colliders;
  const std::vector<glm::dvec3> start = centresOfMass(model, session.state(), bodies);
  std::vector<BodyBound> bounds;
  for (uint32_t b = 0; b < bodies.vertices.size(); ++b)
    bounds.push_back(boundFor(model, session.state(), session.desc(), colliders, b, bodies, start[b]));
  std::vector<BodyTrack> tracks(bodies.vertices.size());
  const bool ground = colliders.ground.enabled;
  const double h = double(session.settings().step.dt) / double(session.settings().step.substeps);
  double fastestImpact = 0.0;  // [m/s]
  for (const BodyBound& b : bounds) fastestImpact = std::max(fastestImpact, std::sqrt(2.0 * kG * b.clearance));
  const int frames = caseFrames(bounds, session.desc(), double(session.settings().step.dt));
  const double groundTolerance = std::max(kGroundToleranceFloor, 0.5 * fastestImpact * h);
  float lowest = INFINITY;
  int lowestFrame = -1;

  for (int f = 0; f < frames; ++f) {
    // main()'s loop; the 3D view is drawn for the last frame only.
    app.pollEvents();
    app.newFrame();
    app.drawUi();
    app.step();
    if (f == frames - 1) {
      app.render();
      app.present();
    } else {
      app.discardFrame();
    }
    ASSERT_FALSE(session.blownUp()) << name << " frame " << f << ": " << session.blowUpMessage();
    ASSERT_EQ(session.solver(), run.solver) << "frame " << f;
    ASSERT_EQ(session.backend(), run.backend) << "frame " << f << ": fell back to another backend";
    if (run.backend == Backend::OpenCl) ASSERT_TRUE(session.syncPositions().ok());
    const State& s = session.state();
    for (uint32_t i = 0; i < s.x.size(); ++i) {
      ASSERT_TRUE(std::isfinite(s.x[i].x) && std::isfinite(s.x[i].y) && std::isfinite(s.x[i].z))
          << name << " frame " << f << " vertex " << i;
      if (s.x[i].y < lowest) {
        lowest = s.x[i].y;
        lowestFrame = f;
      }
    }
    const std::vector<glm::dvec3> com = centresOfMass(model, s, bodies);
    for (size_t b = 0; b < com.size(); ++b) {
      const double drop = start[b].y - com[b].y;
      tracks[b].maxDrop = std::max(tracks[b].maxDrop, drop);
      tracks[b].maxHorizontal =
          std::max(tracks[b].maxHorizontal, glm::length(glm::dvec2(com[b].x - start[b].x, com[b].z - start[b].z)));
      if (f >= frames - kLateFrames) tracks[b].lateDrop += drop / kLateFrames;
    }
  }

  if (ground)
    EXPECT_GE(lowest, colliders.ground.height - groundTolerance)
        << name << ": a vertex went " << (colliders.ground.height - lowest) * 1e3 << " mm below the ground at frame "
        << lowestFrame << " (tolerance " << groundTolerance * 1e3 << " mm)";
  for (size_t b = 0; b < bounds.size(); ++b) {
    const double got = measured(bounds[b], tracks[b]);
    std::printf("%s body %zu: %s; measured %.4f m (required %.4f m)\n", name.c_str(), b, bounds[b].why.c_str(), got,
                bounds[b].required);
    EXPECT_GE(got, bounds[b].required) << name << " body " << b << " did not move enough: " << bounds[b].why;
  }
  std::printf("%s: lowest vertex %.5f m (frame %d, tolerance %.2f mm), %.2f ms per step\n", name.c_str(), lowest,
              lowestFrame, groundTolerance * 1e3, session.meanStepWallMs());
  std::printf("%s: %d frames (%.2f s)\n", name.c_str(), frames, frames * double(session.settings().step.dt));
  EXPECT_NEAR(session.time(), frames * double(session.settings().step.dt), 1e-3);

  EXPECT_EQ(app.finish(), 0) << "the run must end as `tetlab ... --headless` does, exit code 0";
  ASSERT_TRUE(fs::exists(shot)) << shot;
  EXPECT_GT(bodyPixelShare(shot), 0.002) << shot << ": no body pixels in the screenshot";
  fs::remove_all(tmp);
}

std::vector<PresetRun> cpuRuns() {
  std::vector<PresetRun> out;
  for (const std::string& p : presetStems())
    for (SolverKind k : {SolverKind::Pbd, SolverKind::Xpbd, SolverKind::Vbd, SolverKind::Avbd})
      out.push_back({p, k, Backend::Cpu});
  return out;
}

std::string paramName(const testing::TestParamInfo<PresetRun>& info) {
  std::string n = caseName(info.param);
  for (char& c : n)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return n;
}

INSTANTIATE_TEST_SUITE_P(Cpu, PresetRuns, testing::ValuesIn(cpuRuns()), paramName);

// OpenCL (PoCL on CI's two cores): each preset on the solver its file names,
// and on all four the cloth and strand presets (issue 13's scenes; the cape has
// its own test on every solver and backend, tests/app/cape_scene_test.cpp) and
// the animated-input presets (issue 15: "the new presets run on all four
// solvers and both backends": keyed twist, shaken base, breaking springs; 12
// runs, about 135 test-seconds on PoCL). All four solvers on every preset cost
// 320 CPU-seconds more (PBD and XPBD on the pile and squash are 100-150 s
// each), over the time set for this suite; the other solvers' kernels are
// compared with the CPU reference in
// tests/gpu and run live on the device in SandboxOpenCl.DefaultSceneOnEverySolverLive.
std::vector<PresetRun> openClRuns() {
  static const std::set<std::string> kEverySolver = {
      "cloth_drape", "cloth_flag", "cloth_tablecloth", "hair", "beam_twist", "jelly_shake", "springs_break"};
  std::vector<PresetRun> out;
  for (const std::string& p : presetStems()) {
    Result<SceneDesc> desc = loadSceneFile(kAssets / "scenes" / (p + ".json"));
    const SolverKind own = desc ? desc->settings.solver : SolverKind::Vbd;
    out.push_back({p, own, Backend::OpenCl});
    if (kEverySolver.count(p))
      for (SolverKind k : {SolverKind::Pbd, SolverKind::Xpbd, SolverKind::Vbd, SolverKind::Avbd})
        if (k != own) out.push_back({p, k, Backend::OpenCl});
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(OpenCl, PresetRuns, testing::ValuesIn(openClRuns()), paramName);

}  // namespace
}  // namespace tetlab
