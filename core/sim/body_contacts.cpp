#include "core/sim/body_contacts.h"

#include <algorithm>

namespace tetlab {

void resizeBodyContacts(uint32_t surfaceVertexCount, uint32_t vertexCount, BodyContacts& out) {
  out.ids.assign(surfaceVertexCount, glm::uvec4(kNoContact));
  out.normal.assign(surfaceVertexCount, glm::vec4(0.0f));
  out.weights.assign(surfaceVertexCount, glm::vec4(0.0f));
  out.vertexCount.assign(vertexCount, 0u);
  out.vertexItems.assign(size_t(vertexCount) * kMaxContactsPerVertex, 0u);
  out.active = 0;
  out.overflow = 0;
}

void clearBodyContacts(BodyContacts& contacts) {
  std::fill(contacts.ids.begin(), contacts.ids.end(), glm::uvec4(kNoContact));
  std::fill(contacts.vertexCount.begin(), contacts.vertexCount.end(), 0u);
  contacts.active = 0;
  contacts.overflow = 0;
}

}  // namespace tetlab
