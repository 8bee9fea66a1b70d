#pragma once
// Settings of body-body contact (core/sim/body_contacts.h), shared by all four
// solvers. Whether it is on at all is ConstraintToggles::bodyContacts.
namespace tetlab {

struct BodyContactParams {
  // Gap kept between a vertex and another body's surface [m]. A little above
  // zero keeps surfaces from touching exactly, where the nearest triangle of a
  // vertex sitting on an edge is ambiguous.
  float thickness = 0.002f;
  // A vertex gets a contact when its predicted position is within this
  // distance of another body's surface (or inside it by at most this much) [m].
  // It must exceed what the solver moves a vertex within one substep; deeper
  // penetrations are not caught (the vertex may be nearer another face).
  float searchRadius = 0.02f;
  // Coulomb coefficient between bodies [-] (static = kinetic).
  float friction = 0.4f;
  // Also vertex vs triangles of its own body whose rest distance from the
  // vertex exceeds 2 * searchRadius (a long body folding onto itself).
  bool selfCollision = false;
};

}  // namespace tetlab
