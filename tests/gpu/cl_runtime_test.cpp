// Context creation, typed buffers and the profiler on the real driver.
#include <numeric>
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec4.hpp>
#include <gtest/gtest.h>

#include "gpu/cl/cl_buffer.h"
#include "gpu/cl/cl_error.h"
#include "gpu/cl/cl_program.h"
#include "gpu/cl/kernel_source.h"
#include "gpu/cl/profiler.h"
#include "gpu_test_context.h"

namespace tetlab {
namespace {

TEST(ClContext, RecordsTheChosenDevice) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  EXPECT_GE(ctx.chosen.platform, 0);
  EXPECT_GE(ctx.chosen.device, 0);
  EXPECT_FALSE(ctx.info.name.empty());
  EXPECT_FALSE(ctx.platformName.empty());
  cl_command_queue_properties props = 0;
  ASSERT_EQ(ctx.queue.getInfo(CL_QUEUE_PROPERTIES, &props), CL_SUCCESS);
  EXPECT_NE(props & CL_QUEUE_PROFILING_ENABLE, 0u);
  EXPECT_EQ(props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0u);
}

TEST(ClContext, InvalidChoiceNamesTheRange) {
  auto platforms = listOpenClPlatforms();
  if (!platforms) GTEST_SKIP() << platforms.error().message;
  auto r = createClContext(ClContextOptions{{int(platforms->size()) + 3, -1}, {}});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("valid platforms are 0.."), std::string::npos) << r.error().message;
}

TEST(ClContext, GlSharingRequestOnADeviceWithoutItFallsBackToAPlainContext) {
  auto platforms = listOpenClPlatforms();
  if (!platforms) GTEST_SKIP() << platforms.error().message;
  // Find a device without cl_khr_gl_sharing (PoCL); the property values are
  // never passed to the driver in that case.
  for (size_t p = 0; p < platforms->size(); ++p)
    for (size_t d = 0; d < (*platforms)[p].devices.size(); ++d) {
      if ((*platforms)[p].devices[d].glSharing) continue;
      auto r = createClContext(ClContextOptions{{int(p), int(d)}, {CL_GL_CONTEXT_KHR, 0}});
      ASSERT_TRUE(r.ok()) << r.error().message;
      EXPECT_FALSE(r->glShared);
      EXPECT_NE(r->glSharingError.find("cl_khr_gl_sharing"), std::string::npos);
      return;
    }
  GTEST_SKIP() << "every device supports GL sharing";
}

TEST(ClError, NamesCodesAndHints) {
  EXPECT_EQ(clErrorName(CL_INVALID_KERNEL_NAME), "CL_INVALID_KERNEL_NAME");
  EXPECT_EQ(clErrorName(-9999), "CL error -9999");
  const std::string msg = clError("allocating x", CL_MEM_OBJECT_ALLOCATION_FAILURE).message;
  EXPECT_NE(msg.find("allocating x: CL_MEM_OBJECT_ALLOCATION_FAILURE (-4)"), std::string::npos) << msg;
  EXPECT_NE(msg.find("smaller mesh"), std::string::npos);
  EXPECT_TRUE(clCheck(CL_SUCCESS, "x").ok());
  EXPECT_FALSE(clCheck(CL_INVALID_VALUE, "x").ok());
}

TEST(DeviceBuffer, UploadDownloadFillCopyAndBounds) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  std::vector<glm::uvec4> host(37);
  for (uint32_t i = 0; i < host.size(); ++i) host[i] = glm::uvec4(i, 2 * i, 3 * i, 0xFFFFFFFFu - i);
  auto a = DeviceBuffer<glm::uvec4>::fromHost(ctx.context, ctx.queue, host, CL_MEM_READ_WRITE, "a");
  ASSERT_TRUE(a.ok()) << a.error().message;
  EXPECT_EQ(a->size(), 37u);
  EXPECT_EQ(a->bytes(), 37u * 16u);

  std::vector<glm::uvec4> back(37);
  ASSERT_EQ(a->download(ctx.queue, back), CL_SUCCESS);
  EXPECT_EQ(back, host);

  // Partial upload/download at an offset.
  std::vector<glm::uvec4> patch = {glm::uvec4(7), glm::uvec4(8)};
  ASSERT_EQ(a->upload(ctx.queue, patch, 10), CL_SUCCESS);
  std::vector<glm::uvec4> three(3);
  ASSERT_EQ(a->download(ctx.queue, three, 9), CL_SUCCESS);
  EXPECT_EQ(three[0], host[9]);
  EXPECT_EQ(three[1], glm::uvec4(7));
  EXPECT_EQ(three[2], glm::uvec4(8));

  // Out of range is refused before it reaches the driver.
  EXPECT_EQ(a->upload(ctx.queue, patch, 36), CL_INVALID_VALUE);
  EXPECT_EQ(a->download(ctx.queue, three, 35), CL_INVALID_VALUE);

  // fill + copyFrom.
  auto b = DeviceBuffer<glm::uvec4>::create(ctx.context, 37);
  ASSERT_TRUE(b.ok());
  ASSERT_EQ(b->fill(ctx.queue, glm::uvec4(1, 2, 3, 4)), CL_SUCCESS);
  ASSERT_EQ(b->fill(ctx.queue, glm::uvec4(9), 30, 2), CL_SUCCESS);
  ASSERT_EQ(b->download(ctx.queue, back), CL_SUCCESS);
  for (size_t i = 0; i < back.size(); ++i)
    EXPECT_EQ(back[i], (i == 30 || i == 31) ? glm::uvec4(9) : glm::uvec4(1, 2, 3, 4)) << i;
  ASSERT_EQ(b->copyFrom(ctx.queue, *a), CL_SUCCESS);
  ASSERT_EQ(b->download(ctx.queue, back), CL_SUCCESS);
  EXPECT_EQ(back[10], glm::uvec4(7));
  EXPECT_EQ(back[0], host[0]);

  auto small = DeviceBuffer<glm::uvec4>::create(ctx.context, 3);
  ASSERT_TRUE(small.ok());
  EXPECT_EQ(small->copyFrom(ctx.queue, *a), CL_INVALID_VALUE);
}

