// One default tet target for a user's OBJ (core/mesh/tet_target.h): the
// window (--mesh), `tetlab run --mesh`, `tetlab compare --mesh` and `tetlab
// inspect` read the same count from their command lines, and so do a scene
// file's mesh body without "target_tets", the mesh-drop scene and the
// pipeline's own options, so a headless run meshes what the window shows. The
// window asked for 2000 while `tetlab run` and `inspect` asked for 5000 and a
// scene file for 3000 (issue 41, item 8).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "app/commands/cli.h"
#include "core/mesh/tet_target.h"
#include "core/mesh/tetrahedralize.h"
#include "core/mesh/voxel_fallback.h"
#include "core/scene/scene_desc.h"
#include "core/sim/presets.h"

namespace tetlab {
namespace {

const std::string kMesh = std::string(TETLAB_SOURCE_DIR) + "/assets/meshes/bunny_10k.obj";

ParsedCommandLine read(std::vector<std::string> args) {
  args.insert(args.begin(), "tetlab");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  return readCommandLine(int(argv.size()), argv.data());
}

TEST(DefaultTargetTets, TheWindowAndEveryCommandReadTheSameCount) {
  const ParsedCommandLine window = read({"--mesh", kMesh});
  ASSERT_FALSE(window.exitCode.has_value()) << "the window's command line was refused";
  EXPECT_EQ(window.app.targetTets, kDefaultTargetTets) << "tetlab --mesh";

  const ParsedCommandLine run = read({"run", "--mesh", kMesh});
  ASSERT_FALSE(run.exitCode.has_value());
  ASSERT_TRUE(run.run.has_value());
  EXPECT_EQ(run.run->targetTets, kDefaultTargetTets) << "tetlab run --mesh";

  const ParsedCommandLine compare = read({"compare", "--mesh", kMesh, "--lanes", "vbd,avbd"});
  ASSERT_FALSE(compare.exitCode.has_value());
  ASSERT_TRUE(compare.compare.has_value());
  EXPECT_EQ(compare.compare->source.targetTets, kDefaultTargetTets) << "tetlab compare --mesh";

  const ParsedCommandLine inspect = read({"inspect", kMesh});
  ASSERT_FALSE(inspect.exitCode.has_value());
  ASSERT_TRUE(inspect.inspect.has_value());
  EXPECT_EQ(inspect.inspect->targetTets, kDefaultTargetTets) << "tetlab inspect";

  // An explicit count still wins everywhere.
  EXPECT_EQ(read({"--mesh", kMesh, "--target-tets", "700"}).app.targetTets, 700);
  EXPECT_EQ(read({"run", "--mesh", kMesh, "--target-tets", "700"}).run->targetTets, 700);
}

TEST(DefaultTargetTets, SceneFilesTheMeshDropSceneAndThePipelineUseIt) {
  EXPECT_EQ(BodySpec{}.tets.targetTets, kDefaultTargetTets) << "a scene file's mesh body without target_tets";
  const SceneDesc drop = makeMeshDropScene(kMesh);
  ASSERT_EQ(drop.bodies.size(), 1u);
  EXPECT_EQ(drop.bodies[0].tets.targetTets, kDefaultTargetTets) << "the --mesh drop scene";
  EXPECT_EQ(TetOptions{}.targetTets, kDefaultTargetTets);
  EXPECT_EQ(VoxelOptions{}.targetTets, kDefaultTargetTets);
}

}  // namespace
}  // namespace tetlab
