#version 330 core
// Full-screen triangle generated from gl_VertexID (no vertex buffer needed):
// covers clip space [-1,1]^2 with one triangle, so no diagonal seam.
out vec2 vUv;

void main() {
  vec2 p = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
  vUv = p;
  gl_Position = vec4(p * 2.0 - 1.0, 1.0, 1.0);
}