TEST(DeviceBuffer, EmptyBuffersAreValidAndHoldNoMemory) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  auto e = DeviceBuffer<float>::create(ctx.context, 0);
  ASSERT_TRUE(e.ok());
  EXPECT_TRUE(e->empty());
  EXPECT_EQ(e->buffer()(), nullptr);
  EXPECT_EQ(e->upload(ctx.queue, std::span<const float>()), CL_SUCCESS);
  EXPECT_EQ(e->fill(ctx.queue, 1.0f), CL_SUCCESS);
}

TEST(DeviceBuffer, ScalarAndTwoVectorTypes) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  std::vector<float> f = {1.5f, -2.0f, 3.25f};
  std::vector<glm::uvec2> e = {{0, 1}, {1, 2}};
  auto df = DeviceBuffer<float>::fromHost(ctx.context, ctx.queue, f);
  auto de = DeviceBuffer<glm::uvec2>::fromHost(ctx.context, ctx.queue, e);
  ASSERT_TRUE(df.ok() && de.ok());
  std::vector<float> fb(3);
  std::vector<glm::uvec2> eb(2);
  ASSERT_EQ(df->download(ctx.queue, fb), CL_SUCCESS);
  ASSERT_EQ(de->download(ctx.queue, eb), CL_SUCCESS);
  EXPECT_EQ(fb, f);
  EXPECT_EQ(eb, e);
}

TEST(Profiler, AggregatesLaunchesPerStage) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  auto src = loadKernelSource({}, "cl/smoke.cl");
  ASSERT_TRUE(src.ok());
  auto built = buildProgram(ctx, src->text, "cl/smoke.cl");
  ASSERT_TRUE(built.ok()) << built.error().message;
  auto k = createKernel(built->program, "smoke_saxpy");
  ASSERT_TRUE(k.ok());
  const uint32_t n = 4096;
  std::vector<glm::vec4> ones(n, glm::vec4(1.0f));
  auto x = DeviceBuffer<glm::vec4>::fromHost(ctx.context, ctx.queue, ones);
  auto y = DeviceBuffer<glm::vec4>::fromHost(ctx.context, ctx.queue, ones);
  ASSERT_TRUE(x.ok() && y.ok());
  k->setArg(0, 1.0f);
  k->setArg(1, x->buffer());
  k->setArg(2, y->buffer());
  k->setArg(3, n);

  Profiler prof;
  const StageId a = prof.addStage(Stage::Predict);
  const StageId b = prof.addStage(Stage::Solve);
  EXPECT_EQ(prof.addStage(Stage::Predict), a);
  for (int step = 0; step < 2; ++step) {
    for (int i = 0; i < 3; ++i)
      ASSERT_EQ(ctx.queue.enqueueNDRangeKernel(*k, cl::NullRange, cl::NDRange(n), cl::NullRange, nullptr,
                                               prof.record(b)),
                CL_SUCCESS);
    ASSERT_EQ(ctx.queue.enqueueNDRangeKernel(*k, cl::NullRange, cl::NDRange(n), cl::NullRange, nullptr,
                                             prof.record(a)),
              CL_SUCCESS);
    EXPECT_EQ(prof.pendingEvents(), 4u);
    StepStats stats = prof.resolve();
    ASSERT_TRUE(stats.valid);
    ASSERT_EQ(stats.stages.size(), 2u);
    EXPECT_EQ(stats.stages[a].name, "predict");
    EXPECT_EQ(stats.stages[a].launches, 1u);
    EXPECT_EQ(stats.stages[b].launches, 3u);
    EXPECT_GE(stats.stages[b].ms, 0.0);
    EXPECT_DOUBLE_EQ(stats.totalMs, stats.stages[a].ms + stats.stages[b].ms);
    ASSERT_NE(stats.find("solve"), nullptr);
    EXPECT_EQ(stats.find("nope"), nullptr);
    EXPECT_EQ(prof.pendingEvents(), 0u);
  }
  // 2 steps x 4 launches of y += x with x = 1, y0 = 1: y = 9 proves every launch ran.
  std::vector<glm::vec4> out(n);
  ASSERT_EQ(y->download(ctx.queue, out), CL_SUCCESS);
  EXPECT_EQ(out[n - 1], glm::vec4(9.0f));

  prof.setEnabled(false);
  EXPECT_EQ(prof.record(a), nullptr);
  StepStats empty = prof.resolve();
  EXPECT_EQ(empty.stages[a].launches, 0u);
}

}  // namespace
}  // namespace tetlab
