// buildSimModel: merge bodies, derive every fixed quantity the four solvers
// need, and store elements in colour order (see sim_model.h for the layout).
// Deduplication (edges, faces) sorts packed integer keys instead of hashing:
// deterministic output, O(n log n), and no per-item allocation.
#include "core/model/model_builder.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <numeric>
#include <sstream>

#include <glm/geometric.hpp>
#include <glm/mat3x3.hpp>

#include "core/model/cloth_bending.h"
#include "core/model/cloth_membrane.h"
#include "core/model/coloring.h"

namespace tetlab {
namespace {

std::string bodyLabel(const BodyDesc& body, size_t index) {
  return body.name.empty() ? "body " + std::to_string(index) : "body '" + body.name + "'";
}

Status validateMaterial(const BodyDesc& body, size_t index) {
  const Material& m = body.material;
  const std::string where = bodyLabel(body, index);
  if (!(m.density > 0.0f) || !std::isfinite(m.density))
    return Error{where + ": density " + std::to_string(m.density) + " kg/m^3 is not a finite positive number; use e.g. 1000"};
  if (!(m.youngsModulus > 0.0f) || !std::isfinite(m.youngsModulus))
    return Error{where + ": Young's modulus " + std::to_string(m.youngsModulus) +
                 " Pa is not a finite positive number; use e.g. 1e6"};
  if (!(m.poissonRatio >= 0.0f && m.poissonRatio < 0.5f))
    return Error{where + ": Poisson ratio " + std::to_string(m.poissonRatio) +
                 " is outside [0, 0.5); use e.g. 0.3 (0.49 for nearly incompressible)"};
  if (!(m.damping >= 0.0f) || !std::isfinite(m.damping))
    return Error{where + ": damping " + std::to_string(m.damping) + " s is negative; use 0 for none"};
  if (body.kind == BodyKind::Cloth && (!(m.thickness > 0.0f) || !std::isfinite(m.thickness)))
    return Error{where + ": cloth thickness " + std::to_string(m.thickness) +
                 " m is not a finite positive number; use e.g. 0.001"};
  if (body.kind == BodyKind::Strand && (!(m.thickness > 0.0f) || !std::isfinite(m.thickness)))
    return Error{where + ": strand diameter (thickness) " + std::to_string(m.thickness) +
                 " m is not a finite positive number; use e.g. 0.0005"};
  if (body.kind != BodyKind::Solid && !std::isfinite(m.bendingStiffness))
    return Error{where + ": bending stiffness " + std::to_string(m.bendingStiffness) +
                 " is not a finite number; use e.g. 1e-5, 0 for none, or a negative value for the material's own"};
  return Ok{};
}

// CSR from (row, value) pairs given as a row-per-item function.
template <class RowOf>
Csr buildCsr(uint32_t rows, uint32_t itemCount, RowOf&& rowOf) {
  Csr csr;
  csr.offsets.assign(rows + 1, 0);
  for (uint32_t i = 0; i < itemCount; ++i) ++csr.offsets[rowOf(i) + 1];
  for (uint32_t r = 0; r < rows; ++r) csr.offsets[r + 1] += csr.offsets[r];
  csr.items.resize(itemCount);
  std::vector<uint32_t> next(csr.offsets.begin(), csr.offsets.end() - 1);
  for (uint32_t i = 0; i < itemCount; ++i) csr.items[next[rowOf(i)]++] = i;
  return csr;
}

template <class T>
std::vector<T> permute(const std::vector<T>& v, const std::vector<uint32_t>& perm) {
  std::vector<T> out(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) out[i] = v[perm[i]];
  return out;
}

ColoringSummary summarize(const Coloring& c) {
  return {c.colorCount, c.lowerBound, c.greedyBound, c.smallestColor, c.largestColor};
}

// Orientation and flatness in double: the sign must be right even for thin
// tets, and the quality is scale-free (6V / Lmax^3). Flips a negative tet
// (counted in the report); fails on a degenerate one.
Status checkAndOrientTet(const BodyDesc& body, const std::string& where, size_t t, const ModelBuildOptions& options,
                         glm::uvec4& tet, double& inOutMinQuality, ModelBuildReport& report) {
  const glm::dvec3 p0 = body.mesh.positions[tet.x], p1 = body.mesh.positions[tet.y],
                   p2 = body.mesh.positions[tet.z], p3 = body.mesh.positions[tet.w];
  const double det = glm::dot(p1 - p0, glm::cross(p2 - p0, p3 - p0));
  double lmax2 = 0.0;
  const std::array<glm::dvec3, 6> e{p1 - p0, p2 - p0, p3 - p0, p2 - p1, p3 - p1, p3 - p2};
  for (const glm::dvec3& d : e) lmax2 = std::max(lmax2, glm::dot(d, d));
  const double quality = std::fabs(det) / (lmax2 * std::sqrt(lmax2));
  if (!(quality >= options.minTetQuality)) {
    std::ostringstream msg;
    msg << where << ": tet " << t << " (vertices " << tet.x << ", " << tet.y << ", " << tet.z << ", " << tet.w
        << ") is degenerate: 6 V / Lmax^3 = " << quality << " < " << options.minTetQuality
        << "; remesh with a quality bound (e.g. TetGen -q) or remove flat tets";
    return Error{msg.str()};
  }
  if (det < 0.0) {
    std::swap(tet.z, tet.w);
    ++report.flippedTets;
  }
  inOutMinQuality = std::min(inOutMinQuality, quality);
  return Ok{};
}

// Appends a cloth body's (checked) triangles with their rest areas. A sliver
// (2 A / Lmax^2 below the tet quality bound) would give a near-singular
// membrane, so it is refused like a flat tet.
Status mergeClothTriangles(const BodyDesc& body, size_t b, const std::string& where, uint32_t base,
                           const ModelBuildOptions& options, SimModel& model) {
  if (body.triangles.empty()) return Error{where + ": the cloth has no triangles; give it a surface"};
  const uint32_t n = uint32_t(body.mesh.positions.size());
  for (size_t t = 0; t < body.triangles.size(); ++t) {
    const glm::uvec3 tri = body.triangles[t];
    for (int c = 0; c < 3; ++c)
      if (tri[c] >= n)
        return Error{where + ": triangle " + std::to_string(t) + " uses vertex " + std::to_string(tri[c]) +
                     " but the mesh has only " + std::to_string(n) + " vertices"};
    if (tri.x == tri.y || tri.y == tri.z || tri.x == tri.z)
      return Error{where + ": triangle " + std::to_string(t) + " repeats a vertex; remove it from the mesh"};
    const glm::dvec3 p0 = body.mesh.positions[tri.x], p1 = body.mesh.positions[tri.y],
                     p2 = body.mesh.positions[tri.z];
    const double area2 = glm::length(glm::cross(p1 - p0, p2 - p0));
    const double lmax2 = std::max({glm::dot(p1 - p0, p1 - p0), glm::dot(p2 - p0, p2 - p0), glm::dot(p2 - p1, p2 - p1)});
    if (!(area2 / lmax2 >= options.minTetQuality)) {
      std::ostringstream msg;
      msg << where << ": cloth triangle " << t << " (vertices " << tri.x << ", " << tri.y << ", " << tri.z
          << ") is degenerate: 2 A / Lmax^2 = " << area2 / lmax2 << " < " << options.minTetQuality
          << "; remesh the surface or remove zero-area triangles";
      return Error{msg.str()};
    }
    model.clothTriangles.push_back(tri + glm::uvec3(base));
    model.clothTriangleArea.push_back(float(0.5 * area2));
    model.clothTriangleBody.push_back(uint32_t(b));
  }
  return Ok{};
}

Status mergeStrandSegments(const BodyDesc& body, size_t b, const std::string& where, uint32_t base, SimModel& model) {
  if (body.segments.empty()) return Error{where + ": the strand has no segments; give it polylines (OBJ 'l' lines)"};
  const uint32_t n = uint32_t(body.mesh.positions.size());
  for (size_t k = 0; k < body.segments.size(); ++k) {
    const glm::uvec2 s = body.segments[k];
    if (s.x >= n || s.y >= n)
      return Error{where + ": segment " + std::to_string(k) + " uses vertex " + std::to_string(std::max(s.x, s.y)) +
                   " but the strand has only " + std::to_string(n) + " points"};
    if (!(glm::length(body.mesh.positions[s.x] - body.mesh.positions[s.y]) > 0.0f))
      return Error{where + ": segment " + std::to_string(k) + " (points " + std::to_string(s.x) + ", " +
                   std::to_string(s.y) + ") has zero length; remove repeated points"};
    model.strandSegments.push_back(s + glm::uvec2(base));
    model.strandSegmentBody.push_back(uint32_t(b));
  }
  return Ok{};
}

// Appends body b's vertices, material and (checked, oriented) tets, its
// cloth triangles or its strand segments, to the model.
Status mergeBody(const BodyDesc& body, size_t b, const ModelBuildOptions& options, SimModel& model,
                 double& inOutMinQuality, ModelBuildReport& report) {
  const std::string where = bodyLabel(body, b);
  if (Status s = validateMaterial(body, b); !s) return s.error();
  const bool cloth = body.kind == BodyKind::Cloth, strand = body.kind == BodyKind::Strand;
  if (cloth && !body.mesh.tets.empty()) return Error{where + ": a cloth body has triangles, not tets"};
  if (strand && !body.mesh.tets.empty()) return Error{where + ": a strand body has segments, not tets"};
  if (!cloth && !strand && body.mesh.tets.empty())
    return Error{where + ": the tet mesh has no tets; tetrahedralize the surface first"};
  const uint32_t base = model.vertexCount();
  const uint32_t n = uint32_t(body.mesh.positions.size());
  for (uint32_t i = 0; i < n; ++i) {
    const glm::vec3 p = body.mesh.positions[i];
    if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z))
      return Error{where + ": vertex " + std::to_string(i) + " has a non-finite coordinate; fix the mesh"};
  }
  model.restPositions.insert(model.restPositions.end(), body.mesh.positions.begin(), body.mesh.positions.end());
  model.vertexBody.insert(model.vertexBody.end(), n, uint32_t(b));
  model.materials.add(body.material);
  model.bodyKind.push_back(body.kind);
  if (cloth) return mergeClothTriangles(body, b, where, base, options, model);
  if (strand) return mergeStrandSegments(body, b, where, base, model);
  for (size_t t = 0; t < body.mesh.tets.size(); ++t) {
    glm::uvec4 tet = body.mesh.tets[t];
    for (int c = 0; c < 4; ++c)
      if (tet[c] >= n)
        return Error{where + ": tet " + std::to_string(t) + " uses vertex " + std::to_string(tet[c]) +
                     " but the mesh has only " + std::to_string(n) + " vertices"};
    if (tet.x == tet.y || tet.x == tet.z || tet.x == tet.w || tet.y == tet.z || tet.y == tet.w || tet.z == tet.w)
      return Error{where + ": tet " + std::to_string(t) + " repeats a vertex; remove it from the mesh"};
    if (Status s = checkAndOrientTet(body, where, t, options, tet, inOutMinQuality, report); !s) return s;
    model.tets.push_back(tet + glm::uvec4(base));
    model.tetBody.push_back(uint32_t(b));
  }
  return Ok{};
}

