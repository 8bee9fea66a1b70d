#pragma once
// Tunable settings of Position Based Dynamics (Mueller, Heidelberger, Hennix,
// Ratcliff 2007). Plain struct with documented defaults and units; edits take
// effect at the next substep.
//
// PBD has no physical stiffness: each projection removes a fraction k in [0, 1]
// of a constraint's error. k is derived from the SAME material as the other
// solvers (docs/solvers.md, "PBD stiffness from the material"), starting from
// XPBD's first-projection fraction for a step of length 1/r:
//   k_ref(r) = wGrad2 / (wGrad2 + alpha r^2)       (XPBD Eq. 18 with lambda = 0, alphaTilde = alpha r^2)
// then, with substep h and n iterations:
//   MatchXpbd:             k = 1 - (1 - k_ref(1/h))^(1/n)   n iterations together remove what one XPBD
//                                                  projection removes, so an isolated constraint settles
//                                                  where XPBD (and the material) puts it
//   FrequencyIndependent:  k = 1 - (1 - k_ref(f))^(f h / n) the log-stiffness mapping k_dt = 1-(1-k)^(f dt)
//                                                  with dt = h / n: the error removed per second is the
//                                                  same for any substep/iteration count (Mueller 2007
//                                                  Sec. 3.3 generalised to time)
//   PerIteration:          k = k_ref(f)            classic PBD: applied every iteration, so the result
//                                                  stiffens with iterations and substeps
#include <cstdint>

namespace tetlab {

enum class PbdScheme : uint8_t {
  GaussSeidel,  // constraints projected one after another, colour by colour (Mueller 2007 Sec. 3.3)
  Jacobi,       // all corrections of an iteration from the same positions, averaged per vertex and
                // over-relaxed by omega (Macklin et al. 2014 Sec. 4.2)
};

enum class PbdStiffnessMapping : uint8_t { MatchXpbd, FrequencyIndependent, PerIteration };

struct PbdParams {
  PbdScheme scheme = PbdScheme::GaussSeidel;
  float jacobiOmega = 1.5f;  // Jacobi over-relaxation omega [-], 1 <= omega < 2
  PbdStiffnessMapping mapping = PbdStiffnessMapping::MatchXpbd;
  float referenceRate = 60.0f;  // f [Hz] of the FrequencyIndependent and PerIteration mappings
};

}  // namespace tetlab
