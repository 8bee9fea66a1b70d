// `tetlab deform` end to end on a small generated sequence: the CSV, the
// exported frames under their input names, and a bad frame reported by name
// with a non-zero exit (issue 15 item 6).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "app/commands/deform_command.h"
#include "app/commands/deform_region_flag.h"
#include "app/commands/deform_view.h"
#include "core/deform/anim_sequence.h"
#include "core/deform/held_vertices.h"

namespace tetlab {
namespace {

const std::string kCube = std::string(TETLAB_SOURCE_DIR) + "/assets/meshes/cube_5.obj";

struct Sequence {
  std::filesystem::path dir;
  explicit Sequence(const std::string& name) {
    dir = std::filesystem::temp_directory_path() / ("tetlab_deform_cmd_" + name);
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir / "anim");
  }
  ~Sequence() { std::filesystem::remove_all(dir); }
  // Frame i: the cube squashed along y by 1 - 0.15 i (frame 0 is the rest pose).
  void write(int frames, int extraVertexAt = -1) {
    const SurfaceMesh rest = *loadDeformRestMesh(kCube);
    for (int i = 0; i < frames; ++i) {
      char name[32];
      std::snprintf(name, sizeof name, "frame_%04d.obj", i);
      std::ofstream out(dir / "anim" / name);
      for (const glm::vec3& p : rest.positions) out << "v " << p.x << " " << p.y * (1.0f - 0.15f * i) << " " << p.z << "\n";
      if (i == extraVertexAt) out << "v 3 3 3\n";
      for (const glm::uvec3& t : rest.triangles) out << "f " << t.x + 1 << " " << t.y + 1 << " " << t.z + 1 << "\n";
      if (i == extraVertexAt) out << "f 1 2 " << rest.positions.size() + 1 << "\n";
    }
  }
  DeformArgs args() const {
    DeformArgs a;
    a.rest = kCube;
    a.anim = (dir / "anim" / "frame_%04d.obj").string();
    a.targetTets = 800;
    a.iterations = 200;
    a.csv = (dir / "out.csv").string();
    a.exportDir = (dir / "out").string();
    return a;
  }
};

TEST(DeformCommand, WritesACsvRowAndACorrectedFramePerInputFrame) {
  Sequence seq("ok");
  seq.write(3);
  testing::internal::CaptureStdout();
  const int rc = runDeformCommand(seq.args());
  const std::string out = testing::internal::GetCapturedStdout();
  ASSERT_EQ(rc, 0) << out;
  std::ifstream csv(seq.dir / "out.csv");
  std::string line;
  int rows = 0;
  std::getline(csv, line);
  EXPECT_EQ(line.rfind("frame,file,iterations,", 0), 0u) << line;
  while (std::getline(csv, line)) ++rows;
  EXPECT_EQ(rows, 3);
  for (const char* name : {"frame_0000.obj", "frame_0001.obj", "frame_0002.obj"}) {
    ASSERT_TRUE(std::filesystem::exists(seq.dir / "out" / name)) << name;
    // The corrected frame has the rest mesh's vertices and faces.
    AnimSequence one{"", {seq.dir / "out" / name}, 0};
    Result<std::vector<glm::vec3>> frame = loadAnimFrame(one, 0, *loadDeformRestMesh(kCube), "cube_5.obj");
    EXPECT_TRUE(frame.ok()) << (frame.ok() ? "" : frame.error().message);
  }
  // The squash the deformer undoes: frame 2 lost 30 % of its volume in the input.
  EXPECT_NE(out.find("volume -30.00 %"), std::string::npos) << out;
}

TEST(DeformCommand, AFrameWithAnotherVertexCountStopsWithItsName) {
  Sequence seq("bad");
  seq.write(3, 2);
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  const int rc = runDeformCommand(seq.args());
  testing::internal::GetCapturedStdout();
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(rc, 1);
  EXPECT_NE(err.find("frame_0002.obj: 153 vertices, but the rest mesh cube_5.obj has 152"), std::string::npos) << err;
  // What came before it is kept.
  EXPECT_TRUE(std::filesystem::exists(seq.dir / "out" / "frame_0001.obj"));
  EXPECT_FALSE(std::filesystem::exists(seq.dir / "out" / "frame_0002.obj"));
}

TEST(DeformCommand, BadSettingsAreNamed) {
  Sequence seq("args");
  seq.write(1);
  DeformArgs a = seq.args();
  a.hold = "box";
  a.holdBox = {1, 0, 0, 0, 1, 1};
  testing::internal::CaptureStderr();
  EXPECT_EQ(runDeformCommand(a), 1);
  EXPECT_NE(testing::internal::GetCapturedStderr().find("--hold-box"), std::string::npos);
  a = seq.args();
  a.anim = (seq.dir / "nothing_%04d.obj").string();
  testing::internal::CaptureStderr();
  EXPECT_EQ(runDeformCommand(a), 1);
  EXPECT_NE(testing::internal::GetCapturedStderr().find("nothing_0000.obj"), std::string::npos);
}

// A painted hold from the window's file: its vertices end exactly on the
// animation in the exported frame; a file painted on a bigger mesh is named.
TEST(DeformCommand, HoldVerticesFromAFileStayOnTheAnimation) {
  Sequence seq("held");
  seq.write(2);
  const SurfaceMesh rest = *loadDeformRestMesh(kCube);
  std::vector<uint8_t> held(rest.positions.size(), 0);
  for (size_t i = 0; i < held.size(); ++i) held[i] = rest.positions[i].y > 0.45f ? 1 : 0;  // the top face
  ASSERT_TRUE(saveHeldVertices(seq.dir / "held.txt", held, "cube_5.obj").ok());
  DeformArgs a = seq.args();
  a.holdVertices = (seq.dir / "held.txt").string();
  testing::internal::CaptureStdout();
  ASSERT_EQ(runDeformCommand(a), 0) << testing::internal::GetCapturedStdout();
  testing::internal::GetCapturedStdout();
  AnimSequence out{"", {seq.dir / "out" / "frame_0001.obj"}, 0};
  AnimSequence in{"", {seq.dir / "anim" / "frame_0001.obj"}, 0};
  const std::vector<glm::vec3> solved = *loadAnimFrame(out, 0, rest, "cube_5.obj");
  const std::vector<glm::vec3> animated = *loadAnimFrame(in, 0, rest, "cube_5.obj");
  size_t count = 0;
  for (size_t i = 0; i < held.size(); ++i)
    if (held[i]) {
      EXPECT_NEAR(glm::length(solved[i] - animated[i]), 0.0f, 1e-5f) << "vertex " << i + 1;  // the OBJ's printed digits
      ++count;
    }
  EXPECT_EQ(count, 36u);

  std::ofstream(seq.dir / "big.txt") << "1\n" << rest.positions.size() + 5 << "\n";
  a.holdVertices = (seq.dir / "big.txt").string();
  testing::internal::CaptureStderr();
  EXPECT_EQ(runDeformCommand(a), 1);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("--hold-vertices: '" + a.holdVertices + "' line 2: vertex " +
                     std::to_string(rest.positions.size() + 5) + " is outside"),
            std::string::npos)
      << err;
  a.holdVertices.clear();
  a.hold = "painted";
  testing::internal::CaptureStderr();
  EXPECT_EQ(runDeformCommand(a), 1);
  EXPECT_NE(testing::internal::GetCapturedStderr().find("--hold painted: give the held vertices with --hold-vertices"),
            std::string::npos);
}

