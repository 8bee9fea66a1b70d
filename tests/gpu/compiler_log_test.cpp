// Compiler logs pointed back at kernel files: pure, with the log formats of
// real drivers (NVIDIA ignores #line and prints "<kernel>:LINE:COL", seen on an
// H100; PoCL honours it; other drivers name a temporary file).
#include <map>

#include <gtest/gtest.h>

#include "gpu/cl/cl_program.h"
#include "gpu/cl/compiler_log.h"

namespace tetlab {
namespace {

// main.cl includes a.clh; the broken statement is line 2 of a.clh, which is
// line 5 of the expanded text (after two #line markers and main's line 1).
std::string expandedSource() {
  std::map<std::string, std::string> files{
      {"cl/main.cl", "// main\n#include \"a.clh\"\nkernel void k() {}\n"},
      {"cl/a.clh", "// a\nthis is not OpenCL C;\n"},
  };
  auto r = expandIncludes("cl/main.cl", [files](const std::string& name) -> Result<std::string> {
    auto it = files.find(name);
    if (it == files.end()) return Error{"no file " + name};
    return it->second;
  });
  EXPECT_TRUE(r.ok());
  return r.ok() ? r->text : std::string();
}

int expandedLineOf(const std::string& source, const std::string& needle) {
  int line = 1;
  for (size_t i = 0; i < source.find(needle); ++i) line += source[i] == '\n';
  return line;
}

TEST(CompilerLog, NvidiaKernelLocationsNameTheIncludedFileAndItsLine) {
  const std::string source = expandedSource();
  const int at = expandedLineOf(source, "this is not");
  ASSERT_EQ(at, 5) << source;
  const std::string log = "<kernel>:" + std::to_string(at) +
                          ":1: error: unknown type name 'this'\nthis is not OpenCL C;\n^\n"
                          "<kernel>:" + std::to_string(at) + ":8: error: expected ';' after top level declarator\n"
                          "2 errors generated.";
  EXPECT_EQ(attributeCompilerLog(log, source),
            "cl/a.clh:2:1: error: unknown type name 'this'\nthis is not OpenCL C;\n^\n"
            "cl/a.clh:2:8: error: expected ';' after top level declarator\n2 errors generated.");
}

TEST(CompilerLog, TemporaryFileNamesAreMappedToo) {
  const std::string source = expandedSource();
  EXPECT_EQ(attributeCompilerLog("/tmp/OCL4242T1.cl:7:14: warning: unused variable\n", source),
            "cl/main.cl:3:14: warning: unused variable\n");
}

TEST(CompilerLog, LocationsThatAlreadyNameAKernelFileAreKept) {
  const std::string source = expandedSource();
  const std::string pocl = "cl/a.clh:2:1: error: unknown type name 'this'";
  EXPECT_EQ(attributeCompilerLog(pocl, source), pocl);
}

TEST(CompilerLog, LinesThatAreNotLocationsOrLieOutsideTheSourceAreKept) {
  const std::string source = expandedSource();
  const std::string log = "1 error generated.\nnote: see 'k'\n<kernel>:999:1: error: past the end\n: 3: odd";
  EXPECT_EQ(attributeCompilerLog(log, source), log);
  EXPECT_EQ(attributeCompilerLog("", source), "");
}

}  // namespace
}  // namespace tetlab
