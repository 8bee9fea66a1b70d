#pragma once
// `tetlab deform --region SPEC` (repeatable): a deformer region
// (core/deform/deformer.h DeformRegion) written as semicolon-separated keys,
//
//   box=X0,Y0,Z0,X1,Y1,Z1 (required, rest space [m]); stretch=SX,SY,SZ; shear=XY,XZ,YZ;
//   rest-scale=SX,SY,SZ; axis=X,Y,Z; volume=V; name=NAME
//
// with the same meanings and ranges as the body's flags (--stretch, ...).
// The window prints its regions the same way, so a tuned set can be copied
// into a headless run.
#include <string>

#include "core/deform/deformer.h"
#include "core/result.h"

namespace tetlab {

// Errors say which key is wrong and what it takes.
Result<DeformRegion> parseDeformRegion(const std::string& spec);

// The SPEC of r (parseDeformRegion(deformRegionSpec(r)) gives r back, to float printing).
std::string deformRegionSpec(const DeformRegion& r);

}  // namespace tetlab
