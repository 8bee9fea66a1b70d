#pragma once
// The collider records (core/sim/collider_records.h) on the device: packed
// from the settings at the start of every substep and uploaded only when the
// packed bits changed (a UI edit or a ctrl-drag), never in the steady state.
// Every GPU solver family holds one and passes `records` and `count()` to its
// kernels, which walk them with collider_sample (shaders/cl/common/colliders.clh).
#include <cstdint>

#include "core/result.h"
#include "core/sim/collider_records.h"
#include "gpu/cl/cl_buffer.h"
#include "gpu/cl/cl_context.h"

namespace tetlab {

class DeviceColliders {
 public:
  // Blocking upload when the records differ from the last one.
  Status refresh(const ClContext& ctx, const Colliders& colliders);
  void forget() {
    uploaded_.data.clear();
    uploaded_.records = 0;
  }
  uint32_t count() const { return uploaded_.count(); }

  DeviceBuffer<glm::vec4> records;

 private:
  ColliderRecords uploaded_, scratch_;
};

}  // namespace tetlab
