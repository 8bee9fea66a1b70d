// The window's sessions without a window (tetlab_session): this suite links no
// GL, so it is also built under ThreadSanitizer (scripts/sanitize.sh tsan) for
// the deformer's worker thread.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "core/session/deform_session.h"
#include "tests/squashed_cube.h"

namespace tetlab {
namespace {

namespace fs = std::filesystem;

// The same squashed-cube sequence opened twice: one session solving in the
// calling thread (the reference), one on its worker (the window's).
struct SessionPair {
  fs::path dir;
  std::string rest, pattern;
  DeformSettings settings;
  std::unique_ptr<DeformSession> sync, bg;
};

SessionPair openSessionPair(const std::string& name, int frames) {
  SessionPair p;
  p.dir = test::writeSquashedCubes(name, frames);
  p.rest = (test::assetsDir() / "meshes" / "cube_5.obj").string();
  p.pattern = (p.dir / "f_%04d.obj").string();
  Result<std::unique_ptr<DeformSession>> sync = DeformSession::open(p.rest, p.pattern, p.settings, 600);
  Result<std::unique_ptr<DeformSession>> bg = DeformSession::open(p.rest, p.pattern, p.settings, 600);
  EXPECT_TRUE(sync.ok()) << sync.error().message;
  EXPECT_TRUE(bg.ok()) << bg.error().message;
  if (sync.ok() && bg.ok()) {
    p.sync = std::move(*sync);
    p.bg = std::move(*bg);
    p.bg->setBackground(true);
  }
  return p;
}

// Background solving (the window's): a request returns at once, the latest
// request wins, the result is the same as a solve in the calling thread, the
// timeline waits for the shown frame, an export writes every frame, and the
// session can be dropped mid-solve.
TEST(DeformSessionBackground, SolvesOffTheCallingThreadWithTheSameResult) {
  SessionPair p = openSessionPair("background", 3);
  ASSERT_TRUE(p.sync && p.bg);
  const fs::path& dir = p.dir;
  DeformSession& b = *p.bg;
  ASSERT_TRUE(b.background());
  ASSERT_TRUE(b.showFrame(1).ok());
  ASSERT_TRUE(b.showFrame(2).ok());  // replaces frame 1 if that has not started
  EXPECT_EQ(b.frame(), 2u);          // the timeline is at the request
  b.waitForSolve();
  EXPECT_FALSE(b.solving());
  EXPECT_EQ(b.frameFile(), "f_0002.obj");
  ASSERT_TRUE(p.sync->showFrame(2).ok());
  EXPECT_EQ(b.solved(), p.sync->solved()) << "each frame starts from its animation: the same solve";
  EXPECT_EQ(b.animated(), p.sync->animated());
  EXPECT_NEAR(b.report().animatedVolume / b.report().restVolume, 0.8, 1e-4);  // frame 2: squashed to 80 %

  // Playing: the next frame is asked for only once the shown one is solved.
  ASSERT_TRUE(b.showFrame(0).ok());
  b.playing = true;
  b.loop = false;
  b.waitForSolve();
  b.advance(1.0);  // asks for frame 1
  EXPECT_EQ(b.frame(), 1u);
  if (b.solving()) {
    b.advance(1.0);  // still solving frame 1: no skip ahead
    EXPECT_EQ(b.frame(), 1u);
  }
  b.playing = false;
  b.waitForSolve();

  // Export: every frame, each written once its solve finished.
  const fs::path out = dir / "out";
  std::vector<std::string> written;
  ASSERT_TRUE(b.startExport(out, [&](const fs::path& path, const DeformSession& d) {
                 written.push_back(path.filename().string() + "=" + d.frameFile());
                 std::ofstream(path) << "# test\n";
                 return Status(Ok{});
               }).ok());
  for (int i = 0; i < 10000 && b.exporting(); ++i) {
    b.advance(0.0);
    if (b.solving()) b.waitForSolve();
  }
  EXPECT_FALSE(b.exporting());
  EXPECT_EQ(written, (std::vector<std::string>{"f_0000.obj=f_0000.obj", "f_0001.obj=f_0001.obj", "f_0002.obj=f_0002.obj"}));

  // Dropped mid-solve: the worker is stopped and joined.
  ASSERT_TRUE(b.showFrame(1).ok());
  p.bg.reset();
  fs::remove_all(dir);
}

// Requests arriving faster than the worker solves (a scrub dragged across the
// timeline): whatever was skipped, the frame shown at the end is the last one
// asked for, solved as the calling thread would solve it, and a session
// dropped while its worker runs joins it.
TEST(DeformSessionBackground, AScrubFasterThanTheSolverEndsOnItsLastFrame) {
  SessionPair p = openSessionPair("scrub", 4);
  ASSERT_TRUE(p.sync && p.bg);
  DeformSession& b = *p.bg;
  for (int round = 0; round < 3; ++round)
    for (size_t f : {1u, 3u, 2u, 0u, 3u}) {
      ASSERT_TRUE(b.showFrame(f).ok());
      (void)b.solving();  // the window polls while the worker runs
      (void)b.report();
    }
  EXPECT_EQ(b.frame(), 3u);
  b.waitForSolve();
  EXPECT_EQ(b.frameFile(), "f_0003.obj");
  ASSERT_TRUE(p.sync->showFrame(3).ok());
  EXPECT_EQ(b.solved(), p.sync->solved());
  EXPECT_NEAR(b.report().animatedVolume / b.report().restVolume, 0.7, 1e-4);  // frame 3: squashed to 70 %
  for (int i = 0; i < 3; ++i) {  // dropped mid-solve, again and again
    Result<std::unique_ptr<DeformSession>> s = DeformSession::open(p.rest, p.pattern, p.settings, 600);
    ASSERT_TRUE(s.ok());
    (*s)->setBackground(true);
    ASSERT_TRUE((*s)->showFrame(size_t(i) + 1).ok());
  }
  fs::remove_all(p.dir);
}

}  // namespace
}  // namespace tetlab
