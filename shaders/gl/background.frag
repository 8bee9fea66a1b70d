#version 330 core
// Vertical gradient, interpolated in display (sRGB) space so that
// backgroundColorAt() in app/render/renderer.h can reproduce it exactly for tests.
in vec2 vUv;
uniform vec3 uTopColor;
uniform vec3 uBottomColor;
out vec4 fragColor;

void main() {
  fragColor = vec4(mix(uBottomColor, uTopColor, clamp(vUv.y, 0.0, 1.0)), 1.0);
}
