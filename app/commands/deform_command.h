#pragma once
// `tetlab deform`: the quasi-static deformer (core/deform/deformer.h) over an
// OBJ sequence, headless. Per frame it prints and writes (--csv) the
// iterations used, the relative residual reached and the volume error of the
// animated and the solved surface, and writes the solved surface (--export-obj)
// under the input frame's own file name.
#include <array>
#include <filesystem>
#include <string>
#include <vector>

#include "core/deform/deformer.h"
#include "core/result.h"

namespace tetlab {

struct DeformArgs {
  std::string rest;              // rest mesh (OBJ)
  std::string anim;              // frame pattern with %d / %04d
  std::string solver = "vbd";    // pbd, xpbd, vbd, avbd
  int iterations = 300;          // cap per frame
  float tolerance = 1.0e-3f;     // relative residual
  int pass = 10;                 // iterations between residual checks
  std::string start = "animated";  // animated | previous
  std::string hold = "none";       // none | all | box | painted
  std::array<float, 6> holdBox{0, 0, 0, 0, 0, 0};  // x0 y0 z0 x1 y1 z1, rest space
  std::string holdVertices;        // painted: the held vertices' file (core/deform/held_vertices.h)
  std::vector<std::string> regions;  // --region SPEC each (deform_region_flag.h)
  float attract = 0.0f;          // [1/s^2]
  float youngs = 1.0e6f, poisson = 0.45f, density = 1000.0f;
  std::array<float, 3> stretch{1, 1, 1}, shear{1, 1, 1}, restScale{1, 1, 1}, axis{1, 0, 0};
  bool noVolume = false;
  std::array<float, 3> gravity{0, 0, 0};
  int targetTets = 5000;
  int frames = 0;                // 0: all
  std::string exportDir;         // --export-obj
  std::string csv;
  std::string screenshot;        // PNG of rest / animated / solved at the last frame
  std::string record;            // the same for every frame: .mp4 (ffmpeg) or a folder of PNGs
  int width = 1280, height = 540;
  int fps = 24;
  bool overlay = false;          // the picture overlaid (ghosts) instead of side by side
  bool window = false;           // open the window in deformer mode instead (with --screenshot: headless)
};

// The deformer's settings the flags describe; errors name the flag. The
// painted hold needs the rest mesh: loadDeformHold fills it in.
Result<DeformSettings> deformSettingsFrom(const DeformArgs& args);
Status loadDeformHold(const DeformArgs& args, size_t restVertices, DeformSettings& settings);

// A rest mesh is also looked up in the asset folders (like --mesh), and a
// relative animation pattern whose frames are not found as typed in each of them.
void resolveDeformPaths(std::string& rest, std::string& anim, const std::vector<std::filesystem::path>& assetDirs);

int runDeformCommand(const DeformArgs& args);

}  // namespace tetlab
