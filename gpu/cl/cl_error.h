#pragma once
// OpenCL error codes as readable text. The C++ bindings are used WITHOUT
// exceptions (see gpu/CMakeLists.txt): the step loop must not throw, so every
// call returns a cl_int and setup code turns a failure into a tetlab::Error
// that names the call, the code and what to try.
#include <string>
#include <string_view>

#include <CL/opencl.hpp>

#include "core/result.h"

namespace tetlab {

// "CL_OUT_OF_RESOURCES" etc.; "CL error -9999" for codes it does not know.
std::string clErrorName(cl_int code);

// Error{"<what>: <name> (<code>)"}, with a hint for the common codes.
Error clError(std::string_view what, cl_int code);

// Status from a cl_int: Ok on CL_SUCCESS, clError(what, code) otherwise.
Status clCheck(cl_int code, std::string_view what);

}  // namespace tetlab
