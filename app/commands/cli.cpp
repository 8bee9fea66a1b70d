// Command-line reading with CLI11. Usage errors print one readable line and
// exit 2; bad values found after parsing (missing file, bad override) exit 1;
// --help and --version exit 0. Subcommands are registered in
// registerSubcommands(). Nothing here runs a command or touches a device:
// cli_dispatch.cpp does that with what readCommandLine returns.
#include "app/commands/cli.h"

#include <array>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>

#include <CLI/CLI.hpp>

#include "app/commands/asset_paths.h"
#include "app/ui/panel_sections.h"
#include "core/scene/enum_names.h"

namespace tetlab {

namespace {

// A whole number of at least `least`, said in words (CLI11's PositiveNumber and
// NonNegativeNumber name a range up to 1.797e308 digit by digit).
CLI::Validator atLeast(long long least) {
  return CLI::Validator(
      [least](std::string& text) -> std::string {
        long long value = 0;
        if (!CLI::detail::lexical_cast(text, value) || value < least)
          return "must be a whole number of at least " + std::to_string(least) + ", got " + text;
        return std::string();
      },
      ">= " + std::to_string(least));
}

// A finite number in [lo, hi] (or [lo, hi) with openHigh), said in words:
// CLI11's own Range lets "nan" and "inf" through a float option.
CLI::Validator finiteIn(double lo, double hi, bool openHigh = false) {
  const std::string range = "[" + CLI::detail::to_string(lo) + ", " + CLI::detail::to_string(hi) + (openHigh ? ")" : "]");
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        double value = 0.0;
        if (!CLI::detail::lexical_cast(text, value) || !std::isfinite(value) || value < lo || value > hi ||
            (openHigh && value >= hi))
          return "must be a finite number in " + range + ", got " + text;
        return std::string();
      },
      range);
}

constexpr int kExitUsage = 2;
constexpr int kExitFailure = 1;

// The flags that override a scene (core/scene/scene_overrides.h), shared by the
// window and `tetlab run`: a flag overrides only when given, so its presence is
// read from its CLI::Option, not from its value.
struct OverrideFlags {
  float dt = 0.0f, youngs = 0.0f, poisson = 0.0f, density = 0.0f;
  int substeps = 0, iterations = 0;
  uint64_t seed = 0;
  std::string gpuSchedule, xpbdModel;
  CLI::Option *gpuScheduleOpt = nullptr, *xpbdModelOpt = nullptr;
  CLI::Option *dtOpt = nullptr, *substepsOpt = nullptr, *iterationsOpt = nullptr, *youngsOpt = nullptr,
              *poissonOpt = nullptr, *densityOpt = nullptr, *seedOpt = nullptr;

  SceneOverrides given() const {
    SceneOverrides o;
    if (dtOpt->count()) o.dt = dt;
    if (substepsOpt->count()) o.substeps = substeps;
    if (iterationsOpt->count()) o.iterations = iterations;
    if (youngsOpt->count()) o.youngs = youngs;
    if (poissonOpt->count()) o.poisson = poisson;
    if (densityOpt->count()) o.density = density;
    if (seedOpt->count()) o.seed = seed;
    if (gpuScheduleOpt->count())
      for (const EnumName<GpuSchedule>& e : gpuScheduleNames())
        if (gpuSchedule == e.name) o.gpuSchedule = e.value;
    if (xpbdModelOpt->count())
      o.xpbdModel = xpbdModel == "strain_based" ? XpbdElasticModel::StrainBased : XpbdElasticModel::NeoHookean;
    return o;
  }
};

