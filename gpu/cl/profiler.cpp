#include "gpu/cl/profiler.h"

namespace tetlab {

StageId Profiler::addStage(Stage stage, std::string_view detail) {
  const std::string_view name = detail.empty() ? std::string_view(stageName(stage)) : detail;
  for (size_t i = 0; i < entries_.size(); ++i)
    if (entries_[i].stage == stage && entries_[i].name == name) return StageId(i);
  entries_.push_back(Entry{stage, std::string(name)});
  return StageId(entries_.size() - 1);
}

cl::Event* Profiler::record(StageId stage) {
  ++launches_;
  if (!enabled_ || stage >= entries_.size()) return nullptr;
  if (used_ == events_.size()) {
    events_.emplace_back();
    eventStage_.push_back(stage);
  }
  eventStage_[used_] = stage;
  // Assigning the new event into the slot releases the previous step's event.
  return &events_[used_++];
}

StepStats Profiler::resolve() {
  StepStats stats;
  stats.stages.resize(entries_.size());
  for (size_t i = 0; i < entries_.size(); ++i) {
    stats.stages[i].stage = entries_[i].stage;
    stats.stages[i].name = entries_[i].name;
  }
  stats.launches = launches_;
  launches_ = 0;
  stats.valid = enabled_ || used_ > 0;
  for (size_t i = 0; i < used_; ++i) {
    cl::Event& e = events_[i];
    if (e() == nullptr || e.wait() != CL_SUCCESS) {
      stats.valid = false;
      continue;
    }
    cl_ulong start = 0, end = 0;
    if (e.getProfilingInfo(CL_PROFILING_COMMAND_START, &start) != CL_SUCCESS ||
        e.getProfilingInfo(CL_PROFILING_COMMAND_END, &end) != CL_SUCCESS) {
      stats.valid = false;
      continue;
    }
    StageTime& s = stats.stages[eventStage_[i]];
    s.ms += end >= start ? double(end - start) * 1e-6 : 0.0;
    s.launches += 1;
  }
  for (const StageTime& s : stats.stages) {
    stats.byStage[s.stage] += s.ms;
    stats.totalMs += s.ms;
  }
  used_ = 0;
  return stats;
}

}  // namespace tetlab
