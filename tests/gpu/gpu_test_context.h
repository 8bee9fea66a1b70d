#pragma once
// One OpenCL context shared by the GPU tests (creating one per test costs
// PoCL's start-up every time). Tests skip, with the driver's message, when no
// OpenCL platform exists; on CI and dev machines PoCL is installed, so they run.
#include <gtest/gtest.h>

#include "gpu/cl/cl_context.h"

namespace tetlab::test {

// The shared context, or nullptr with outError set (created on first use;
// honours TETLAB_CL_PLATFORM / TETLAB_CL_DEVICE).
inline const ClContext* sharedClContext(std::string* outError) {
  static const Result<ClContext> ctx = []() -> Result<ClContext> {
    auto env = readDeviceChoiceEnv();
    if (!env) return env.error();
    return createClContext(ClContextOptions{*env, {}});
  }();
  if (!ctx) {
    *outError = ctx.error().message;
    return nullptr;
  }
  return &*ctx;
}

}  // namespace tetlab::test

// Declares `const tetlab::ClContext& ctx` or skips the test with the reason.
#define TETLAB_REQUIRE_CL_CONTEXT(ctx)                                     \
  std::string ctx##Error_;                                                 \
  const tetlab::ClContext* ctx##Ptr_ = tetlab::test::sharedClContext(&ctx##Error_); \
  if (ctx##Ptr_ == nullptr) GTEST_SKIP() << ctx##Error_;                   \
  const tetlab::ClContext& ctx = *ctx##Ptr_
