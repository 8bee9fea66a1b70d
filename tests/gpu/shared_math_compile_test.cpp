// Every shared element-math header (shaders/cl/common/*.clh) must build as
// OpenCL C 1.2 on the device, not only as C++ through compat_cpp.h: the CPU
// reference compiling is no proof that the kernels will.
#include <gtest/gtest.h>

#include "gpu/cl/cl_program.h"
#include "gpu/cl/kernel_source.h"
#include "gpu_test_context.h"
#include "shaders/embedded_shaders.h"

namespace tetlab {
namespace {

TEST(SharedMath, EveryClhBuildsAsOpenClC12) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  std::string main;
  int headers = 0;
  for (const EmbeddedFile& f : embeddedShaderFiles())
    if (f.name.starts_with("cl/common/") && f.name.ends_with(".clh")) {
      main += "#include \"" + std::string(f.name) + "\"\n";
      ++headers;
    }
  if (headers == 0) GTEST_SKIP() << "no shared headers embedded yet";
  main += "__kernel void shared_math_probe(__global float* y) { y[0] = 1.0f; }\n";
  SourceLoader embedded = makeSourceLoader({});
  SourceLoader loader = [&](const std::string& name) -> Result<std::string> {
    if (name == "cl/shared_math_probe.cl") return main;
    return embedded(name);
  };
  auto src = expandIncludes("cl/shared_math_probe.cl", loader);
  ASSERT_TRUE(src.ok()) << src.error().message;
  auto built = buildProgram(ctx, src->text, "cl/shared_math_probe.cl");
  ASSERT_TRUE(built.ok()) << built.error().message;
  // Every header reached the compiler (main file + each header, none dropped).
  EXPECT_EQ(src->files.size(), size_t(headers) + 1);
}

}  // namespace
}  // namespace tetlab
