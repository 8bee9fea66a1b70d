#include "core/scene/enum_names.h"

namespace tetlab {

namespace {

constexpr EnumName<SolverKind> kSolvers[] = {
    {SolverKind::Pbd, "pbd"}, {SolverKind::Xpbd, "xpbd"}, {SolverKind::Vbd, "vbd"}, {SolverKind::Avbd, "avbd"}};
constexpr EnumName<PbdScheme> kSchemes[] = {{PbdScheme::GaussSeidel, "gauss_seidel"}, {PbdScheme::Jacobi, "jacobi"}};
constexpr EnumName<PbdStiffnessMapping> kMappings[] = {{PbdStiffnessMapping::MatchXpbd, "match_xpbd"},
                                                       {PbdStiffnessMapping::FrequencyIndependent, "frequency_independent"},
                                                       {PbdStiffnessMapping::PerIteration, "per_iteration"}};
constexpr EnumName<VbdInitialGuess> kGuesses[] = {{VbdInitialGuess::PreviousPosition, "previous_position"},
                                                  {VbdInitialGuess::Inertia, "inertia"},
                                                  {VbdInitialGuess::InertiaAcceleration, "inertia_acceleration"},
                                                  {VbdInitialGuess::Adaptive, "adaptive"}};
constexpr EnumName<HessianSafeguard> kSafeguards[] = {{HessianSafeguard::None, "none"},
                                                      {HessianSafeguard::DeterminantThreshold, "determinant_threshold"},
                                                      {HessianSafeguard::EigenClampPsd, "eigen_clamp_psd"},
                                                      {HessianSafeguard::DiagonalLumpedSpd, "diagonal_lumped_spd"}};
constexpr EnumName<CubeSplit> kSplits[] = {
    {CubeSplit::Five, "five"}, {CubeSplit::Six, "six"}, {CubeSplit::SixSymmetric, "six_symmetric"}};
constexpr EnumName<TetMethod> kMethods[] = {
    {TetMethod::Auto, "auto"}, {TetMethod::TetGenOnly, "tetgen_only"}, {TetMethod::VoxelOnly, "voxel_only"}};
constexpr EnumName<BodySource> kSources[] = {
    {BodySource::Mesh, "mesh"}, {BodySource::Box, "box"}, {BodySource::Sphere, "sphere"}, {BodySource::Torus, "torus"},
    {BodySource::Cloth, "cloth"}, {BodySource::Hair, "hair"}};
constexpr EnumName<BodyKindChoice> kKinds[] = {
    {BodyKindChoice::Auto, "auto"}, {BodyKindChoice::Solid, "solid"}, {BodyKindChoice::Cloth, "cloth"},
    {BodyKindChoice::Strand, "strand"}};
// The scene file's collider list keys ("colliders": {"ground", "planes", ...}).
constexpr EnumName<ColliderList> kColliderLists[] = {
    {ColliderList::Ground, "ground"}, {ColliderList::Planes, "planes"},     {ColliderList::Spheres, "spheres"},
    {ColliderList::Boxes, "boxes"},   {ColliderList::Capsules, "capsules"}, {ColliderList::Tori, "tori"},
    {ColliderList::Meshes, "meshes"}};
constexpr EnumName<GpuSchedule> kSchedules[] = {
    {GpuSchedule::Auto, "auto"}, {GpuSchedule::PerColor, "per_color"}, {GpuSchedule::OneGroup, "one_group"}};
constexpr EnumName<CompareView> kCompareViews[] = {{CompareView::Split, "split"}, {CompareView::Overlay, "overlay"}};
constexpr EnumName<ForceFieldKind> kFieldKinds[] = {
    {ForceFieldKind::Directional, "directional"}, {ForceFieldKind::Radial, "radial"}, {ForceFieldKind::Vortex, "vortex"}};

}  // namespace

std::span<const EnumName<SolverKind>> solverKindNames() { return kSolvers; }
std::span<const EnumName<CompareView>> compareViewNames() { return kCompareViews; }
std::span<const EnumName<ForceFieldKind>> forceFieldKindNames() { return kFieldKinds; }
std::span<const EnumName<GpuSchedule>> gpuScheduleNames() { return kSchedules; }
std::span<const EnumName<ColliderList>> colliderListNames() { return kColliderLists; }
std::span<const EnumName<PbdScheme>> pbdSchemeNames() { return kSchemes; }
std::span<const EnumName<PbdStiffnessMapping>> pbdMappingNames() { return kMappings; }
std::span<const EnumName<VbdInitialGuess>> vbdInitialGuessNames() { return kGuesses; }
std::span<const EnumName<HessianSafeguard>> hessianSafeguardNames() { return kSafeguards; }
std::span<const EnumName<CubeSplit>> cubeSplitNames() { return kSplits; }
std::span<const EnumName<TetMethod>> tetMethodNames() { return kMethods; }
std::span<const EnumName<BodySource>> bodySourceNames() { return kSources; }
std::span<const EnumName<BodyKindChoice>> bodyKindNames() { return kKinds; }

const char* solverDisplayName(SolverKind kind) {
  switch (kind) {
    case SolverKind::Pbd:
      return "PBD";
    case SolverKind::Xpbd:
      return "XPBD";
    case SolverKind::Vbd:
      return "VBD";
    case SolverKind::Avbd:
      return "AVBD";
  }
  return "?";
}

}  // namespace tetlab
