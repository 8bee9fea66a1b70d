#version 330 core
// A large quad on the ground plane y = uHeight, centred under the camera target;
// the fragment shader draws the lines procedurally so they never alias into moire.
layout(location = 0) in vec2 aCorner;   // [-1, 1]^2

uniform mat4 uViewProj;
uniform vec2 uCenter;      // xz
uniform float uExtent;     // half size [m]
uniform float uHeight;     // ground plane y [m]

out vec2 vGround;          // xz world position

void main() {
  vGround = uCenter + aCorner * uExtent;
  gl_Position = uViewProj * vec4(vGround.x, uHeight, vGround.y, 1.0);
}
