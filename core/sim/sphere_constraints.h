#pragma once
// Motion and separation spheres (NvCloth's motion and separation constraints;
// settings: core/sim/sphere_settings.h, projection: shaders/cl/common/sphere_constraints.clh).
//
//   buildSphereRig(model, followers, pins, scene colliders)   when the model or the pins change
//     per vertex: its rest place in the frame of the collider its body's pins follow
//     (or the world), the direction into that collider, its rest distance to the nearest pin
//   sphereTargets(rig, settings, colliders now, followers)   every frame
//     -> State::spheres {start: last frame's, target: now}
//   stepSimulation / the device stepper: after each substep's solve, project
//     every free sheet and strand particle onto the blended spheres
#include <cstdint>
#include <span>
#include <vector>

#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "core/model/sim_model.h"
#include "core/sim/colliders.h"
#include "core/sim/pin_followers.h"
#include "core/sim/sphere_settings.h"
#include "core/sim/state.h"

namespace tetlab {

struct SphereRig {
  std::vector<int32_t> follower;   // per vertex: the Scene::followers entry giving its frame (-1: the world)
  std::vector<glm::vec3> local;    // rest place in that frame
  std::vector<glm::vec3> inward;   // unit direction into the followed collider, in its frame (0: none)
  std::vector<float> pinDistance;  // rest distance to the nearest pin of its body (0: the body has none)
  std::vector<uint8_t> acts;       // 1: a sheet or strand particle, not pinned
  bool empty() const { return follower.empty(); }
};

// `sceneColliders` are the colliders as the scene placed them when the
// followers were made (Scene::settings.colliders), `pinned` the current pins (w = 0).
SphereRig buildSphereRig(const SimModel& model, std::span<const PinFollower> followers,
                         const std::vector<glm::vec4>& x, const Colliders& sceneColliders);

// Each vertex's spheres with the colliders where they are now: motion
// (centre, r = scale d + bias) and separation (centre, radius); w = -1: none.
void sphereTargets(const SphereRig& rig, const SphereSettings& settings, const Colliders& colliders,
                   std::span<const PinFollower> followers, std::vector<glm::vec4>& outMotion,
                   std::vector<glm::vec4>& outSeparation);

// The fraction removed per substep h from the fraction k per 1/60 s: 1 - (1 - k)^(60 h).
float sphereSubstepStiffness(float perFrame60, float h);

// Projects every vertex onto the spheres blended at t (the CPU twin of the device's step_spheres).
void projectSpheres(const SphereTargets& spheres, float t, float k, std::vector<glm::vec4>& x);

}  // namespace tetlab
