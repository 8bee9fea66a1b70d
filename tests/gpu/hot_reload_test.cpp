// Live kernel editing: a folder-backed HotProgram rebuilds when a file
// changes, keeps the last good program when the new source does not compile,
// and picks up the fix.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>

#include <gtest/gtest.h>

#include "gpu/cl/cl_buffer.h"
#include "gpu/cl/kernel_source.h"
#include "gpu_test_context.h"

namespace tetlab {
namespace {

namespace fs = std::filesystem;

class TempShaderDir {
 public:
  TempShaderDir() {
    std::random_device rd;
    root_ = fs::temp_directory_path() / ("tetlab_hot_reload_" + std::to_string(rd()));
    fs::create_directories(root_ / "cl" / "common");
  }
  ~TempShaderDir() {
    std::error_code ec;
    fs::remove_all(root_, ec);
  }
  const fs::path& root() const { return root_; }

  // Writes the file and moves its mtime forward, so the change is seen even
  // on file systems with one-second timestamps.
  void write(const std::string& name, const std::string& text) {
    const fs::path path = root_ / name;
    const bool existed = fs::exists(path);
    const auto before = existed ? fs::last_write_time(path) : fs::file_time_type::min();
    { std::ofstream(path, std::ios::binary | std::ios::trunc) << text; }
    if (existed && fs::last_write_time(path) <= before) fs::last_write_time(path, before + std::chrono::seconds(1));
  }

 private:
  fs::path root_;
};

// y[i] = VALUE (from an included header) so the program in use is visible.
std::string kernelText(const std::string& body) {
  return "#include \"common/value.clh\"\n"
         "__kernel void hot_fill(__global float* y) {\n" +
         body + "\n}\n";
}

float runFill(const ClContext& ctx, const cl::Program& program) {
  cl_int err = CL_SUCCESS;
  cl::Kernel k(program, "hot_fill", &err);
  EXPECT_EQ(err, CL_SUCCESS);
  auto y = DeviceBuffer<float>::create(ctx.context, 1);
  EXPECT_TRUE(y.ok());
  k.setArg(0, y->buffer());
  EXPECT_EQ(ctx.queue.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(1)), CL_SUCCESS);
  float out = -1.0f;
  EXPECT_EQ(y->download(ctx.queue, std::span<float>(&out, 1)), CL_SUCCESS);
  return out;
}

TEST(HotProgram, RebuildsOnChangeKeepsLastGoodProgramOnError) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  TempShaderDir dir;
  dir.write("cl/common/value.clh", "#pragma once\n#define VALUE 1.0f\n");
  dir.write("cl/hot.cl", kernelText("  y[0] = VALUE;"));

  auto hp = HotProgram::create(ctx, KernelSourceOptions{dir.root()}, "cl/hot.cl");
  ASSERT_TRUE(hp.ok()) << hp.error().message;
  EXPECT_TRUE(hp->watchesDisk());
  EXPECT_EQ(hp->generation(), 1u);
  EXPECT_EQ(hp->files(), (std::vector<std::string>{"cl/hot.cl", "cl/common/value.clh"}));
  EXPECT_EQ(runFill(ctx, hp->program()), 1.0f);
  EXPECT_EQ(hp->poll(), HotProgram::PollResult::Unchanged);

  // Syntax error: the build fails, the log names the file, the old program runs on.
  dir.write("cl/hot.cl", kernelText("  y[0] = VALUE +;"));
  EXPECT_EQ(hp->poll(), HotProgram::PollResult::BuildFailed);
  EXPECT_NE(hp->lastError().find("cl/hot.cl"), std::string::npos) << hp->lastError();
  EXPECT_NE(hp->lastError().find("error"), std::string::npos) << hp->lastError();
  EXPECT_EQ(hp->generation(), 1u);
  EXPECT_EQ(runFill(ctx, hp->program()), 1.0f);
  // No further change: no rebuild storm, the error stays visible.
  EXPECT_EQ(hp->poll(), HotProgram::PollResult::Unchanged);
  EXPECT_FALSE(hp->lastError().empty());

  // Fix it: the new program is used.
  dir.write("cl/hot.cl", kernelText("  y[0] = 2.0f * VALUE;"));
  EXPECT_EQ(hp->poll(), HotProgram::PollResult::Rebuilt);
  EXPECT_TRUE(hp->lastError().empty());
  EXPECT_EQ(hp->generation(), 2u);
  EXPECT_EQ(runFill(ctx, hp->program()), 2.0f);

  // A change in an included header is seen too.
  dir.write("cl/common/value.clh", "#pragma once\n#define VALUE 3.0f\n");
  EXPECT_EQ(hp->poll(), HotProgram::PollResult::Rebuilt);
  EXPECT_EQ(runFill(ctx, hp->program()), 6.0f);
}

TEST(HotProgram, MissingIncludeKeepsProgramAndRecoversWhenItAppears) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  TempShaderDir dir;
  dir.write("cl/common/value.clh", "#define VALUE 5.0f\n");
  dir.write("cl/hot.cl", kernelText("  y[0] = VALUE;"));
  auto hp = HotProgram::create(ctx, KernelSourceOptions{dir.root()}, "cl/hot.cl");
  ASSERT_TRUE(hp.ok()) << hp.error().message;

  fs::remove(dir.root() / "cl/common/value.clh");
  EXPECT_EQ(hp->poll(), HotProgram::PollResult::BuildFailed);
  EXPECT_NE(hp->lastError().find("value.clh"), std::string::npos) << hp->lastError();
  EXPECT_EQ(runFill(ctx, hp->program()), 5.0f);

  dir.write("cl/common/value.clh", "#define VALUE 7.0f\n");
  EXPECT_EQ(hp->poll(), HotProgram::PollResult::Rebuilt);
  EXPECT_EQ(runFill(ctx, hp->program()), 7.0f);
}

TEST(HotProgram, FirstBuildFailureIsAnErrorWithTheLog) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  TempShaderDir dir;
  dir.write("cl/common/value.clh", "#define VALUE 1.0f\n");
  dir.write("cl/hot.cl", kernelText("  y[0] = undefined_symbol;"));
  auto hp = HotProgram::create(ctx, KernelSourceOptions{dir.root()}, "cl/hot.cl");
  ASSERT_FALSE(hp.ok());
  EXPECT_NE(hp.error().message.find("undefined_symbol"), std::string::npos) << hp.error().message;
}

TEST(HotProgram, EmbeddedSourcesNeverReload) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  auto hp = HotProgram::create(ctx, {}, "cl/smoke.cl");
  ASSERT_TRUE(hp.ok()) << hp.error().message;
  EXPECT_FALSE(hp->watchesDisk());
  EXPECT_EQ(hp->poll(), HotProgram::PollResult::Unchanged);
}

TEST(KernelSource, FolderAndEmbeddedCopiesAgree) {
  // The build embeds shaders/ of this source tree, so both loaders must return
  // the same text for every embedded kernel.
  auto embedded = loadKernelSource({}, "cl/smoke.cl");
  auto disk = loadKernelSource(KernelSourceOptions{TETLAB_SOURCE_DIR "/shaders"}, "cl/smoke.cl");
  ASSERT_TRUE(embedded.ok()) << embedded.error().message;
  ASSERT_TRUE(disk.ok()) << disk.error().message;
  EXPECT_EQ(embedded->text, disk->text);
  auto missing = loadKernelSource(KernelSourceOptions{"/nonexistent/folder"}, "cl/smoke.cl");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("/nonexistent/folder/cl/smoke.cl"), std::string::npos);
}

}  // namespace
}  // namespace tetlab
