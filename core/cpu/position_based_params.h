#pragma once
// Constraint settings shared by PBD and XPBD (which constraint families are on
// is StepSettings::constraints; the material is SimModel::materials).
#include <glm/vec3.hpp>

namespace tetlab {

struct PositionBasedConstraintParams {
  // Strain-based dynamics (Mueller et al. 2014): stiffness per material axis,
  // as multiples of the material's E (stretch) and mu (shear) [-].
  glm::vec3 stretchScale{1.0f};  // x, y, z axes of the rest frame
  glm::vec3 shearScale{1.0f};    // xy, xz, yz
  // Tethers: a vertex may move at most (1 + tetherSlack) times its rest
  // distance away from its nearest pinned vertex [-].
  float tetherSlack = 0.0f;
  // Contacts: vertices are kept this far outside colliders [m].
  float contactOffset = 0.0f;
};

}  // namespace tetlab
