// Position Based Dynamics (Mueller et al. 2007) on the device: the shared
// position-based kernels (PbParams::xpbd = 0 selects PBD's stiffness-fraction
// step), plus the Jacobi variant's gather (pbd_jacobi.clh) and the
// body-contact pass (body_contact_pb.clh). Host script: gpu/solvers/position_based_gpu.cpp.
#define PB_KERNEL(name) pbd_##name
#include "pb_projection.clh"
#include "pbd_jacobi.clh"
#include "body_contact_pb.clh"
#include "pb_group.clh"
