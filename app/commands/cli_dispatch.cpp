// The second half of the command line (cli.h): do what readCommandLine found.
// Apart from cli.cpp because this half links the subcommands (the whole
// simulator) and OpenCL, which the reader alone must not need.
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "app/commands/asset_paths.h"
#include "app/commands/cli.h"

namespace tetlab {

namespace {

constexpr int kExitFailure = 1;

int printError(const std::string& message) {
  std::fprintf(stderr, "tetlab: %s\n", message.c_str());
  return kExitFailure;
}

// `tetlab inspect`: FILE is also looked up in assets/ like --mesh.
int runInspect(InspectArgs args) {
  Result<std::filesystem::path> path = resolveMeshPath(args.file, assetSearchDirs(executableDir(nullptr)));
  if (path) args.file = path->string();  // else inspect reports the path as typed
  return runInspectCommand(args);
}

// `tetlab run` and `tetlab compare`: a scene name is looked up in
// assets/scenes/, a mesh in assets/. An error message names the command.
Status resolveSource(RunArgs& args) {
  args.assetDirs = assetSearchDirs(executableDir(nullptr));
  if (!args.scene.empty()) {
    Result<std::filesystem::path> path = resolveScenePath(args.scene, args.assetDirs);
    if (!path) return path.error();
    args.scene = path->string();
  }
  if (!args.mesh.empty()) {
    Result<std::filesystem::path> path = resolveMeshPath(args.mesh, args.assetDirs);
    if (path) args.mesh = path->string();  // else the command reports the path as typed
  }
  return Ok{};
}

int runRun(RunArgs args) {
  if (Status s = resolveSource(args); !s) {
    std::cerr << "tetlab run: " << s.error().message << "\n";
    return 1;
  }
  return runRunCommand(args);
}

// `tetlab deform`: headless, or the window in deformer mode (--window).
int runDeform(DeformArgs args) {
  resolveDeformPaths(args.rest, args.anim, assetSearchDirs(executableDir(nullptr)));
  return runDeformCommand(args);
}

Result<AppOptions> deformWindowOptions(DeformArgs args, AppOptions app) {
  app.assetDirs = assetSearchDirs(executableDir(nullptr));
  resolveDeformPaths(args.rest, args.anim, app.assetDirs);
  if (Result<DeformSettings> s = deformSettingsFrom(args); !s) return s.error();
  // With a screenshot the window runs headless for --frames app frames (the timeline plays).
  app.headless = !args.screenshot.empty();
  app.frames = app.headless ? std::max(args.frames, 1) : 0;
  app.screenshotPath = args.screenshot;
  app.width = args.width;
  app.height = args.height;
  if (app.uiOpen.empty()) app.uiOpen = {"deform"};
  app.deform = std::move(args);
  return app;
}

int runCompare(CompareArgs args) {
  if (Status s = resolveSource(args.source); !s) {
    std::cerr << "tetlab compare: " << s.error().message << "\n";
    return 1;
  }
  return runCompareCommand(args);
}

// `tetlab compare --record/--screenshot/--window`: the window in compare mode.
Result<AppOptions> compareWindowOptions(CompareArgs args, AppOptions app) {
  if (Status s = resolveSource(args.source); !s) return s.error();
  if (!args.source.preset.empty())
    return Error{"--record, --screenshot and --window take a scene file or a mesh: use --scene instead of --preset "
                 "(a preset's name such as beam or jelly_shake, looked up in assets/scenes/)"};
  if (Status s = validateRunArgs(args.source); !s) return s.error();
  app.scenePath = args.source.scene;
  app.meshPath = args.source.mesh;
  app.sceneArgument = args.source.scene.empty() ? args.source.mesh : args.source.scene;
  app.targetTets = args.source.targetTets;
  app.overrides = args.source.overrides;
  app.assetDirs = args.source.assetDirs;
  app.backend = args.source.backend == "opencl" ? Backend::OpenCl : Backend::Cpu;
  app.headless = !args.window;
  app.frames = args.window ? 0 : args.source.frames;
  app.recordPath = args.record;
  app.screenshotPath = args.screenshot;
  app.width = args.width;
  app.height = args.height;
  if (app.uiOpen.empty()) app.uiOpen = {"compare"};
  app.compare = std::move(args);
  return app;
}

// --list-devices: prints the platforms and devices; the exit code.
int listDevices(const DeviceChoice& request) {
  OpenClStatus status = queryOpenClStatus(request);
  std::fputs(formatDeviceList(status).c_str(), stdout);
  return status.error.empty() ? 0 : printError(status.error);
}

// The OpenCL devices into app.opencl.
Status queryOpenCl(const DeviceChoice& request, AppOptions& app) {
  app.opencl = queryOpenClStatus(request);
  if (!app.opencl.error.empty()) {
    // No OpenCL at all still renders (the UI says so); a request that names a
    // device that does not exist is a user error and stops here.
    const bool explicitRequest = request.platform >= 0 || request.device >= 0;
    if (!app.opencl.platforms.empty() || explicitRequest) return Error{app.opencl.error};
    std::fprintf(stderr, "tetlab: warning: %s (rendering only)\n", app.opencl.error.c_str());
  }
  return Ok{};
}

}  // namespace

CliOutcome parseCommandLine(int argc, char** argv) {
  ParsedCommandLine parsed = readCommandLine(argc, argv);
  CliOutcome outcome;
  if (parsed.exitCode) {
    outcome.exitCode = parsed.exitCode;
  } else if (parsed.inspect) {
    outcome.exitCode = runInspect(*parsed.inspect);
  } else if (parsed.run) {
    outcome.exitCode = runRun(*parsed.run);
  } else if (parsed.deform && !parsed.deform->window) {
    outcome.exitCode = runDeform(*parsed.deform);
  } else if (parsed.deform) {
    Result<AppOptions> app = deformWindowOptions(*parsed.deform, std::move(parsed.app));
    if (!app) {
      outcome.exitCode = printError("deform: " + app.error().message);
    } else {
      outcome.app = std::move(*app);
      if (Status status = queryOpenCl(parsed.devices, outcome.app); !status)
        outcome.exitCode = printError(status.error().message);
    }
  } else if (parsed.compare && !parsed.compare->wantsWindow()) {
    outcome.exitCode = runCompare(*parsed.compare);
  } else if (parsed.compare) {
    Result<AppOptions> app = compareWindowOptions(*parsed.compare, std::move(parsed.app));
    if (!app) {
      outcome.exitCode = printError("compare: " + app.error().message);
    } else {
      outcome.app = std::move(*app);
      if (Status status = queryOpenCl(parsed.devices, outcome.app); !status)
        outcome.exitCode = printError(status.error().message);
    }
  } else if (parsed.listDevices) {
    outcome.exitCode = listDevices(parsed.devices);
  } else {
    outcome.app = std::move(parsed.app);
    if (Status status = queryOpenCl(parsed.devices, outcome.app); !status)
      outcome.exitCode = printError(status.error().message);
  }
  return outcome;
}

}  // namespace tetlab
