#pragma once
// The one spelling of every enum that reaches a user: scene files, the CLI
// and the UI all use these names, so "vbd" means the same everywhere.
// Parsing returns nullopt on an unknown name; names() lists the known ones
// for the error message.
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/cpu/pbd_params.h"
#include "core/cpu/vbd_params.h"
#include "core/mesh/tetrahedralize.h"
#include "core/model/generators.h"
#include "core/scene/compare_spec.h"
#include "core/scene/scene_desc.h"
#include "core/sim/step_settings.h"

namespace tetlab {

template <class E>
struct EnumName {
  E value;
  const char* name;
};

std::span<const EnumName<SolverKind>> solverKindNames();            // pbd xpbd vbd avbd
std::span<const EnumName<PbdScheme>> pbdSchemeNames();              // gauss_seidel jacobi
std::span<const EnumName<PbdStiffnessMapping>> pbdMappingNames();   // match_xpbd frequency_independent per_iteration
std::span<const EnumName<VbdInitialGuess>> vbdInitialGuessNames();  // previous_position inertia ...
std::span<const EnumName<HessianSafeguard>> hessianSafeguardNames();
std::span<const EnumName<CubeSplit>> cubeSplitNames();              // five six six_symmetric
std::span<const EnumName<TetMethod>> tetMethodNames();              // auto tetgen_only voxel_only
std::span<const EnumName<BodySource>> bodySourceNames();
std::span<const EnumName<BodyKindChoice>> bodyKindNames();            // mesh box sphere torus
std::span<const EnumName<GpuSchedule>> gpuScheduleNames();
std::span<const EnumName<CompareView>> compareViewNames();            // split overlay
std::span<const EnumName<ForceFieldKind>> forceFieldKindNames();      // directional radial vortex
std::span<const EnumName<ColliderList>> colliderListNames();        // ground planes spheres ... meshes          // auto per_color one_group

template <class E>
const char* enumName(std::span<const EnumName<E>> table, E value) {
  for (const EnumName<E>& e : table)
    if (e.value == value) return e.name;
  return "?";
}

template <class E>
std::optional<E> parseEnumName(std::span<const EnumName<E>> table, std::string_view name) {
  for (const EnumName<E>& e : table)
    if (name == e.name) return e.value;
  return std::nullopt;
}

// "pbd, xpbd, vbd or avbd"
template <class E>
std::string enumNameList(std::span<const EnumName<E>> table) {
  std::string out;
  for (size_t i = 0; i < table.size(); ++i) {
    if (i > 0) out += i + 1 == table.size() ? " or " : ", ";
    out += table[i].name;
  }
  return out;
}

inline const char* solverName(SolverKind kind) { return enumName(solverKindNames(), kind); }
inline std::optional<SolverKind> parseSolverName(std::string_view name) { return parseEnumName(solverKindNames(), name); }

// "PBD", "XPBD", "VBD", "AVBD" for display.
const char* solverDisplayName(SolverKind kind);

}  // namespace tetlab
