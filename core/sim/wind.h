#pragma once
// Wind on cloth sheets, the aerodynamic model NvCloth uses: each triangle in
// the air flow u (the wind minus the triangle's velocity) feels a drag along
// u and a lift across it, from the fluid density, its area and its angle to
// the flow (shaders/cl/common/wind.clh has the equations; both backends call
// them). Gusts scale the wind by a smooth seeded noise in time, so a scene and
// its seed blow the same way every run. Applied each substep as a velocity
// kick before the predict, v += h F / m, the same on every solver.
#include <cstdint>

#include <glm/vec3.hpp>

namespace tetlab {

struct SimModel;

struct WindSettings {
  bool enabled = false;
  glm::vec3 velocity{0.0f};     // mean wind [m/s]
  float fluidDensity = 1.225f;  // air at sea level [kg/m^3]
  float drag = 1.0f;            // drag coefficient C_d of a sheet facing the flow [-]
  float lift = 0.5f;            // lift coefficient C_l [-]
  float gust = 0.0f;            // gust amplitude: the wind is velocity (1 + gust n(t)), n in [-1, 1] [-]
  float gustPeriod = 1.0f;      // time between the noise's knots [s]
  uint32_t seed = 1;            // the gust noise's seed
};

// The wind at time t: velocity (1 + gust n(t)), n a smooth value noise with
// one seeded random knot per gustPeriod (cosine interpolation), in [-1, 1].
glm::vec3 windVelocityAt(const WindSettings& wind, double time);

// Whether the wind does work on the model (it blows, and there are sheets or
// strands to blow on): the energy checks (core/sim/convergence.h) then treat
// the run as forced. Still air only drags, which removes energy.
bool windDoesWork(const WindSettings& wind, const SimModel& model);

}  // namespace tetlab
