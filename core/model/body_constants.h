#pragma once
// Per-body and per-edge material constants in the layouts the element code
// reads on both backends (shaders/cl/common/vbd_layout.clh, rayleigh_damping.clh),
// packed from SimModel::materials in one place so every reader agrees.
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec4.hpp>

#include "core/model/sim_model.h"
#include "core/model/spring_choice.h"

namespace tetlab {

// Per body: (mu, lambda, Rayleigh k_d [s], bending D [N m] or E I [N m^2]) where
// (mu, lambda) is bodyElasticPair. Returns true when some body has k_d > 0.
bool packNeoHookeanBodies(const SimModel& model, std::vector<glm::vec4>& out);

// The Lame pair a body's elements read: a solid's stable Neo-Hookean (mu,
// lambda) [Pa] (neoHookeanFromMaterial) for its tets, a cloth's membrane
// (mu_h, lambda_h) [N/m] (membraneModuli, cloth_membrane.h) for its triangles.
// (A strand has neither; it gets the Neo-Hookean pair, which nothing reads.)
glm::vec2 bodyElasticPair(const SimModel& model, uint32_t body);

// SimModel::DmInv as the device holds it: 3 float4 per tet, the columns (w = 0).
void packDmInvColumns(const SimModel& model, std::vector<glm::vec4>& out);

// Edge springs act on a strand always (its segments), on a cloth body when
// its membrane is off (they are then its membrane), and on a solid body when
// the user's "edges" toggle adds the mass-spring energy to the solids
// (spring_choice.h).
bool edgeSpringsOn(const SimModel& model, uint32_t body, SpringChoice springs);
// Whether any edge spring acts: the edge family runs at all.
bool anyEdgeSprings(const SimModel& model, SpringChoice springs);
// M in k_e = 6 M V_e / L_e^2 (edgeSpringStiffness): E for a solid, the sheet's
// edge modulus E h / 2 for a cloth (clothEdgeModulus), 0 where springs are off.
float edgeSpringModulus(const SimModel& model, uint32_t body, SpringChoice springs);

// Per edge: the mass-spring stiffness k_e = edgeSpringStiffness(edgeSpringModulus
// of the edge's body, edge volume, rest length) [N/m]; 0 where springs are off.
void packEdgeStiffness(const SimModel& model, SpringChoice springs, std::vector<float>& out);

// Whether bending acts: the "bending" toggle and a sheet or strand with hinges (cloth_bending.h).
bool clothBendingOn(const SimModel& model, bool bendingToggle);
// The stiffness of a body's hinges: D [N m] of a cloth (clothBendingStiffness),
// E I [N m^2] of a strand (strandBendingStiffness), 0 for a solid.
float bodyBendingStiffness(const SimModel& model, uint32_t body);

}  // namespace tetlab
