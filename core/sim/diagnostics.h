#pragma once
// What a step reports for the UI, the benchmark and `tetlab run --stats`.
#include <cstdint>
#include <string>
#include <vector>
#include <memory>

#include "core/sim/stage.h"

namespace tetlab {

struct EnergyReport {
  double kinetic = 0.0;    // sum 1/2 m |v|^2 [J]
  double potential = 0.0;  // gravitational, sum -m g.x [J]
  double elastic = 0.0;    // material energy of the tets/springs [J]
  double total() const { return kinetic + potential + elastic; }

  // XPBD only (core/sim/energy.h): its compliant constraints that are zero at
  // rest (edges, tet volume, strain-based), measured two ways with the last
  // substep's multipliers (xpbd_compliant_energies): `compliantShape` is their
  // part of `elastic`, `compliantConverged` what their multipliers would carry
  // converged (the shape's energy at the compliance XPBD runs), and
  // `compliantCarried` what they carry.
  bool compliantMeasured = false;
  double compliantShape = 0.0, compliantConverged = 0.0, compliantCarried = 0.0;  // [J]

  // The energy a step trades with: XPBD's compliant families counted by the
  // energy their forces carry instead of the shape's (the same when converged;
  // under-converged XPBD conserves this one, measured in docs/solvers.md
  // "Known limits"). total() for every other solver.
  double dynamicTotal() const {
    return compliantMeasured ? total() - compliantShape + compliantCarried : total();
  }
};

// The common error measure of a step (core/sim/step_error.h): the
// backward-Euler residual of the material's energy at the end state, in
// length units (one Newton step toward the step's answer). measured = false
// (NaN in --stats) with tethers or motion spheres, and on OpenCL between
// read-backs and on frames with body contacts.
struct StepError {
  bool measured = false;
  float error = 0.0f;  // mass-weighted RMS of the Newton step H^-1 r [m]
  float max = 0.0f;    // its largest |d_i| [m]
  // What the step's forces move x in the last substep [m]: the mass-weighted
  // RMS of sqrt(|x - y|^2 + (h^2 |g|)^2), the material's, the springs' and
  // the mouse's part (x - y) and gravity's. The error is a share of it: the
  // share of the step's force left unbalanced.
  float scale = 0.0f;
  float floor = 0.0f;  // change one ulp of every coordinate makes [m]
  uint32_t vertices = 0;  // measured
  uint32_t excluded = 0;  // free but in contact
  const char* unmeasured = nullptr;  // why not measured (a static string), when !measured
  // error / scale (0 when no force acts).
  float relative() const { return scale > 0.0f ? error / scale : 0.0f; }
  // The residual is what rounding of the positions alone leaves: the floor
  // is one ulp per coordinate, and a state written by float32 updates
  // carries several: x += dx of a rounded 3x3 solve, y = x^t + h v^t + h^2 g
  // from a rounded v, and PBD/XPBD round x once per constraint touching a
  // vertex (tens). Measured on a stiff cube in free fall, whose steps are
  // exact: up to 2.3 floors on VBD/AVBD, 7.0 on PBD at 200 substeps.
  static constexpr float kFloorUlps = 8.0f;
  bool atFloatPrecision() const { return error <= kFloorUlps * floor; }
  // Off the step's answer by more than rounding explains and by more than
  // kBand of the step's own force displacement (docs/solvers.md "One error measure").
  static constexpr float kBand = 0.05f;
  bool offItsAnswer() const { return measured && !atFloatPrecision() && error > kBand * scale; }
  // Not off, but float32 cannot tell this step from one kBand off: the
  // rounding allowance is above the band (kFloorUlps floors > kBand of the
  // step's force). The step's force h^2 a shrinks with the substep while the
  // floor, an ulp of the positions, does not, so from some substep count on
  // every step is float-limited; per-step errors below it still add up over
  // many substeps (the beam at E = 1e7, VBD 40 x 4: 2 floors a step, its
  // trajectory 64 % of the sag from 40 x 100's).
  bool floatLimited() const { return measured && !offItsAnswer() && kFloorUlps * floor > kBand * scale; }
};

struct StepErrorScratch;  // core/sim/step_error.h
// Owns the measure's buffers; a copy starts empty, so copying diagnostics
// never shares or copies them.
struct StepErrorScratchBox {
  std::shared_ptr<StepErrorScratch> p;
  StepErrorScratchBox() = default;
  StepErrorScratchBox(const StepErrorScratchBox&) {}
  StepErrorScratchBox& operator=(const StepErrorScratchBox&) { return *this; }
};

struct StepDiagnostics {
  EnergyReport energy;
  std::vector<float> residualHistory;  // per iteration of the last substep (solver-specific measure, documented in docs/solvers.md)
  float residual = 0.0f;               // last entry of residualHistory
  float maxViolation = 0.0f;           // max |C| over hard constraints (pins, contacts, attachments) [m]
  StepError stepError;                 // the common measure, every solver (CPU reference)
  StepErrorScratchBox stepErrorScratch;  // its buffers, kept between steps (not copied)
  bool finite = true;                  // false: NaN/inf found, step stopped
  int64_t badVertex = -1;              // first non-finite vertex
  std::string problem;                 // human-readable, set when !finite
  std::string warning;                 // human-readable, set when the step ran outside a solver's safe range
  uint32_t bodyContacts = 0;           // body-body contacts found in the last substep
  uint32_t bodyContactOverflow = 0;    // of those, items dropped from full per-vertex lists (last substep)
  uint32_t springsBroken = 0;          // anchor springs that broke at the end of this frame (anchor_springs.h)
  double stepMs = 0.0;
  int dampingIterations = 0;          // CG iterations of the Rayleigh pass (0: no body damped)
  float dampingResidual = 0.0f;       // its relative preconditioned residual at exit
  StageTimes stages;                   // wall time per stage (core/sim/stage.h); Solve = Solver::solveSubstep
  uint32_t launches = 0;               // device commands (kernel launches, copies) the step enqueued; 0 on the CPU
  const char* schedule = "";           // OpenCL: how the solve was launched (GpuSolver::schedule); "" on the CPU
};

}  // namespace tetlab
