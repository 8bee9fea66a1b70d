// The VBD family's parameter structs (shaders/cl/common/vbd_layout.clh) are
// passed to the kernels by value, so the device compiler must lay them out as
// the host does: a tiny kernel writes sizeof and a few member offsets of each
// struct as the device sees them, compared with the host's. Also: a struct
// passed by value arrives intact (every field of a probe value read back).
#include <bit>
#include <cstddef>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/cpu/vbd_terms.h"
#include "gpu/cl/cl_buffer.h"
#include "gpu/cl/cl_program.h"
#include "gpu/cl/kernel_source.h"
#include "gpu_test_context.h"
#include "layout_probe.h"

namespace tetlab {
namespace {

constexpr const char* kProbe = R"(
#include "cl/common/compat_cl.clh"
#include "cl/common/vbd_layout.clh"
#define OFFSET(T, m) ((uint)(size_t)&(((T*)0)->m))
__kernel void vbd_layout_probe(__global uint* out, const VbdStepParams v, const AvbdStepParams a,
                               const VbdMouse m, const VbdGroupParams g,
                               const AvbdGroupParams ag) {
  if (get_global_id(0) != 0) return;
  out[0] = (uint)sizeof(VbdMouse);
  out[1] = (uint)sizeof(VbdStepParams);
  out[2] = (uint)sizeof(AvbdStepParams);
  out[3] = OFFSET(VbdMouse, target);
  out[4] = OFFSET(VbdMouse, same);
  out[5] = OFFSET(VbdStepParams, terms);
  out[6] = OFFSET(VbdStepParams, mouseFromOffset);
  out[7] = OFFSET(AvbdStepParams, gravity);
  out[8] = OFFSET(AvbdStepParams, hardContacts);
  out[9] = OFFSET(AvbdStepParams, gravityLength);
  // by-value arguments arrive intact
  out[10] = v.nextCount;
  out[11] = as_uint(v.bodyYEps);
  out[12] = a.bodyRow;
  out[13] = as_uint(a.gravity[2]);
  out[14] = m.ids[7];
  out[15] = as_uint(m.weights[7]);
  out[16] = m.same;
  out[17] = (uint)sizeof(AvbdContactFrame);
  out[18] = OFFSET(AvbdContactFrame, collider);
  out[19] = (uint)sizeof(VbdGroupParams);
  out[20] = OFFSET(VbdGroupParams, mouse);
  out[21] = OFFSET(VbdGroupParams, gravity);
  out[22] = OFFSET(VbdGroupParams, integrate);
  out[23] = g.step.terms;
  out[24] = g.mouse.ids[7];
  out[25] = as_uint(g.gravity[1]);
  out[26] = g.integrate;
  out[27] = (uint)sizeof(AvbdGroupParams);
  out[28] = OFFSET(AvbdGroupParams, mouse);
  out[29] = OFFSET(AvbdGroupParams, edgeCount);
  out[30] = ag.step.bodyRow;
  out[31] = ag.edgeCount;
}
)";

TEST(VbdLayout, DeviceStructsMatchTheHost) {
  TETLAB_REQUIRE_CL_CONTEXT(ctx);
  auto kernel = test::buildProbeKernel(ctx, "vbd_layout_probe", kProbe);
  ASSERT_TRUE(kernel.ok()) << kernel.error().message;

  clm::VbdStepParams v{};
  v.nextCount = 12345u;
  v.bodyYEps = 0.125f;
  clm::AvbdStepParams a{};
  a.bodyRow = 777u;
  a.gravity[2] = -9.81f;
  clm::VbdMouse m{};
  m.ids[7] = 4242u;
  m.weights[7] = 0.375f;
  m.same = 1u;
  clm::VbdGroupParams g{};
  g.step.terms = 0xa5u;
  g.mouse.ids[7] = 99u;
  g.gravity[1] = -9.81f;
  g.integrate = 1u;
  clm::AvbdGroupParams ag{};
  ag.step.bodyRow = 31u;
  ag.edgeCount = 4096u;

  const size_t n = 32;
  auto out = DeviceBuffer<uint32_t>::create(ctx.context, n, CL_MEM_READ_WRITE, "probe");
  ASSERT_TRUE(out.ok());
  cl::Kernel& k = *kernel;
  ASSERT_EQ(k.setArg(0, out->buffer()), CL_SUCCESS);
  ASSERT_EQ(k.setArg(1, sizeof(v), &v), CL_SUCCESS);
  ASSERT_EQ(k.setArg(2, sizeof(a), &a), CL_SUCCESS);
  ASSERT_EQ(k.setArg(3, sizeof(m), &m), CL_SUCCESS);
  ASSERT_EQ(k.setArg(4, sizeof(g), &g), CL_SUCCESS);
  ASSERT_EQ(k.setArg(5, sizeof(ag), &ag), CL_SUCCESS);
  ASSERT_EQ(ctx.queue.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(1), cl::NullRange), CL_SUCCESS);
  std::vector<uint32_t> got(n, 0u);
  ASSERT_EQ(out->download(ctx.queue, got), CL_SUCCESS);

