#version 330 core
// Ground grid drawn as anti-aliased procedural lines (width from screen-space
// derivatives), a minor and a major spacing, the x and z axes tinted, all
// fading with distance. A soft contact shadow under the body grounds it.
// Output is premultiplied-free alpha for GL_SRC_ALPHA / ONE_MINUS_SRC_ALPHA.
in vec2 vGround;

uniform float uCell;          // minor spacing [m]; major lines every 10 cells
uniform vec2 uFadeCenter;     // xz
uniform float uFadeRadius;    // [m] where the grid has faded out
uniform vec3 uLineColor;      // sRGB
uniform float uLineAlpha;
uniform vec2 uShadowCenter;   // xz
uniform vec2 uShadowRadius;   // xz semi-axes [m]; 0 = no shadow
uniform float uShadowStrength;

out vec4 fragColor;

float gridLine(vec2 p, float cell) {
  vec2 coord = p / cell;
  vec2 w = fwidth(coord);
  vec2 g = abs(fract(coord - 0.5) - 0.5) / max(w, vec2(1e-6));
  return 1.0 - min(min(g.x, g.y), 1.0);
}

float axisLine(float c) {
  float w = fwidth(c);
  return 1.0 - min(abs(c) / max(w * 1.5, 1e-6), 1.0);
}

void main() {
  float minor = gridLine(vGround, uCell);
  float major = gridLine(vGround, uCell * 10.0);
  float fade = 1.0 - smoothstep(0.25 * uFadeRadius, uFadeRadius, length(vGround - uFadeCenter));

  float lineA = max(minor * 0.45, major) * uLineAlpha;
  vec3 color = uLineColor;
  float ax = axisLine(vGround.y);   // the x axis is the line z = 0
  float az = axisLine(vGround.x);   // the z axis is the line x = 0
  if (ax > 0.0) { color = mix(color, vec3(0.85, 0.35, 0.35), ax); lineA = max(lineA, ax * 0.8); }
  if (az > 0.0) { color = mix(color, vec3(0.35, 0.5, 0.9), az); lineA = max(lineA, az * 0.8); }
  lineA *= fade;

  float shadow = 0.0;
  if (uShadowRadius.x > 0.0 && uShadowRadius.y > 0.0) {
    float d = length((vGround - uShadowCenter) / uShadowRadius);
    shadow = uShadowStrength * (1.0 - smoothstep(0.0, 1.0, d));
  }
  // Shadow (black) under the lines: composite line over shadow.
  float alpha = lineA + shadow * (1.0 - lineA);
  vec3 rgb = alpha > 0.0 ? color * lineA / alpha : vec3(0.0);
  fragColor = vec4(rgb, alpha);
}
