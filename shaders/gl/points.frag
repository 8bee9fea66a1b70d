#version 330 core
// A lit sphere impostor in each point sprite: the sprite's disc is the
// sphere's silhouette, the normal follows from the disc coordinate.
uniform vec3 uColor;   // sRGB

out vec4 fragColor;

void main() {
  vec2 p = gl_PointCoord * 2.0 - 1.0;
  float r2 = dot(p, p);
  if (r2 > 1.0) discard;
  vec3 n = vec3(p.x, -p.y, sqrt(1.0 - r2));          // view space, towards the viewer
  vec3 l = normalize(vec3(-0.5, 0.7, 0.6));          // up-left, like the key light
  float diffuse = max(dot(n, l), 0.0);
  float spec = pow(max(dot(n, normalize(l + vec3(0.0, 0.0, 1.0))), 0.0), 40.0);
  vec3 base = pow(uColor, vec3(2.2));
  vec3 color = base * (0.25 + 1.1 * diffuse) + 0.35 * spec;
  // Dark outline ring so the sphere reads on a surface of similar colour.
  float ring = smoothstep(0.78, 0.98, r2);
  color = mix(color, base * 0.15, ring * 0.8);
  fragColor = vec4(pow(color / (1.0 + 0.25 * color), vec3(1.0 / 2.2)), 1.0);
}