void addOverrideFlags(CLI::App& app, OverrideFlags& f) {
  f.gpuScheduleOpt = app.add_option("--gpu-schedule", f.gpuSchedule,
                                     "Override the OpenCL launch schedule (VBD, PBD, XPBD): auto, per_color or "
                                     "one_group")
                         ->check(CLI::IsMember({"auto", "per_color", "one_group"}))
                         ->option_text("NAME");
  f.xpbdModelOpt = app.add_option("--xpbd-model", f.xpbdModel,
                                   "XPBD's per-tet elastic constraints: neo_hookean (the material at any strain; "
                                   "stiff bodies need many substeps) or strain_based (stretch, shear and volume; "
                                   "no substep limit, softer than the material when under-converged)")
                       ->check(CLI::IsMember({"neo_hookean", "strain_based"}))
                       ->option_text("NAME");
  f.dtOpt = app.add_option("--dt", f.dt, "Override the frame time step [s]")->option_text("S");
  f.substepsOpt = app.add_option("--substeps", f.substeps, "Override the substeps per frame")->option_text("K");
  f.iterationsOpt =
      app.add_option("--iterations", f.iterations, "Override the iterations per substep")->option_text("I");
  f.youngsOpt = app.add_option("--youngs", f.youngs, "Override every body's Young's modulus [Pa]")->option_text("E");
  f.poissonOpt = app.add_option("--poisson", f.poisson, "Override every body's Poisson ratio [-]")->option_text("NU");
  f.densityOpt =
      app.add_option("--density", f.density, "Override every body's density [kg/m^3]")->option_text("RHO");
  f.seedOpt = app.add_option("--seed", f.seed, "Override the scene's random seed")->option_text("N");
}

// `tetlab inspect FILE [--target-tets N] [--json]`: the mesh pipeline report
// (app/commands/inspect_command.cpp). FILE is also looked up in assets/ like --mesh.
void addInspectSubcommand(CLI::App& cli, ParsedCommandLine& out) {
  auto args = std::make_shared<InspectArgs>();
  CLI::App* inspect =
      cli.add_subcommand("inspect", "Load, check and tetrahedralize a mesh without a window, and report every stage");
  inspect->add_option("file", args->file, "Triangle mesh (OBJ)")->required()->option_text("FILE");
  inspect->add_option("--target-tets", args->targetTets, "Tetrahedra to aim for")
      ->check(atLeast(1))
      ->capture_default_str();
  inspect->add_flag("--json", args->json, "Print the report as JSON");
  inspect->footer("");
  inspect->callback([args, &out] { out.inspect = *args; });
}

// `tetlab run (--mesh FILE | --preset NAME) --solver S ...`: the scripted
// headless simulation of app/commands/run_command.cpp (no window, no GL).
void addRunSubcommand(CLI::App& cli, ParsedCommandLine& out) {
  auto args = std::make_shared<RunArgs>();
  auto overrides = std::make_shared<OverrideFlags>();
  CLI::App* run =
      cli.add_subcommand("run", "Simulate a scene, a preset or an OBJ without a window and report (CSV stats)");
  CLI::Option* scene = run->add_option("--scene", args->scene,
                                       "Scene file (JSON), or a preset's name in assets/scenes/ (an unknown name "
                                       "lists them), run as the window would")
                           ->option_text("NAME|FILE.json");
  CLI::Option* mesh = run->add_option("--mesh", args->mesh, "Triangle mesh (OBJ) dropped on the ground")
                          ->option_text("FILE.obj");
  CLI::Option* preset =
      run->add_option("--preset", args->preset, "Generated scene: beam, drop or hang")->option_text("NAME");
  mesh->excludes(preset);
  scene->excludes(mesh);
  scene->excludes(preset);
  run->add_option("--solver", args->solver, "pbd, xpbd, vbd or avbd (default: the scene's; presets: xpbd, meshes: vbd)")
      ->option_text("NAME");
  run->add_option("--backend", args->backend, "cpu or opencl")->capture_default_str();
  run->add_option("--frames", args->frames, "Frames to simulate")->capture_default_str();
  addOverrideFlags(*run, *overrides);
  run->add_option("--stats", args->stats, "Write one CSV row per frame here")->option_text("FILE.csv");
  run->add_option("--cells-thick", args->cellsThick, "Preset resolution: cells through the thickness")
      ->capture_default_str();
  run->add_option("--target-tets", args->targetTets, "--mesh: approximate tet count")->capture_default_str();
  run->add_flag("--soak", args->soak,
                "Long-run check: also fail (exit 3) when resident memory grows more than 5 % from frame 1000 (or "
                "half the run) to the end; on OpenCL the energy is read every " +
                    std::to_string(kSoakEnergyEvery) + " frames, not only at the end");
  run->callback([=, &out] {
    args->overrides = overrides->given();
    out.run = *args;
  });
}

