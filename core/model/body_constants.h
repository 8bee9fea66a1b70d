#pragma once
// Per-body and per-edge material constants in the layouts the element code
// reads on both backends (shaders/cl/common/vbd_layout.clh, rayleigh_damping.clh),
// packed from SimModel::materials in one place so every reader agrees.
#include <vector>

#include <glm/vec4.hpp>

#include "core/model/sim_model.h"

namespace tetlab {

// Per body: (NH mu [Pa], NH lambda [Pa], Rayleigh k_d [s], 0), NH from
// neoHookeanFromMaterial. Returns true when some body has k_d > 0.
bool packNeoHookeanBodies(const SimModel& model, std::vector<glm::vec4>& out);

// SimModel::DmInv as the device holds it: 3 float4 per tet, the columns (w = 0).
void packDmInvColumns(const SimModel& model, std::vector<glm::vec4>& out);

// Per edge: the mass-spring stiffness k_e = edgeSpringStiffness(E of the
// edge's body, edge volume, rest length) [N/m].
void packEdgeStiffness(const SimModel& model, std::vector<float>& out);

}  // namespace tetlab
