#pragma once
// Points a driver's compiler log at the kernel files it came from.
//
// The include expander (cl_program.h) writes `#line N "cl/file.clh"` before
// each file it inlines. Clang-based compilers that honour it (PoCL) already
// print "cl/file.clh:12:3: error"; NVIDIA's OpenCL compiler ignores #line and
// prints "<kernel>:1087:1: error", a line of the expanded text nobody has in
// front of them; other drivers print a temporary file's name. This maps such
// locations back through the #line markers of the source that was built.

#include <string>
#include <string_view>

namespace tetlab {

// Rewrites every log line that starts with "NAME:LINE:" where NAME is not a
// file named by a #line marker of `source`: LINE is read as a line of the
// expanded `source` and replaced by "file:line" from the marker above it.
// Lines already naming a kernel file, and lines outside the source, are kept.
std::string attributeCompilerLog(std::string_view log, std::string_view source);

}  // namespace tetlab