// `tetlab compare --lanes ... --frames N`: solvers side by side on one scene
// (app/commands/compare_command.cpp).
void addCompareSubcommand(CLI::App& cli, ParsedCommandLine& out) {
  auto args = std::make_shared<CompareArgs>();
  auto overrides = std::make_shared<OverrideFlags>();
  CLI::App* cmp = cli.add_subcommand(
      "compare", "Run one scene on two to four solvers in lock-step, with a reference lane, and write a CSV per lane");
  CLI::Option* scene = cmp->add_option("--scene", args->source.scene,
                                       "Scene file (JSON) or a name in assets/scenes/; its \"compare\" section gives "
                                       "the lanes when --lanes is not given")
                           ->option_text("NAME|FILE.json");
  CLI::Option* mesh =
      cmp->add_option("--mesh", args->source.mesh, "Triangle mesh (OBJ) dropped on the ground")->option_text("FILE.obj");
  CLI::Option* preset =
      cmp->add_option("--preset", args->source.preset, "Generated scene: beam, drop or hang")->option_text("NAME");
  mesh->excludes(preset);
  scene->excludes(mesh);
  scene->excludes(preset);
  cmp->add_option("--lanes", args->lanes,
                  "Lanes, comma separated: solver:SUBSTEPSxITERATIONS[@cpu|@opencl], e.g. xpbd:20x1,vbd:10x4")
      ->option_text("LANES");
  cmp->add_option("--reference", args->reference,
                  "A converged lane the others are measured against (position RMS and max, energy), or auto")
      ->option_text("LANE|auto");
  cmp->add_option("--equal-cost", args->equalCost,
                  "Give every lane this time per frame and let it pick its iterations (e.g. 5ms)")
      ->option_text("MS");
  cmp->add_option("--backend", args->source.backend, "Backend of the lanes that name none: cpu or opencl")
      ->capture_default_str();
  cmp->add_option("--frames", args->source.frames, "Frames to simulate")->capture_default_str();
  addOverrideFlags(*cmp, *overrides);
  cmp->add_option("--csv", args->csv, "Write one CSV row per frame per lane here")->option_text("FILE.csv");
  cmp->add_option("--record", args->record,
                  "Record the side-by-side view (split cells and the overlaid plots) as a video (.mp4, or a folder "
                  "of PNGs) without showing a window; needs a display (xvfb-run)")
      ->option_text("FILE.mp4");
  cmp->add_option("--screenshot", args->screenshot, "Write the side-by-side view's last frame to this PNG (headless)")
      ->option_text("FILE.png");
  cmp->add_flag("--window", args->window, "Open the interactive window in compare mode instead");
  cmp->add_option("--width", args->width, "Window/image width in pixels (--record, --screenshot, --window)")
      ->check(CLI::Range(64, 8192))
      ->capture_default_str();
  cmp->add_option("--height", args->height, "Window/image height in pixels")
      ->check(CLI::Range(64, 8192))
      ->capture_default_str();
  cmp->add_option("--view", args->view, "The window's layout: split (one view per lane) or overlay (ghosts)")
      ->option_text("split|overlay");
  cmp->add_option("--cells-thick", args->source.cellsThick, "Preset resolution: cells through the thickness")
      ->capture_default_str();
  cmp->add_option("--target-tets", args->source.targetTets, "--mesh: approximate tet count")->capture_default_str();
  cmp->callback([=, &out] {
    args->source.overrides = overrides->given();
    out.compare = *args;
  });
}

