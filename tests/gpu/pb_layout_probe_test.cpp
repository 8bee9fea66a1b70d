// The position-based kernels take PbParams, PbAttachment and PbGroupParams
// (shaders/cl/common/pb_layout.clh) by value: the device compiler must lay
// them out as the host does. A probe kernel writes their sizeof and echoes
// fields from both ends of each struct, passed by value as the solver does.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/cpu/constraints_setup.h"
#include "gpu/cl/cl_buffer.h"
#include "gpu/cl/cl_program.h"
#include "gpu/cl/kernel_source.h"
#include "gpu/cl/launch.h"
#include "gpu_test_context.h"
#include "layout_probe.h"

namespace tetlab {
namespace {

constexpr const char* kProbe = R"(
#include "common/pb_layout.clh"
__kernel void pb_layout_probe(__global uint* out, const PbParams p, const PbAttachment a, const PbGroupParams g) {
  out[0] = (uint)sizeof(PbParams);
  out[1] = (uint)sizeof(PbAttachment);
  out[2] = as_uint(p.h);
  out[3] = p.families;
  out[4] = p.lambdaAttachment;
  out[5] = as_uint(p.jacobiOmega);
  out[6] = as_uint(p.strain.stretchScale[2]);
  out[7] = as_uint(p.strain.shearScale[2]);
  out[8] = a.ids[PB_ATTACHMENT_MAX - 1];
  out[9] = as_uint(a.weights[PB_ATTACHMENT_MAX - 1]);
  out[10] = as_uint(a.target[2]);
  out[11] = a.count;
  out[12] = (uint)sizeof(PbGroupParams);
  out[13] = as_uint(g.step.h);
  out[14] = g.mouse.count;
  out[15] = as_uint(g.gravity[0]);
  out[16] = as_uint(g.contactOffset);
  out[17] = g.passes;
  out[18] = g.slotCount;
  out[19] = g.rowBase;
  out[20] = as_uint(p.strain.frame[8]);
  out[21] = p.strain.frameOn;
}
)";

uint32_t bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

TEST(PbLayoutProbe, DeviceStructsMatchTheHost) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  auto kernel = test::buildProbeKernel(ctx, "pb_layout_probe", kProbe);
  ASSERT_TRUE(kernel.ok()) << kernel.error().message;

  clm::PbParams p{};
  p.h = 1.25f;
  p.families = PB_STRAIN | PB_EDGES;
  p.lambdaAttachment = 12345u;
  p.jacobiOmega = 1.5f;
  p.strain.stretchScale[2] = 0.75f;
  p.strain.shearScale[2] = -2.5f;
  p.strain.frame[8] = 0.625f;
  p.strain.frameOn = 1u;
  clm::PbAttachment a{};
  a.ids[PB_ATTACHMENT_MAX - 1] = 77u;
  a.weights[PB_ATTACHMENT_MAX - 1] = 0.125f;
  a.target[2] = 3.5f;
  a.count = 8u;

  clm::PbGroupParams g{};
  g.step.h = 0.5f;
  g.mouse.count = 3u;
  g.gravity[0] = -9.5f;
  g.contactOffset = 0.002f;
  g.passes = PB_PASS_TETS | PB_PASS_RESET_LAMBDA;
  g.slotCount = 4242u;
  g.rowBase = 987654u;

  auto out = DeviceBuffer<uint32_t>::create(ctx.context, 22, CL_MEM_READ_WRITE, "probe");
  ASSERT_TRUE(out.ok());
  ASSERT_EQ(setKernelArgs(*kernel, *out, p, a, g), CL_SUCCESS);
  ASSERT_EQ(ctx.queue.enqueueNDRangeKernel(*kernel, cl::NullRange, cl::NDRange(1), cl::NullRange), CL_SUCCESS);
  std::vector<uint32_t> got(22);
  ASSERT_EQ(ctx.queue.enqueueReadBuffer(out->buffer(), CL_TRUE, 0, got.size() * sizeof(uint32_t), got.data()),
            CL_SUCCESS);

  EXPECT_EQ(got[0], sizeof(clm::PbParams));
  EXPECT_EQ(got[1], sizeof(clm::PbAttachment));
  EXPECT_EQ(got[2], bits(p.h));
  EXPECT_EQ(got[3], p.families);
  EXPECT_EQ(got[4], p.lambdaAttachment);
  EXPECT_EQ(got[5], bits(p.jacobiOmega));
  EXPECT_EQ(got[6], bits(p.strain.stretchScale[2]));
  EXPECT_EQ(got[7], bits(p.strain.shearScale[2]));
  EXPECT_EQ(got[8], a.ids[PB_ATTACHMENT_MAX - 1]);
  EXPECT_EQ(got[9], bits(a.weights[PB_ATTACHMENT_MAX - 1]));
  EXPECT_EQ(got[10], bits(a.target[2]));
  EXPECT_EQ(got[11], a.count);
  EXPECT_EQ(got[12], sizeof(clm::PbGroupParams));
  EXPECT_EQ(got[13], bits(g.step.h));
  EXPECT_EQ(got[14], g.mouse.count);
  EXPECT_EQ(got[15], bits(g.gravity[0]));
  EXPECT_EQ(got[16], bits(g.contactOffset));
  EXPECT_EQ(got[17], g.passes);
  EXPECT_EQ(got[18], g.slotCount);
  EXPECT_EQ(got[19], g.rowBase);
  EXPECT_EQ(got[20], bits(p.strain.frame[8]));
  EXPECT_EQ(got[21], p.strain.frameOn);
}

}  // namespace
}  // namespace tetlab
