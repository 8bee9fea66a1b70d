#pragma once
// Tunable settings of Position Based Dynamics (Mueller, Heidelberger, Hennix,
// Ratcliff 2007). Plain struct with documented defaults and units; edits take
// effect at the next substep.
//
// PBD has no physical stiffness: each projection removes a fraction k in [0, 1]
// of a constraint's error. k is derived from the SAME material as the other
// solvers (docs/solvers.md, "PBD stiffness from the material"):
//   k_ref = wGrad2 / (wGrad2 + alpha f^2)          XPBD's first projection at the reference step 1/f
//   PerIteration:          k = k_ref               applied every iteration (classic PBD; result
//                                                  depends on iterations and substeps)
//   FrequencyIndependent:  k = 1 - (1 - k_ref)^(f h / n)   the log-stiffness mapping: n iterations of
//                                                  a substep h remove what k_ref removes in 1/f s
//                                                  (Mueller 2007 Sec. 3.3 generalised to time)
#include <cstdint>

namespace tetlab {

enum class PbdScheme : uint8_t {
  GaussSeidel,  // constraints projected one after another, colour by colour (Mueller 2007 Sec. 3.3)
  Jacobi,       // all corrections of an iteration from the same positions, averaged per vertex and
                // over-relaxed by omega (Macklin et al. 2014 Sec. 4.2)
};

enum class PbdStiffnessMapping : uint8_t { PerIteration, FrequencyIndependent };

struct PbdParams {
  PbdScheme scheme = PbdScheme::GaussSeidel;
  float jacobiOmega = 1.5f;  // Jacobi over-relaxation omega [-], 1 <= omega < 2
  PbdStiffnessMapping mapping = PbdStiffnessMapping::FrequencyIndependent;
  float referenceRate = 60.0f;  // f [Hz] of the stiffness mapping
};

}  // namespace tetlab