// `tetlab deform --rest rest.obj --anim 'anim/frame_%04d.obj' ...`: the
// quasi-static deformer over an OBJ sequence (app/commands/deform_command.cpp).
void addDeformSubcommand(CLI::App& cli, ParsedCommandLine& out) {
  auto args = std::make_shared<DeformArgs>();
  // hold box, stretch, shear, gravity, rest scale, axis
  auto vectors = std::make_shared<std::array<std::vector<float>, 6>>();
  CLI::App* d = cli.add_subcommand(
      "deform", "Quasi-static deformer: correct an animated OBJ sequence toward its rest mesh's strains and volume");
  d->add_option("--rest", args->rest, "Rest mesh (OBJ), or a name in assets/")->required()->option_text("FILE.obj");
  d->add_option("--anim", args->anim, "The animation: the frames' path with the frame number as %d or %04d")
      ->required()
      ->option_text("'DIR/frame_%04d.obj'");
  d->add_option("--solver", args->solver,
                "vbd or avbd (stable Neo-Hookean), xpbd or pbd (strain-based per axis plus volume)")
      ->check(CLI::IsMember({"pbd", "xpbd", "vbd", "avbd"}))
      ->capture_default_str();
  d->add_option("--iterations", args->iterations, "Most solver iterations per frame")->check(atLeast(1))->capture_default_str();
  d->add_option("--tolerance", args->tolerance, "Stop a frame when its residual falls below this fraction of its first")
      ->check(finiteIn(0.0, 1.0))
      ->capture_default_str();
  d->add_option("--pass", args->pass, "Iterations between residual checks")->check(atLeast(1))->capture_default_str();
  d->add_option("--start", args->start, "Each frame starts from its animated positions or the previous solution")
      ->check(CLI::IsMember({"animated", "previous"}))
      ->capture_default_str();
  d->add_option("--hold", args->hold,
                "Animated vertices held exactly: none, all (only the interior relaxes), box (--hold-box) or painted "
                "(--hold-vertices)")
      ->check(CLI::IsMember({"none", "all", "box", "painted"}))
      ->capture_default_str();
  d->add_option("--hold-box", (*vectors)[0], "Rest-space box of held vertices: x0,y0,z0,x1,y1,z1 [m]")
      ->expected(6)
      ->delimiter(',')
      ->check(finiteIn(-1e30, 1e30))
      ->option_text("X0,Y0,Z0,X1,Y1,Z1");
  d->add_option("--hold-vertices", args->holdVertices,
                "Hold the vertices listed in FILE (one number per line, as in the rest OBJ; the window's Deformer "
                "section saves a painted hold this way)")
      ->option_text("FILE");
  d->add_option("--region", args->regions,
                "PBD/XPBD: tets of a rest-space box with their own stiffness, repeatable: "
                "'box=X0,Y0,Z0,X1,Y1,Z1;stretch=SX,SY,SZ;shear=XY,XZ,YZ;rest-scale=SX,SY,SZ;axis=X,Y,Z;volume=V;name=N' "
                "(only box is required; later regions win where they overlap)")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->option_text("SPEC");
  d->add_option("--attract", args->attract,
                "Pull of every free vertex toward its animated position, per unit mass [1/s^2] (0: none)")
      ->check(finiteIn(0.0, 1e12))
      ->capture_default_str();
  d->add_option("--youngs", args->youngs, "Young's modulus [Pa]")->check(finiteIn(1e-3, 1e15))->capture_default_str();
  d->add_option("--poisson", args->poisson, "Poisson ratio [-] (VBD/AVBD: the volume stiffness)")
      ->check(finiteIn(0.0, 0.5, true))
      ->capture_default_str();
  d->add_option("--density", args->density, "Density [kg/m^3] (weights the attraction)")
      ->check(finiteIn(1e-6, 1e9))
      ->capture_default_str();
  d->add_option("--stretch", (*vectors)[1], "PBD/XPBD stretch stiffness per rest axis x,y,z, times 2 mu (0: off)")
      ->expected(3)
      ->delimiter(',')
      ->check(finiteIn(0.0, 1e6))
      ->option_text("SX,SY,SZ");
  d->add_option("--shear", (*vectors)[2], "PBD/XPBD shear stiffness xy,xz,yz, times mu (0: off)")
      ->expected(3)
      ->delimiter(',')
      ->check(finiteIn(0.0, 1e6))
      ->option_text("XY,XZ,YZ");
  d->add_option("--rest-scale", (*vectors)[4],
                "PBD/XPBD: the length each material axis x,y,z stretches to (1: its rest length)")
      ->expected(3)
      ->delimiter(',')
      ->check(finiteIn(1e-3, 1e3))
      ->option_text("SX,SY,SZ");
  d->add_option("--axis", (*vectors)[5],
                "PBD/XPBD: the material x axis in the rest mesh (fibres; y and z at right angles to it)")
      ->expected(3)
      ->delimiter(',')
      ->check(finiteIn(-1e6, 1e6))
      ->option_text("X,Y,Z");
  d->add_flag("--no-volume", args->noVolume, "PBD/XPBD: no tet volume constraint");
  d->add_option("--gravity", (*vectors)[3], "Gravity during the solve [m/s^2] (default none)")
      ->expected(3)
      ->delimiter(',')
      ->check(finiteIn(-1e6, 1e6))
      ->option_text("GX,GY,GZ");
  d->add_option("--target-tets", args->targetTets, "Tetrahedra to aim for (the surface is kept as it is)")
      ->check(atLeast(1))
      ->capture_default_str();
  d->add_option("--frames", args->frames, "Frames to solve (0: all)")->check(atLeast(0))->capture_default_str();
  d->add_option("--export-obj", args->exportDir, "Write each corrected frame here under its input name")
      ->option_text("DIR");
  d->add_option("--csv", args->csv, "Write one row per frame: iterations, residual, volume errors")
      ->option_text("FILE.csv");
  d->add_option("--screenshot", args->screenshot,
                "Write rest (blue), animated (red) and solved (green) side by side at the last frame to this PNG; "
                "needs a display (xvfb-run)")
      ->option_text("FILE.png");
  d->add_option("--record", args->record, "The same picture for every frame as a video (.mp4) or a folder of PNGs")
      ->option_text("FILE.mp4");
  d->add_flag("--overlay", args->overlay,
              "The picture overlaid: the solved body shaded, the animated and rest bodies as ghosts over it");
  d->add_option("--width", args->width, "Picture width in pixels")->check(CLI::Range(64, 8192))->capture_default_str();
  d->add_option("--height", args->height, "Picture height in pixels")->check(CLI::Range(64, 8192))->capture_default_str();
  d->add_option("--fps", args->fps, "--record: frames per second")->check(CLI::Range(1, 240))->capture_default_str();
  d->add_flag("--window", args->window,
              "Open the window in deformer mode (timeline, live settings); with --screenshot it runs headless for "
              "--frames frames and writes the window");
  d->callback([=, &out] {
    const std::array<std::vector<float>, 6>& v = *vectors;
    for (size_t i = 0; i < v[4].size() && i < 3; ++i) args->restScale[i] = v[4][i];
    for (size_t i = 0; i < v[5].size() && i < 3; ++i) args->axis[i] = v[5][i];
    for (size_t i = 0; i < v[0].size() && i < 6; ++i) args->holdBox[i] = v[0][i];
    for (size_t i = 0; i < v[1].size() && i < 3; ++i) args->stretch[i] = v[1][i];
    for (size_t i = 0; i < v[2].size() && i < 3; ++i) args->shear[i] = v[2][i];
    for (size_t i = 0; i < v[3].size() && i < 3; ++i) args->gravity[i] = v[3][i];
    out.deform = *args;
  });
}

