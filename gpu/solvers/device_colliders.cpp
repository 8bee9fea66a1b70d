#include "gpu/solvers/device_colliders.h"

namespace tetlab {

Status DeviceColliders::refresh(const ClContext& ctx, const Colliders& colliders) {
  packColliders(colliders, scratch_);
  if (bitwiseEqual(scratch_, uploaded_) && records.size() > 0) return Ok{};
  auto b = DeviceBuffer<glm::vec4>::fromHost(ctx.context, ctx.queue, scratch_.data, CL_MEM_READ_ONLY, "colliders");
  if (!b) return b.error();
  records = std::move(*b);
  uploaded_.data = scratch_.data;
  uploaded_.records = scratch_.records;
  return Ok{};
}

}  // namespace tetlab
