#pragma once
// Strain parameters per set of tets (issue 15 item 2: the deformer's regions,
// each with its own anisotropic stretch and shear stiffness, rest-length
// scales, material axes and volume stiffness). PBD/XPBD project every tet
// with PbParams::strain unless a StrainRegions gives it a set of its own.
#include <cstdint>
#include <vector>

#include <glm/vec3.hpp>

#include "shaders/cl/common/compat_cpp.h"
#include "shaders/cl/common/pb_layout.clh"

namespace tetlab {

// The kernels' PbStrain from the user's terms: stiffness scales (stretch x, y,
// z times 2 mu; shear xy, xz, yz times mu), rest-length scales, the material x
// axis (any non-zero direction: strainMaterialFrame) and the volume stiffness
// as a multiple of lambda (pb_tet_moduli: with every scale 1 the set is the
// material's isotropic tensor).
clm::PbStrain makePbStrain(glm::vec3 stretchScale, glm::vec3 shearScale, glm::vec3 restScale, glm::vec3 materialAxis,
                           float volumeScale);

struct StrainRegions {
  std::vector<uint8_t> tetSet;       // per tet: 0 = PbParams::strain, k = sets[k - 1] (empty: all 0)
  std::vector<clm::PbStrain> sets;   // at most 255
  bool empty() const { return sets.empty() || tetSet.empty(); }
};

}  // namespace tetlab
