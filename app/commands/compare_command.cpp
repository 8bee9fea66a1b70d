// `tetlab compare`: builds the scene as `tetlab run` does (run_scene.h),
// makes the comparison (core/session/compare_session.h), steps it, writes the
// CSV (compare_csv.h) and prints a summary per lane. No GL.
#include "app/commands/compare_command.h"

#include <cmath>
#include <cstdio>
#include <iostream>

#include "app/commands/compare_csv.h"
#include "app/commands/resident_memory.h"
#include "app/commands/run_scene.h"
#include "core/scene/enum_names.h"
#include "core/session/compare_session.h"
#include "gpu/cl/cl_context.h"

namespace tetlab {
namespace {

int fail(const std::string& message) {
  std::cerr << "tetlab compare: " << message << "\n";
  return 1;
}

double megabytes(uint64_t bytes) { return double(bytes) / 1048576.0; }

struct LaneTotals {
  double stepMs = 0.0;
  uint64_t frames = 0;
  double errorRmsSum = 0.0, errorMax = 0.0;
  uint64_t errorFrames = 0;
};

}  // namespace

Result<float> parseMilliseconds(const std::string& text) {
  std::string number = text;
  while (!number.empty() && number.back() == ' ') number.pop_back();
  if (number.size() >= 2 && number.compare(number.size() - 2, 2, "ms") == 0) number.resize(number.size() - 2);
  char* end = nullptr;
  const double ms = number.empty() ? NAN : std::strtod(number.c_str(), &end);
  while (end && *end == ' ') ++end;
  if (!std::isfinite(ms) || !end || *end != '\0' || ms <= 0.0 || ms > 60000.0)
    return Error{"'" + text + "' is not a time per frame: write milliseconds from 0 to 60000, e.g. 5ms"};
  return float(ms);
}

Result<CompareSpec> compareSpecOf(const CompareArgs& args, const CompareSpec& fromScene) {
  CompareSpec spec = fromScene;
  if (!args.lanes.empty()) {
    Result<std::vector<LaneSpec>> lanes = parseLaneList(args.lanes);
    if (!lanes) return Error{"--lanes: " + lanes.error().message};
    spec.lanes = *lanes;
  }
  if (args.reference == "auto") {
    spec.reference.reset();
    spec.autoReference = true;
  } else if (!args.reference.empty()) {
    Result<LaneSpec> ref = parseLaneSpec(args.reference);
    if (!ref) return Error{"--reference: " + ref.error().message + " (or auto)"};
    spec.reference = *ref;
    spec.autoReference = false;
  }
  if (!args.equalCost.empty()) {
    Result<float> ms = parseMilliseconds(args.equalCost);
    if (!ms) return Error{"--equal-cost: " + ms.error().message};
    spec.equalCostMs = *ms;
  }
  if (!args.view.empty()) {
    const std::optional<CompareView> view = parseEnumName(compareViewNames(), args.view);
    if (!view) return Error{"--view: unknown view '" + args.view + "'; use " + enumNameList(compareViewNames())};
    spec.view = *view;
  }
  if (spec.lanes.empty())
    return Error{"no lanes: give --lanes solver:SUBSTEPSxITERATIONS,... (e.g. --lanes xpbd:20x1,vbd:10x4) or a scene "
                 "file with a \"compare\" section"};
  if (Status s = validateCompareSpec(spec); !s) return Error{"--lanes: " + s.error().message};
  return spec;
}

int runCompareCommand(const CompareArgs& args) {
  if (Status s = validateRunArgs(args.source); !s) return fail(s.error().message);
  const std::optional<uint64_t> before = residentBytes();
  Result<SessionScene> scene = buildSessionScene(args.source);
  if (!scene) return fail(scene.error().message);
  Result<CompareSpec> spec = compareSpecOf(args, scene->desc.compare);
  if (!spec) return fail(spec.error().message);

  // OpenCL when the default backend or any lane asks for it.
  bool needsOpenCl = args.source.backend == "opencl";
  for (const LaneSpec& lane : spec->lanes) needsOpenCl |= lane.backend == Backend::OpenCl;
  if (spec->reference) needsOpenCl |= spec->reference->backend == Backend::OpenCl;
  std::optional<ClContext> context;
  // The automatic reference runs on a device when one works (CompareSession::create); without one, on the CPU.
  if (needsOpenCl || spec->autoReference) {
    auto env = readDeviceChoiceEnv();
    if (!env) return fail(env.error().message);
    ClContextOptions options;
    options.choice = *env;
    Result<ClContext> made = createClContext(options);
    if (made) {
      context = std::move(*made);
      std::cout << "tetlab compare: OpenCL device " << describeDevice(context->info) << "\n";
    } else if (needsOpenCl) {
      return fail("OpenCL: " + made.error().message);
    } else {
      std::cout << "tetlab compare: no OpenCL device (" << made.error().message
                << "): the automatic reference runs on the CPU\n";
    }
  }

  const std::string name = scene->desc.name;
  Result<std::unique_ptr<SimSession>> primary = SimSession::create(std::move(scene->desc), std::move(scene->built));
  if (!primary) return fail(primary.error().message);
  const Backend backend = args.source.backend == "opencl" ? Backend::OpenCl : Backend::Cpu;
  // The memory of one lane, stepped once (its first step allocates its scratch),
  // then back to the start: the lanes all begin from the initial state.
  SimSession& first = **primary;
  first.setSolver(spec->lanes[0].solver);
  first.settings().step.substeps = spec->lanes[0].substeps;
  first.settings().step.iterations = spec->lanes[0].iterations;
  if (Status s = first.setBackend(spec->lanes[0].backend.value_or(backend), context ? &*context : nullptr); !s)
    return fail("lane 1 (" + laneSpecText(spec->lanes[0]) + "): " + s.error().message);
  first.advance(1);
  const std::optional<uint64_t> oneLane = residentBytes();
  first.reset();
  (void)first.takeNotices();
  Result<std::unique_ptr<CompareSession>> made =
      CompareSession::create(**primary, *spec, context ? &*context : nullptr, backend);
  if (!made) return fail(made.error().message);
  CompareSession& compare = **made;
  for (const std::string& n : compare.takeNotices()) std::cout << "tetlab compare: " << n << "\n";

  std::optional<CompareCsv> csv;
  if (!args.csv.empty()) {
    Result<CompareCsv> opened = CompareCsv::open(args.csv);
    if (!opened) return fail(opened.error().message);
    csv = std::move(*opened);
  }
  const SimModel& model = compare.lane(0).model();
  std::cout << "tetlab compare: " << name << ", " << model.vertexCount() << " vertices, " << model.tetCount()
            << " tets, " << args.source.frames << " frames of " << compare.lane(0).settings().step.dt << " s, "
            << compare.laneCount() << " lanes"
            << (spec->equalCostMs > 0.0f ? ", equal cost " + std::to_string(spec->equalCostMs) + " ms per frame" : "")
            << "\n";

  std::vector<LaneTotals> totals(compare.laneCount());
  std::optional<uint64_t> allLanes;
  for (int frame = 1; frame <= args.source.frames; ++frame) {
    compare.advance(1);
    if (frame == 1) allLanes = residentBytes();
    for (const std::string& n : compare.takeNotices()) std::cout << "tetlab compare: frame " << frame << ": " << n << "\n";
    for (size_t i = 0; i < compare.laneCount(); ++i) {
      const SimSession& s = compare.lane(i);
      if (s.blownUp()) continue;
      LaneTotals& t = totals[i];
      t.stepMs += s.lastStepWallMs();
      ++t.frames;
      const LaneError& e = compare.error(i);
      if (e.valid() && !compare.isReference(i)) {
        t.errorRmsSum += e.rms;
        t.errorMax = std::max(t.errorMax, e.max);
        ++t.errorFrames;
      }
    }
    if (csv) csv->writeFrame(compare);
  }
  if (csv)
    if (Status s = csv->close(); !s) return fail(s.error().message);

  int exitCode = 0;
  for (size_t i = 0; i < compare.laneCount(); ++i) {
    const SimSession& s = compare.lane(i);
    const LaneTotals& t = totals[i];
    std::printf("tetlab compare: lane %zu %s: %.3f ms/frame, %s", i + 1, compare.laneLabel(i).c_str(),
                t.frames ? t.stepMs / double(t.frames) : 0.0, convergenceSummary(s.verdict(), "").c_str());
    if (t.errorFrames > 0)
      std::printf(", distance to the reference: RMS %.4g m (mean over frames), max %.4g m", t.errorRmsSum / double(t.errorFrames),
                  t.errorMax);
    std::printf("\n");
    if (s.blownUp()) {
      std::fflush(stdout);
      std::fprintf(stderr, "tetlab compare: lane %zu (%s) blew up at frame %llu: %s\n", i + 1, compare.laneLabel(i).c_str(),
                   (unsigned long long)s.frame(), s.blowUpMessage().c_str());
      exitCode = 2;
    }
  }
  if (before && oneLane && allLanes)
    std::printf("tetlab compare: resident memory %.1f MB before the scene, %.1f MB with one lane, %.1f MB with %zu "
                "lanes (the scene's share: %.2fx one lane's)\n",
                megabytes(*before), megabytes(*oneLane), megabytes(*allLanes), compare.laneCount(),
                *oneLane > *before ? double(*allLanes - *before) / double(*oneLane - *before) : 0.0);
  return exitCode;
}

}  // namespace tetlab
