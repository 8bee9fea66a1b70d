#version 330 core
// Point sprites sized so each covers a sphere of world radius uRadius
// (pins, the grabbed point): diameter in pixels = 2 r (H / 2) P[1][1] / w.
layout(location = 0) in vec3 aPosition;

uniform mat4 uViewProj;
uniform float uRadius;          // [m]
uniform float uViewportHeight;  // [pixels]
uniform float uProjScale;       // projection matrix [1][1]

void main() {
  gl_Position = uViewProj * vec4(aPosition, 1.0);
  gl_PointSize = max(uRadius * uViewportHeight * uProjScale / max(gl_Position.w, 1e-6), 3.0);
}
