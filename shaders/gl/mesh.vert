#version 330 core
layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec3 aNormal;
layout(location = 2) in float aScalar;  // field value per vertex (unused unless uColorMode == 1)

uniform mat4 uViewProj;

out vec3 vWorldPos;
out vec3 vNormal;
out float vScalar;

void main() {
  vWorldPos = aPosition;
  vNormal = aNormal;
  vScalar = aScalar;
  gl_Position = uViewProj * vec4(aPosition, 1.0);
}
