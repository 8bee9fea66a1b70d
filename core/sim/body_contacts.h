#pragma once
// Contacts between bodies (and, optionally, between distant parts of one body):
// a surface vertex p against the nearest surface triangle (a, b, c) of another
// body, found once per substep (core/sim/body_contact_detection.h) and then
// kept fixed for that substep, so every solver sees the same linear constraint
//
//   C(x) = n . (x_p - (w0 x_a + w1 x_b + w2 x_c)) - thickness >= 0
//
// with the triangle's unit normal n and the barycentric weights w of the
// closest point frozen at detection (the linearisation about the substep start
// that AVBD Sec. 4 uses for its contacts). dC/dx_v = coeff(role) n, where
// coeff = 1 for p and -w_k for the k-th triangle corner
// (shaders/cl/common/body_contact.clh).
//
// Layout (the device uses the same arrays, gpu/solvers/device_body_contacts.h):
//   slot s = index of p in SimModel::surfaceVertices: at most one contact per
//   surface vertex, so the arrays have a fixed size and AVBD can warm-start a
//   row that persists (same slot, same triangle) from one substep to the next.
//   vertexItems: per vertex v, up to kMaxContactsPerVertex items
//   (slot * 4 + role, role 0 = p, 1..3 = a, b, c) at [v * K, v * K + vertexCount[v]),
//   so a per-vertex solver (VBD, AVBD, Jacobi gathers) finds every contact that
//   moves v. Items beyond K are dropped and counted in `overflow`.
#include <cstdint>
#include <vector>

#include <glm/vec4.hpp>

#include "shaders/cl/common/layout.clh"

namespace tetlab {

inline constexpr uint32_t kNoContact = 0xffffffffu;
inline constexpr uint32_t kMaxContactsPerVertex = TL_MAX_CONTACTS_PER_VERTEX;
// Distances within this fraction of the search radius count as a tie in detection.
inline constexpr float kBodyContactTieTolerance = 1.0e-4f;

struct BodyContacts {
  std::vector<glm::uvec4> ids;       // per slot: (p, a, b, c); ids.x == kNoContact: no contact this substep
  std::vector<glm::vec4> normal;     // per slot: unit triangle normal n (outward of the triangle's body), w = thickness [m]
  std::vector<glm::vec4> weights;    // per slot: barycentric (w0, w1, w2) of the closest point, w = Coulomb mu [-]
  std::vector<uint32_t> vertexCount; // per vertex: number of items in vertexItems (<= K)
  std::vector<uint32_t> vertexItems; // per vertex: K items slot * 4 + role
  uint32_t active = 0;               // slots holding a contact
  uint32_t overflow = 0;             // items dropped because a vertex already had K
};

// Broad-phase scratch of the CPU detection, kept between substeps so the
// steady state does not allocate: (cell hash << 32) | triangle, sorted.
struct BodyContactGrid {
  std::vector<uint64_t> cellTriangle;
  std::vector<uint64_t> sortScratch;  // the radix sort's second buffer
  std::vector<uint32_t> sortCount;    // and its digit counts
};

// Sizes the arrays for a model (no contact in any slot).
void resizeBodyContacts(uint32_t surfaceVertexCount, uint32_t vertexCount, BodyContacts& out);
// Marks every slot empty and every vertex list empty (keeps capacity).
void clearBodyContacts(BodyContacts& contacts);

}  // namespace tetlab
