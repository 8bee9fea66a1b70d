#version 330 core
// Lit tet faces with their edges drawn where a barycentric coordinate nears 0
// (width from screen-space derivatives, so lines stay ~1 pixel at any zoom and
// need no GL line primitives). Colour modes:
//   0 material colour   1 colour map of the interpolated value
//   2 palette by the face's value (per-tet categories: all corners equal)
//   3 palette by the nearest corner's value (per-vertex categories: a patch per vertex)
// Lighting matches mesh.frag (key + fill + hemisphere ambient), without the rim.
in vec3 vWorldPos;
in vec3 vNormal;
in vec3 vBarycentric;
flat in vec3 vValues;

uniform vec3 uEye;
uniform vec3 uAlbedo;         // sRGB
uniform vec3 uKeyDir;
uniform vec3 uFillDir;
uniform vec3 uSkyColor;       // linear
uniform vec3 uGroundColor;    // linear
uniform float uSpecular;
uniform float uShininess;
uniform int uColorMode;
uniform vec3 uColormap[9];    // sRGB
uniform vec3 uPalette[48];    // sRGB
uniform vec2 uRange;
uniform vec3 uEdgeColor;      // sRGB
uniform float uEdgeStrength;  // 0 = no edges
uniform float uEdgeWidth;     // [pixels]

out vec4 fragColor;

vec3 toLinear(vec3 c) { return pow(c, vec3(2.2)); }
vec3 toSrgb(vec3 c) { return pow(c, vec3(1.0 / 2.2)); }

vec3 colormap(float value) {
  float t = uRange.y > uRange.x ? clamp((value - uRange.x) / (uRange.y - uRange.x), 0.0, 1.0) : 0.0;
  float s = t * 8.0;
  int i = min(int(s), 7);
  return mix(uColormap[i], uColormap[i + 1], s - float(i));
}

vec3 palette(float value) {
  int i = int(floor(value + 0.5));
  i = ((i % 48) + 48) % 48;
  return uPalette[i];
}

void main() {
  vec3 base;
  if (uColorMode == 1) {
    base = colormap(dot(vBarycentric, vValues));
  } else if (uColorMode == 2) {
    base = palette(vValues.x);
  } else if (uColorMode == 3) {
    vec3 b = vBarycentric;
    float value = b.x >= b.y && b.x >= b.z ? vValues.x : (b.y >= b.z ? vValues.y : vValues.z);
    base = palette(value);
  } else {
    base = uAlbedo;
  }

  vec3 n = normalize(vNormal);
  if (!gl_FrontFacing) n = -n;
  vec3 v = normalize(uEye - vWorldPos);
  vec3 albedo = toLinear(base);
  vec3 ambient = mix(uGroundColor, uSkyColor, n.y * 0.5 + 0.5);
  float keyDiffuse = max(dot(n, uKeyDir), 0.0);
  float fillDiffuse = max(dot(n, uFillDir), 0.0);
  vec3 h = normalize(uKeyDir + v);
  float spec = keyDiffuse > 0.0 ? pow(max(dot(n, h), 0.0), uShininess) * (uShininess + 8.0) / 25.13 : 0.0;
  vec3 color = albedo * (ambient + keyDiffuse * vec3(1.0, 0.95, 0.88) * 2.0 + fillDiffuse * vec3(0.55, 0.65, 0.85) * 0.35)
             + uSpecular * spec * vec3(1.0, 0.97, 0.92);
  color = color / (1.0 + 0.25 * color);
  vec3 srgb = toSrgb(color);

  // Distance to the nearest edge in pixels: barycentric / its screen-space rate of change.
  vec3 rate = max(fwidth(vBarycentric), vec3(1e-6));
  vec3 d = vBarycentric / rate;
  float edge = 1.0 - smoothstep(0.5 * uEdgeWidth, 0.5 * uEdgeWidth + 1.0, min(d.x, min(d.y, d.z)));
  // Fade the edges of faces only a few pixels across (1 / rate ~ the face's height in
  // pixels), or a distant body turns into a solid mesh of lines.
  float facePixels = 1.0 / max(rate.x, max(rate.y, rate.z));
  edge *= smoothstep(3.0, 14.0, facePixels);
  srgb = mix(srgb, uEdgeColor, edge * uEdgeStrength);
  fragColor = vec4(srgb, 1.0);
}
