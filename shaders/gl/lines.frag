#version 330 core
// Line colour: 0 uColor, 1 colour map of the value, 2 palette by the value;
// uAlpha lets thousands of overlapping edges build up density instead of
// saturating into a solid blob.
in float vValue;

uniform int uColorMode;
uniform vec3 uColor;          // sRGB
uniform vec3 uColormap[9];    // sRGB
uniform vec3 uPalette[12];    // sRGB
uniform vec2 uRange;
uniform float uAlpha;

out vec4 fragColor;

void main() {
  vec3 c = uColor;
  if (uColorMode == 1) {
    float t = uRange.y > uRange.x ? clamp((vValue - uRange.x) / (uRange.y - uRange.x), 0.0, 1.0) : 0.0;
    float s = t * 8.0;
    int i = min(int(s), 7);
    c = mix(uColormap[i], uColormap[i + 1], s - float(i));
  } else if (uColorMode == 2) {
    int i = int(floor(vValue + 0.5));
    c = uPalette[((i % 12) + 12) % 12];
  }
  fragColor = vec4(c, uAlpha);
}