TEST(DeformRegionFlag, ReadsEveryKeyAndPrintsItBack) {
  Result<DeformRegion> r = parseDeformRegion(
      "name=belly;box=-1,-0.5,-1,0,0.5,1;stretch=0.05,1,2;shear=0.5,0.5,0.25;rest-scale=1.2,1,1;axis=0,1,0;volume=0");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->name, "belly");
  EXPECT_EQ(r->min, glm::vec3(-1.0f, -0.5f, -1.0f));
  EXPECT_EQ(r->max, glm::vec3(0.0f, 0.5f, 1.0f));
  EXPECT_EQ(r->stretchScale, glm::vec3(0.05f, 1.0f, 2.0f));
  EXPECT_EQ(r->shearScale, glm::vec3(0.5f, 0.5f, 0.25f));
  EXPECT_EQ(r->restScale, glm::vec3(1.2f, 1.0f, 1.0f));
  EXPECT_EQ(r->materialAxis, glm::vec3(0.0f, 1.0f, 0.0f));
  EXPECT_EQ(r->volumeScale, 0.0f);
  Result<DeformRegion> back = parseDeformRegion(deformRegionSpec(*r));
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->name, r->name);
  EXPECT_EQ(back->min, r->min);
  EXPECT_EQ(back->stretchScale, r->stretchScale);
  EXPECT_EQ(back->materialAxis, r->materialAxis);
  // Only the box is required; the rest default to the body's values.
  Result<DeformRegion> plain = parseDeformRegion("box=0,0,0,1,1,1");
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(plain->stretchScale, glm::vec3(1.0f));
  EXPECT_EQ(plain->volumeScale, 1.0f);
}