// The one place where subcommands are added. Each one owns its arguments
// (shared with its callback) and, when selected, copies them into `out`;
// parseCommandLine (cli_dispatch.cpp) runs it after parsing succeeded.
void registerSubcommands(CLI::App& cli, ParsedCommandLine& out) {
  addInspectSubcommand(cli, out);
  addRunSubcommand(cli, out);
  addCompareSubcommand(cli, out);
  addDeformSubcommand(cli, out);
}

struct RawFlags {
  std::string scene;
  std::string mesh;
  int targetTets = kDefaultTargetTets;
  std::string solver;
  std::string backend;
  std::string kernels;
  OverrideFlags overrides;
  bool paused = false;
  bool headless = false;
  int frames = 0;
  std::string screenshot;
  std::string framesDir;
  std::string record;
  int recordFps = 30;
  bool hideUi = false;
  std::string exportObj;
  int width = 1280;
  int height = 720;
  int msaa = -1;
  int clPlatform = -1;
  int clDevice = -1;
  bool listDevices = false;
  std::string uiOpen;
};


void addAppFlags(CLI::App& cli, RawFlags& f) {
  CLI::Option* scene =
      cli.add_option("--scene", f.scene,
                     "Scene file (JSON) to open; a bare name like 'beam' is looked up in assets/scenes/ "
                     "(default: assets/" + std::string(kDefaultScene) + ")")
          ->option_text("FILE.json");
  CLI::Option* mesh =
      cli.add_option("--mesh", f.mesh, "Triangle mesh (OBJ) to drop onto the ground instead of a scene")
          ->option_text("FILE");
  mesh->excludes(scene);
  cli.add_option("--target-tets", f.targetTets, "--mesh: approximate tet count")
      ->check(CLI::Range(1, 10'000'000))
      ->capture_default_str();
  cli.add_option("--solver", f.solver, "Override the scene's solver: pbd, xpbd, vbd or avbd")->option_text("NAME");
  cli.add_option("--backend", f.backend,
                 "opencl (default when an OpenCL device works) or cpu (the single-threaded reference)")
      ->option_text("NAME");
  cli.add_option("--kernels", f.kernels,
                 "Load the OpenCL kernels from this shader folder (the one holding cl/) and rebuild them when a "
                 "file changes; a failed build shows its log and the previous kernels keep running")
      ->check(CLI::ExistingDirectory)
      ->option_text("DIR");
  addOverrideFlags(cli, f.overrides);
  cli.add_flag("--paused", f.paused, "Start paused (space runs, S steps one frame)");
  cli.add_flag("--headless", f.headless,
               "Render offscreen in an invisible window (needs an X display, e.g. xvfb-run) and exit");
  cli.add_option("--frames", f.frames, "Frames to run, then exit (default: until closed; 1 when --headless)")
      ->check(atLeast(1))
      ->option_text("N");
  cli.add_option("--screenshot", f.screenshot, "Write the last frame (3D view and UI) to this PNG")
      ->option_text("FILE.png");
  cli.add_option("--frames-dir", f.framesDir, "Write every frame as DIR/frame_00000.png, ...")->option_text("DIR");
  cli.add_option("--record", f.record,
                 "Record from the first frame: FILE.mp4 (ffmpeg) or a folder of PNGs, at a fixed dt per video frame")
      ->option_text("FILE.mp4|DIR");
  cli.add_option("--record-fps", f.recordFps, "Video frames per second of --record")
      ->check(CLI::Range(1, 240))
      ->capture_default_str();
  cli.add_flag("--hide-ui", f.hideUi, "Leave the panels out of --record's frames");
  cli.add_option("--export-obj", f.exportObj, "Write the simulated surface as DIR/surface_00000.obj, ... per frame")
      ->option_text("DIR");
  cli.add_option("--width", f.width, "Window/image width in pixels")
      ->check(CLI::Range(64, 8192))
      ->capture_default_str();
  cli.add_option("--height", f.height, "Window/image height in pixels")
      ->check(CLI::Range(64, 8192))
      ->capture_default_str();
  cli.add_option("--msaa", f.msaa, "Anti-aliasing samples (0 = off; default: 4 on GPUs, 0 on software GL)")
      ->check(CLI::Range(0, 16))
      ->option_text("N");
  cli.add_option("--cl-platform", f.clPlatform, "OpenCL platform index (see --list-devices)")
      ->check(atLeast(0))
      ->option_text("I");
  cli.add_option("--cl-device", f.clDevice, "OpenCL device index within the platform")
      ->check(atLeast(0))
      ->option_text("J");
  cli.add_flag("--list-devices", f.listDevices, "List OpenCL platforms and devices, mark the chosen one, and exit");
  cli.add_option("--ui-open", f.uiOpen,
                 "Panel sections open at start, the others closed, scrolled to the first (e.g. 'opencl' for the "
                 "device list): scene, simulation, parameters, constraints, materials, colliders, wind, spheres, fields, "
                 "springs, keys, drag, numbers, compare, deform, view, record, opencl, opengl")
      ->option_text("LIST");
}


