#version 330 core
// Studio lighting for a matte, slightly glossy material:
//   hemisphere ambient (sky above, ground bounce below, world up)
// + key light  (Lambert + Blinn-Phong highlight), placed up-left of the viewer
// + fill light (Lambert, cool, dimmer) from the other side
// + a soft Fresnel-like rim so the silhouette reads against the background.
// Key and fill follow the camera, so whatever side the user orbits to is lit.
// Lighting is done in linear space and encoded to sRGB at the end.
// The albedo is either the material colour or a field value through the
// colour map; a clip plane serves the cut-away view, uAlpha the ghost surface
// under the wireframe.
in vec3 vWorldPos;
in vec3 vNormal;
in float vScalar;

uniform vec3 uEye;
uniform vec3 uAlbedo;         // sRGB
uniform vec3 uKeyDir;         // towards the light, world space, unit
uniform vec3 uFillDir;        // towards the light, world space, unit
uniform vec3 uSkyColor;       // linear
uniform vec3 uGroundColor;    // linear
uniform float uShininess;
uniform float uSpecular;
uniform int uColorMode;       // 0 = uAlbedo, 1 = colour map of vScalar over uRange
uniform vec3 uColormap[9];    // sRGB keys at t = i / 8 (app/render/colormap.cpp)
uniform vec2 uRange;          // (min, max) of the colour map
uniform int uClipEnabled;     // 1: discard where dot(uClipPlane.xyz, p) > uClipPlane.w
uniform vec4 uClipPlane;
uniform float uBackfaceDim;   // back faces (the inside of a clipped shell) scaled by this
uniform float uAlpha;
uniform int uTwoTone;         // 1: a cloth sheet, whose back faces take uBackAlbedo (not dimmed)
uniform vec3 uBackAlbedo;     // sRGB

out vec4 fragColor;

vec3 toLinear(vec3 c) { return pow(c, vec3(2.2)); }
vec3 toSrgb(vec3 c) { return pow(c, vec3(1.0 / 2.2)); }

vec3 colormap(float value) {
  float t = uRange.y > uRange.x ? clamp((value - uRange.x) / (uRange.y - uRange.x), 0.0, 1.0) : 0.0;
  float s = t * 8.0;
  int i = min(int(s), 7);
  return mix(uColormap[i], uColormap[i + 1], s - float(i));
}

void main() {
  if (uClipEnabled == 1 && dot(uClipPlane.xyz, vWorldPos) > uClipPlane.w) discard;
  vec3 n = normalize(vNormal);
  // Open meshes show their inside: light the back face as if it faced us.
  if (!gl_FrontFacing) n = -n;
  vec3 v = normalize(uEye - vWorldPos);
  bool back = !gl_FrontFacing;
  vec3 plain = uTwoTone == 1 && back ? uBackAlbedo : uAlbedo;
  vec3 albedo = toLinear(uColorMode == 1 ? colormap(vScalar) : plain);

  vec3 ambient = mix(uGroundColor, uSkyColor, n.y * 0.5 + 0.5);
  float keyDiffuse = max(dot(n, uKeyDir), 0.0);
  float fillDiffuse = max(dot(n, uFillDir), 0.0);
  vec3 h = normalize(uKeyDir + v);
  // Normalised Blinn-Phong: (s + 8) / 8π keeps highlight energy roughly constant with shininess.
  float spec = keyDiffuse > 0.0 ? pow(max(dot(n, h), 0.0), uShininess) * (uShininess + 8.0) / 25.13 : 0.0;
  float rim = pow(1.0 - max(dot(n, v), 0.0), 3.0);

  vec3 color = albedo * (ambient + keyDiffuse * vec3(1.0, 0.95, 0.88) * 2.0 + fillDiffuse * vec3(0.55, 0.65, 0.85) * 0.35)
             + uSpecular * spec * vec3(1.0, 0.97, 0.92)
             + rim * 0.12 * uSkyColor;
  if (back && uTwoTone == 0) color *= uBackfaceDim;
  // Gentle filmic shoulder so the key light never clips to flat white.
  color = color / (1.0 + 0.25 * color);
  fragColor = vec4(toSrgb(color), uAlpha);
}
