#include "gpu/cl/kernel_source.h"

#include <fstream>
#include <sstream>
#include <system_error>

#include "shaders/embedded_shaders.h"

namespace tetlab {

SourceLoader makeSourceLoader(const KernelSourceOptions& options) {
  if (options.folder.empty()) {
    return [](const std::string& name) -> Result<std::string> {
      auto text = findEmbeddedShader(name);
      if (!text) return Error{"no embedded shader named \"" + name + "\" (is it under shaders/ and was the binary rebuilt?)"};
      return std::string(*text);
    };
  }
  return [folder = options.folder](const std::string& name) -> Result<std::string> {
    const std::filesystem::path path = folder / name;
    std::ifstream in(path, std::ios::binary);
    if (!in)
      return Error{"cannot read kernel file " + path.string() +
                   ": check the kernel folder option (it must contain cl/)"};
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  };
}

Result<ExpandedSource> loadKernelSource(const KernelSourceOptions& options, const std::string& mainFile) {
  return expandIncludes(mainFile, makeSourceLoader(options));
}

Result<HotProgram> HotProgram::create(const ClContext& ctx, KernelSourceOptions source, std::string mainFile,
                                      std::string buildOptions) {
  HotProgram hp;
  hp.context_ = ctx.context;
  hp.device_ = ctx.device;
  hp.source_ = std::move(source);
  hp.mainFile_ = std::move(mainFile);
  hp.buildOptions_ = std::move(buildOptions);
  if (hp.rebuild() != PollResult::Rebuilt) return Error{hp.lastError_};
  return hp;
}

HotProgram::Stamp HotProgram::stampOf(const std::string& name) const {
  Stamp s;
  std::error_code ec;
  const std::filesystem::path path = source_.folder / name;
  s.mtime = std::filesystem::last_write_time(path, ec);
  if (ec) return Stamp{};
  s.size = std::filesystem::file_size(path, ec);
  if (ec) return Stamp{};
  s.exists = true;
  return s;
}

void HotProgram::restamp() {
  stamps_.clear();
  if (!watchesDisk()) return;
  for (const std::string& f : files_) stamps_.push_back(stampOf(f));
}

HotProgram::PollResult HotProgram::poll() {
  if (!watchesDisk()) return PollResult::Unchanged;
  bool changed = false;
  for (size_t i = 0; i < files_.size() && !changed; ++i) changed = !(stampOf(files_[i]) == stamps_[i]);
  if (!changed) return PollResult::Unchanged;
  return rebuild();
}

HotProgram::PollResult HotProgram::rebuild() {
  auto expanded = loadKernelSource(source_, mainFile_);
  if (!expanded) {
    // Keep watching what we watched, plus the main file, so fixing the
    // missing/broken include triggers the next rebuild.
    if (files_.empty()) files_.push_back(mainFile_);
    restamp();
    lastError_ = expanded.error().message;
    return PollResult::BuildFailed;
  }
  files_ = expanded->files;
  restamp();
  auto built = buildProgram(context_, device_, expanded->text, mainFile_, buildOptions_);
  if (!built) {
    lastError_ = built.error().message;
    return PollResult::BuildFailed;
  }
  program_ = std::move(built->program);
  lastLog_ = std::move(built->log);
  lastError_.clear();
  ++generation_;
  return PollResult::Rebuilt;
}

}  // namespace tetlab
