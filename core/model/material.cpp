#include "core/model/material.h"

#include <algorithm>

namespace tetlab {

LameParameters lameFromYoungPoisson(float youngsModulus, float poissonRatio) {
  // nu -> 0.5 makes lambda infinite; clamp just below so incompressible
  // requests stay finite (the solver's volume term then dominates).
  const float nu = std::clamp(poissonRatio, 0.0f, 0.4995f);
  const float E = youngsModulus;
  return {E / (2.0f * (1.0f + nu)), E * nu / ((1.0f + nu) * (1.0f - 2.0f * nu))};
}

NeoHookeanParameters neoHookeanFromMaterial(const Material& material) {
  const LameParameters lame = lameFromYoungPoisson(material.youngsModulus, material.poissonRatio);
  return {lame.mu, lame.lambda + lame.mu};
}

float clothEdgeModulus(const Material& m) { return 0.5f * m.youngsModulus * m.thickness; }

double strandCrossSection(const Material& m) {
  return 3.14159265358979 * double(m.thickness) * double(m.thickness) / 4.0;
}

float strandAxialStiffness(const Material& m) { return float(double(m.youngsModulus) * strandCrossSection(m)); }

float edgeSpringStiffness(float youngsModulus, float edgeVolume, float restLength) {
  return 6.0f * youngsModulus * edgeVolume / (restLength * restLength);
}

}  // namespace tetlab
