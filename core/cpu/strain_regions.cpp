#include "core/cpu/strain_regions.h"

#include "core/cpu/position_based_params.h"

namespace tetlab {

clm::PbStrain makePbStrain(glm::vec3 stretchScale, glm::vec3 shearScale, glm::vec3 restScale, glm::vec3 materialAxis,
                           float volumeScale) {
  clm::PbStrain s{};
  for (int i = 0; i < 3; ++i) {
    s.stretchScale[i] = stretchScale[i];
    s.shearScale[i] = shearScale[i];
    s.restScale[i] = restScale[i];
  }
  s.volumeScale = volumeScale;
  s.frameOn = strainFrameIsIdentity(materialAxis) ? 0u : 1u;
  const glm::mat3 R = strainMaterialFrame(materialAxis);
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 3; ++r) s.frame[3 * c + r] = R[c][r];
  return s;
}

}  // namespace tetlab