Csr vertexTetsOf(const SimModel& model) {
  return buildCsr(model.vertexCount(), model.tetCount() * 4, [&](uint32_t i) { return model.tets[i / 4][i % 4]; });
}

// Tet colouring and reorder, before any per-tet data is derived.
void colorTets(SimModel& model, ModelBuildReport& report) {
  const Csr vertexTets = vertexTetsOf(model);
  // data(), not &tets[0]: a model of cloth alone has no tets.
  const std::span<const uint32_t> tetIds(reinterpret_cast<const uint32_t*>(model.tets.data()),
                                         size_t(model.tetCount()) * 4);
  const Coloring coloring = colorItemsSharingVertices(tetIds, 4, vertexTets);
  const std::vector<uint32_t> perm = colorSortPermutation(coloring, model.tetColors);
  model.tets = permute(model.tets, perm);
  model.tetBody = permute(model.tetBody, perm);
  report.tetColoring = summarize(coloring);
}

// A vertex in no tet (no triangle of a cloth) would have no mass.
Status checkEveryVertexHasAnElement(const SimModel& model, std::span<const BodyDesc> bodies) {
  std::vector<uint8_t> inTriangle(model.vertexCount(), 0);
  for (const glm::uvec3& t : model.clothTriangles) inTriangle[t.x] = inTriangle[t.y] = inTriangle[t.z] = 1;
  for (const glm::uvec2& s : model.strandSegments) inTriangle[s.x] = inTriangle[s.y] = 1;
  for (uint32_t v = 0; v < model.vertexCount(); ++v)
    if (model.vertexTets.offsets[v + 1] == model.vertexTets.offsets[v] && !inTriangle[v]) {
      const uint32_t b = model.vertexBody[v];
      uint32_t local = v;
      for (uint32_t k = 0; k < b; ++k) local -= uint32_t(bodies[k].mesh.positions.size());
      return Error{bodyLabel(bodies[b], b) + ": vertex " + std::to_string(local) + " is used by no " +
                   (model.isCloth(b) ? "triangle" : model.isStrand(b) ? "segment" : "tet") +
                   " (it would have no mass); remove unreferenced vertices"};
    }
  return Ok{};
}

