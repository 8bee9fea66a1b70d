#pragma once
// Compare mode (issue 14): the same scene on two to four solvers at once,
// stepped in lock-step from the same state with the same material, so a
// researcher compares them side by side instead of from memory.
//
//   lane 0      the app's own session (the primary): its panels edit the scene
//   lanes 1..   SimSession::createLane(primary): the same model (shared, not
//               copied), their own state, solver, budget and backend
//   reference   optionally the last lane: a converged solve; every other lane's
//               distance to it (RMS, max) and energy difference, per frame
//
//   advance():  scene-wide settings from the primary -> every lane one frame
//               -> errors against the reference -> [equal cost: iterations
//               re-picked every kEqualCostEvery frames from the measured times]
//
// Edits that act on the bodies (drag, pins, reset, restore, pause) go to every
// lane through the same calls, so all lanes are pulled the same way. What is a
// lane's own: its solver, substeps, iterations, the solvers' parameters and its
// backend; everything else (dt, gravity, constraints, colliders, contacts,
// wind, spheres) is the primary's, copied before each frame.
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "core/scene/compare_spec.h"
#include "core/session/series.h"
#include "core/session/sim_session.h"

namespace tetlab {

struct LaneError {
  double rms = std::numeric_limits<double>::quiet_NaN();     // RMS vertex distance to the reference [m]
  double max = std::numeric_limits<double>::quiet_NaN();     // largest vertex distance [m]
  double energy = std::numeric_limits<double>::quiet_NaN();  // total energy minus the reference's [J]
  bool valid() const { return rms == rms; }
};

struct LaneSeries {
  Series errorRms;  // [m]
  Series probe;     // the probe's value [m]
};

class CompareSession {
 public:
  static constexpr int kEqualCostEvery = 10;  // frames between equal-cost updates

  // `primary` becomes lane 0 (its solver and budget set to spec.lanes[0]) and
  // must outlive this. The lanes and reference start from the primary's state
  // now. OpenCL lanes need `context` (may be null: they then fail with a
  // message); a lane without a backend of its own runs on `defaultBackend`.
  // The automatic reference runs on OpenCL when there is a context.
  static Result<std::unique_ptr<CompareSession>> create(SimSession& primary, CompareSpec spec, const ClContext* context,
                                                        Backend defaultBackend);

  size_t laneCount() const { return lanes_.size(); }
  SimSession& lane(size_t i) { return *lanes_[i].session; }
  const SimSession& lane(size_t i) const { return *lanes_[i].session; }
  // The lane as it runs now (equal cost moves its iterations; lane 0 follows the primary's panels).
  LaneSpec laneSpec(size_t i) const;
  std::string laneLabel(size_t i) const;
  bool isReference(size_t i) const { return reference_ && *reference_ == i; }
  std::optional<size_t> referenceLane() const { return reference_; }
  const LaneError& error(size_t i) const { return lanes_[i].error; }
  const LaneSeries& series(size_t i) const { return lanes_[i].series; }
  const CompareSpec& spec() const { return spec_; }
  // The spec as it runs now, for saving (the lanes' current budgets).
  CompareSpec describe() const;

  // ---- stepping: every lane the same frames ----
  void advance(int steps = 1);
  bool paused() const { return paused_; }
  void setPaused(bool paused);
  void requestSingleStep() { singleStep_ = true; }
  uint64_t frame() const { return frame_; }

  // ---- edits on every lane ----
  void reset();
  void restoreLastGood();
  void togglePin(uint32_t vertex);
  void beginDrag(const std::vector<uint32_t>& vertices, const std::vector<float>& weights, glm::vec3 target);
  void moveDrag(glm::vec3 target);
  void endDrag();
  // A lane's solver and budget (not the reference's backend or lane 0's: the panels edit those).
  Status setLane(size_t i, const LaneSpec& spec);
  void setEqualCostMs(float ms);
  // The probe plotted per lane: a vertex's distance from where it started, or
  // (none) the height of the centre of mass.
  void setProbe(std::optional<uint32_t> vertex);
  std::optional<uint32_t> probe() const { return probe_; }
  std::vector<std::string> takeNotices();

 private:
  struct Lane {
    SimSession* session = nullptr;
    std::unique_ptr<SimSession> owned;  // lanes 1..: this object's
    LaneError error;
    LaneSeries series;
  };
  CompareSession() = default;
  Status configureLane(Lane& lane, const LaneSpec& spec, Backend backend);
  void copySceneSettings();
  void measureErrors();
  void measureProbes();
  void adaptEqualCost();

  std::vector<Lane> lanes_;
  std::optional<size_t> reference_;
  CompareSpec spec_;
  const ClContext* context_ = nullptr;
  Backend defaultBackend_ = Backend::Cpu;
  bool paused_ = false, singleStep_ = false;
  uint64_t frame_ = 0;
  std::optional<uint32_t> probe_;
  std::vector<glm::vec3> probeStart_;  // the positions the probe's distance is measured from
  std::vector<std::string> notices_;
};

}  // namespace tetlab
