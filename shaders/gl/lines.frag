#version 330 core
// Line colour: 0 uColor, 1 colour map of the value, 2 palette by the value;
// uAlpha lets thousands of overlapping edges build up density instead of
// saturating into a solid blob, and the depth cue (far edges fainter and
// darker) lets the eye separate front from back in the x-ray view.
in float vValue;
in float vDepth;

uniform int uColorMode;
uniform vec3 uColor;          // sRGB
uniform vec3 uColormap[9];    // sRGB
uniform vec3 uPalette[48];    // sRGB
uniform vec2 uRange;
uniform float uAlpha;
uniform float uFarFade;      // alpha and brightness factor at the far side (1 = no depth cue)

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
    c = uPalette[((i % 48) + 48) % 48];
  }
  float cue = mix(1.0, uFarFade, vDepth);
  fragColor = vec4(c * mix(1.0, cue, 0.5), uAlpha * cue);
}