int printError(const std::string& message) {
  std::fprintf(stderr, "tetlab: %s\n", message.c_str());
  return kExitFailure;
}

// The program's description for --help, and --version.
void describeProgram(CLI::App& cli) {
  cli.set_version_flag("--version", std::string("tetlab ") + TETLAB_VERSION, "Print the version and exit");
  cli.footer(
      "Mouse: drag the body to pull it, shift-click pins/unpins, ctrl-drag moves a collider, drag elsewhere orbits,\n"
      "right/middle-drag pans, "
      "wheel zooms. Keys: space pause, S step, R reset, 1-4 PBD/XPBD/VBD/AVBD, F fit view, F12 screenshot.\n"
      "Headless example: xvfb-run -a tetlab --scene beam --solver avbd --headless --frames 300 --screenshot out.png");
}

// The exit code when parsing ends the run: 0 after --help/--version, kExitUsage
// after a usage error (printed); nothing when the command line parsed.
std::optional<int> parseArguments(CLI::App& cli, int argc, char** argv) {
  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) {
      return cli.exit(e);  // --help, --version: printed to stdout
    }
    std::fprintf(stderr, "tetlab: %s\nRun 'tetlab --help' to see the options.\n", e.what());
    return kExitUsage;
  }
  return std::nullopt;
}

