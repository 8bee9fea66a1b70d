#include "core/sim/anchor_springs.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include <glm/geometric.hpp>

#include "core/sim/anchor_spring_hook.h"
#include "core/sim/anchor_spring_resolution.h"

namespace tetlab {

uint32_t AnchorSprings::brokenCount() const {
  uint32_t n = 0;
  for (const AnchorSpring& s : springs) n += s.broken ? 1u : 0u;
  return n;
}

bool AnchorSprings::anyBreakable() const {
  for (const AnchorSpring& s : springs)
    if (!s.broken && s.breakable()) return true;
  return false;
}

namespace {

bool finiteVec(glm::vec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

Status checkSpec(const AnchorSpringSpec& s, const std::string& where) {
  if (!finiteVec(s.attach) || !finiteVec(s.anchor))
    return Error{where + ": attach and anchor must be finite points [m]"};
  if (!(std::isfinite(s.radius) && s.radius >= 0.0f))
    return Error{where + ": radius must be >= 0 m (0: the vertex nearest to attach)"};
  if (!(std::isfinite(s.stiffness) && s.stiffness > 0.0f && s.stiffness <= 1.0e12f))
    return Error{where + ": stiffness must be in (0, 1e12] N/m"};
  if (!(std::isfinite(s.restLength) && s.restLength <= 1.0e6f))
    return Error{where + ": rest_length must be finite (< 0: the distance from anchor to attach)"};
  if (!(std::isfinite(s.breakForce) && s.breakForce >= 0.0f))
    return Error{where + ": break_force must be >= 0 N (0: never breaks)"};
  if (!(std::isfinite(s.breakStrain) && s.breakStrain >= 0.0f))
    return Error{where + ": break_strain must be >= 0 (0: never breaks)"};
  return Ok{};
}

}  // namespace

Result<AnchorSprings> buildAnchorSprings(const SimModel& model, const std::vector<BodySprings>& bodies) {
  AnchorSprings out;
  for (const BodySprings& b : bodies) {
    for (size_t k = 0; k < b.specs.size(); ++k) {
      const AnchorSpringSpec& spec = b.specs[k];
      const std::string name = spec.name.empty() ? "spring " + std::to_string(out.springs.size() + 1) : spec.name;
      const std::string where = "body '" + b.bodyName + "', springs[" + std::to_string(k) + "] ('" + name + "')";
      if (Status st = checkSpec(spec, where); !st) return st.error();
      if (b.vertexEnd > model.vertexCount() || b.vertexBegin >= b.vertexEnd)
        return Error{where + ": the body has no vertices"};
      // The patch: the given vertices, else those within radius of attach, else the nearest one.
      std::vector<uint32_t> patch;
      for (uint32_t v : spec.vertices) {
        if (v < b.vertexBegin || v >= b.vertexEnd) return Error{where + ": vertex " + std::to_string(v) + " is not the body's"};
        patch.push_back(v);
      }
      uint32_t nearest = b.vertexBegin;
      float nearest2 = std::numeric_limits<float>::infinity();
      for (uint32_t v = b.vertexBegin; v < b.vertexEnd && spec.vertices.empty(); ++v) {
        const glm::vec3 d = model.restPositions[v] - spec.attach;
        const float d2 = glm::dot(d, d);
        if (spec.radius > 0.0f && d2 <= spec.radius * spec.radius) patch.push_back(v);
        if (d2 < nearest2) {
          nearest2 = d2;
          nearest = v;
        }
      }
      if (patch.empty()) {
        if (spec.radius > 0.0f)
          return Error{where + ": no vertex of the body lies within radius " + std::to_string(spec.radius) +
                       " m of attach (the nearest is " + std::to_string(std::sqrt(nearest2)) +
                       " m away): move attach onto the body or raise radius"};
        patch.push_back(nearest);
      }
      glm::vec3 c(0.0f);
      for (uint32_t v : patch) c += model.restPositions[v];
      c /= float(patch.size());
      AnchorSpring s;
      s.name = name;
      s.body = b.body;
      s.first = uint32_t(out.vertex.size());
      s.count = uint32_t(patch.size());
      s.anchor = spec.vertices.empty() ? spec.anchor : c;  // a pin region's: each vertex at its rest place
      s.attach = c;
      s.pinRegion = spec.pinRegion;
      s.stiffness = spec.stiffness;
      s.restLength = spec.restLength >= 0.0f ? spec.restLength : glm::length(s.anchor - c);
      s.breakForce = spec.breakForce;
      s.breakStrain = spec.breakStrain;
      if (s.breakStrain > 0.0f && !(s.restLength > 0.0f))
        return Error{where + ": break_strain needs a rest length > 0 (the anchor is at the attach point): use "
                             "break_force instead"};
      const float kSub = spec.stiffness / float(patch.size());
      for (uint32_t v : patch) {
        out.vertex.push_back(v);
        const glm::vec3 a = s.anchor + (model.restPositions[v] - c);
        out.anchor.emplace_back(a, s.restLength);
        out.stiffness.push_back(kSub);
      }
      out.springs.push_back(std::move(s));
    }
  }
  indexAnchorSprings(out, model.vertexCount());
  return out;
}

void gatherSpringPositions(const AnchorSprings& springs, const std::vector<glm::vec4>& x,
                           std::vector<glm::vec4>& outSubX) {
  outSubX.resize(springs.subCount());
  for (uint32_t j = 0; j < springs.subCount(); ++j)
    outSubX[j] = springs.vertex[j] < x.size() ? x[springs.vertex[j]] : glm::vec4(springs.anchor[j]);
}

glm::vec3 anchorSpringForce(const AnchorSprings& springs, uint32_t s, const std::vector<glm::vec4>& x) {
  const AnchorSpring& spring = springs.springs[s];
  glm::dvec3 f(0.0);
  for (uint32_t j = spring.first; j < spring.first + spring.count; ++j) {
    const glm::vec3 d = glm::vec3(x[j]) - glm::vec3(springs.anchor[j]);
    const float l = glm::length(d);
    if (!(l > 0.0f)) continue;
    f += glm::dvec3(d / l) * double(springs.stiffness[j]) * double(l - springs.anchor[j].w);
  }
  return glm::vec3(f);
}

float anchorSpringStrain(const AnchorSprings& springs, uint32_t s, const std::vector<glm::vec4>& x) {
  const AnchorSpring& spring = springs.springs[s];
  if (!(spring.restLength > 0.0f) || spring.count == 0) return 0.0f;
  double sum = 0.0;
  for (uint32_t j = spring.first; j < spring.first + spring.count; ++j)
    sum += glm::length(glm::vec3(x[j]) - glm::vec3(springs.anchor[j]));
  return float(sum / spring.count / spring.restLength - 1.0);
}

double anchorSpringEnergy(const AnchorSprings& springs, const std::vector<glm::vec4>& x) {
  double e = 0.0;
  for (uint32_t j = 0; j < springs.subCount(); ++j) {
    if (j >= x.size()) break;
    const double l = glm::length(glm::vec3(x[j]) - glm::vec3(springs.anchor[j]));
    const double stretch = l - springs.anchor[j].w;
    e += 0.5 * springs.stiffness[j] * stretch * stretch;
  }
  return e;
}

uint32_t breakOverloadedSprings(AnchorSprings& springs, const std::vector<glm::vec4>& subX, double time) {
  const int64_t frame = springs.frames++;
  if (subX.size() != springs.subCount()) return 0;
  uint32_t broke = 0;
  for (uint32_t s = 0; s < springs.springs.size(); ++s) {
    AnchorSpring& spring = springs.springs[s];
    if (spring.broken || !spring.breakable()) continue;
    const bool overForce = spring.breakForce > 0.0f && glm::length(anchorSpringForce(springs, s, subX)) > spring.breakForce;
    const bool overStrain = spring.breakStrain > 0.0f && anchorSpringStrain(springs, s, subX) > spring.breakStrain;
    if (!overForce && !overStrain) continue;
    spring.broken = true;
    spring.brokenFrame = frame;
    spring.brokenTime = time;
    refreshSpringStiffness(springs, s);  // 0 from the next frame on
    ++broke;
  }
  return broke;
}

void refreshSpringStiffness(AnchorSprings& springs, uint32_t s) {
  const AnchorSpring& spring = springs.springs[s];
  const float k = spring.broken || spring.slack ? 0.0f : spring.stiffness / float(std::max(spring.count, 1u));
  for (uint32_t j = spring.first; j < spring.first + spring.count; ++j) springs.stiffness[j] = k;
  ++springs.revision;
}

void moveSpringAnchors(AnchorSprings& springs, uint32_t s, std::span<const glm::vec3> anchors) {
  const AnchorSpring& spring = springs.springs[s];
  for (uint32_t k = 0; k < spring.count && k < anchors.size(); ++k)
    springs.anchor[spring.first + k] = glm::vec4(anchors[k], springs.anchor[spring.first + k].w);
}

float springForceResolution(const AnchorSpring& spring) {
  float largest = 0.0f;
  for (int a = 0; a < 3; ++a)
    largest = std::max({largest, std::fabs(spring.anchor[a]), std::fabs(spring.attach[a])});
  const float ulp = std::nextafter(largest, INFINITY) - largest;
  return spring.stiffness * ulp;
}

std::string springResolutionWarning(const AnchorSprings& springs) {
  std::string out;
  for (const AnchorSpring& s : springs.springs) {
    if (!(s.breakForce > 0.0f)) continue;
    const float resolution = springForceResolution(s);
    if (!(resolution * 10.0f > s.breakForce)) continue;
    char text[320];
    std::snprintf(text, sizeof text,
                  "spring '%s': at %.3g N/m one float step of its position is %.3g N, within 10x of its %.3g N "
                  "limit, so rounding can break it: lower its stiffness or raise the limit (rule: k ulp(x) < F / 10)",
                  s.name.c_str(), double(s.stiffness), double(resolution), double(s.breakForce));
    out += (out.empty() ? "" : "\n") + std::string(text);
  }
  return out;
}

}  // namespace tetlab
