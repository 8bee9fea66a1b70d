#pragma once
// Host-side inputs the GPU VBD and AVBD scripts share (gpu/solvers/vbd_solver_gpu.cpp,
// gpu/solvers/avbd_solver_gpu.cpp): per-body material constants and per-edge spring
// stiffnesses, the analytic colliders, and the mouse attachment as the
// kernels' VbdMouse (shaders/cl/common/vbd_layout.clh). Material constants come from the CPU's own VbdMaterialCache, so
// both backends use bit-identical constants. They and the colliders are
// uploaded only when they change (a UI edit), never in the steady state.
//
// The mouse attachment couples vertices that need not share an element, so two
// attached vertices may have the same colour. A work-item computing the offset
// r = sum_j w_j x_j - target would then race with its colour-mate's update; for
// such a colour the script first snapshots r into mouseOffset (one work-item)
// and the solve reads that (VbdFamilyInputs::needsMouseSnapshot). With every
// attached vertex in its own colour, the usual case (the vertices of one tet),
// r is computed in the solve exactly as the CPU does.
//
// The solve kernels read the model through two packed buffers built here at
// reset (copies of SimModel arrays, also in DeviceState as separate buffers
// for the other solvers' kernels), so they take few arguments. Sections lie
// back to back; their bases travel in VbdStepParams / AvbdStepParams
// (setSections):
//
//   topology (uint)   vertexColorOrder      at 0
//                     colorOf               at colorOfBase            (per vertex: its colour)
//                     tetBody               at tetBodyBase
//                     vertexTets.offsets    at vertexTetsOffsetsBase  (CSR, items tet * 4 + corner)
//                     vertexTets.items      at vertexTetsItemsBase
//                     vertexEdges.offsets   at vertexEdgesOffsetsBase (CSR, items edge * 2 + end)
//                     vertexEdges.items     at vertexEdgesItemsBase
//                     colour starts         at colorStartsBase        (colours + 1: begin of each, then the end)
//                     hinges (4 per hinge)  at hingesBase             (a multiple of 4: read as uint4)
//                     hingeBody             at hingeBodyBase
//                     vertexHinges.offsets  at vertexHingesOffsetsBase (CSR, items hinge * 4 + corner)
//                     vertexHinges.items    at vertexHingesItemsBase
//                     membranes (4 each)    at membranesBase          (a multiple of 4: read as uint4)
//                     vertexMembranes       at vertexMembranesOffsetsBase / ItemsBase (CSR, items membrane * 4 + corner)
//   restData (float)  mass                  at 0
//                     restVolume            at restVolumeBase
//                     restLength            at restLengthBase
//                     hingeWeights (4 each) at hingeWeightsBase        (a multiple of 4: read as float4)
//                     hingeRest (4 each) at hingeRestBase              (follows it: a multiple of 4 too)
//                     membraneDmInv (4 each) at membraneDmInvBase      (a multiple of 4: read as float4)
//                     membraneArea          at membraneAreaBase
#include <cstdint>
#include <vector>

#include <CL/opencl.hpp>
#include <glm/vec4.hpp>

#include "core/cpu/vbd_terms.h"
#include "core/model/sim_model.h"
#include "core/result.h"
#include "core/sim/colliders.h"
#include "core/sim/state.h"
#include "gpu/cl/cl_buffer.h"
#include "gpu/cl/cl_context.h"
#include "gpu/solvers/device_colliders.h"
#include "gpu/solvers/device_state.h"
#include "gpu/cl/profiler.h"

namespace tetlab {

// The term bits (VBD_TERM_*) and the kernels' parameter structs (VbdMouse,
// VbdStepParams, AvbdStepParams) are declared once in
// shaders/cl/common/vbd_layout.clh, included here through core/cpu/vbd_terms.h.

// The mouse attachment as the kernels' VbdMouse; vertices beyond the model or
// beyond VBD_MAX_MOUSE_VERTICES leave no weighted slot (a GPU run cannot read
// them), which setAttachment documents.
clm::VbdMouse packMouse(const Attachment& mouse, uint32_t vertexCount);

// The convergence curve of one substep on the device, for the VBD and AVBD
// scripts (vbd_record_residual / vbd_residual_rms in shaders/cl/vbd_vertex.clh):
// the solve kernels store each visited vertex's residual while recording, and
// one small reduction per iteration appends its RMS to the history, so the
// curve costs one launch per iteration of a recorded substep and one read of
// `iterations` floats per step.
class VbdResidualRecorder {
 public:
  Status reset(const ClContext& ctx, uint32_t vertexCount);
  void record(bool on) { on_ = on; }
  bool recording() const { return on_; }
  // Before the iterations of a substep: if recording, every vertex unvisited
  // (-1) and room for `iterations` values.
  cl_int begin(const ClContext& ctx, int iterations);
  // Room for `iterations` values in history(), which the one-group kernel
  // (vbd_step_group) writes itself; the next read() returns that many.
  cl_int prepareHistory(const ClContext& ctx, int iterations);
  const DeviceBuffer<float>& history() const { return history_; }
  // After iteration `it` of a recorded substep: its RMS into history[it]
  // (profiled under `stage`; nothing launched or recorded otherwise).
  cl_int reduce(const ClContext& ctx, cl::Kernel& rms, int it, Profiler& profiler, StageId stage);
  // The last recorded substep's curve (blocking).
  Result<std::vector<float>> read(const ClContext& ctx) const;

