#pragma once
// Where kernel source comes from, and live rebuilds when it changes.
//
// By default kernels come from the copy embedded in the binary (runs from any
// folder). With a folder set (normally shaderSourceDir(), i.e. shaders/ of the
// source tree) they are read from disk instead, and HotProgram polls the
// modification times of every file the last build read: researchers edit a
// kernel while the simulation runs. Polling, not inotify: it is portable and
// a handful of stat() calls per poll is nothing next to a frame.
//
//   edit file ─► poll(): mtime/size changed ─► expand + build ─┬─ ok:   program swapped, generation+1
//                                                              └─ fail: old program kept, lastError() = log
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/result.h"
#include "gpu/cl/cl_context.h"
#include "gpu/cl/cl_program.h"

namespace tetlab {

struct KernelSourceOptions {
  // Folder holding the shader tree (the folder that contains cl/). Empty:
  // use the embedded copy and never reload.
  std::filesystem::path folder;
};

// A loader reading "cl/..." names from the embedded copy or from options.folder.
SourceLoader makeSourceLoader(const KernelSourceOptions& options);

// The expanded, self-contained source of one kernel file.
Result<ExpandedSource> loadKernelSource(const KernelSourceOptions& options, const std::string& mainFile);

class HotProgram {
 public:
  enum class PollResult { Unchanged, Rebuilt, BuildFailed };

  // Builds mainFile (e.g. "cl/pbd.cl") with `options`. Fails when this first
  // build fails: there is no previous program to fall back to.
  static Result<HotProgram> create(const ClContext& ctx, KernelSourceOptions source, std::string mainFile,
                                   std::string buildOptions = {});

  // Folder-backed: rebuilds when any file read by the last build attempt
  // changed (modification time or size, or it appeared/disappeared).
  // Embedded: always Unchanged.
  PollResult poll();
  // Rebuilds now regardless of modification times (e.g. a UI button, or new
  // build options).
  PollResult rebuild();
  void setBuildOptions(std::string buildOptions) { buildOptions_ = std::move(buildOptions); }

  // The last program that built. Kernels created from an older generation
  // stay valid (OpenCL reference counting) until the caller re-creates them.
  const cl::Program& program() const { return program_; }
  // Increases by one per successful build; compare to re-create kernels.
  uint64_t generation() const { return generation_; }
  // Compiler log of the last failed build ("" once a build succeeds again).
  const std::string& lastError() const { return lastError_; }
  // Warnings of the last successful build.
  const std::string& lastLog() const { return lastLog_; }
  const std::string& mainFile() const { return mainFile_; }
  const std::vector<std::string>& files() const { return files_; }
  bool watchesDisk() const { return !source_.folder.empty(); }

 private:
  struct Stamp {
    bool exists = false;
    std::filesystem::file_time_type mtime{};
    std::uintmax_t size = 0;
    bool operator==(const Stamp&) const = default;
  };

  HotProgram() = default;
  Stamp stampOf(const std::string& name) const;
  void restamp();

  cl::Context context_;
  cl::Device device_;
  KernelSourceOptions source_;
  std::string mainFile_;
  std::string buildOptions_;
  cl::Program program_;
  uint64_t generation_ = 0;
  std::string lastError_;
  std::string lastLog_;
  std::vector<std::string> files_;
  std::vector<Stamp> stamps_;
};

}  // namespace tetlab
