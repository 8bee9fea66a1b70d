#pragma once
// How many tets a body made from a user's OBJ aims for when nobody said: one
// number for the window (--mesh, drag and drop), `tetlab run`, `tetlab
// compare`, `tetlab inspect`, the bench's mesh:FILE scenes and a scene file's
// mesh body without "target_tets", so a headless run tetrahedralizes the mesh
// the window shows. 2000 is the count the window has always used for a dropped
// mesh, and the one the bunny_drop preset asks for. The deformer
// keeps its own (core/deform/deformer.h): it drives an animated surface, not
// a body the user steps.
namespace tetlab {

inline constexpr int kDefaultTargetTets = 2000;

}  // namespace tetlab
