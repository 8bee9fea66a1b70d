// The drawn surface follows the tets on the device (gpu/render/render_embedding.h;
// the CPU twin is applyEmbedding / computeVertexNormals in core/mesh/embedding.cpp).
// Both kernels write into ONE destination buffer, which is the GL vertex
// buffer itself (shared path) or a CL buffer copied into it once (copy path):
//
//   renderOut: | positions float4 [0, count) | normals float4 [count, 2 count) |
//
// One buffer means one acquire/release or one read per frame.
// Normals: each vertex gathers the area-weighted face normals of its own
// triangles through a CSR list (vertexTrianglesOffsets/Items), so no atomics
// (OpenCL 1.2 has no float atomics) and the sum order is fixed per vertex.
#pragma OPENCL FP_CONTRACT OFF

// x_render = w0 x[v0] + w1 x[v1] + w2 x[v2] + w3 x[v3] (barycentric embedding).
__kernel void render_embed_vertices(__global const uint4* renderVertices, __global const float4* renderWeights,
                                    __global const float4* x, __global float4* renderOut, const uint count) {
  const uint i = get_global_id(0);
  if (i >= count) return;
  const uint4 v = renderVertices[i];
  const float4 w = renderWeights[i];
  // Same association order as applyEmbedding so the two agree to rounding.
  const float3 p = w.x * x[v.x].xyz + w.y * x[v.y].xyz + w.z * x[v.z].xyz + w.w * x[v.w].xyz;
  renderOut[i] = (float4)(p, 1.0f);
}

// Area-weighted vertex normal: sum of (b - a) x (c - a) over incident
// triangles (its length is twice the area), then normalised; 0 when isolated.
__kernel void render_vertex_normals(__global float4* renderOut, __global const uint4* renderTriangles,
                                    __global const uint* vertexTrianglesOffsets,
                                    __global const uint* vertexTrianglesItems, const uint count) {
  const uint i = get_global_id(0);
  if (i >= count) return;
  float3 n = (float3)(0.0f);
  for (uint k = vertexTrianglesOffsets[i]; k < vertexTrianglesOffsets[i + 1]; ++k) {
    const uint4 t = renderTriangles[vertexTrianglesItems[k]];
    const float3 a = renderOut[t.x].xyz;
    n += cross(renderOut[t.y].xyz - a, renderOut[t.z].xyz - a);
  }
  const float len = length(n);
  renderOut[count + i] = len > 0.0f ? (float4)(n / len, 0.0f) : (float4)(0.0f);
}
