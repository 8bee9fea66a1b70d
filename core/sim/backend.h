#pragma once
// Where a simulation runs: the CPU reference or an OpenCL device. Its own
// header so plain data (scene files' compare lanes) can name it without the
// Simulator interface.
#include <cstdint>

namespace tetlab {

enum class Backend : uint8_t { Cpu, OpenCl };

const char* backendName(Backend backend);  // "cpu" | "opencl"

}  // namespace tetlab