  DeviceBuffer<float> residual;  // per vertex, the solve kernels' argument

 private:
  DeviceBuffer<float> history_;  // per iteration
  uint32_t vertexCount_ = 0;
  int recorded_ = 0;             // iterations of the last recorded substep
  bool on_ = false;
};

// What the one-group schedule rule (gpu/solvers/vbd_schedule.h) needs from a
// model and the group kernel: the largest vertex colour and the work-group
// size the kernel runs with on this device (0: it cannot run).
struct OneGroupFit {
  uint32_t largestColor = 0;
  size_t groupSize = 0;
};
OneGroupFit oneGroupFit(const ClContext& ctx, const cl::Kernel& groupKernel, const SimModel& model);

// The v^{t-1} records [0, vertexCount) after a reset (blocking): no history
// yet, with each vertex's BodyPins (DeviceState::heldVertices) in the history
// word of shaders/cl/common/vbd_initial_guess.clh.
cl_int resetVertexHistory(const ClContext& ctx, const DeviceState& s, const DeviceBuffer<glm::vec4>& history);

class VbdFamilyInputs {
 public:
  Status reset(const ClContext& ctx, const SimModel& model);
  // Re-uploads material constants and colliders when they changed (blocking,
  // so only on an edit). Called at the start of every substep.
  // edgeSprings: the spring toggles the edge stiffness is packed with (body_constants.h).
  Status refresh(const ClContext& ctx, const SimModel& model, const Colliders& colliders, SpringChoice edgeSprings);
  // Where the colour starts lie in topology (VbdGroupParams::colorStartsBase).
  uint32_t colorStartsBase() const { return sections_.colorStartsBase; }
  // True when colour c holds two or more distinct attached vertices.
  bool needsMouseSnapshot(const clm::VbdMouse& mouse, uint32_t color) const;
  // The section bases of topology / restData, and of the body-contact arrays
  // (slot and vertex counts, DeviceBodyContacts), into a step parameter struct.
  template <class Params>
  void setSections(Params& p, uint32_t contactSlots) const {
    p.colorOfBase = sections_.colorOfBase;
    p.tetBodyBase = sections_.tetBodyBase;
    p.vertexTetsOffsetsBase = sections_.vertexTetsOffsetsBase;
    p.vertexTetsItemsBase = sections_.vertexTetsItemsBase;
    p.vertexEdgesOffsetsBase = sections_.vertexEdgesOffsetsBase;
    p.vertexEdgesItemsBase = sections_.vertexEdgesItemsBase;
    p.restVolumeBase = sections_.restVolumeBase;
    p.restLengthBase = sections_.restLengthBase;
    p.contactSlots = contactSlots;
    p.vertexCount = sections_.vertexCount;
    p.hingesBase = sections_.hingesBase;
    p.hingeBodyBase = sections_.hingeBodyBase;
    p.vertexHingesOffsetsBase = sections_.vertexHingesOffsetsBase;
    p.vertexHingesItemsBase = sections_.vertexHingesItemsBase;
    p.hingeWeightsBase = sections_.hingeWeightsBase;
    p.hingeRestBase = sections_.hingeRestBase;
    p.membranesBase = sections_.membranesBase;
    p.vertexMembranesOffsetsBase = sections_.vertexMembranesOffsetsBase;
    p.vertexMembranesItemsBase = sections_.vertexMembranesItemsBase;
    p.membraneDmInvBase = sections_.membraneDmInvBase;
    p.membraneAreaBase = sections_.membraneAreaBase;
  }

  DeviceBuffer<glm::vec4> bodies;     // per body: (NH mu [Pa], NH lambda [Pa], damping k_d [s], cloth bending D [N m])
  DeviceBuffer<float> edgeStiffness;  // per edge: mass-spring k_e [N/m]
  DeviceColliders colliders;         // the collider records (shaders/cl/common/colliders.clh)
  // Two float4: [0] the snapshot of r; [1] AVBD's r(x^t) (mouse rows' C0; unused by VBD).
  DeviceBuffer<glm::vec4> mouseOffset;
  DeviceBuffer<uint32_t> topology;  // packed index data (above)
  DeviceBuffer<float> restData;     // packed per-element constants (above)

 private:
  Status uploadMaterials(const ClContext& ctx, const SimModel& model, SpringChoice edgeSprings);

  struct Sections {
    uint32_t colorOfBase = 0, tetBodyBase = 0, vertexTetsOffsetsBase = 0, vertexTetsItemsBase = 0;
    uint32_t vertexEdgesOffsetsBase = 0, vertexEdgesItemsBase = 0, restVolumeBase = 0, restLengthBase = 0;
    uint32_t vertexCount = 0;
    uint32_t colorStartsBase = 0;
    uint32_t hingesBase = 0, hingeBodyBase = 0, vertexHingesOffsetsBase = 0, vertexHingesItemsBase = 0;
    uint32_t hingeWeightsBase = 0;
    uint32_t hingeRestBase = 0;
    uint32_t membranesBase = 0, vertexMembranesOffsetsBase = 0, vertexMembranesItemsBase = 0;
    uint32_t membraneDmInvBase = 0, membraneAreaBase = 0;
  } sections_;
  VbdMaterialCache cache_;
  bool uploaded_ = false;  // bodies / edgeStiffness hold cache_ (cleared by reset)
  std::vector<uint32_t> colorOfVertex_;
};

}  // namespace tetlab
