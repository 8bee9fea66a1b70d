#pragma once
// Constraint settings shared by PBD and XPBD (which constraint families are on
// is StepSettings::constraints; the material is SimModel::materials).
#include <glm/mat3x3.hpp>
#include <glm/vec3.hpp>

namespace tetlab {

struct PositionBasedConstraintParams {
  // Strain-based dynamics (Mueller et al. 2014): stiffness per material axis,
  // as multiples of the material's E (stretch) and mu (shear) [-].
  glm::vec3 stretchScale{1.0f};  // x, y, z axes of the rest frame
  glm::vec3 shearScale{1.0f};    // xy, xz, yz
  // Rest-length scale per material axis: the stretch each axis relaxes to
  // (1 = the rest shape; 1.2 = grow 20 % along it) [-].
  glm::vec3 restScale{1.0f};
  // The material x axis in the rest frame (y and z follow: strainMaterialFrame);
  // the default (1, 0, 0) is the rest frame itself. Any non-zero length.
  glm::vec3 materialAxis{1.0f, 0.0f, 0.0f};
  // Tethers: a vertex may move at most (1 + tetherSlack) times its rest
  // distance away from its nearest pinned vertex [-].
  float tetherSlack = 0.0f;
  // Contacts: vertices are kept this far outside colliders [m].
  float contactOffset = 0.0f;
};

// The material axes as the columns of a rotation: x along `axis`, y the rest
// frame's y (z when axis is near y) made orthogonal to it, z = x cross y.
// Exactly the identity for (1, 0, 0). A zero axis gives the identity too.
glm::mat3 strainMaterialFrame(glm::vec3 axis);
inline bool strainFrameIsIdentity(glm::vec3 axis) { return axis.y == 0.0f && axis.z == 0.0f && axis.x > 0.0f; }

}  // namespace tetlab
