// tetlab-bench: median frame times of every (scene, solver, backend) case and
// the OpenCL/CPU ratio per (scene, solver). See README "Benchmark".
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include <CLI/CLI.hpp>

#include "app/bench/bench_metrics.h"
#include "app/bench/bench_report.h"
#include "app/bench/bench_runner.h"
#include "app/bench/conformance_mode.h"
#include "app/bench/device_bandwidth.h"
#include "app/bench/switch_latency.h"
#include "app/conformance/conformance_search.h"
#include "core/scene/enum_names.h"
#include "gpu/cl/cl_devices.h"

namespace {

using namespace tetlab;

std::vector<std::string> splitList(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string item; std::getline(ss, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

void printResult(const BenchResult& r) {
  if (!r.ok) {
    std::printf("%-8s %-5s %-7s %7u %7u  %3d x %-3d  failed: %s\n", r.scene.c_str(), solverName(r.solver),
                backendName(r.backend), r.vertices, r.tets, r.substeps, r.iterations, r.error.c_str());
    return;
  }
  std::printf("%-8s %-5s %-7s %7u %7u  %3d x %-3d  %10.2f %10.2f %10.2f %9u %10.2f  %s\n", r.scene.c_str(),
              solverName(r.solver), backendName(r.backend), r.vertices, r.tets, r.substeps, r.iterations, r.medianMs,
              r.p10Ms, r.p90Ms, r.launches, tetIterationsPerSecond(r) * 1e-6, r.schedule.c_str());
}

// The OpenCL context of --cl-platform / --cl-device, or TETLAB_CL_PLATFORM / TETLAB_CL_DEVICE where unset.
Result<ClContext> benchContext(const DeviceChoice& cli) {
  auto env = readDeviceChoiceEnv();
  return env ? createClContext({mergeDeviceChoice(cli, *env), {}}) : Result<ClContext>(env.error());
}

// Writes `text` to `path`; false (with a message naming the file) when it cannot.
bool writeTextFile(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  if (out << text) return true;
  std::cerr << "tetlab-bench: cannot write '" << path << "': check the folder exists and is writable\n";
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"tetlab-bench: frame-time medians of each solver on each backend"};
  std::string scenes = "beam,drop,hang", solvers = "pbd,xpbd,vbd,avbd", backends = "cpu,opencl", csvPath;
  BenchConfig config;
  bool stages = false;
  DeviceChoice cli;
  app.add_option("--scenes", scenes,
                 "comma list of beam, drop, hang, contacts (8 spheres in contact), mesh:FILE.obj or scene:NAME "
                 "(a scene of assets/scenes, e.g. scene:pile) / scene:FILE.json");
  app.add_option("--solvers", solvers, "comma list of pbd, xpbd, vbd, avbd, or own (each scene's own solver)");
  app.add_option("--backends", backends, "comma list of cpu, opencl");
  app.add_option("--frames", config.frames, "timed frames per case")->check(CLI::Range(1, 100000));
  app.add_option("--warmup", config.warmup, "untimed frames before timing")->check(CLI::Range(0, 100000));
  app.add_option("--cells-thick", config.cellsThick, "preset resolution: cells through the thickness")
      ->check(CLI::Range(1, 64));
  app.add_option("--target-tets", config.targetTets, "approximate tet count for mesh: scenes");
  app.add_option("--substeps", config.substeps, "substeps per frame for every solver (default: the scene's)");
  app.add_option("--iterations", config.iterations, "iterations per substep for every solver");
  std::string schedule = "auto";
  app.add_option("--schedule", schedule, "OpenCL VBD, PBD and XPBD launch schedule: auto, per_color or one_group")
      ->check(CLI::IsMember({"auto", "per_color", "one_group"}));
  app.add_option("--csv", csvPath, "also write every case as a CSV row");
  std::string jsonPath, markdownPath, convergencePath;
  app.add_option("--json", jsonPath, "also write the run (every case, its stages and convergence curve) as JSON");
  app.add_option("--markdown", markdownPath, "also write the table as Markdown");
  app.add_option("--convergence", convergencePath,
                 "also write each case's residual after each iteration of the last substep against time (CSV; "
                 "scripts/plot-convergence.sh draws it)");
  std::string switchScene;
  app.add_option("--switch-latency", switchScene,
                 "time switching backend and solver live in the window's session on this scene (a name of "
                 "assets/scenes or a .json), first use and re-use of each, against the 100 ms target");
  bool noCopyBandwidth = false;
  app.add_flag("--no-copy-bandwidth", noCopyBandwidth,
               "skip the copy-kernel measurement of the OpenCL device's bandwidth");
  app.add_flag("--stages", stages, "time and print the stages (OpenCL: profiling events, which add their own cost)");
  bool quick = false;
  app.add_flag("--quick", quick,
               "the CI run: beam, hang and contacts at the coarsest resolution, 8 timed frames after 2 warm-up "
               "frames, every solver on both backends (explicit --scenes/--frames/--warmup/--cells-thick win)");
  app.add_option("--cl-platform", cli.platform, "OpenCL platform index (default: automatic)");
  app.add_option("--cl-device", cli.device, "OpenCL device index (default: automatic)");
  // --conformance: the analytic conformance table instead of frame times.
  bool conformance = false;
  std::string conformanceBackend = "cpu", updateDocs, conformanceCases, conformanceModuli;
  std::string budgetsCsv = std::string(TETLAB_SOURCE_DIR) + "/tests/conformance/budgets.csv";
  double rungCap = SearchOptions{}.rungCapSeconds;
  app.add_flag("--conformance", conformance,
               "run the conformance search (each solver x each analytic case x E) and print the markdown table");
  app.add_option("--backend", conformanceBackend, "--conformance: cpu or opencl");
  app.add_option("--update-docs", updateDocs, "--conformance: replace the conformance section of this markdown file");
  app.add_option("--budgets", budgetsCsv, "--conformance: write the chosen budgets here ('' : do not write)");
  app.add_option("--cases", conformanceCases, "--conformance: comma list of case ids (default: all)");
  app.add_option("--moduli", conformanceModuli, "--conformance: comma list of E [Pa] (default: 1e5,1e7,1e9)");
  app.add_option("--rung-cap", rungCap, "--conformance: skip rungs projected to take more wall seconds than this");
  app.set_version_flag("--version", std::string("tetlab-bench ") + TETLAB_VERSION);
  CLI11_PARSE(app, argc, argv);
  for (const EnumName<GpuSchedule>& e : gpuScheduleNames())
    if (schedule == e.name) config.schedule = e.value;
  config.stageTiming = stages;
  if (quick) {
    // Every solver and backend and the body-contact path, in well under two
    // minutes on 2 cores; the times are printed, nothing is asserted on them.
    if (app.count("--scenes") == 0) scenes = "beam,hang,contacts";
    if (app.count("--frames") == 0) config.frames = 8;
    if (app.count("--warmup") == 0) config.warmup = 2;
    if (app.count("--cells-thick") == 0) config.cellsThick = 1;
  }

  std::vector<SolverKind> solverKinds;
  bool ownSolver = false;  // "own": each scene's own solver (scene files and presets carry one)
  for (const std::string& s : splitList(solvers)) {
    if (s == "own") {
      ownSolver = true;
      continue;
    }
    auto kind = parseSolverName(s);
    if (!kind) {
      std::cerr << "tetlab-bench: unknown solver '" << s << "'; use " << enumNameList(solverKindNames()) << "\n";
      return 2;
    }
    solverKinds.push_back(*kind);
  }
  if (conformance) {
    ConformanceModeOptions options;
    options.solvers = solverKinds;
    options.cases = splitList(conformanceCases);
    for (const std::string& e : splitList(conformanceModuli)) options.moduli.push_back(std::stof(e));
    options.updateDocs = updateDocs;
    options.budgetsCsv = budgetsCsv;
    options.rungCapSeconds = rungCap;
    std::optional<ClContext> clCtx;
    if (conformanceBackend == "opencl") {
      options.backend = ConformanceBackend::OpenCl;
      auto made = benchContext(cli);
      if (!made) {
        std::cerr << "tetlab-bench: " << made.error().message << "\n";
        return 1;
      }
      clCtx = std::move(*made);
    } else if (conformanceBackend != "cpu") {
      std::cerr << "tetlab-bench: unknown backend '" << conformanceBackend << "'; use cpu or opencl\n";
      return 2;
    }
    return runConformanceMode(options, clCtx ? &*clCtx : nullptr);
  }

  if (!switchScene.empty()) {
    auto made = benchContext(cli);
    if (!made) {
      std::cerr << "tetlab-bench: --switch-latency needs an OpenCL device: " << made.error().message << "\n";
      return 1;
    }
    std::printf("OpenCL device: %s\nscene: %s; each switch timed with the frame after it (ms, wall clock)\n\n",
                describeDevice(made->info).c_str(), switchScene.c_str());
    auto timings = measureSwitchLatency(switchScene, *made);
    if (!timings) {
      std::cerr << "tetlab-bench: --switch-latency: " << timings.error().message << "\n";
      return 1;
    }
    bool failed = false;
    for (const SwitchTiming& t : *timings) {
      std::printf("%-16s %-9s %10.1f ms%s%s\n", t.action.c_str(), t.firstUse ? "first use" : "re-use", t.ms,
                  t.error.empty() ? "" : "  failed: ", t.error.c_str());
      failed = failed || !t.error.empty();
    }
    const double worst = worstReuseMs(*timings);
    std::printf("\nlongest re-use switch: %.1f ms (target: at most %.0f ms) -> %s\n", worst, kSwitchLatencyTargetMs,
                worst <= kSwitchLatencyTargetMs ? "met" : "not met");
    return failed ? 3 : 0;
  }

  std::vector<BenchBackend> backendKinds;
  for (const std::string& b : splitList(backends)) {
    if (b == "cpu") backendKinds.push_back(BenchBackend::Cpu);
    else if (b == "opencl") backendKinds.push_back(BenchBackend::OpenCl);
    else {
      std::cerr << "tetlab-bench: unknown backend '" << b << "'; use cpu or opencl\n";
      return 2;
    }
  }

  std::optional<ClContext> ctx;
  std::string noDevice;
  BenchRunInfo info;
  info.frames = config.frames;
  info.warmup = config.warmup;
  if (std::find(backendKinds.begin(), backendKinds.end(), BenchBackend::OpenCl) != backendKinds.end()) {
    auto made = benchContext(cli);
    if (made) {
      ctx = std::move(*made);
      info.device = describeDevice(ctx->info);
      std::printf("OpenCL device: %s\n", info.device.c_str());
      if (!noCopyBandwidth) {
        auto copy = measureCopyBandwidth(*ctx);
        if (copy) {
          info.copyBytesPerSecond = copy->bytesPerSecond;
          std::printf("copy-kernel bandwidth: %.1f GB/s (read + write, %zu MiB buffers, median of %d copies)\n",
                      copy->bytesPerSecond * 1e-9, copy->bufferBytes >> 20, copy->copies);
        } else {
          std::fprintf(stderr, "tetlab-bench: copy bandwidth not measured: %s\n", copy.error().message.c_str());
        }
      }
    } else {
      noDevice = made.error().message;
      std::fprintf(stderr, "tetlab-bench: %s\n", noDevice.c_str());
    }
  }

  std::ofstream csv;
  if (!csvPath.empty()) {
    csv.open(csvPath);
    if (!csv) {
      std::cerr << "tetlab-bench: cannot write '" << csvPath << "': check the folder exists and is writable\n";
      return 1;
    }
    writeCsvHeader(csv);
  }

  std::printf("%d timed frames after %d warm-up frames per case; times are wall-clock ms per frame\n\n",
              config.frames, config.warmup);
  std::printf("%-8s %-5s %-7s %7s %7s  %-9s  %10s %10s %10s %9s %10s  %s\n", "scene", "solver", "backend", "verts",
              "tets", "sub x it", "median", "p10", "p90", "launches", "Mtet-it/s", "schedule");
  std::vector<BenchResult> results;
  bool anyFailed = false;
  for (const std::string& name : splitList(scenes)) {
    auto scene = makeBenchScene(name, config);
    if (!scene) {
      std::cerr << "tetlab-bench: scene '" << name << "': " << scene.error().message << "\n";
      return 1;
    }
    std::vector<SolverKind> caseSolvers = solverKinds;
    if (ownSolver) caseSolvers.push_back(scene->settings.solver);
    for (SolverKind solver : caseSolvers)
      for (BenchBackend backend : backendKinds) {
        BenchResult r = runBenchCase(*scene, solver, backend, config, ctx ? &*ctx : nullptr, noDevice);
        printResult(r);
        std::fflush(stdout);
        if (stages && r.ok)
          for (const StageMedian& s : r.stages) std::printf("%40s %-28s %8.3f ms\n", "", s.name.c_str(), s.ms);
        if (csv.is_open()) writeCsvRow(csv, r, info);
        anyFailed = anyFailed || !r.ok;
        results.push_back(std::move(r));
      }
  }

  // OpenCL / CPU ratio per (scene, solver): < 1 means OpenCL is faster.
  std::map<std::pair<std::string, SolverKind>, std::pair<double, double>> pairs;
  for (const BenchResult& r : results)
    if (r.ok) {
      auto& p = pairs[{r.scene, r.solver}];
      (r.backend == BenchBackend::Cpu ? p.first : p.second) = r.medianMs;
    }
  bool header = false;
  for (const auto& [key, p] : pairs) {
    if (p.first <= 0.0 || p.second <= 0.0) continue;
    if (!header) std::printf("\nratio opencl/cpu of the medians (< 1: OpenCL faster)\n");
    header = true;
    std::printf("%-8s %-5s %8.3f\n", key.first.c_str(), solverName(key.second), p.second / p.first);
  }

  // Body-contact detection alone (CPU wall time, OpenCL device time), where it ran.
  header = false;
  for (const BenchResult& r : results) {
    const double ms = r.ok && r.bodies > 1 ? stageMedianMs(r, "body contacts") : -1.0;
    if (ms < 0.0) continue;
    if (!header) std::printf("\nbody-contact detection, median ms per frame (all substeps) and contacts found\n");
    header = true;
    std::printf("%-8s %-5s %-7s %10.3f ms of %10.2f ms  %6u contacts\n", r.scene.c_str(), solverName(r.solver),
                backendName(r.backend), ms, r.medianMs, r.bodyContacts);
  }
  // Traffic against the copy kernel: the solve's minimum bytes (bench_metrics.h) per second.
  header = false;
  for (const BenchResult& r : results) {
    const double share = copyBandwidthShare(r, info);
    if (!(share > 0.0)) continue;
    if (!header)
      std::printf("\nminimum solve traffic (%.0f B per tet-iteration) against the copy kernel's %.1f GB/s\n",
                  kMinBytesPerTetIteration, info.copyBytesPerSecond * 1e-9);
    header = true;
    std::printf("%-8s %-5s %10.2f GB/s  %5.1f %%\n", r.scene.c_str(), solverName(r.solver),
                minimumSolveBandwidth(r) * 1e-9, 100.0 * share);
  }

  bool written = true;
  if (!jsonPath.empty()) written = writeTextFile(jsonPath, benchJson(results, info)) && written;
  if (!markdownPath.empty()) written = writeTextFile(markdownPath, benchMarkdown(results, info)) && written;
  if (!convergencePath.empty()) {
    std::ostringstream curves;
    writeConvergenceCsv(curves, results);
    written = writeTextFile(convergencePath, curves.str()) && written;
  }
  if (!written) return 1;
  return anyFailed ? 3 : 0;
}
