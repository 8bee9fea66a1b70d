#pragma once
// Per-stage GPU times from OpenCL profiling events.
//
// Inside a step the solver only asks for an event slot per launch
// (`cl::Event* e = profiler.record(stage)` and passes it to the enqueue): no
// waiting, no host read-back, and no allocation once the first step has sized
// the event list. After the step, resolve() waits for the recorded events and
// sums CL_PROFILING_COMMAND_END - START per registered entry and per Stage
// (core/sim/stage.h, the vocabulary the CPU stepper's timer uses too).
//
//   setup:     StageId predict = profiler.addStage(Stage::Predict);
//              StageId c3 = profiler.addStage(Stage::Solve, "vbd.solve.c3");  // detail: one colour
//   step:      queue.enqueueNDRangeKernel(k, ..., nullptr, profiler.record(predict));
//   after:     StepStats stats = profiler.resolve();   // blocks until done
//              stats.byStage[Stage::Solve]               // every colour of every solver summed
//
// The detail string is for display only (the numbers panel lists the largest
// launches under their stage); nothing parses it.
//
// Events cost the runtime an allocation and bookkeeping per launch (on PoCL a
// measurable share of a small step), so they are off unless a reader asks
// (setEnabled: the numbers panel while open, tetlab-bench --stages). Launches
// are counted either way: record() with timing off returns nullptr and counts.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <CL/opencl.hpp>

#include "core/sim/stage.h"

namespace tetlab {

struct StageTime {
  Stage stage = Stage::Solve;  // what this entry is aggregated under
  std::string name;            // detail: stageName(stage) unless a finer name was given
  double ms = 0.0;             // summed device time of all launches of this entry
  uint32_t launches = 0;
};

struct StepStats {
  std::vector<StageTime> stages;  // one per addStage entry, in order of registration
  StageTimes byStage;             // the same times summed per Stage
  double totalMs = 0.0;           // sum over stages (device busy time, not wall time)
  uint32_t launches = 0;          // commands recorded since the last resolve/discard, timed or not
  bool valid = false;             // false when profiling info was unavailable or timing was off
  const StageTime* find(std::string_view name) const {
    for (const StageTime& s : stages)
      if (s.name == name) return &s;
    return nullptr;
  }
};

using StageId = uint32_t;

class Profiler {
 public:
  // Registers an entry of `stage` (setup time) under `detail` (empty: the
  // stage's own name); the same stage and detail return the same id.
  StageId addStage(Stage stage, std::string_view detail = {});

  // Event slot for one launch of `stage`, to pass as the enqueue's event
  // argument; nullptr when profiling is disabled (enqueue takes nullptr).
  cl::Event* record(StageId stage);

  // Waits for every recorded event, returns per-stage sums and clears the
  // recorded events (entries are kept). Call after the step, outside it.
  StepStats resolve();

  // Drops recorded events without reading them.
  void discard() {
    used_ = 0;
    launches_ = 0;
  }

  void setEnabled(bool enabled) { enabled_ = enabled; }
  bool enabled() const { return enabled_; }
  size_t pendingEvents() const { return used_; }
  // Commands recorded since the last resolve/discard (timed or not).
  uint32_t launches() const { return launches_; }

 private:
  struct Entry {
    Stage stage;
    std::string name;
  };
  std::vector<Entry> entries_;
  std::vector<cl::Event> events_;  // grows to the largest step, then reused
  std::vector<StageId> eventStage_;
  size_t used_ = 0;
  uint32_t launches_ = 0;
  bool enabled_ = true;
};

}  // namespace tetlab
