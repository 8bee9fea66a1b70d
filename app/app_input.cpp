// Input: the one event stream (GLFW callbacks or Window::pushEvent) drives the
// camera, the mouse drag, pins, keys and dropped files. The scene only sees a
// mouse event when ImGui does not want it, and a key when ImGui is not typing.
#include <algorithm>
#include <numeric>

#include "app/app.h"
#include "app/render/picking.h"
#include "core/sim/collider_records.h"

namespace tetlab {

namespace {

// The GPU solvers take at most this many attachment vertices (kernel arguments).
constexpr size_t kMaxDragVertices = 8;

// Keeps the largest weights, renormalised to sum 1.
void limitAttachment(AttachmentWeights& a, size_t maxVertices) {
  if (a.vertices.size() <= maxVertices) return;
  std::vector<size_t> order(a.vertices.size());
  std::iota(order.begin(), order.end(), size_t(0));
  std::sort(order.begin(), order.end(), [&](size_t i, size_t j) { return a.weights[i] > a.weights[j]; });
  AttachmentWeights kept;
  float sum = 0.0f;
  for (size_t k = 0; k < maxVertices; ++k) {
    kept.vertices.push_back(a.vertices[order[k]]);
    kept.weights.push_back(a.weights[order[k]]);
    sum += a.weights[order[k]];
  }
  for (float& w : kept.weights) w /= sum;
  a = std::move(kept);
}

// Sphere tracing (Hart 1996) against the analytic colliders' signed distances,
// the ground excluded: the first collider the ray touches and where.
struct ColliderHit {
  int32_t id = -1;  // forEachCollider's id
  glm::vec3 point{0.0f};
};

std::optional<ColliderHit> pickCollider(const Colliders& colliderList, const Ray& ray) {
  const ColliderRecords colliders = packColliders(colliderList);
  constexpr int kSteps = 200;
  constexpr float kMaxDistance = 1000.0f;  // [m]
  float t = 0.0f;
  for (int i = 0; i < kSteps && t < kMaxDistance; ++i) {
    const glm::vec3 p = ray.origin + t * ray.direction;
    ColliderHit nearest;
    float phi = INFINITY;
    forEachCollider(colliders, p, [&](const ColliderSample& s) {
      if (s.id != 0 && s.phi < phi) {
        phi = s.phi;
        nearest.id = s.id;
      }
    });
    if (nearest.id < 0) return std::nullopt;
    // Converged relative to how far the ray has gone (a scale-free tolerance).
    if (phi < 1e-4f * std::max(t, 1e-2f)) {
      nearest.point = p;
      return nearest;
    }
    t += phi;
  }
  return std::nullopt;
}

// Moves collider `id` (forEachCollider's numbering: core/sim/collider_records.h) by delta.
void translateCollider(Colliders& c, int32_t id, glm::vec3 delta) {
  size_t i = size_t(id - 1);
  if (i < c.planes.size()) {
    c.planes[i].point += delta;
    return;
  }
  i -= c.planes.size();
  if (i < c.spheres.size()) {
    c.spheres[i].center += delta;
    return;
  }
  i -= c.spheres.size();
  if (i < c.boxes.size()) {
    c.boxes[i].center += delta;
    return;
  }
  i -= c.boxes.size();
  if (i < c.capsules.size()) {
    c.capsules[i].a += delta;
    c.capsules[i].b += delta;
    return;
  }
  i -= c.capsules.size();
  if (i < c.tori.size()) {
    c.tori[i].center += delta;
    return;
  }
  i -= c.tori.size();
  if (i < c.meshes.size()) c.meshes[i].center += delta;
}

}  // namespace

std::optional<ScenePick> App::pickAt(glm::vec2 cursor) const {
  if (!simView_ || !session_) return std::nullopt;
  // Split compare: the cell under the cursor, its lane's view and positions (the lanes share vertex ids).
  const CursorView at = cursorView(cursor);
  const SimView& view = at.lane == 0 ? *simView_ : laneViews_[at.lane - 1];
  const State& state = compare_ ? compare_->lane(at.lane).state() : session_->state();
  return view.pick(cameraRay(at.camera, at.cursor, at.size), state.x);
}

bool App::handleLeftPress(const InputEvent& event) {
  if (deform_) {
    // The deformer's bodies are not simulated: a press paints with the hold brush, or orbits.
    if (deformUi_.brush == DeformUiState::Brush::Off) return false;
    painting_ = paintDeformHold(event.cursor);
    return painting_;
  }
  if (event.ctrl && session_) {
    // Ctrl-drag moves a collider in the plane through the grabbed point facing the camera.
    const Ray ray = cameraRay(camera_, event.cursor, displaySize());
    std::optional<ColliderHit> hit = pickCollider(session_->settings().colliders, ray);
    if (!hit) return false;
    draggedCollider_ = hit->id;
    dragPlanePoint_ = hit->point;
    return true;
  }
  if (Status s = session_->syncPositions(); !s) reportError("reading positions for picking failed: " + s.error().message);
  std::optional<ScenePick> pick = pickAt(event.cursor);
  if (!pick) return false;
  lastPickedVertex_ = pick->nearestVertex;
  if (event.shift) {
    if (compare_)
      compare_->togglePin(pick->nearestVertex);
    else
      session_->togglePin(pick->nearestVertex);
    return true;
  }
  AttachmentWeights a = pick->attachment;
  limitAttachment(a, kMaxDragVertices);
  if (a.vertices.empty()) return false;
  // Compare mode: the same vertices and target in every lane, so all are pulled the same way.
  if (compare_)
    compare_->beginDrag(a.vertices, a.weights, pick->hit.point);
  else
    session_->beginDrag(a.vertices, a.weights, pick->hit.point);
  dragLane_ = cursorView(event.cursor).lane;
  dragPlanePoint_ = pick->hit.point;
  dragging_ = true;
  return true;
}

void App::handleKey(const InputEvent& event) {
  switch (event.key) {
    case GLFW_KEY_F:
      fitView();
      return;
    case GLFW_KEY_F12:
      screenshotRequested_ = true;
      return;
    case GLFW_KEY_V:
      view_.mode = cycleViewMode(view_.mode);
      return;
    case GLFW_KEY_C:
      view_.field = cycleColorField(view_.field);
      return;
    default:
      break;
  }
  if (!session_) return;
  switch (event.key) {
    case GLFW_KEY_SPACE:
      if (deform_)
        deform_->playing = !deform_->playing;
      else
        togglePause();
      break;
    case GLFW_KEY_S:
      if (compare_) {
        compare_->setPaused(true);
        compare_->requestSingleStep();
      } else {
        session_->setPaused(true);
        session_->requestSingleStep();
      }
      break;
    case GLFW_KEY_R:
      resetRun();
      break;
    case GLFW_KEY_1:
    case GLFW_KEY_2:
    case GLFW_KEY_3:
    case GLFW_KEY_4:
      session_->setSolver(SolverKind(event.key - GLFW_KEY_1));
      break;
    case GLFW_KEY_H:
      // Leave a spring where the drag holds the body (a user spring: core/sim/anchor_spring_hook.h).
      if (!dragging_ || deform_) break;
      if (compare_) {
        reportNotice("H leaves a spring in a single run; compare mode drags every lane alike and keeps no hooks");
        break;
      }
      if (Result<uint32_t> hook = session_->hookDrag(); !hook) reportError("hook: " + hook.error().message);
      dragging_ = false;
      break;
    case GLFW_KEY_ESCAPE:
      if (dragging_) {
        if (compare_) compare_->endDrag();
        else session_->endDrag();
        dragging_ = false;
      }
      break;
    default:
      break;
  }
}

void App::handleEvent(const InputEvent& event) {
  const float viewportHeight = displaySize().y;
  switch (event.type) {
    case InputEvent::Type::kKeyPress:
      if (!imgui_->wantsKeyboard()) handleKey(event);
      return;
    case InputEvent::Type::kDrop:
      if (event.paths.empty()) return;
      if (event.paths.size() > 1) reportNotice("several files dropped: loading only " + event.paths.front());
      if (std::filesystem::path(event.paths.front()).extension() == ".json")
        openSceneFile(event.paths.front());
      else
        openObj(event.paths.front());
      return;
    case InputEvent::Type::kButtonPress:
      if (event.button == MouseButton::kLeft && !imgui_->wantsMouse() && !cameraController_.dragging() &&
          handleLeftPress(event))
        return;
      break;
    case InputEvent::Type::kCursorMove:
      if (painting_) {
        paintDeformHold(event.cursor);
        return;
      }
      if (draggedCollider_ >= 0 && session_) {
        const glm::vec3 to = dragPlaneTarget(camera_, event.cursor, displaySize(), dragPlanePoint_);
        translateCollider(session_->settings().colliders, draggedCollider_, to - dragPlanePoint_);
        session_->markExternalWork();
        dragPlanePoint_ = to;
        return;
      }
      if (dragging_) {
        const CursorView at = cursorView(event.cursor, dragLane_);
        const glm::vec3 target = dragPlaneTarget(at.camera, at.cursor, at.size, dragPlanePoint_);
        if (compare_) compare_->moveDrag(target);
        else if (session_) session_->moveDrag(target);
        return;
      }
      break;
    case InputEvent::Type::kButtonRelease:
      if (painting_ && event.button == MouseButton::kLeft) {
        painting_ = false;
        if (deform_) (void)deform_->resolve();  // a failure is queued and reported in step()
        return;
      }
      if (draggedCollider_ >= 0 && event.button == MouseButton::kLeft) {
        draggedCollider_ = -1;
        return;
      }
      if (dragging_ && event.button == MouseButton::kLeft) {
        if (compare_) compare_->endDrag();
        else if (session_) session_->endDrag();
        dragging_ = false;
        return;
      }
      break;
    case InputEvent::Type::kScroll:
      break;
  }
  cameraController_.handle(event, imgui_->wantsMouse(), viewportHeight, camera_);
}

}  // namespace tetlab