// Rest shape Dm^-1, rest volume and lumped mass (a quarter of each tet's mass per corner).
void computeRestShape(SimModel& model) {
  const uint32_t tetCount = model.tetCount();
  model.DmInv.resize(tetCount);
  model.restVolume.resize(tetCount);
  model.mass.assign(model.vertexCount(), 0.0f);
  for (uint32_t t = 0; t < tetCount; ++t) {
    const glm::uvec4 tet = model.tets[t];
    const glm::dvec3 p0 = model.restPositions[tet.x];
    const glm::dmat3 Dm(glm::dvec3(model.restPositions[tet.y]) - p0, glm::dvec3(model.restPositions[tet.z]) - p0,
                        glm::dvec3(model.restPositions[tet.w]) - p0);
    const double det = glm::determinant(Dm);
    model.DmInv[t] = glm::mat3(glm::inverse(Dm));
    model.restVolume[t] = float(det / 6.0);
    const float quarterMass = float(double(model.materials[model.tetBody[t]].density) * det / 24.0);
    for (int c = 0; c < 4; ++c) model.mass[tet[c]] += quarterMass;
  }
  addClothMass(model);
}

// Unique edges (sorted (min, max) keys packed into 64 bits), each with a sixth
// of the volume of every tet that holds it.
void collectEdges(const SimModel& model, std::vector<uint64_t>& outKeys, std::vector<float>& outVolume) {
  struct KeyVol {
    uint64_t key;
    float volume;
  };
  const uint32_t tetCount = model.tetCount();
  std::vector<KeyVol> raw;
  raw.reserve(size_t(tetCount) * 6);
  static constexpr int kPairs[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
  for (uint32_t t = 0; t < tetCount; ++t)
    for (const auto& p : kPairs) {
      uint32_t a = model.tets[t][p[0]], b = model.tets[t][p[1]];
      if (a > b) std::swap(a, b);
      raw.push_back({(uint64_t(a) << 32) | b, model.restVolume[t] / 6.0f});
    }
  // Cloth edges carry an area share instead (clothEdgeModulus, material.h).
  for (size_t t = 0; t < model.clothTriangles.size(); ++t)
    for (int k = 0; k < 3; ++k) {
      uint32_t a = model.clothTriangles[t][k], b = model.clothTriangles[t][(k + 1) % 3];
      if (a > b) std::swap(a, b);
      raw.push_back({(uint64_t(a) << 32) | b, model.clothTriangleArea[t] / 3.0f});
    }
  // Strand segments carry their length share L / 6 (strandAxialStiffness, material.h).
  for (const glm::uvec2& seg : model.strandSegments) {
    const uint32_t a = std::min(seg.x, seg.y), b = std::max(seg.x, seg.y);
    raw.push_back({(uint64_t(a) << 32) | b,
                   glm::length(model.restPositions[seg.x] - model.restPositions[seg.y]) / 6.0f});
  }
  std::sort(raw.begin(), raw.end(), [](const KeyVol& l, const KeyVol& r) { return l.key < r.key; });
  outKeys.reserve(size_t(tetCount) * 6);
  for (const KeyVol& kv : raw) {
    if (outKeys.empty() || outKeys.back() != kv.key) {
      outKeys.push_back(kv.key);
      outVolume.push_back(0.0f);
    }
    outVolume.back() += kv.volume;
  }
}

// Edges in colour order with their volume share, rest length and vertex adjacency.
void buildEdges(SimModel& model, ModelBuildReport& report) {
  std::vector<uint64_t> edgeKeys;
  std::vector<float> edgeVolumeByKey;
  collectEdges(model, edgeKeys, edgeVolumeByKey);
  const uint32_t vertexCount = model.vertexCount();
  const uint32_t edgeCount = uint32_t(edgeKeys.size());
  model.edges.resize(edgeCount);
  for (uint32_t e = 0; e < edgeCount; ++e) model.edges[e] = {uint32_t(edgeKeys[e] >> 32), uint32_t(edgeKeys[e])};
  {
    Csr vertexEdges = buildCsr(vertexCount, edgeCount * 2, [&](uint32_t i) { return model.edges[i / 2][i % 2]; });
    const std::span<const uint32_t> edgeIds(reinterpret_cast<const uint32_t*>(model.edges.data()),
                                            size_t(edgeCount) * 2);
    const Coloring coloring = colorItemsSharingVertices(edgeIds, 2, vertexEdges);
    const std::vector<uint32_t> perm = colorSortPermutation(coloring, model.edgeColors);
    model.edges = permute(model.edges, perm);
    model.edgeVolume = permute(edgeVolumeByKey, perm);
    report.edgeColoring = summarize(coloring);
  }
  model.restLength.resize(edgeCount);
  for (uint32_t e = 0; e < edgeCount; ++e)
    model.restLength[e] = glm::length(model.restPositions[model.edges[e].y] - model.restPositions[model.edges[e].x]);
  model.vertexEdges = buildCsr(vertexCount, edgeCount * 2, [&](uint32_t i) { return model.edges[i / 2][i % 2]; });
}

// Cloth membranes (cloth_membrane.h) in colour order, with their vertex
// adjacency (items membrane * 4 + corner, so the device decodes them by shifts).
void buildMembranes(SimModel& model, ModelBuildReport& report) {
  collectMembranes(model);
  const uint32_t n = model.membraneCount();
  const auto cornerOf = [&](uint32_t i) { return model.membranes[i / 3][i % 3]; };
  Csr vertexMembranes = buildCsr(model.vertexCount(), n * 3, cornerOf);
  std::vector<uint32_t> ids(size_t(n) * 3);
  for (uint32_t i = 0; i < 3 * n; ++i) ids[i] = cornerOf(i);
  const Coloring coloring = colorItemsSharingVertices(ids, 3, vertexMembranes);
  const std::vector<uint32_t> perm = colorSortPermutation(coloring, model.membraneColors);
  model.membranes = permute(model.membranes, perm);
  model.membraneDmInv = permute(model.membraneDmInv, perm);
  model.membraneArea = permute(model.membraneArea, perm);
  model.vertexMembranes = buildCsr(model.vertexCount(), n * 3, cornerOf);
  for (uint32_t& item : model.vertexMembranes.items) item = (item / 3) * 4 + item % 3;
  report.membraneColoring = summarize(coloring);
}

// Cloth hinges (cloth_bending.h) in colour order, with their vertex adjacency.
void buildHinges(SimModel& model, ModelBuildReport& report) {
  report.skippedHinges = collectClothHinges(model);
  report.skippedHinges += collectStrandHinges(model);
  const uint32_t n = model.hingeCount();
  const auto cornerOf = [&](uint32_t i) { return model.hinges[i / 4][i % 4]; };
  Csr vertexHinges = buildCsr(model.vertexCount(), n * 4, cornerOf);
  const std::span<const uint32_t> ids(reinterpret_cast<const uint32_t*>(model.hinges.data()), size_t(n) * 4);
  const Coloring coloring = colorItemsSharingVertices(ids, 4, vertexHinges);
  const std::vector<uint32_t> perm = colorSortPermutation(coloring, model.hingeColors);
  model.hinges = permute(model.hinges, perm);
  model.hingeWeights = permute(model.hingeWeights, perm);
  model.hingeRest = permute(model.hingeRest, perm);
  model.hingeBody = permute(model.hingeBody, perm);
  model.vertexHinges = buildCsr(model.vertexCount(), n * 4, cornerOf);
  report.hingeColoring = summarize(coloring);
}

// Vertex colouring: vertices sharing a tet (or a cloth triangle) are exactly
// those joined by an edge; a hinge couples all its points (a sheet's two
// opposite corners, a strand's points before and after).
void colorVertices(SimModel& model, ModelBuildReport& report) {
  std::vector<glm::uvec2> pairs = model.edges;
  for (const glm::uvec4& h : model.hinges)
    for (int a = 0; a < 4; ++a)
      for (int b = a + 1; b < 4; ++b)
        if (h[a] != h[b]) pairs.emplace_back(h[a], h[b]);  // an edge twice only repeats a neighbour
  const uint32_t n = uint32_t(pairs.size());
  Csr adjacency = buildCsr(model.vertexCount(), n * 2, [&](uint32_t i) { return pairs[i / 2][i % 2]; });
  for (uint32_t& ref : adjacency.items) ref = pairs[ref / 2][1 - ref % 2];
  const Coloring coloring = colorGraph(adjacency, 4);
  model.vertexColorOrder = colorSortPermutation(coloring, model.vertexColors);
  report.vertexColoring = summarize(coloring);
}

// Boundary: faces used by exactly one tet, wound outward, and their vertices.
void findBoundary(SimModel& model) {
  // Outward faces of a positively oriented tet (normal away from the 4th corner).
  static constexpr int kFaces[4][3] = {{0, 2, 1}, {0, 1, 3}, {1, 2, 3}, {0, 3, 2}};
  struct FaceKey {
    std::array<uint32_t, 3> sorted;
    glm::uvec3 wound;
  };
  std::vector<FaceKey> faces;
  faces.reserve(size_t(model.tetCount()) * 4);
  for (uint32_t t = 0; t < model.tetCount(); ++t)
    for (const auto& f : kFaces) {
      const glm::uvec3 w{model.tets[t][f[0]], model.tets[t][f[1]], model.tets[t][f[2]]};
      std::array<uint32_t, 3> s{w.x, w.y, w.z};
      std::sort(s.begin(), s.end());
      faces.push_back({s, w});
    }
  std::sort(faces.begin(), faces.end(), [](const FaceKey& a, const FaceKey& b) { return a.sorted < b.sorted; });
  for (size_t i = 0; i < faces.size();) {
    size_t j = i + 1;
    while (j < faces.size() && faces[j].sorted == faces[i].sorted) ++j;
    if (j - i == 1) model.boundaryTriangles.push_back(faces[i].wound);
    i = j;
  }
  model.boundaryTriangles.insert(model.boundaryTriangles.end(), model.clothTriangles.begin(),
                                 model.clothTriangles.end());
  std::vector<uint8_t> onSurface(model.vertexCount(), 0);
  for (const glm::uvec3& t : model.boundaryTriangles) onSurface[t.x] = onSurface[t.y] = onSurface[t.z] = 1;
  // Every strand point is a contact slot too: strands meet solids' and sheets'
  // triangles (they have none of their own, so strands do not meet each other).
  for (uint32_t v = 0; v < model.vertexCount(); ++v)
    if (model.isStrand(model.vertexBody[v])) onSurface[v] = 1;
  for (uint32_t v = 0; v < model.vertexCount(); ++v)
    if (onSurface[v]) model.surfaceVertices.push_back(v);
}

}  // namespace

