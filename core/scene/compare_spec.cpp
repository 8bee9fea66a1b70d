#include "core/scene/compare_spec.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "core/scene/enum_names.h"

namespace tetlab {
namespace {

constexpr const char* kLaneForm = "write a lane as solver:SUBSTEPSxITERATIONS[@cpu|@opencl], e.g. vbd:10x4";

std::optional<int> parseCount(std::string_view text) {
  int value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::string quoted(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 2);
  out.push_back('\'');
  out.append(text);
  out.push_back('\'');
  return out;
}

}  // namespace

Result<LaneSpec> parseLaneSpec(std::string_view text) {
  LaneSpec lane;
  std::string_view rest = text;
  if (const size_t at = rest.find('@'); at != std::string_view::npos) {
    const std::string_view backend = rest.substr(at + 1);
    if (backend == "cpu") lane.backend = Backend::Cpu;
    else if (backend == "opencl") lane.backend = Backend::OpenCl;
    else return Error{"lane " + quoted(text) + ": unknown backend " + quoted(backend) + "; use cpu or opencl"};
    rest = rest.substr(0, at);
  }
  const size_t colon = rest.find(':');
  if (colon == std::string_view::npos) return Error{"lane " + quoted(text) + ": no budget; " + kLaneForm};
  const std::optional<SolverKind> solver = parseSolverName(rest.substr(0, colon));
  if (!solver)
    return Error{"lane " + quoted(text) + ": unknown solver " + quoted(rest.substr(0, colon)) + "; use " +
                 enumNameList(solverKindNames())};
  lane.solver = *solver;
  const std::string_view budget = rest.substr(colon + 1);
  const size_t x = budget.find('x');
  if (x == std::string_view::npos) return Error{"lane " + quoted(text) + ": the budget needs an 'x'; " + kLaneForm};
  const std::optional<int> substeps = parseCount(budget.substr(0, x));
  const std::optional<int> iterations = parseCount(budget.substr(x + 1));
  if (!substeps || *substeps < 1 || *substeps > kMaxLaneSubsteps)
    return Error{"lane " + quoted(text) + ": substeps must be a whole number from 1 to " +
                 std::to_string(kMaxLaneSubsteps)};
  if (!iterations || *iterations < 1 || *iterations > kMaxLaneIterations)
    return Error{"lane " + quoted(text) + ": iterations must be a whole number from 1 to " +
                 std::to_string(kMaxLaneIterations)};
  lane.substeps = *substeps;
  lane.iterations = *iterations;
  return lane;
}

Result<std::vector<LaneSpec>> parseLaneList(std::string_view text) {
  std::vector<LaneSpec> lanes;
  while (true) {
    const size_t comma = text.find(',');
    Result<LaneSpec> lane = parseLaneSpec(text.substr(0, comma));
    if (!lane) return lane.error();
    lanes.push_back(*lane);
    if (comma == std::string_view::npos) break;
    text = text.substr(comma + 1);
  }
  return lanes;
}

std::string laneSpecText(const LaneSpec& lane) {
  std::string out = std::string(solverName(lane.solver)) + ":" + std::to_string(lane.substeps) + "x" +
                    std::to_string(lane.iterations);
  if (lane.backend) out += std::string("@") + backendName(*lane.backend);
  return out;
}

std::string laneLabel(const LaneSpec& lane) {
  std::string out = std::string(solverDisplayName(lane.solver)) + " " + std::to_string(lane.substeps) + "x" +
                    std::to_string(lane.iterations);
  if (lane.backend) out += *lane.backend == Backend::OpenCl ? " OpenCL" : " CPU";
  return out;
}

Status validateCompareSpec(const CompareSpec& spec) {
  if (spec.lanes.empty()) return Error{"a comparison needs at least one lane besides the reference"};
  if (spec.laneCount() < 2) return Error{"a comparison needs two lanes (or one lane and a reference)"};
  if (spec.laneCount() > kMaxCompareLanes)
    return Error{"a comparison has at most " + std::to_string(kMaxCompareLanes) + " lanes, the reference included (" +
                 std::to_string(spec.laneCount()) + " given)"};
  for (const LaneSpec& lane : spec.lanes) {
    if (lane.substeps < 1 || lane.substeps > kMaxLaneSubsteps || lane.iterations < 1 ||
        lane.iterations > kMaxLaneIterations)
      return Error{"lane " + laneSpecText(lane) + ": substeps and iterations must be 1 to " +
                   std::to_string(kMaxLaneSubsteps)};
  }
  if (!std::isfinite(spec.equalCostMs) || spec.equalCostMs < 0.0f || spec.equalCostMs > 60000.0f)
    return Error{"equal-cost time must be 0 (off) to 60000 ms"};
  return Ok{};
}

LaneSpec autoReferenceLane(const std::vector<LaneSpec>& lanes, float maxYoungsModulus) {
  // budgets.csv, VBD at 4 iterations: the most substeps any case needed at that stiffness.
  const int conformance = maxYoungsModulus <= 1e5f ? 10 : maxYoungsModulus <= 1e7f ? 50 : 500;
  int largest = 0;
  for (const LaneSpec& lane : lanes) largest = std::max(largest, lane.substeps);
  LaneSpec ref;
  ref.solver = SolverKind::Vbd;
  ref.substeps = std::min(kMaxLaneSubsteps, std::max(conformance, 2 * largest));
  ref.iterations = 8;
  return ref;
}

int equalCostIterations(int iterations, double measuredMs, double targetMs) {
  if (!(measuredMs > 0.0) || !(targetMs > 0.0)) return iterations;
  const double factor = std::clamp(std::sqrt(targetMs / measuredMs), 0.5, 2.0);
  const double next = std::round(double(iterations) * factor);
  // Move by at least one iteration when the ratio says so, else a lane at 1 or 2 never grows.
  int out = int(next);
  if (out == iterations && factor > 1.05) ++out;
  if (out == iterations && factor < 0.95) --out;
  return std::clamp(out, 1, kMaxLaneIterations);
}

}  // namespace tetlab
