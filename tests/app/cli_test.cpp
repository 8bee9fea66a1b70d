// The command line of the real executable: help, version and every usage or
// set-up error gives a readable message and the documented exit code. None of
// these need a display.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>

#include <unistd.h>

#include "app/commands/asset_paths.h"
#include "app/output/recording.h"
#include "app/window.h"
#include "run_process.h"

namespace tetlab {
namespace {

using test::runTetlab;

TEST(Cli, VersionPrintsTheProjectVersion) {
  const auto r = runTetlab("--version");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find(std::string("tetlab ") + TETLAB_VERSION), std::string::npos) << r.output;
}

TEST(Cli, HelpExitsZeroAndListsTheFlags) {
  const auto r = runTetlab("--help");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  for (const char* flag : {"--mesh", "--headless", "--frames", "--screenshot", "--frames-dir", "--width", "--height",
                           "--cl-platform", "--cl-device", "--list-devices", "--version"})
    EXPECT_NE(r.output.find(flag), std::string::npos) << "help does not mention " << flag;
}

TEST(Cli, UnknownFlagIsAUsageErrorNamingIt) {
  const auto r = runTetlab("--no-such-flag");
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_NE(r.output.find("--no-such-flag"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("--help"), std::string::npos) << "should point at --help: " << r.output;
}

TEST(Cli, InvalidValueIsAUsageErrorNamingTheFlag) {
  for (const char* args : {"--frames 0", "--frames abc", "--width 5", "--cl-device -3"}) {
    const auto r = runTetlab(args);
    EXPECT_EQ(r.exitCode, 2) << args << ": " << r.output;
    const std::string flag = std::string(args).substr(0, std::string(args).find(' '));
    EXPECT_NE(r.output.find(flag), std::string::npos) << args << ": " << r.output;
  }
}

TEST(Cli, MissingMeshFileNamesTheFileAndTheReason) {
  const auto r = runTetlab("--headless --mesh /nonexistent/folder/missing_mesh.obj");
  EXPECT_EQ(r.exitCode, 1) << r.output;
  EXPECT_NE(r.output.find("cannot open mesh '/nonexistent/folder/missing_mesh.obj'"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("No such file"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("check the path"), std::string::npos) << r.output;
}

TEST(Cli, MalformedMeshReportsTheLoaderErrorBeforeOpeningAWindow) {
  const std::filesystem::path bad = std::filesystem::temp_directory_path() / "tetlab_app_malformed.obj";
  std::FILE* f = std::fopen(bad.c_str(), "w");
  ASSERT_NE(f, nullptr);
  std::fputs("v 0 0 0\nv 1 0\n", f);
  std::fclose(f);
  // No DISPLAY on purpose: the mesh is read first, so its error wins over the display error.
  const auto r = runTetlab("--headless --mesh '" + bad.string() + "'", "env -u DISPLAY -u WAYLAND_DISPLAY");
  EXPECT_EQ(r.exitCode, 1) << r.output;
  EXPECT_NE(r.output.find(bad.string()), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("no display"), std::string::npos) << r.output;
  std::filesystem::remove(bad);
}

TEST(Cli, FolderGivenAsMeshIsRejected) {
  const auto r = runTetlab(std::string("--headless --mesh '") + TETLAB_SOURCE_DIR + "/assets'");
  EXPECT_EQ(r.exitCode, 1) << r.output;
  EXPECT_NE(r.output.find("folder"), std::string::npos) << r.output;
}

TEST(Cli, NoDisplayIsAClearErrorAndTheHeadlessCommandsStillRun) {
  const std::string noDisplay = "env -u DISPLAY -u WAYLAND_DISPLAY";
  const auto r = runTetlab("--headless --frames 1", noDisplay);
  EXPECT_EQ(r.exitCode, 1) << r.output;
  EXPECT_NE(r.output.find("no display found (DISPLAY is not set): run under xvfb-run, or use scripts/run.sh"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("tetlab run"), std::string::npos) << "says what still works: " << r.output;
  // ... and what it says still works does.
  const auto run = runTetlab("run --scene beam --frames 3", noDisplay);
  EXPECT_EQ(run.exitCode, 0) << run.output;
  EXPECT_NE(run.output.find("tetlab run: done"), std::string::npos) << run.output;
}

TEST(Cli, KernelFolderProblemsAreNamed) {
  // A folder that is not there, or a file: a usage error naming the flag.
  const auto missing = runTetlab("run --scene beam --frames 1 --kernels /nonexistent/kernels");
  EXPECT_NE(missing.exitCode, 0) << missing.output;
  EXPECT_NE(missing.output.find("--kernels"), std::string::npos) << missing.output;
  EXPECT_NE(missing.output.find("/nonexistent/kernels"), std::string::npos) << missing.output;
  if (!test::hasDisplay()) GTEST_SKIP() << "no DISPLAY: the window half needs an X server (run under xvfb-run)";
  // A folder without the kernels: OpenCL is refused naming the file it missed.
  // Headless, an explicit --backend opencl that cannot be met fails the run (a
  // script must not get CPU numbers it did not ask for); the window carries on
  // on the CPU reference with the same message.
  const std::filesystem::path empty =
      std::filesystem::temp_directory_path() / ("tetlab_no_kernels_" + std::to_string(::getpid()));
  std::filesystem::create_directories(empty);
  const auto run = runTetlab("--scene beam --backend opencl --headless --frames 2 --width 320 --height 200 --kernels '" +
                             empty.string() + "'");
  EXPECT_NE(run.exitCode, 0) << run.output;
  if (run.output.find("no OpenCL") == std::string::npos) {  // with a platform: the kernel folder is what fails
    EXPECT_NE(run.output.find("cannot read kernel file " + (empty / "cl").string()), std::string::npos) << run.output;
    EXPECT_NE(run.output.find("it must contain cl/"), std::string::npos) << run.output;
  }
  std::filesystem::remove_all(empty);
}

TEST(Cli, NoFfmpegRefusesAVideoWithTheHintAndPngSequencesStillRecord) {
  if (!test::hasDisplay()) GTEST_SKIP() << "no DISPLAY: recording needs an X server (run under xvfb-run)";
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("tetlab_no_ffmpeg_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir / "empty");
  // A PATH without ffmpeg (tetlab itself is started by its full path). It keeps
  // the linker: PoCL links each kernel it has not cached with `ld` and aborts
  // the process without one, so whether the kernels were cached by an earlier
  // test must not decide this one.
  for (const char* tool : {"ld"})
    for (const char* folder : {"/usr/bin", "/bin", "/usr/local/bin"})
      if (std::filesystem::exists(std::filesystem::path(folder) / tool)) {
        std::filesystem::create_symlink(std::filesystem::path(folder) / tool, dir / "empty" / tool);
        break;
      }
  const std::string noFfmpeg = "env PATH='" + (dir / "empty").string() + "'";
  const std::string common = "--scene beam --headless --frames 2 --width 320 --height 200 --record ";
  const auto video = runTetlab(common + "'" + (dir / "out.mp4").string() + "'", noFfmpeg);
  EXPECT_NE(video.exitCode, 0) << video.output;
  EXPECT_NE(video.output.find(kFfmpegMissingMessage), std::string::npos) << video.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "out.mp4"));
  const auto frames = runTetlab(common + "'" + (dir / "frames").string() + "'", noFfmpeg);
  EXPECT_EQ(frames.exitCode, 0) << frames.output;
  EXPECT_TRUE(std::filesystem::exists(dir / "frames" / "frame_00000.png")) << frames.output;
  std::filesystem::remove_all(dir);
}

TEST(Cli, BadDeviceIndexIsAnErrorNamingTheRange) {
  // Either no OpenCL at all (the no-platform message) or a platform list whose
  // range the message names; in both cases an explicit request cannot be met.
  const auto r = runTetlab("--headless --cl-platform 99");
  EXPECT_EQ(r.exitCode, 1) << r.output;
  EXPECT_TRUE(r.output.find("99") != std::string::npos || r.output.find("no OpenCL platform") != std::string::npos)
      << r.output;
}

TEST(Cli, ListDevicesExitCodeMatchesWhetherOpenClExists) {
  const auto r = runTetlab("--list-devices");
  if (r.output.find("no OpenCL platform found") != std::string::npos) {
    EXPECT_NE(r.exitCode, 0) << r.output;
    EXPECT_NE(r.output.find("install pocl-opencl-icd"), std::string::npos) << r.output;
  } else {
    EXPECT_EQ(r.exitCode, 0) << r.output;
    EXPECT_NE(r.output.find("platform 0:"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("* device"), std::string::npos) << "the chosen device is marked: " << r.output;
  }
}

TEST(Cli, NoOpenClPlatformStillRendersButListDevicesFails) {
  // An empty ICD vendor folder makes the loader see no platform at all.
  const std::filesystem::path empty = std::filesystem::temp_directory_path() / "tetlab_app_no_icd";
  std::filesystem::create_directories(empty);
  const std::string env = "env OCL_ICD_VENDORS='" + empty.string() + "'";
  const auto list = runTetlab("--list-devices", env);
  EXPECT_NE(list.exitCode, 0) << list.output;
  EXPECT_NE(list.output.find("no OpenCL platform found: install pocl-opencl-icd or your GPU vendor's OpenCL driver"),
            std::string::npos)
      << list.output;
  if (!test::hasDisplay()) GTEST_SKIP() << "no DISPLAY: the rendering half needs an X server (run under xvfb-run)";
  const std::filesystem::path shot = empty / "shot.png";
  const auto run =
      runTetlab("--headless --frames 1 --width 320 --height 200 --screenshot '" + shot.string() + "'", env);
  EXPECT_EQ(run.exitCode, 0) << run.output;
  EXPECT_NE(run.output.find("warning: no OpenCL platform found"), std::string::npos) << run.output;
  EXPECT_TRUE(std::filesystem::exists(shot));
  std::filesystem::remove_all(empty);
}

TEST(Cli, InspectSubcommandIsWired) {
  const auto help = runTetlab("inspect --help");
  EXPECT_EQ(help.exitCode, 0) << help.output;
  EXPECT_NE(help.output.find("--target-tets"), std::string::npos) << help.output;
  EXPECT_NE(help.output.find("--json"), std::string::npos) << help.output;
  const auto missing = runTetlab("inspect /nonexistent/inspect_me.obj");
  EXPECT_NE(missing.exitCode, 0) << missing.output;
  EXPECT_NE(missing.output.find("/nonexistent/inspect_me.obj"), std::string::npos) << missing.output;
  const auto noFile = runTetlab("inspect");
  EXPECT_EQ(noFile.exitCode, 2) << noFile.output;
  EXPECT_NE(noFile.output.find("file"), std::string::npos) << noFile.output;
}

TEST(AssetPaths, DefaultMeshIsFoundInTheAssetFolder) {
  const auto dirs = assetSearchDirs(executableDir(nullptr));
  ASSERT_FALSE(dirs.empty()) << "TETLAB_ASSET_DIR should point at the source tree's assets/";
  const Result<std::filesystem::path> mesh = resolveMeshPath(kDefaultMesh, dirs);
  ASSERT_TRUE(mesh.ok()) << mesh.error().message;
  EXPECT_TRUE(std::filesystem::is_regular_file(*mesh));
  // A bare file name is also looked up in assets/meshes/.
  const Result<std::filesystem::path> bare = resolveMeshPath("spot.obj", dirs);
  ASSERT_TRUE(bare.ok()) << bare.error().message;
  EXPECT_EQ(bare->filename(), "spot.obj");
}

TEST(AssetPaths, AnUnknownSceneNameListsThePresetsFound) {
  namespace fs = std::filesystem;
  const fs::path root = fs::temp_directory_path() / ("tetlab_scenes_" + std::to_string(::getpid()));
  fs::remove_all(root);
  for (const char* rel : {"one/scenes/beam.json", "one/scenes/notes.txt", "two/scenes/beam.json",
                          "two/scenes/cape.json"}) {
    fs::create_directories((root / rel).parent_path());
    std::FILE* f = std::fopen((root / rel).c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fclose(f);
  }
  fs::create_directories(root / "two/scenes/folder.json");  // a folder named like a scene is not one
  const std::vector<fs::path> dirs{root / "one", root / "two", root / "missing"};
  EXPECT_EQ(sceneNames(dirs), (std::vector<std::string>{"beam", "cape"}));
  const Result<fs::path> unknown = resolveScenePath("bem", dirs);
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error().message,
            "cannot open scene 'bem': no such file: check the path or give a preset name: beam, cape");
  const Result<fs::path> noAssets = resolveScenePath("beam", {});
  ASSERT_FALSE(noAssets.ok());
  EXPECT_NE(noAssets.error().message.find("no assets/scenes/ folder"), std::string::npos) << noAssets.error().message;
  // The shipped folder: every preset file is named, so the help never lags behind assets/scenes/.
  const auto shipped = assetSearchDirs(executableDir(nullptr));
  ASSERT_FALSE(shipped.empty());
  const Result<fs::path> typo = resolveScenePath("jely_shake", shipped);
  ASSERT_FALSE(typo.ok());
  std::size_t count = 0;
  for (const auto& e : fs::directory_iterator(shipped.front() / "scenes")) {
    if (e.path().extension() != ".json") continue;
    ++count;
    EXPECT_NE(typo.error().message.find(e.path().stem().string()), std::string::npos) << e.path();
  }
  EXPECT_GE(count, 16u);
  fs::remove_all(root);
}

TEST(Window, MissingDisplayMessage) {
  EXPECT_FALSE(missingDisplayMessage(":0", nullptr).has_value());
  EXPECT_FALSE(missingDisplayMessage(nullptr, "wayland-0").has_value());
  const auto message = missingDisplayMessage(nullptr, "");
  ASSERT_TRUE(message.has_value());
  EXPECT_NE(message->find("DISPLAY is not set"), std::string::npos);
  EXPECT_TRUE(missingDisplayMessage("", nullptr).has_value());
}

}  // namespace
}  // namespace tetlab