TEST(DeformRegionFlag, BadSpecsSayWhatIsWrong) {
  auto message = [](const std::string& spec) {
    Result<DeformRegion> r = parseDeformRegion(spec);
    return r.ok() ? std::string("(accepted)") : r.error().message;
  };
  EXPECT_NE(message("stretch=1,1,1").find("needs box="), std::string::npos);
  EXPECT_NE(message("box=0,0,0,1,1").find("give 6 comma-separated numbers"), std::string::npos);
  EXPECT_NE(message("box=1,0,0,0,1,1").find("each minimum at most its maximum"), std::string::npos);
  EXPECT_NE(message("box=0,0,0,1,1,1;stretch=nan,1,1").find("'nan' is not a finite number"), std::string::npos);
  EXPECT_NE(message("box=0,0,0,1,1,1;stretch=-1,1,1").find("-1 is outside 0..1e+06"), std::string::npos);
  EXPECT_NE(message("box=0,0,0,1,1,1;axis=0,0,0").find("non-zero direction"), std::string::npos);
  EXPECT_NE(message("box=0,0,0,1,1,1;colour=red").find("unknown key 'colour'"), std::string::npos);
  EXPECT_NE(message("box=0,0,0,1,1,1;stretch").find("write key=value"), std::string::npos);

  DeformArgs a;
  a.solver = "xpbd";
  a.regions = {"box=0,0,0,1,1,1", "box=0,0,0,1,1,1;shear=x,1,1"};
  Result<DeformSettings> s = deformSettingsFrom(a);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("--region 2 ('box=0,0,0,1,1,1;shear=x,1,1'): shear=x,1,1: 'x' is not a finite number"),
            std::string::npos)
      << s.error().message;
  a.regions = {"box=0,0,0,1,1,1"};
  a.solver = "vbd";
  s = deformSettingsFrom(a);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("only --solver xpbd or pbd"), std::string::npos);
}

}  // namespace
}  // namespace tetlab

namespace tetlab {
namespace {

// The picture shows the three bodies in their colours: count the pixels
// whose strongest channel is clearly blue, red and green (the background and
// grid are grey, within a few levels across channels).
TEST(DeformPicture, ShowsRestAnimatedAndSolvedInTheirColours) {
  const SurfaceMesh rest = *loadDeformRestMesh(kCube);
  Result<std::unique_ptr<DeformPicture>> picture = DeformPicture::create(rest, {480, 200});
  ASSERT_TRUE(picture.ok()) << picture.error().message;
  std::vector<glm::vec3> squashed = rest.positions;
  for (glm::vec3& p : squashed) p.y *= 0.5f;
  Result<Image> image = (*picture)->draw(squashed, rest.positions);
  ASSERT_TRUE(image.ok()) << image.error().message;
  size_t blue = 0, red = 0, green = 0;
  for (size_t i = 0; i + 3 < image->rgba.size(); i += 4) {
    const int r = image->rgba[i], g = image->rgba[i + 1], b = image->rgba[i + 2];
    if (b > r + 40 && b > g + 20) ++blue;
    if (r > g + 40 && r > b + 40) ++red;
    if (g > r + 40 && g > b + 40) ++green;
  }
  const size_t pixels = size_t(image->width) * size_t(image->height);
  EXPECT_GT(blue, pixels / 100) << blue;
  EXPECT_GT(red, pixels / 200) << red;
  EXPECT_GT(green, pixels / 100) << green;
  // The squashed body is lower than the others: fewer of its pixels than the solved one's.
  EXPECT_LT(red, green);
}

// Overlaid: all three in one place, the solved body shaded and the ghosts
// over it. The cube squashed to half its height (animated, red) covers only
// the middle band of the solved cube, so down the picture's centre column
// that band is redder than the solved body's top, where only the rest ghost
// (the same cube, blue) lies over it.
TEST(DeformPicture, OverlayDrawsTheGhostsOverTheSolvedBody) {
  const SurfaceMesh rest = *loadDeformRestMesh(kCube);
  std::vector<glm::vec3> squashed = rest.positions;
  for (glm::vec3& p : squashed) p.y *= 0.5f;
  Result<std::unique_ptr<DeformPicture>> picture = DeformPicture::create(rest, {320, 320}, DeformLayout::Overlay);
  ASSERT_TRUE(picture.ok()) << picture.error().message;
  Result<Image> image = (*picture)->draw(squashed, rest.positions);
  ASSERT_TRUE(image.ok()) << image.error().message;
  // Rows of the centre column that show a body: away from the background
  // gradient there (the bodies fill the picture's middle, the ground is below them).
  const int x = image->width / 2;
  std::vector<int> rows;
  for (int y = 0; y < image->height; ++y) {
    const uint8_t* p = &image->rgba[4 * (size_t(y) * size_t(image->width) + size_t(x))];
    const glm::vec3 bg = 255.0f * backgroundColorAt(RenderSettings{}, 1.0f - float(y) / float(image->height - 1));
    if (std::fabs(p[0] - bg.r) + std::fabs(p[1] - bg.g) + std::fabs(p[2] - bg.b) > 40.0f) rows.push_back(y);
  }
  ASSERT_GT(rows.size(), 40u);
  // The red share r / (r + g + b): the faces are lit differently, the tint is what differs.
  auto redShare = [&](int y) {
    const uint8_t* p = &image->rgba[4 * (size_t(y) * size_t(image->width) + size_t(x))];
    return double(p[0]) / std::max(1.0, double(p[0]) + double(p[1]) + double(p[2]));
  };
  // The squashed cube spans the middle half of the solved one's height; the
  // band above it (the top 20 % of the body's rows, past the top face seen
  // from a little above) has only the rest ghost over the solved body.
  const int n = int(rows.size());
  const int above = rows.front() + n / 5;
  const int middle = rows.front() + n / 2;
  EXPECT_GT(redShare(middle), redShare(above) + 0.05) << "above " << redShare(above) << ", middle " << redShare(middle);}

}  // namespace
}  // namespace tetlab
