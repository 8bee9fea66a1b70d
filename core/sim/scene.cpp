#include "core/sim/scene.h"

#include "core/sim/state_setup.h"

namespace tetlab {

State makeSceneState(const Scene& scene) {
  State state = makeState(scene.model);
  pinVertices(state, scene.pinned);
  state.springs = scene.springs;
  return state;
}

}  // namespace tetlab