  EXPECT_EQ(got[0], sizeof(clm::VbdMouse));
  EXPECT_EQ(got[1], sizeof(clm::VbdStepParams));
  EXPECT_EQ(got[2], sizeof(clm::AvbdStepParams));
  EXPECT_EQ(got[3], offsetof(clm::VbdMouse, target));
  EXPECT_EQ(got[4], offsetof(clm::VbdMouse, same));
  EXPECT_EQ(got[5], offsetof(clm::VbdStepParams, terms));
  EXPECT_EQ(got[6], offsetof(clm::VbdStepParams, mouseFromOffset));
  EXPECT_EQ(got[7], offsetof(clm::AvbdStepParams, gravity));
  EXPECT_EQ(got[8], offsetof(clm::AvbdStepParams, hardContacts));
  EXPECT_EQ(got[9], offsetof(clm::AvbdStepParams, gravityLength));
  EXPECT_EQ(got[10], v.nextCount);
  EXPECT_EQ(got[11], std::bit_cast<uint32_t>(v.bodyYEps));
  EXPECT_EQ(got[12], a.bodyRow);
  EXPECT_EQ(got[13], std::bit_cast<uint32_t>(a.gravity[2]));
  EXPECT_EQ(got[14], m.ids[7]);
  EXPECT_EQ(got[15], std::bit_cast<uint32_t>(m.weights[7]));
  EXPECT_EQ(got[16], m.same);
  EXPECT_EQ(got[17], sizeof(clm::AvbdContactFrame));
  EXPECT_EQ(got[18], offsetof(clm::AvbdContactFrame, collider));
  EXPECT_EQ(got[19], sizeof(clm::VbdGroupParams));
  EXPECT_EQ(got[20], offsetof(clm::VbdGroupParams, mouse));
  EXPECT_EQ(got[21], offsetof(clm::VbdGroupParams, gravity));
  EXPECT_EQ(got[22], offsetof(clm::VbdGroupParams, integrate));
  EXPECT_EQ(got[23], g.step.terms);
  EXPECT_EQ(got[24], g.mouse.ids[7]);
  EXPECT_EQ(got[25], std::bit_cast<uint32_t>(g.gravity[1]));
  EXPECT_EQ(got[26], g.integrate);
  EXPECT_EQ(got[27], sizeof(clm::AvbdGroupParams));
  EXPECT_EQ(got[28], offsetof(clm::AvbdGroupParams, mouse));
  EXPECT_EQ(got[29], offsetof(clm::AvbdGroupParams, edgeCount));
  EXPECT_EQ(got[30], ag.step.bodyRow);
  EXPECT_EQ(got[31], ag.edgeCount);
}

}  // namespace
}  // namespace tetlab