BodyDesc clothBody(const SurfaceMesh& surface) {
  BodyDesc b;
  b.mesh.positions = surface.positions;
  b.kind = BodyKind::Cloth;
  b.triangles = surface.triangles;
  return b;
}

BodyDesc strandBody(const std::vector<std::vector<glm::vec3>>& polylines) {
  BodyDesc b;
  b.kind = BodyKind::Strand;
  for (const std::vector<glm::vec3>& line : polylines) {
    const uint32_t first = uint32_t(b.mesh.positions.size());
    b.mesh.positions.insert(b.mesh.positions.end(), line.begin(), line.end());
    for (uint32_t k = 1; k < line.size(); ++k) b.segments.emplace_back(first + k - 1, first + k);
  }
  return b;
}

void addClothMass(SimModel& model) {
  for (size_t s = 0; s < model.strandSegments.size(); ++s) {
    const Material& m = model.materials[model.strandSegmentBody[s]];
    const glm::uvec2 seg = model.strandSegments[s];
    const float half = float(double(m.density) * strandCrossSection(m) *
                             double(glm::length(model.restPositions[seg.x] - model.restPositions[seg.y])) / 2.0);
    model.mass[seg.x] += half;
    model.mass[seg.y] += half;
  }
  for (size_t t = 0; t < model.clothTriangles.size(); ++t) {
    const Material& m = model.materials[model.clothTriangleBody[t]];
    const float thirdMass = m.density * m.thickness * model.clothTriangleArea[t] / 3.0f;
    for (int c = 0; c < 3; ++c) model.mass[model.clothTriangles[t][c]] += thirdMass;
  }
}

