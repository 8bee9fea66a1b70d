#include "app/commands/deform_region_flag.h"

#include <cmath>
#include <cstdio>
#include <sstream>
#include <vector>

#include <glm/geometric.hpp>

namespace tetlab {

namespace {

// n comma-separated finite numbers within [lo, hi].
Result<std::vector<float>> numbers(const std::string& key, const std::string& value, size_t n, double lo, double hi) {
  std::vector<float> out;
  std::stringstream in(value);
  std::string item;
  while (std::getline(in, item, ',')) {
    char* end = nullptr;
    const double v = std::strtod(item.c_str(), &end);
    if (item.empty() || end != item.c_str() + item.size() || !std::isfinite(v))
      return Error{key + "=" + value + ": '" + item + "' is not a finite number"};
    if (v < lo || v > hi) {
      char range[96];
      std::snprintf(range, sizeof range, "%g..%g", lo, hi);
      return Error{key + "=" + value + ": " + item + " is outside " + range};
    }
    out.push_back(float(v));
  }
  if (out.size() != n) return Error{key + "=" + value + ": give " + std::to_string(n) + " comma-separated numbers"};
  return out;
}

std::string join(const float* v, size_t n) {
  std::string out;
  char buf[32];
  for (size_t i = 0; i < n; ++i) {
    std::snprintf(buf, sizeof buf, "%s%g", i ? "," : "", double(v[i]));
    out += buf;
  }
  return out;
}

}  // namespace

Result<DeformRegion> parseDeformRegion(const std::string& spec) {
  DeformRegion r;
  bool haveBox = false;
  std::stringstream in(spec);
  std::string part;
  while (std::getline(in, part, ';')) {
    if (part.empty()) continue;
    const size_t eq = part.find('=');
    if (eq == std::string::npos)
      return Error{"'" + part + "': write key=value (box, stretch, shear, rest-scale, axis, volume, name)"};
    const std::string key = part.substr(0, eq), value = part.substr(eq + 1);
    auto vec3 = [&](glm::vec3& out, double lo, double hi) -> Status {
      Result<std::vector<float>> v = numbers(key, value, 3, lo, hi);
      if (!v) return v.error();
      out = {(*v)[0], (*v)[1], (*v)[2]};
      return Ok{};
    };
    Status s = Ok{};
    if (key == "name") {
      r.name = value;
    } else if (key == "box") {
      Result<std::vector<float>> v = numbers(key, value, 6, -1e30, 1e30);
      if (!v) return v.error();
      r.min = {(*v)[0], (*v)[1], (*v)[2]};
      r.max = {(*v)[3], (*v)[4], (*v)[5]};
      if (!(r.min.x <= r.max.x && r.min.y <= r.max.y && r.min.z <= r.max.z))
        return Error{"box=" + value + ": give X0,Y0,Z0,X1,Y1,Z1 with each minimum at most its maximum"};
      haveBox = true;
    } else if (key == "stretch") {
      s = vec3(r.stretchScale, 0.0, 1e6);
    } else if (key == "shear") {
      s = vec3(r.shearScale, 0.0, 1e6);
    } else if (key == "rest-scale") {
      s = vec3(r.restScale, 1e-3, 1e3);
    } else if (key == "axis") {
      s = vec3(r.materialAxis, -1e6, 1e6);
      if (s && !(glm::length(r.materialAxis) > 0.0f)) return Error{"axis=" + value + ": give a non-zero direction"};
    } else if (key == "volume") {
      Result<std::vector<float>> v = numbers(key, value, 1, 0.0, 1e6);
      if (!v) return v.error();
      r.volumeScale = (*v)[0];
    } else {
      return Error{"unknown key '" + key + "' (use box, stretch, shear, rest-scale, axis, volume, name)"};
    }
    if (!s) return s.error();
  }
  if (!haveBox) return Error{"'" + spec + "': a region needs box=X0,Y0,Z0,X1,Y1,Z1 (rest space, metres)"};
  return r;
}

std::string deformRegionSpec(const DeformRegion& r) {
  const float box[6] = {r.min.x, r.min.y, r.min.z, r.max.x, r.max.y, r.max.z};
  std::string out;
  if (!r.name.empty()) out += "name=" + r.name + ";";
  out += "box=" + join(box, 6);
  out += ";stretch=" + join(&r.stretchScale.x, 3);
  out += ";shear=" + join(&r.shearScale.x, 3);
  out += ";rest-scale=" + join(&r.restScale.x, 3);
  out += ";axis=" + join(&r.materialAxis.x, 3);
  out += ";volume=" + join(&r.volumeScale, 1);
  return out;
}

}  // namespace tetlab
