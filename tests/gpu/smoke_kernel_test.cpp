// OpenCL bring-up: build the embedded smoke kernel, run saxpy on float4 and
// compare with the CPU; a syntax error must come back as an Error carrying the
// compiler log.
#include <cmath>
#include <vector>

#include <glm/vec4.hpp>
#include <gtest/gtest.h>

#include "gpu/cl/cl_buffer.h"
#include "gpu/cl/cl_program.h"
#include "gpu/cl/kernel_source.h"
#include "gpu/cl/work_group_policy.h"
#include "gpu_test_context.h"

namespace tetlab {
namespace {

TEST(SmokeKernel, SaxpyRoundTripMatchesTheCpu) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  auto src = loadKernelSource({}, "cl/smoke.cl");
  ASSERT_TRUE(src.ok()) << src.error().message;
  auto built = buildProgram(ctx, src->text, "cl/smoke.cl");
  ASSERT_TRUE(built.ok()) << built.error().message;
  auto kernel = createKernel(built->program, "smoke_saxpy", "cl/smoke.cl");
  ASSERT_TRUE(kernel.ok()) << kernel.error().message;

  // 1000 is not a multiple of any work-group size: exercises the guard.
  const uint32_t n = 1000;
  const float a = 1.75f;
  std::vector<glm::vec4> x(n), y(n);
  for (uint32_t i = 0; i < n; ++i) {
    x[i] = glm::vec4(0.5f * float(i), -1.0f / float(i + 1), std::sin(float(i)), 3.0f);
    y[i] = glm::vec4(1.0f, float(i) * 0.25f, -2.0f, std::cos(float(i)));
  }
  auto dx = DeviceBuffer<glm::vec4>::fromHost(ctx.context, ctx.queue, x, CL_MEM_READ_ONLY, "x");
  auto dy = DeviceBuffer<glm::vec4>::fromHost(ctx.context, ctx.queue, y, CL_MEM_READ_WRITE, "y");
  ASSERT_TRUE(dx.ok() && dy.ok());

  cl::Kernel& k = *kernel;
  ASSERT_EQ(k.setArg(0, a), CL_SUCCESS);
  ASSERT_EQ(k.setArg(1, dx->buffer()), CL_SUCCESS);
  ASSERT_EQ(k.setArg(2, dy->buffer()), CL_SUCCESS);
  ASSERT_EQ(k.setArg(3, n), CL_SUCCESS);
  const LaunchSize launch = planLaunch(n, chooseLocalSize(workGroupHints(ctx.info)));
  ASSERT_EQ(ctx.queue.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(launch.global),
                                           launch.local ? cl::NDRange(launch.local) : cl::NullRange),
            CL_SUCCESS);
  std::vector<glm::vec4> out(n);
  ASSERT_EQ(dy->download(ctx.queue, out), CL_SUCCESS);

  // One float multiply-add: |error| <= eps (|a x| + |y|) whether or not the
  // compiler fuses it into an fma (two roundings of at most eps/2 each).
  const double eps = std::ldexp(1.0, -23);
  for (uint32_t i = 0; i < n; ++i)
    for (int c = 0; c < 4; ++c) {
      const double exact = double(a) * double(x[i][c]) + double(y[i][c]);
      const double tol = eps * (std::abs(double(a) * double(x[i][c])) + std::abs(double(y[i][c])));
      ASSERT_LE(std::abs(double(out[i][c]) - exact), tol) << "element " << i << " component " << c;
    }
}

TEST(SmokeKernel, SyntaxErrorReturnsTheCompilerLog) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  const std::string source =
      "#line 1 \"cl/broken.cl\"\n"
      "__kernel void broken(__global float* y) {\n"
      "  y[get_global_id(0)] = 1.0f\n"  // missing semicolon
      "}\n";
  auto built = buildProgram(ctx, source, "cl/broken.cl");
  ASSERT_FALSE(built.ok());
  const std::string& msg = built.error().message;
  EXPECT_NE(msg.find("OpenCL build of cl/broken.cl failed"), std::string::npos) << msg;
  EXPECT_NE(msg.find("error"), std::string::npos) << msg;
  // The #line marker names the file; clang-based compilers (PoCL, AMD, Intel)
  // prefix each message with "file:line:col".
  EXPECT_NE(msg.find("cl/broken.cl:"), std::string::npos) << msg;
}

TEST(SmokeKernel, UnknownKernelNameIsAnError) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  auto src = loadKernelSource({}, "cl/smoke.cl");
  ASSERT_TRUE(src.ok());
  auto built = buildProgram(ctx, src->text, "cl/smoke.cl");
  ASSERT_TRUE(built.ok());
  auto kernel = createKernel(built->program, "no_such_kernel", "cl/smoke.cl");
  ASSERT_FALSE(kernel.ok());
  EXPECT_NE(kernel.error().message.find("no_such_kernel"), std::string::npos);
  EXPECT_NE(kernel.error().message.find("CL_INVALID_KERNEL_NAME"), std::string::npos);
}

}  // namespace
}  // namespace tetlab
