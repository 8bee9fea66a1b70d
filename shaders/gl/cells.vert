#version 330 core
// Tet faces as a triangle soup (app/render/view_geometry.h CellVertex): every corner
// knows which corner it is (barycentric id) and the field at all three corners.
layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec3 aNormal;
layout(location = 2) in vec3 aBarycentric;
layout(location = 3) in vec3 aValues;

uniform mat4 uViewProj;

out vec3 vWorldPos;
out vec3 vNormal;
out vec3 vBarycentric;
flat out vec3 vValues;

void main() {
  vWorldPos = aPosition;
  vNormal = aNormal;
  vBarycentric = aBarycentric;
  vValues = aValues;
  gl_Position = uViewProj * vec4(aPosition, 1.0);
}
