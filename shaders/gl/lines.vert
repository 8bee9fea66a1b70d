#version 330 core
// Tet edges and the mouse attachment as GL_LINES with a value per vertex,
// plus the depth across the body for a depth cue.
layout(location = 0) in vec3 aPosition;
layout(location = 1) in float aValue;

uniform mat4 uViewProj;
uniform vec3 uEye;
uniform vec3 uForward;      // unit, camera view direction
uniform vec2 uDepthRange;   // view depths [m] mapped to 0 (near) .. 1 (far) for the depth cue

out float vValue;
out float vDepth;           // 0 near .. 1 far

void main() {
  vValue = aValue;
  float depth = dot(aPosition - uEye, uForward);
  vDepth = clamp((depth - uDepthRange.x) / max(uDepthRange.y - uDepthRange.x, 1e-6), 0.0, 1.0);
  gl_Position = uViewProj * vec4(aPosition, 1.0);
}
