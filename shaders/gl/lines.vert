#version 330 core
// Tet edges and the mouse attachment as GL_LINES with a value per vertex.
layout(location = 0) in vec3 aPosition;
layout(location = 1) in float aValue;

uniform mat4 uViewProj;

out float vValue;

void main() {
  vValue = aValue;
  gl_Position = uViewProj * vec4(aPosition, 1.0);
}
