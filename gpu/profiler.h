#pragma once
// Per-stage GPU times from OpenCL profiling events.
//
// Inside a step the solver only asks for an event slot per launch
// (`cl::Event* e = profiler.record(stage)` and passes it to the enqueue): no
// waiting, no host read-back, and no allocation once the first step has sized
// the event list. After the step, resolve() waits for the recorded events and
// sums CL_PROFILING_COMMAND_END - START per stage name (Box2D-style named
// stages, aggregated into StepStats for the UI and the benchmark).
//
//   setup:     StageId predict = profiler.addStage("predict");
//   step:      queue.enqueueNDRangeKernel(k, ..., nullptr, profiler.record(predict));
//   after:     StepStats stats = profiler.resolve();   // blocks until done
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <CL/opencl.hpp>

namespace tetlab {

struct StageTime {
  std::string name;
  double ms = 0.0;          // summed device time of all launches of this stage
  uint32_t launches = 0;
};

struct StepStats {
  std::vector<StageTime> stages;  // in order of addStage
  double totalMs = 0.0;           // sum over stages (device busy time, not wall time)
  bool valid = false;             // false when profiling info was unavailable
  const StageTime* find(std::string_view name) const {
    for (const StageTime& s : stages)
      if (s.name == name) return &s;
    return nullptr;
  }
};

using StageId = uint32_t;

class Profiler {
 public:
  // Registers a stage name (setup time); the same name returns the same id.
  StageId addStage(std::string_view name);

  // Event slot for one launch of `stage`, to pass as the enqueue's event
  // argument; nullptr when profiling is disabled (enqueue takes nullptr).
  cl::Event* record(StageId stage);

  // Waits for every recorded event, returns per-stage sums and clears the
  // recorded events (stage names are kept). Call after the step, outside it.
  StepStats resolve();

  // Drops recorded events without reading them.
  void discard() { used_ = 0; }

  void setEnabled(bool enabled) { enabled_ = enabled; }
  bool enabled() const { return enabled_; }
  size_t pendingEvents() const { return used_; }

 private:
  std::vector<std::string> names_;
  std::vector<cl::Event> events_;  // grows to the largest step, then reused
  std::vector<StageId> eventStage_;
  size_t used_ = 0;
  bool enabled_ = true;
};

}  // namespace tetlab
