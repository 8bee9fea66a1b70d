#pragma once
// Lets the shared element math in shaders/cl/common/*.clh compile as C++ for
// the CPU reference solvers. The .clh files are written in the C subset that
// OpenCL C 1.2 and C++20 share; this header maps the OpenCL vector types and
// builtins they use onto glm/std. Include it BEFORE any .clh:
//
//   #include "shaders/cl/common/compat_cpp.h"
//   #include "shaders/cl/common/neo_hookean.clh"
//   ... tetlab::clm::nh_energy_density(F, mu, lambda) ...
//
// It is never included from a .clh itself: the OpenCL build inlines every
// #include textually (gpu/cl/cl_program.h), and glm must not reach the device.
// Rules for .clh code so both compilers agree:
//   - float3 values only through TL_FLOAT3(x, y, z); no swizzles (.xyz: use
//     TL_XYZ(v)), no vector literals, no implicit double (write 1.0f);
//   - arrays the assembly gathers from are `TL_GLOBAL const float4*` (the
//     device's __global buffers, the CPU's std::vector data());
//   - functions are TL_FN (static inline), pointers are private out-params;
//   - wrap the file in TL_BEGIN / TL_END (namespace tetlab::clm in C++).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include <glm/geometric.hpp>
#include <glm/vec3.hpp>
#include <glm/vec2.hpp>
#include <glm/vec4.hpp>

#define TETLAB_CL_COMPAT_CPP 1
#define TL_FN static inline
#define TL_BEGIN \
  namespace tetlab { \
  namespace clm {
#define TL_END \
  } \
  }
#define TL_FLOAT3(x, y, z) ::glm::vec3((x), (y), (z))
#define TL_FLOAT4(x, y, z, w) ::glm::vec4((x), (y), (z), (w))
#define TL_GLOBAL
#define TL_XYZ(v) ::glm::vec3(v)

namespace tetlab {
namespace clm {
using float3 = ::glm::vec3;
using float4 = ::glm::vec4;
using uint = uint32_t;
using uint2 = ::glm::uvec2;
using uint4 = ::glm::uvec4;
using ::glm::cross;
using ::glm::dot;
using ::glm::length;
using ::glm::normalize;
using std::cbrt;
using std::copysign;
using std::exp;
using std::expm1;
using std::fabs;
using std::fmax;
using std::floor;
using std::fmin;
using std::frexp;
using std::ldexp;
using std::log;
using std::log1p;
using std::pow;
using std::sqrt;
inline float clamp(float v, float lo, float hi) { return std::min(std::max(v, lo), hi); }
// OpenCL's bit reinterpretation of a 32-bit integer as a float.
inline float as_float(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}
}  // namespace clm
}  // namespace tetlab