Result<SimModel> buildSimModel(std::span<const BodyDesc> bodies, const ModelBuildOptions& options,
                               ModelBuildReport* outReport) {
  const auto start = std::chrono::steady_clock::now();
  ModelBuildReport report;
  if (bodies.empty()) return Error{"buildSimModel: no bodies given; load a mesh or choose a preset"};

  SimModel model;
  double minQuality = 1.0;
  for (size_t b = 0; b < bodies.size(); ++b)
    if (Status s = mergeBody(bodies[b], b, options, model, minQuality, report); !s) return s.error();
  report.minQuality = float(minQuality);

  // Colour order first: every per-tet and per-edge array is derived in it.
  colorTets(model, report);
  model.vertexTets = vertexTetsOf(model);
  if (Status s = checkEveryVertexHasAnElement(model, bodies); !s) return s.error();
  computeRestShape(model);
  buildEdges(model, report);
  buildHinges(model, report);
  buildMembranes(model, report);
  colorVertices(model, report);
  findBoundary(model);
  {
    // Wind elements: each cloth triangle's 3 corners, then each strand segment's 2 ends.
    const uint32_t T = uint32_t(model.clothTriangles.size()), S = uint32_t(model.strandSegments.size());
    const auto cornerOf = [&](uint32_t i) {
      return i < 3 * T ? model.clothTriangles[i / 3][i % 3] : model.strandSegments[(i - 3 * T) / 2][(i - 3 * T) % 2];
    };
    model.vertexWindElements = buildCsr(model.vertexCount(), 3 * T + 2 * S, cornerOf);
    for (uint32_t& item : model.vertexWindElements.items) item = item < 3 * T ? item / 3 : T + (item - 3 * T) / 2;
  }

  report.buildMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (outReport) *outReport = report;
  return model;
}

}  // namespace tetlab