// What to load: --mesh, else --scene or the default scene, found in app.assetDirs.
Status resolveWhatToLoad(const RawFlags& flags, AppOptions& app) {
  if (!flags.mesh.empty()) {
    app.sceneArgument = flags.mesh;
    Result<std::filesystem::path> mesh = resolveMeshPath(flags.mesh, app.assetDirs);
    if (!mesh) return mesh.error();
    app.meshPath = *mesh;
  } else {
    app.sceneArgument = flags.scene.empty() ? std::string(kDefaultScene) : flags.scene;
    if (flags.scene.empty() && app.assetDirs.empty()) {
      return Error{std::string("cannot find the assets folder with the default scene ") + kDefaultScene +
                   ": pass --scene FILE or --mesh FILE, or run tetlab from its build or source tree"};
    }
    Result<std::filesystem::path> scene = resolveScenePath(app.sceneArgument, app.assetDirs);
    if (!scene) return scene.error();
    app.scenePath = *scene;
  }
  app.targetTets = flags.targetTets;
  return Ok{};
}

// --solver, --backend, --kernels and the scene overrides, validated together.
Status applySimulationFlags(const RawFlags& flags, AppOptions& app) {
  SceneOverrides& o = app.overrides;
  if (!flags.solver.empty()) {
    o.solver = parseSolverName(flags.solver);
    if (!o.solver) return Error{"unknown solver '" + flags.solver + "': use pbd, xpbd, vbd or avbd"};
  }
  if (!flags.backend.empty()) {
    if (flags.backend == "cpu") {
      app.backend = Backend::Cpu;
    } else if (flags.backend == "opencl") {
      app.backend = Backend::OpenCl;
    } else {
      return Error{"unknown backend '" + flags.backend + "': use cpu or opencl"};
    }
  }
  app.kernelDir = flags.kernels;
  SceneOverrides given = flags.overrides.given();
  given.solver = o.solver;
  o = given;
  return validateOverrides(o);
}

// How the window runs and what it writes: pause, headless, frames, captures, size, panels.
Status applyWindowFlags(const RawFlags& flags, AppOptions& app) {
  app.startPaused = flags.paused;
  app.headless = flags.headless;
  app.frames = flags.frames > 0 ? flags.frames : (flags.headless ? 1 : 0);
  app.screenshotPath = flags.screenshot;
  app.framesDir = flags.framesDir;
  app.recordPath = flags.record;
  app.recordFps = flags.recordFps;
  app.recordHideUi = flags.hideUi;
  app.exportObjDir = flags.exportObj;
  app.width = flags.width;
  app.height = flags.height;
  app.msaaSamples = flags.msaa;
  if (!flags.uiOpen.empty()) {
    Result<std::vector<std::string>> sections = parsePanelSections(flags.uiOpen);
    if (!sections) return Error{"--ui-open: " + sections.error().message};
    app.uiOpen = std::move(*sections);
  }
  return Ok{};
}

}  // namespace

ParsedCommandLine readCommandLine(int argc, char** argv) {
  CLI::App cli{"tetlab: real-time deformable-body sandbox (PBD, XPBD, VBD, AVBD on OpenCL)", "tetlab"};
  describeProgram(cli);
  RawFlags flags;
  addAppFlags(cli, flags);
  ParsedCommandLine parsed;
  registerSubcommands(cli, parsed);
  cli.require_subcommand(0, 1);

  if (std::optional<int> exitCode = parseArguments(cli, argc, argv)) {
    parsed.exitCode = *exitCode;
    return parsed;
  }
  parsed.devices = DeviceChoice{flags.clPlatform, flags.clDevice};
  parsed.listDevices = flags.listDevices;
  if (parsed.inspect || parsed.run || (parsed.deform && !parsed.deform->window) || parsed.listDevices) return parsed;

  // The window's options. The first failing step prints its error and stops,
  // so OpenCL is queried (by parseCommandLine) only once every flag is known to be valid.
  AppOptions& app = parsed.app;
  app.assetDirs = assetSearchDirs(executableDir(argc > 0 ? argv[0] : nullptr));
  Status status = resolveWhatToLoad(flags, app);
  if (status) status = applySimulationFlags(flags, app);
  if (status) status = applyWindowFlags(flags, app);
  if (!status) parsed.exitCode = printError(status.error().message);
  return parsed;
}

}  // namespace tetlab
