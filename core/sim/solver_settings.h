#pragma once
// Everything a step reads besides the model and the state: which solver, the
// shared step settings, each solver's own parameters and the colliders. The UI
// and scene files edit this one struct between steps; every solver's params
// are kept so a switch back restores them.
#include "core/cpu/avbd_params.h"
#include "core/cpu/pbd_params.h"
#include "core/cpu/position_based_params.h"
#include "core/cpu/vbd_params.h"
#include "core/cpu/xpbd_params.h"
#include "core/sim/body_contact_params.h"
#include "core/sim/colliders.h"
#include "core/sim/force_fields.h"
#include "core/sim/sphere_settings.h"
#include "core/sim/step_settings.h"
#include "core/sim/wind.h"

namespace tetlab {

struct SolverSettings {
  SolverKind solver = SolverKind::Xpbd;
  StepSettings step;
  PositionBasedConstraintParams positionBased;  // shared by PBD and XPBD
  PbdParams pbd;
  XpbdParams xpbd;
  VbdParams vbd;
  AvbdParams avbd;
  Colliders colliders;
  BodyContactParams bodyContacts;
  WindSettings wind;  // on cloth sheets
  SphereSettings spheres;  // NvCloth's motion and separation spheres, on sheets and strands
  ForceFields forceFields;  // directional, radial and vortex fields on every body
};

}  // namespace tetlab
