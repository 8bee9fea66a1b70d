// Extended Position Based Dynamics (Macklin et al. 2016) on the device: the
// shared position-based kernels (PbParams::xpbd = 1 selects the multiplier
// step, Eq. 17-18, damping Eq. 26). Multipliers live in DeviceState::lambda
// and are cleared every substep by the host script (gpu/solvers/position_based_gpu.cpp).
// Body contacts are hard rows (zero compliance), where XPBD's step is PBD's:
// body_contact_pb.clh.
#define PB_KERNEL(name) xpbd_##name
#include "pb_projection.clh"
#include "body_contact_pb.clh"
#include "pb_group.clh"
